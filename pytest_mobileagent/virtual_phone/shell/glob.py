"""Pathname expansion (globbing) as mksh, Android's /system/bin/sh, does it.

mksh (`eval.c`, `glob()` / `globit()`, and `misc.c`, `gmatchx()`) expands an
unquoted `*`, `?` or `[...]` in a word to the sorted list of existing paths
the pattern matches, one path component at a time:

- `*` matches any string and `?` any one character, never a `/`;
- `[abc]`, `[a-z]` and `[!abc]` match one character of (not of) the set;
  an unclosed `[` is an ordinary character;
- a leading `.` of a name is matched only by a literal `.` (hidden files are
  left out of `*`), and `.` / `..` are never produced by a pattern;
- quoted characters (and backslash-escaped ones) are literal;
- if nothing matches, the word is left as it was (no `nullglob`), so
  `rm /sdcard/Download/*` in an empty folder sees the `*` and says so.

Matches are sorted by byte value (mksh's `xstrcmp`, C locale).  A pattern
part is a list of `(char, active)` pairs: `active` is False for quoted text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..kernel.fs import FsError

if TYPE_CHECKING:
    from ..kernel.fs import VirtualFileSystem

__all__ = ["Pattern", "expand_braces", "expand_pattern", "has_magic", "match_pattern"]

#: A word as characters with a flag saying whether each may act as a glob character.
Pattern = list[tuple[str, bool]]
#: Bound on how many paths one word may expand to (a runaway `/*/*/*`).
MAX_MATCHES = 100_000


def has_magic(pattern: Pattern) -> bool:
    """True if an unquoted `*`, `?` or a closed `[...]` is in the pattern."""
    for i, (c, active) in enumerate(pattern):
        if not active:
            continue
        if c in "*?":
            return True
        if c == "[" and _bracket_end(pattern, i) is not None:
            return True
    return False


def _bracket_end(pattern: Pattern, start: int) -> int | None:
    """Index of the `]` closing the bracket expression at ``start``, or None."""
    i = start + 1
    if i < len(pattern) and pattern[i] == ("!", True):
        i += 1
    if i < len(pattern) and pattern[i][0] == "]":
        i += 1  # a `]` first in the set is a member
    while i < len(pattern):
        c, active = pattern[i]
        if c == "/":
            return None  # a bracket never spans a path separator
        if c == "]" and active:
            return i
        i += 1
    return None


def _to_regex(component: Pattern) -> str:
    out: list[str] = []
    i = 0
    while i < len(component):
        c, active = component[i]
        if active and c == "*":
            out.append(".*")
        elif active and c == "?":
            out.append(".")
        elif active and c == "[" and (end := _bracket_end(component, i)) is not None:
            body = component[i + 1:end]
            negate = bool(body) and body[0] == ("!", True)
            if negate:
                body = body[1:]
            members: list[str] = []
            j = 0
            while j < len(body):
                ch = body[j][0]
                if j + 2 < len(body) and body[j + 1] == ("-", True):
                    members.append(f"{re.escape(ch)}-{re.escape(body[j + 2][0])}")
                    j += 3
                else:
                    members.append(re.escape(ch))
                    j += 1
            out.append(f"[{'^' if negate else ''}{''.join(members)}]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def _compile(key: tuple[tuple[str, bool], ...]) -> re.Pattern:
    return re.compile(_to_regex(list(key)), re.DOTALL)


def match_pattern(pattern: Pattern, text: str) -> bool:
    """Whether ``text`` matches the whole pattern, as a `case` pattern (misc.c gmatchx()): a `/`
    is an ordinary character there, so `*` matches it too."""
    return _compile(tuple(pattern)).fullmatch(text) is not None


def _split(pattern: Pattern) -> list[Pattern]:
    parts: list[Pattern] = [[]]
    for c, active in pattern:
        if c == "/":
            parts.append([])
        else:
            parts[-1].append((c, active))
    return parts


def _text(component: Pattern) -> str:
    return "".join(c for c, _ in component)


def expand_pattern(fs: "VirtualFileSystem", cwd: str, pattern: Pattern) -> list[str]:
    """The paths the pattern matches, sorted; [] if none (the caller keeps the word)."""
    components = _split(pattern)
    absolute = not components[0] and len(components) > 1
    if absolute:
        components = components[1:]
    # (prefix as the user wrote it, whether it names an existing directory)
    candidates = ["/" if absolute else ""]
    for index, component in enumerate(components):
        last = index == len(components) - 1
        following: list[str] = []
        if not component:  # `a//b` or a trailing `/`: keep only directories
            following = [c + "/" if c and not c.endswith("/") else c for c in candidates
                         if fs.isdir(c or ".", cwd)]
            candidates = following
            continue
        if not has_magic(component):
            name = _text(component)
            for prefix in candidates:
                path = _join(prefix, name)
                if (fs.exists(path, cwd) or _is_link(fs, path, cwd)) if last else fs.isdir(path, cwd):
                    following.append(path)
        else:
            regex = _compile(tuple(component))
            dot_ok = component[0][0] == "."  # only a literal leading dot matches hidden names
            for prefix in candidates:
                try:
                    names = fs.listdir(prefix or ".", cwd)
                except FsError:
                    continue  # not a directory, or not readable: no matches there
                for name in sorted(names, key=lambda n: n.encode("utf-8", "surrogateescape")):
                    if name.startswith(".") and not dot_ok:
                        continue
                    if name in (".", "..") or not regex.fullmatch(name):
                        continue
                    path = _join(prefix, name)
                    if last or fs.isdir(path, cwd):
                        following.append(path)
                    if len(following) > MAX_MATCHES:
                        return []
        candidates = following
        if not candidates:
            return []
    return sorted(candidates, key=lambda p: p.encode("utf-8", "surrogateescape"))


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else f"{prefix}/{name}"


def _is_link(fs: "VirtualFileSystem", path: str, cwd: str) -> bool:
    """A dangling symlink still matches (mksh lstat()s the last component)."""
    try:
        fs.stat(path, cwd, follow=False)
        return True
    except FsError:
        return False


# -- brace expansion -----------------------------------------------------------------------
def expand_braces(parts: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """mksh's brace expansion (eval.c alt_expand): `a{b,c}d` -> `abd acd`.

    main.c sets Flag(FBRACEEXPAND) = 1; only builds with MKSH_BINSHPOSIX or
    MKSH_BINSHREDUCED turn it off when the shell is called as `sh`.

    Works on a word's parts (see parser.Word): only unquoted ("bare") `{`, `,`
    and `}` count, a group needs a comma at its own level (`{a}` stays as
    it is), groups nest, and each alternative is expanded again.  Returns
    the parts of each resulting word.
    """
    tokens: list[tuple[str, str]] = []  # (kind, one char) for text, (kind, name) for a variable
    for kind, value in parts:
        if kind in ("lit", "bare"):
            tokens.extend((kind, c) for c in value)
        else:
            tokens.append((kind, value))
    return [_join_tokens(t) for t in _alternatives(tokens)]


def _alternatives(tokens: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    for start, token in enumerate(tokens):
        if token != ("bare", "{"):
            continue
        depth, commas, end = 0, [], None
        for index in range(start, len(tokens)):
            tok = tokens[index]
            if tok == ("bare", "{"):
                depth += 1
            elif tok == ("bare", "}"):
                depth -= 1
                if depth == 0:
                    end = index
                    break
            elif tok == ("bare", ",") and depth == 1:
                commas.append(index)
        if end is None or not commas:
            continue  # unmatched, or no comma: the braces are ordinary characters
        bounds = [start] + commas + [end]
        out: list[list[tuple[str, str]]] = []
        for left, right in zip(bounds, bounds[1:]):
            out += _alternatives(tokens[:start] + tokens[left + 1:right] + tokens[end + 1:])
            if len(out) > MAX_MATCHES:
                raise ValueError("brace expansion too large")
        return out
    return [tokens]


def _join_tokens(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    parts: list[tuple[str, str]] = []
    for kind, value in tokens:
        if kind in ("lit", "bare") and parts and parts[-1][0] == kind:
            parts[-1] = (kind, parts[-1][1] + value)
        else:
            parts.append((kind, value))
    return parts or [("lit", "")]

"""`find` as toybox's (toys/posix/find.c) runs it: paths, then an expression.

The expression language is toybox's: tests ``-name -iname -path -ipath
-type -mindepth -maxdepth -newer -size``, actions ``-print -print0 -prune``,
combined with ``!``/``-not``, ``-a``/``-and`` (or nothing), ``-o``/``-or`` and
parentheses; without an action every match is printed. Like toybox, a
path given on the command line is not followed when it is a symlink
(``-H``/``-L`` follow it), unless it ends in ``/`` (the kernel resolves it
then): ``find /sdcard`` prints only ``/sdcard``, ``find /sdcard/`` walks
shared storage. Errors are toybox's: ``bad arg '-x'``, ``'-name' needs 1
arg``, ``bad -type 'q'``, and ``PATH: No such file or directory`` (exit 1).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import stat as st
from dataclasses import dataclass, field

from ..kernel.fs import FsError, StatResult
from .interpreter import Invocation, UsageError, command

_NO_ARG = {"print", "print0", "prune", "depth", "xdev", "noleaf"}
_ONE_ARG = {"name", "iname", "path", "ipath", "type", "mindepth", "maxdepth", "newer", "size"}
_TYPES = {"b": st.S_IFBLK, "c": st.S_IFCHR, "d": st.S_IFDIR, "l": st.S_IFLNK, "p": st.S_IFIFO,
          "f": st.S_IFREG, "s": st.S_IFSOCK}


@dataclass
class _Entry:
    path: str
    name: str
    depth: int
    info: StatResult
    prune: bool = False


@dataclass
class _Walk:
    printed: list[str] = field(default_factory=list)


class _Expression:
    """The filter words, parsed once and evaluated per entry (recursive descent)."""

    def __init__(self, words: list[str], inv: Invocation):
        self.words = words
        self.inv = inv
        self.has_action = any(w in ("-print", "-print0") for w in words)
        self.newer: dict[int, int] = {}
        self._check()
        self._tree = self._parse()

    def _check(self) -> None:
        depth = 0
        i = 0
        while i < len(self.words):
            word = self.words[i]
            if word == "(":
                depth += 1
            elif word == ")":
                depth -= 1
                if depth < 0:
                    raise UsageError(f"bad arg '{word}'")
            elif word in ("!", "-not", "-a", "-and", "-o", "-or"):
                pass
            elif word.startswith("-") and word[1:] in _NO_ARG:
                pass
            elif word.startswith("-") and word[1:] in _ONE_ARG:
                if i + 1 >= len(self.words):
                    raise UsageError(f"'{word[1:]}' needs 1 arg")
                arg = self.words[i + 1]
                if word == "-type" and arg[:1] not in _TYPES:
                    raise UsageError(f"bad -type '{arg[:1]}'")
                if word in ("-mindepth", "-maxdepth") and not re.fullmatch(r"\d+", arg):
                    raise UsageError(f"not integer: {arg}")
                if word == "-size" and not re.fullmatch(r"[+-]?\d+[ckmgbw]?", arg):
                    raise UsageError(f"{arg} not [+-]N")
                if word == "-newer":
                    try:
                        self.newer[i] = self.inv.fs.stat(arg, self.inv.cwd).mtime
                    except FsError as exc:
                        raise UsageError(f"{arg}: {exc.strerror}") from None
                i += 1
            else:
                raise UsageError(f"bad arg '{word}'")
            i += 1
        if depth:
            raise UsageError("bad arg '('")

    def matches(self, entry: _Entry, walk: _Walk) -> bool:
        return self._tree is None or self._eval(self._tree, entry, walk)

    # -- parsed once into a tree: or := and (-o and)*; and := unary ((-a)? unary)*;
    #    unary := ! unary | ( or ) | primary. Evaluation short-circuits as toybox's does.
    def _parse(self) -> tuple | None:
        self._at = 0
        return self._or() if self.words else None

    def _peek(self) -> str | None:
        return self.words[self._at] if self._at < len(self.words) else None

    def _or(self) -> tuple:
        node = self._and()
        while self._peek() in ("-o", "-or"):
            self._at += 1
            node = ("or", node, self._and())
        return node

    def _and(self) -> tuple:
        node = self._unary()
        while self._peek() not in (None, ")", "-o", "-or"):
            if self._peek() in ("-a", "-and"):
                self._at += 1
            node = ("and", node, self._unary())
        return node

    def _unary(self) -> tuple:
        word = self._peek()
        if word in ("!", "-not"):
            self._at += 1
            return ("not", self._unary())
        if word == "(":
            self._at += 1
            node = self._or()
            self._at += 1  # the ")"
            return node
        at = self._at
        name = self.words[at][1:]
        self._at += 2 if name in _ONE_ARG else 1
        return ("test", name, self.words[at + 1] if name in _ONE_ARG else "", at)

    def _eval(self, node: tuple, entry: _Entry, walk: _Walk) -> bool:
        kind = node[0]
        if kind == "and":
            return self._eval(node[1], entry, walk) and self._eval(node[2], entry, walk)
        if kind == "or":
            return self._eval(node[1], entry, walk) or self._eval(node[2], entry, walk)
        if kind == "not":
            return not self._eval(node[1], entry, walk)
        return self._test(node[1], node[2], node[3], entry, walk)

    def _test(self, word: str, arg: str, at: int, entry: _Entry, walk: _Walk) -> bool:
        if word in ("print", "print0"):
            walk.printed.append(entry.path + ("\n" if word == "print" else "\0"))
            return True
        if word == "prune":
            entry.prune = entry.prune or entry.info.is_dir
            return True
        if word in ("depth", "xdev", "noleaf"):
            return True
        if word in ("name", "iname"):
            name, pattern = entry.name, arg
            if word == "iname":
                name, pattern = name.lower(), pattern.lower()
            return fnmatch.fnmatchcase(name, pattern)
        if word in ("path", "ipath"):
            path, pattern = entry.path, arg
            if word == "ipath":
                path, pattern = path.lower(), pattern.lower()
            return fnmatch.fnmatchcase(path, pattern)
        if word == "type":
            return st.S_IFMT(entry.info.mode) == _TYPES[arg[0]]
        if word == "mindepth":
            return entry.depth >= int(arg)
        if word == "maxdepth":
            if entry.depth >= int(arg):
                entry.prune = True  # toybox stops descending at the bound
            return entry.depth <= int(arg)
        if word == "newer":
            return entry.info.mtime > self.newer[at]
        if word == "size":
            return _compare_size(entry.info.size, arg)
        raise AssertionError(word)  # _check let through only the words above


def _compare_size(size: int, arg: str) -> bool:
    """toybox's compare_numsign(st_size, 512, N): N in 512-byte blocks unless a suffix says
    (``c`` bytes, ``k``/``m``/``g`` binary multiples); ``+N`` more, ``-N`` less."""
    sign = arg[0] if arg[0] in "+-" else ""
    digits = arg[len(sign):]
    unit = {"c": 1, "b": 512, "w": 2, "k": 1024, "m": 1 << 20, "g": 1 << 30}.get(digits[-1], 512)
    wanted = int(digits.rstrip("cbwkmg")) * unit
    return size > wanted if sign == "+" else size < wanted if sign == "-" else size == wanted


@command("find")
def _find(inv: Invocation) -> int:
    args = list(inv.args)
    follow_args = follow_all = False
    while args and args[0] in ("-H", "-L"):
        follow_args = True
        follow_all = follow_all or args[0] == "-L"
        args.pop(0)
    paths: list[str] = []
    while args and args[0][:1] not in ("-", "!", "("):
        paths.append(args.pop(0))
    expression = _Expression(args, inv)
    status = 0
    for top in paths or ["."]:
        try:
            info = inv.fs.stat(top, inv.cwd, follow=follow_args or top.endswith("/"))
        except FsError as exc:
            status = inv.fail(f"{top}: {exc.strerror}")
            continue
        walk = _Walk()
        _visit(inv, expression, walk, _Entry(top, posixpath.basename(top.rstrip("/")) or top, 0, info),
               follow_all)
        inv.out("".join(walk.printed))
    return status


def _visit(inv: Invocation, expression: _Expression, walk: _Walk, entry: _Entry, follow: bool) -> None:
    if expression.matches(entry, walk) and not expression.has_action:
        walk.printed.append(entry.path + "\n")
    if not entry.info.is_dir or entry.prune:
        return
    try:
        children = inv.fs.listdir_stat(entry.path, inv.cwd)
    except FsError as exc:
        inv.fail(f"{entry.path}: {exc.strerror}")
        return
    base = entry.path if entry.path.endswith("/") else entry.path + "/"
    for name, info in children:
        path = base + name
        if follow and st.S_ISLNK(info.mode):
            try:
                info = inv.fs.stat(path, inv.cwd)
            except FsError:
                pass  # a dangling link is listed as the link itself
        _visit(inv, expression, walk, _Entry(path, name, entry.depth + 1, info), follow)

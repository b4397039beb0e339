"""Parse the sh subset adb clients send: quotes, ;, &&, ||, |, redirections, $VAR, ( subshells ).

Deliberately missing: command substitution. `$(...)` and backticks are kept
as literal text, never executed, so text an agent types (`input text
'$(reboot)'`) can only ever be text. Words remember which of their
characters were quoted, because only unquoted `{a,b}`, `*`, `?` and `[...]`
expand (see glob.py).  An unquoted `(` or `)` anywhere
but around a subshell is a syntax error, worded as mksh words it
("syntax error: '(' unexpected"); function definitions are not supported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["AndOr", "Command", "Pipeline", "Redirect", "ShellSyntaxError", "Word", "parse"]

_OPERATOR_CHARS = set(";&|<>()\n")
#: a run of unquoted characters that need no special handling (the common case, read at once)
_PLAIN = re.compile(r"[^ \t\r;&|<>()\n'\"\\$]+")
_BLANK = set(" \t\r")


class ShellSyntaxError(Exception):
    """The command line is not valid sh (message as mksh words it)."""


@dataclass
class Word:
    """A word as a list of parts.

    ("lit", text) is quoted text and ("bare", text) unquoted text; ("var",
    name) is a quoted `$name` and ("bvar", name) an unquoted one.  Only
    the bare kinds may glob.
    """

    parts: list[tuple[str, str]] = field(default_factory=list)

    def literal(self) -> str | None:
        """The text if the word has no expansions (used for assignments)."""
        if all(kind in ("lit", "bare") for kind, _ in self.parts):
            return "".join(v for _, v in self.parts)
        return None


@dataclass
class Redirect:
    fd: int              # the descriptor being redirected
    op: str              # ">", ">>", "<", ">&", "<&"
    target: Word | None  # a file name, or None with dup_fd set
    dup_fd: int | None = None  # for N>&M; -1 means close (N>&-)


@dataclass
class Command:
    assignments: list[tuple[str, Word]]
    words: list[Word]
    redirects: list[Redirect]
    #: `( list )`: and-or lists run in a subshell (then `words` is empty)
    subshell: "list[AndOr] | None" = None


@dataclass
class Pipeline:
    commands: list[Command]
    negate: bool = False


@dataclass
class AndOr:
    """pipeline (( && | || ) pipeline)*: `rest` pairs each op with its pipeline."""

    first: Pipeline
    rest: list[tuple[str, Pipeline]]


class _Lexer:
    def __init__(self, src: str):
        self.src = src
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.src[j] if j < len(self.src) else ""

    def tokens(self) -> list:
        out: list = []
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c in _BLANK:
                self.i += 1
            elif c == "\\" and self.peek(1) == "\n":
                self.i += 2  # line continuation
            elif c == "#":
                while self.i < len(src) and src[self.i] != "\n":
                    self.i += 1
            elif c == "\n" or c == ";":
                out.append(("op", ";"))
                self.i += 1
            elif c == "&":
                if self.peek(1) == "&":
                    out.append(("op", "&&"))
                    self.i += 2
                elif self.peek(1) == ">":  # &>file: stdout and stderr
                    self.i += 2
                    target = self._redirect_target()
                    out.append(("redir", Redirect(1, ">", target)))
                    out.append(("redir", Redirect(2, ">&", None, 1)))
                else:
                    out.append(("op", ";"))  # background jobs run in the foreground
                    self.i += 1
            elif c in "()":
                out.append(("op", c))
                self.i += 1
            elif c == "|":
                if self.peek(1) == "|":
                    out.append(("op", "||"))
                    self.i += 2
                else:
                    out.append(("op", "|"))
                    self.i += 1
            elif c in "<>" or (c.isdigit() and self._digits_then_redirect()):
                out.append(("redir", self._redirect()))
            else:
                out.append(("word", self._word()))
        return out

    def _digits_then_redirect(self) -> bool:
        j = self.i
        while j < len(self.src) and self.src[j].isdigit():
            j += 1
        return j < len(self.src) and self.src[j] in "<>"

    def _redirect(self) -> Redirect:
        start = self.i
        while self.peek().isdigit():
            self.i += 1
        fd_text = self.src[start:self.i]
        c = self.peek()
        self.i += 1
        op = c
        if c == ">" and self.peek() in (">", "|"):
            op = ">>" if self.peek() == ">" else ">"
            self.i += 1
        elif self.peek() == "&":
            op = c + "&"
            self.i += 1
        fd = int(fd_text) if fd_text else (0 if c == "<" else 1)
        if op.endswith("&"):
            while self.peek() in _BLANK and self.peek():
                self.i += 1
            j = self.i
            while self.peek().isdigit():
                self.i += 1
            if self.i > j:
                return Redirect(fd, op, None, int(self.src[j:self.i]))
            if self.peek() == "-":
                self.i += 1
                return Redirect(fd, op, None, -1)
            raise ShellSyntaxError(f"{op}: bad file descriptor")
        return Redirect(fd, op, self._redirect_target())

    def _redirect_target(self) -> Word:
        while self.peek() and self.peek() in _BLANK:
            self.i += 1
        if not self.peek() or self.peek() in _OPERATOR_CHARS:
            unexpected = self.peek().replace("\n", "newline") or "newline"
            raise ShellSyntaxError(f"syntax error: '{unexpected}' unexpected")
        return self._word()

    def _word(self) -> Word:
        parts: list[tuple[str, str]] = []
        lit: list[str] = []
        bare: list[str] = []  # unquoted text; `lit` holds quoted text

        def flush() -> None:
            if lit:
                parts.append(("lit", "".join(lit)))
                lit.clear()
            if bare:
                parts.append(("bare", "".join(bare)))
                bare.clear()

        def add_bare(text: str) -> None:
            if lit:
                flush()
            bare.append(text)

        src = self.src
        quoted_empty = False
        while self.i < len(src):
            c = src[self.i]
            if c in _BLANK or c in _OPERATOR_CHARS:
                break
            if c == "'":
                if bare:
                    flush()
                end = src.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError("no closing quote")
                lit.append(src[self.i + 1:end])
                quoted_empty = True
                self.i = end + 1
            elif c == '"':
                if bare:
                    flush()
                self.i += 1
                quoted_empty = True
                while True:
                    if self.i >= len(src):
                        raise ShellSyntaxError("no closing quote")
                    d = src[self.i]
                    if d == '"':
                        self.i += 1
                        break
                    if d == "\\" and self.peek(1) in ('$', '`', '"', '\\', '\n'):
                        if self.peek(1) != "\n":
                            lit.append(self.peek(1))
                        self.i += 2
                    elif d == "$":
                        self._dollar(lit, parts, flush, quoted=True)
                    else:
                        lit.append(d)
                        self.i += 1
            elif c == "\\":
                nxt = self.peek(1)
                if nxt == "\n":
                    self.i += 2
                elif nxt:
                    if bare:
                        flush()
                    lit.append(nxt)  # an escaped character is quoted
                    self.i += 2
                else:
                    self.i += 1  # a trailing backslash is dropped
            elif c == "$":
                if bare:
                    flush()
                self._dollar(lit, parts, flush)
            else:
                end = _PLAIN.match(src, self.i).end()  # a run of ordinary unquoted characters
                add_bare(src[self.i:end])
                self.i = end
        flush()
        if not parts and quoted_empty:
            parts.append(("lit", ""))
        return Word(parts)

    def _dollar(self, lit: list[str], parts: list, flush, quoted: bool = False) -> None:
        """Handle `$` at self.i: a variable, or a literal dollar sign."""
        nxt = self.peek(1)
        if nxt and (nxt in "?$#!" or nxt.isdigit()):
            flush()
            parts.append(("var" if quoted else "bvar", nxt))
            self.i += 2
        elif nxt == "{":
            end = self.src.find("}", self.i + 2)
            name = self.src[self.i + 2:end] if end > 0 else ""
            if end > 0 and (name.isidentifier() or name in ("?", "$", "#")):
                flush()
                parts.append(("var" if quoted else "bvar", name))
                self.i = end + 1
            else:
                lit.append("$")  # e.g. "${" alone: literal, never evaluated
                self.i += 1
        elif nxt and (nxt.isalpha() or nxt == "_") and nxt.isascii():
            j = self.i + 1
            while j < len(self.src) and (self.src[j].isalnum() or self.src[j] == "_") and self.src[j].isascii():
                j += 1
            flush()
            parts.append(("var" if quoted else "bvar", self.src[self.i + 1:j]))
            self.i = j
        elif nxt == "(" and (end := self._substitution_end(quoted)) is not None:
            # `$(...)`: kept as literal text up to its matching `)`, never run.
            lit.append(self.src[self.i:end])
            self.i = end
        else:
            # `$` at the end, `$%`, an unmatched `$(`...: literal text (no substitution).
            lit.append("$")
            self.i += 1

    def _substitution_end(self, quoted: bool) -> int | None:
        """Where the `$(...)` at self.i ends (after its `)`), or None if it is not closed
        (within the double quotes it stands in, when ``quoted``)."""
        depth, j = 0, self.i + 1
        while j < len(self.src):
            c = self.src[j]
            if quoted and c == '"':
                return None
            depth += {"(": 1, ")": -1}.get(c, 0)
            j += 1
            if depth == 0:
                return j
        return None


def _is_assignment(word: Word) -> tuple[str, Word] | None:
    if not word.parts or word.parts[0][0] != "bare":
        return None
    first = word.parts[0][1]
    name, eq, rest = first.partition("=")
    if not eq or not name.isidentifier() or not name.isascii():
        return None
    value = Word([("bare", rest)] + word.parts[1:]) if rest or len(word.parts) > 1 else Word([("lit", "")])
    return name, value


def parse(src: str) -> list[AndOr]:
    """Parse a command line into and-or lists, in execution order."""
    tokens = _Lexer(src).tokens()
    pos = 0

    def unexpected(tok) -> ShellSyntaxError:
        text = tok[1] if tok[0] == "op" else "word"
        if tok[0] == "word" and tok[1].literal() is not None:
            text = tok[1].literal()
        return ShellSyntaxError(f"syntax error: '{text}' unexpected")

    def parse_command() -> Command | None:
        nonlocal pos
        assignments: list[tuple[str, Word]] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        subshell = None
        if pos < len(tokens) and tokens[pos] == ("op", "("):
            pos += 1
            subshell = parse_list(inner=True)
            pos += 1  # the closing ")"
        while pos < len(tokens) and tokens[pos][0] != "op":
            kind, value = tokens[pos]
            if kind == "redir":
                redirects.append(value)
            elif subshell is not None:
                raise unexpected(tokens[pos])
            elif not words and (assignment := _is_assignment(value)) is not None:
                assignments.append(assignment)
            else:
                words.append(value)
            pos += 1
        if pos < len(tokens) and tokens[pos] == ("op", "("):
            # `name(`: mksh reads a function definition and wants `)` next
            if len(words) == 1 and not (assignments or redirects) and pos + 1 < len(tokens) \
                    and tokens[pos + 1][0] == "word":
                raise unexpected(tokens[pos + 1])
            raise unexpected(tokens[pos])
        if not (assignments or words or redirects or subshell is not None):
            return None
        return Command(assignments, words, redirects, subshell)

    def parse_pipeline() -> Pipeline:
        nonlocal pos
        negate = False
        if pos < len(tokens) and tokens[pos] == ("word", Word([("bare", "!")])):
            negate = True
            pos += 1
        commands = []
        while True:
            cmd = parse_command()
            if cmd is None:
                if pos < len(tokens):
                    raise unexpected(tokens[pos])
                raise ShellSyntaxError("syntax error: unexpected end of input")
            commands.append(cmd)
            if pos < len(tokens) and tokens[pos] == ("op", "|"):
                pos += 1
                continue
            return Pipeline(commands, negate)

    def parse_list(inner: bool) -> list[AndOr]:
        """And-or lists up to the end (or, ``inner``, up to the `)` closing a subshell)."""
        nonlocal pos
        result: list[AndOr] = []
        while pos < len(tokens):
            if tokens[pos] == ("op", ";"):
                pos += 1
                continue
            if tokens[pos] == ("op", ")"):
                if inner and result:
                    return result
                raise unexpected(tokens[pos])
            first = parse_pipeline()
            rest = []
            while pos < len(tokens) and tokens[pos][0] == "op" and tokens[pos][1] in ("&&", "||"):
                op = tokens[pos][1]
                pos += 1
                rest.append((op, parse_pipeline()))
            result.append(AndOr(first, rest))
            if pos < len(tokens):
                if tokens[pos] == ("op", ")") and inner:
                    return result
                if tokens[pos] != ("op", ";"):
                    raise unexpected(tokens[pos])
                pos += 1
        if inner:  # mksh names the opening token it could not match
            raise ShellSyntaxError("syntax error: '(' unmatched")
        return result

    return parse_list(inner=False)

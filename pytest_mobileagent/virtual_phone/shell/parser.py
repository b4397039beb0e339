"""Parse mksh's grammar (Android's /system/bin/sh, mksh R59c) into a tree the interpreter runs.

Simple commands with quotes, redirections and assignments; pipelines, `!`, `&&`, `||`,
`;` and newlines; `( subshells )` and `{ groups; }`; `if`/`elif`/`else`/`fi`,
`while`/`until`/`do`/`done`, `for NAME [in WORDS]; do ...; done`, `case WORD in PAT|PAT) ...;; esac`
(with mksh's `;&` and `;|`), functions (`name() body` and `function name { ...; }`);
`$VAR`, `${VAR}`, `$(...)`, backquotes and `$((...))`.  The productions follow mksh's syn.c
(get_command, c_list, thenpart, elsepart, dogroup, caselist, casepart, function_body) and
its lexer lex.c; syntax errors are worded as syn.c's syntaxerr() words them in R59c
("syntax error: unexpected 'fi'", "syntax error: unmatched 'if'" at the end of input).

Expansions are parsed here and run only by the interpreter, once: what an expansion
produces (a variable's value, a substitution's output, a file name) is never parsed again,
so text typed into an app, or a file's name, can never become a command.  Words remember
which of their characters were quoted, because only unquoted `{a,b}`, `*`, `?` and `[...]`
expand (see glob.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

__all__ = ["AndOr", "Case", "Command", "For", "FunctionDef", "Group", "If", "Loop", "Pipeline", "Redirect",
           "ShellSyntaxError", "Word", "parse", "RESERVED"]

_OPERATOR_CHARS = set(";&|<>()\n")
#: a run of unquoted characters that need no special handling (the common case, read at once)
_PLAIN = re.compile(r"[^ \t\r;&|<>()\n'\"\\$`]+")
_BLANK = set(" \t\r")
#: mksh's reserved words (lex.c tokentab), recognised only where a command starts
RESERVED = frozenset({"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until",
                      "do", "done", "in", "function", "time", "{", "}", "!", "[[", "]]"})


class ShellSyntaxError(Exception):
    """The command line is not valid sh (message as mksh words it)."""


@dataclass
class Word:
    """A word as a list of parts.

    ("lit", text) is quoted text and ("bare", text) unquoted text; ("var", name) is a
    quoted `$name` and ("bvar", name) an unquoted one; ("csub", script) / ("bcsub", script)
    a quoted / unquoted `$(...)` (or backquotes), ("arith", Word) / ("barith", Word) a
    quoted / unquoted `$((...))` whose Word is the expression before expansion.  Only the
    bare kinds and the unquoted expansions may be split and globbed.
    """

    parts: list[tuple[str, object]] = field(default_factory=list)

    def literal(self) -> str | None:
        """The text if the word has no expansions (used for assignments)."""
        if all(kind in ("lit", "bare") for kind, _ in self.parts):
            return "".join(v for _, v in self.parts)
        return None

    def reserved(self) -> str | None:
        """The reserved word this word is, if unquoted and one (`if`, `done`, `{`...)."""
        if len(self.parts) == 1 and self.parts[0][0] == "bare" and self.parts[0][1] in RESERVED:
            return self.parts[0][1]
        return None


@dataclass
class Redirect:
    fd: int              # the descriptor being redirected
    op: str              # ">", ">>", "<", ">&", "<&"
    target: Word | None  # a file name, or None with dup_fd set
    dup_fd: int | None = None  # for N>&M; -1 means close (N>&-)


@dataclass
class If:
    """if/elif branches as (condition, body) pairs, then the else body (None without else)."""

    branches: list[tuple[list["AndOr"], list["AndOr"]]]
    otherwise: list["AndOr"] | None


@dataclass
class Loop:
    """while (until=False) or until (until=True): run body while condition succeeds (fails)."""

    until: bool
    condition: list["AndOr"]
    body: list["AndOr"]


@dataclass
class For:
    name: str
    #: the words after `in`; None without `in` (then the positional parameters)
    items: list[Word] | None
    body: list["AndOr"]


@dataclass
class Case:
    word: Word
    #: (patterns, body, terminator): ";;" ends, ";&" falls through, ";|" tries the next arms
    arms: list[tuple[list[Word], list["AndOr"], str]]


@dataclass
class Group:
    """`{ list; }`: runs in the current shell."""

    body: list["AndOr"]


@dataclass
class FunctionDef:
    name: str
    body: "Command"


Compound = Union[If, Loop, For, Case, Group, FunctionDef]


@dataclass
class Command:
    assignments: list[tuple[str, Word]]
    words: list[Word]
    redirects: list[Redirect]
    #: `( list )`: and-or lists run in a subshell (then `words` is empty)
    subshell: "list[AndOr] | None" = None
    #: a compound command (if, while, for, case, { }, a function definition)
    compound: Compound | None = None


@dataclass
class Pipeline:
    commands: list[Command]
    negate: bool = False


@dataclass
class AndOr:
    """pipeline (( && | || ) pipeline)*: `rest` pairs each op with its pipeline."""

    first: Pipeline
    rest: list[tuple[str, Pipeline]]


# A token: ("word", Word, raw source), ("op", text, text) or ("redir", Redirect, raw source).
Token = tuple


class _Lexer:
    def __init__(self, src: str, start: int = 0):
        self.src = src
        self.i = start
        self._queued: list[Token] = []

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.src[j] if j < len(self.src) else ""

    def next(self) -> Token | None:
        """The next token, or None at the end of the input."""
        if self._queued:
            return self._queued.pop()
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
            else:
                break
        if self.i >= len(src):
            return None
        start = self.i
        c = src[self.i]
        if c == "\n":
            self.i += 1
            return ("op", "\n", "\n")
        if c == ";":
            nxt = self.peek(1)
            op = ";" + nxt if nxt in (";", "&", "|") and nxt else ";"  # ;; ;& ;| end a case arm
            self.i += len(op)
            return ("op", op, op)
        if c == "&":
            if self.peek(1) == "&":
                self.i += 2
                return ("op", "&&", "&&")
            if self.peek(1) == ">":  # &>file: stdout and stderr
                self.i += 2
                target = self._redirect_target()
                self._queued.append(("redir", Redirect(2, ">&", None, 1), src[start:self.i]))
                return ("redir", Redirect(1, ">", target), src[start:self.i])
            self.i += 1
            return ("op", "&", "&")  # a background job runs in the foreground here
        if c in "()":
            self.i += 1
            return ("op", c, c)
        if c == "|":
            op = "||" if self.peek(1) == "|" else "|"
            self.i += len(op)
            return ("op", op, op)
        if c in "<>" or (c.isdigit() and self._digits_then_redirect()):
            return ("redir", self._redirect(), src[start:self.i])
        word = self._word()
        return ("word", word, src[start:self.i])

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
            if not self.peek():
                raise ShellSyntaxError("syntax error: unexpected EOF")
            op = self.peek()
            if op in ";|&" and self.peek(1) == op:
                op += op
            raise ShellSyntaxError(f"syntax error: unexpected '{op}'")
        return self._word()

    def _word(self) -> Word:
        parts: list[tuple[str, object]] = []
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
                    elif d == "`":
                        flush()
                        parts.append(("csub", self._backquoted(in_double_quotes=True)))
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
            elif c == "`":
                flush()
                parts.append(("bcsub", self._backquoted(in_double_quotes=False)))
            else:
                end = _PLAIN.match(src, self.i).end()  # a run of ordinary unquoted characters
                add_bare(src[self.i:end])
                self.i = end
        flush()
        if not parts and quoted_empty:
            parts.append(("lit", ""))
        return Word(parts)

    def _dollar(self, lit: list[str], parts: list, flush, quoted: bool = False) -> None:
        """Handle `$` at self.i: a parameter, a substitution, or a literal dollar sign."""
        nxt = self.peek(1)
        if nxt and (nxt in "?$#!@*" or nxt.isdigit()):
            flush()
            parts.append(("var" if quoted else "bvar", nxt))
            self.i += 2
        elif nxt == "{":
            end = self.src.find("}", self.i + 2)
            name = self.src[self.i + 2:end] if end > 0 else ""
            if end > 0 and (name.isidentifier() or name.isdigit() or name in ("?", "$", "#", "@", "*", "!")):
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
        elif nxt == "(" and self.peek(2) == "(" and (end := self._arithmetic_end()) is not None:
            # `$((expr))` (lex.c: EXPRSUB): the expression is expanded, then evaluated (expr.c)
            flush()
            parts.append(("arith" if quoted else "barith", _expression_word(self.src[self.i + 3:end - 2])))
            self.i = end
        elif nxt == "(":
            # `$(list)` (lex.c: COMSUB, read by yyrecursive): parsed here as a whole command list
            flush()
            parser = _Parser(_Lexer(self.src, self.i + 2), nesting=["("])
            script = parser.parse_list(stop={")"})
            parser.expect_op(")")
            self.i = parser.lexer.i
            parts.append(("csub" if quoted else "bcsub", script))
        else:
            # `$` at the end, `$%`...: literal text
            lit.append("$")
            self.i += 1

    def _arithmetic_end(self) -> int | None:
        """Where the `$((...))` at self.i ends (after its `))`), or None if it is not one."""
        depth, j = 0, self.i + 3
        while j < len(self.src):
            c = self.src[j]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return j + 2 if self.src[j + 1:j + 2] == ")" else None
                depth -= 1
            j += 1
        return None

    def _backquoted(self, in_double_quotes: bool) -> list["AndOr"]:
        """`` `list` ``: backslash quotes $, ` and \\ (and " within double quotes), as lex.c reads it."""
        self.i += 1
        text: list[str] = []
        while True:
            if self.i >= len(self.src):
                raise ShellSyntaxError("no closing quote")
            c = self.src[self.i]
            if c == "`":
                self.i += 1
                break
            if c == "\\" and self.peek(1) and (self.peek(1) in "$`\\" or (in_double_quotes and self.peek(1) == '"')):
                text.append(self.peek(1))
                self.i += 2
            else:
                text.append(c)
                self.i += 1
        return parse("".join(text))


def _expression_word(text: str) -> Word:
    """The text of `$((text))` as a word: parameters and substitutions expand, the rest is kept."""
    lexer = _Lexer(text)
    parts: list[tuple[str, object]] = []
    lit: list[str] = []

    def flush() -> None:
        if lit:
            parts.append(("lit", "".join(lit)))
            lit.clear()

    while lexer.i < len(text):
        c = text[lexer.i]
        if c == "$":
            lexer._dollar(lit, parts, flush, quoted=True)
        elif c == "`":
            flush()
            parts.append(("csub", lexer._backquoted(in_double_quotes=True)))
        elif c == "\\" and lexer.peek(1):
            lit.append(lexer.peek(1))
            lexer.i += 2
        else:
            lit.append(c)
            lexer.i += 1
    flush()
    return Word(parts or [("lit", "")])


def _is_assignment(word: Word) -> tuple[str, Word] | None:
    if not word.parts or word.parts[0][0] != "bare":
        return None
    first = word.parts[0][1]
    name, eq, rest = first.partition("=")
    if not eq or not name.isidentifier() or not name.isascii():
        return None
    value = Word([("bare", rest)] + word.parts[1:]) if rest or len(word.parts) > 1 else Word([("lit", "")])
    return name, value


#: characters mksh never allows in a function's name (syn.c function_body: C_QUOTE|C_SPC|CiQCM)
_BAD_FUNCTION_NAME = re.compile(r"[\s\"$&'();<=>\\`|#*?\[\]/^]")
_CASE_ENDS = (";;", ";&", ";|")


class _Parser:
    """Recursive descent over the lexer's tokens, read one ahead (syn.c's token()/REJECT)."""

    def __init__(self, lexer: _Lexer, nesting: list[str] | None = None):
        self.lexer = lexer
        self._ahead: Token | None = None
        self._has_ahead = False
        #: the compound commands being read (syn.c nesting_push): named when the input ends inside
        self.nesting: list[str] = nesting or []

    # -- tokens ------------------------------------------------------------------------------
    def peek(self) -> Token | None:
        if not self._has_ahead:
            self._ahead = self.lexer.next()
            self._has_ahead = True
        return self._ahead

    def take(self) -> Token | None:
        tok = self.peek()
        self._has_ahead = False
        return tok

    def error(self, tok: Token | None) -> ShellSyntaxError:
        """syn.c syntaxerr(): the unexpected token, or at the end the innermost unmatched one."""
        if tok is None:
            if self.nesting:
                return ShellSyntaxError(f"syntax error: unmatched '{self.nesting[-1]}'")
            return ShellSyntaxError("syntax error: unexpected EOF")
        return ShellSyntaxError(f"syntax error: unexpected '{tok[2]}'")

    @staticmethod
    def _keyword(tok: Token | None) -> str | None:
        return tok[1].reserved() if tok is not None and tok[0] == "word" else None

    def _is_op(self, tok: Token | None, *ops: str) -> bool:
        return tok is not None and tok[0] == "op" and tok[1] in ops

    def expect_op(self, op: str) -> None:
        tok = self.take()
        if not self._is_op(tok, op):
            raise self.error(tok)

    def expect_keyword(self, *words: str) -> str:
        self.skip_newlines()
        tok = self.take()
        keyword = self._keyword(tok)
        if keyword not in words:
            raise self.error(tok)
        return keyword

    def skip_newlines(self) -> None:
        while self._is_op(self.peek(), "\n"):
            self.take()

    # -- lists -------------------------------------------------------------------------------
    def _stops(self, tok: Token | None, stop: set[str]) -> bool:
        if tok is None:
            return True
        if tok[0] == "op":
            return tok[1] in stop
        return self._keyword(tok) in stop

    def parse_list(self, stop: set[str]) -> list[AndOr]:
        """syn.c c_list(): and-or lists separated by `;`, `&` or newlines, up to a token in
        ``stop`` (a closing keyword or `)`), which is left to the caller."""
        result: list[AndOr] = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if self._stops(tok, stop):
                return result
            and_or = self.parse_and_or()
            if and_or is None:
                return result
            result.append(and_or)
            tok = self.peek()
            if self._is_op(tok, ";", "&", "\n"):
                self.take()
                continue
            return result

    def parse_and_or(self) -> AndOr | None:
        first = self.parse_pipeline()
        if first is None:
            return None
        rest = []
        while self._is_op(self.peek(), "&&", "||"):
            op = self.take()[1]
            self.skip_newlines()
            pipeline = self.parse_pipeline()
            if pipeline is None:
                raise self.error(self.peek())
            rest.append((op, pipeline))
        return AndOr(first, rest)

    def parse_pipeline(self) -> Pipeline | None:
        negate = False
        if self._keyword(self.peek()) == "!":
            negate = True
            self.take()
        commands = []
        while True:
            cmd = self.parse_command()
            if cmd is None:
                if negate or commands:
                    raise self.error(self.peek())
                return None
            commands.append(cmd)
            if not self._is_op(self.peek(), "|"):
                return Pipeline(commands, negate)
            self.take()
            self.skip_newlines()

    # -- commands ----------------------------------------------------------------------------
    def parse_command(self) -> Command | None:
        """syn.c get_command(): a simple command, a compound one, or None (nothing here)."""
        tok = self.peek()
        if tok is None:
            return None
        if self._is_op(tok, "("):
            self.take()
            self.nesting.append("(")
            body = self.parse_list(stop={")"})
            self.expect_op(")")
            self.nesting.pop()
            return self._redirected(Command([], [], [], subshell=body))
        keyword = self._keyword(tok)
        if keyword is not None:
            compound = self._compound(keyword)
            if compound is None:
                return None  # a closing word: the caller's list ends here
            return self._redirected(Command([], [], [], compound=compound))
        if tok[0] == "op":
            return None
        return self._simple()

    def _redirected(self, cmd: Command) -> Command:
        while (tok := self.peek()) is not None and tok[0] == "redir":
            cmd.redirects.append(self.take()[1])
        return cmd

    def _simple(self) -> Command:
        assignments: list[tuple[str, Word]] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        while (tok := self.peek()) is not None and tok[0] != "op":
            self.take()
            if tok[0] == "redir":
                redirects.append(tok[1])
            elif not words and (assignment := _is_assignment(tok[1])) is not None:
                assignments.append(assignment)
            else:
                words.append(tok[1])
        if self._is_op(tok, "("):
            # `name()`: a function definition (syn.c get_command, case '(')
            if len(words) != 1 or assignments or redirects:
                raise self.error(tok)
            self.take()
            self.expect_op(")")
            return Command([], [], [], compound=self._function_body(words[0].literal() or "", posix=True))
        return Command(assignments, words, redirects)

    def _compound(self, keyword: str) -> "Compound | None":
        if keyword in ("then", "else", "elif", "fi", "do", "done", "esac", "}", "in", "]]"):
            return None
        if keyword == "!":  # only where a pipeline starts
            raise self.error(self.peek())
        if keyword in ("time", "[[", "select"):
            raise ShellSyntaxError(f"{keyword}: not supported by the virtual phone's shell")
        self.take()
        self.nesting.append(keyword)
        try:
            return getattr(self, "_" + {"{": "group", "function": "function"}.get(keyword, keyword))()
        finally:
            self.nesting.pop()

    def _nonempty(self, stop: set[str]) -> list[AndOr]:
        body = self.parse_list(stop)
        if not body:
            raise self.error(self.peek())
        return body

    def _if(self) -> If:
        # syn.c: the condition may be empty (c_list is not checked), a then- or else-part may not
        branches = []
        while True:
            condition = self.parse_list({"then"})
            self.expect_keyword("then")
            branches.append((condition, self._nonempty({"elif", "else", "fi"})))
            keyword = self.expect_keyword("elif", "else", "fi")
            if keyword == "fi":
                return If(branches, None)
            if keyword == "else":
                otherwise = self._nonempty({"fi"})
                self.expect_keyword("fi")
                return If(branches, otherwise)

    def _while(self, until: bool = False) -> Loop:
        condition = self._nonempty({"do"})
        self.expect_keyword("do")
        body = self._nonempty({"done"})
        self.expect_keyword("done")
        return Loop(until, condition, body)

    def _until(self) -> Loop:
        return self._while(until=True)

    def _for(self) -> For:
        tok = self.take()
        name = tok[1].literal() if tok is not None and tok[0] == "word" else None
        if tok is None or tok[0] != "word":
            raise self.error(tok)
        if not (name and name.isidentifier() and name.isascii()):
            raise ShellSyntaxError("for: bad identifier")  # syn.c: yyerror("%s: bad identifier")
        self.skip_newlines()
        items = None
        if self._keyword(self.peek()) == "in":
            self.take()
            items = []
            while (tok := self.peek()) is not None and tok[0] == "word":
                items.append(self.take()[1])
            if tok is not None and not self._is_op(tok, ";", "\n"):
                raise self.error(tok)
            self.take()
        elif self._is_op(self.peek(), ";"):
            self.take()
        return For(name, items, self._do_group())

    def _do_group(self) -> list[AndOr]:
        """syn.c dogroup(): `do list done`, or `{ list }` for a for loop."""
        opening = self.expect_keyword("do", "{")
        closing = "done" if opening == "do" else "}"
        body = self.parse_list({closing})
        self.expect_keyword(closing)
        return body

    def _case(self) -> Case:
        """syn.c caselist()/casepart(): `case WORD in [(]PAT[|PAT]) list ;; ... esac`."""
        tok = self.take()
        if tok is None or tok[0] != "word":
            raise self.error(tok)
        word = tok[1]
        opening = self.expect_keyword("in", "{")
        closing = "esac" if opening == "in" else "}"
        arms: list[tuple[list[Word], list[AndOr], str]] = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if self._keyword(tok) == closing:
                self.take()
                return Case(word, arms)
            if self._is_op(tok, "("):
                self.take()
            patterns = []
            while True:
                tok = self.take()
                if tok is None or tok[0] != "word" or tok[1].reserved() == closing:
                    raise self.error(tok)
                patterns.append(tok[1])
                if not self._is_op(self.peek(), "|"):
                    break
                self.take()
            self.expect_op(")")
            body = self.parse_list({closing, *_CASE_ENDS})
            tok = self.peek()
            terminator = ";;"
            if self._is_op(tok, *_CASE_ENDS):
                terminator = self.take()[1]
            elif self._keyword(tok) != closing:
                raise self.error(tok)
            arms.append((patterns, body, terminator))

    def _group(self) -> Group:
        body = self.parse_list({"}"})
        self.expect_keyword("}")
        return Group(body)

    def _function(self) -> FunctionDef:
        """`function name { ...; }` (and `function name() { ...; }`, a POSIX function)."""
        tok = self.take()
        if tok is None or tok[0] != "word":
            raise self.error(tok)
        if self._is_op(self.peek(), "("):
            self.take()
            self.expect_op(")")
        self.skip_newlines()
        if self._keyword(self.peek()) != "{":  # syn.c: musthave('{') for a ksh function
            raise self.error(self.peek())
        return self._function_body(tok[1].literal() or "", posix=False)

    def _function_body(self, name: str, posix: bool) -> FunctionDef:
        if not name or _BAD_FUNCTION_NAME.search(name):
            raise ShellSyntaxError(f"{name}: invalid function name")  # sh.h Tinvname
        self.skip_newlines()
        body = self.parse_command()
        if body is None:
            raise self.error(self.peek())
        return FunctionDef(name, body)


def parse(src: str) -> list[AndOr]:
    """Parse a command line into and-or lists, in execution order."""
    parser = _Parser(_Lexer(src))
    script = parser.parse_list(stop=set())
    tok = parser.peek()
    if tok is not None:
        raise parser.error(tok)
    return script

"""`$((expression))` as mksh evaluates it (expr.c, R59c): 32-bit signed integers, C's operators.

mksh's `mksh_ari_t` is `int32_t`, so results wrap (`$((2147483647+1))` is -2147483648);
division truncates toward zero and `%` takes the dividend's sign, as in C. Numbers are
decimal even with a leading 0 (mksh is not in POSIX mode), `0x1F` hexadecimal and `B#N` in
base B. A name is a variable whose value is itself evaluated as an expression (expr.c
intvar()); unset or empty is 0. There is no `**`.  Errors are worded as expr.c evalerr()
words them, after the whole expression: "1/0: zero divisor", "1+: unexpected 'end of
expression'".  Evaluating never runs a command: a variable's text is only ever read as
arithmetic.
"""

from __future__ import annotations

import re
from typing import Callable, MutableMapping

__all__ = ["ArithmeticError_", "evaluate"]

_TOKEN = re.compile(r"\s*(?:(?P<num>[0-9][0-9A-Za-z_#]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<op><<=|>>=|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|[-+*/%<>=!~&^|?:,()]))")
#: binary operators by precedence, loosest first (expr.c's P_* levels below assignment and ?:)
_LEVELS = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="), ("<<", ">>"),
           ("+", "-"), ("*", "/", "%")]
_ASSIGN = ("=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=")
_MAX_DEPTH = 64


class ArithmeticError_(Exception):
    """An expression mksh rejects; the message is what mksh prints after `sh: `."""


def _wrap(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _binary(op: str, a: int, b: int, fail: Callable[[str], Exception]) -> int:
    if op in ("/", "%"):
        if b == 0:
            raise fail("zero divisor")
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return _wrap(quotient if op == "/" else a - quotient * b)
    if op in ("<<", ">>"):
        b &= 31
        return _wrap(a << b if op == "<<" else a >> b)
    return _wrap({
        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "&": lambda: a & b, "|": lambda: a | b,
        "^": lambda: a ^ b, "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
        "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b),
        "&&": lambda: int(bool(a and b)), "||": lambda: int(bool(a or b)),
    }[op]())


class _Evaluator:
    def __init__(self, text: str, variables: MutableMapping[str, str], depth: int, seen: tuple[str, ...]):
        self.text = text
        self.vars = variables
        self.depth = depth
        self.seen = seen
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip():
                    self.tokens.append(("bad", text[pos:].lstrip()[0]))
                break
            kind = m.lastgroup
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
        self.pos = 0

    def fail(self, message: str) -> ArithmeticError_:
        return ArithmeticError_(f"{self.text}: {message}")

    def unexpected(self) -> ArithmeticError_:
        tok = self.peek()
        return self.fail(f"unexpected '{tok[1] if tok else 'end of expression'}'")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def accept(self, *ops: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in ops:
            self.pos += 1
            return tok[1]
        return None

    # Each method returns (value, name-if-lvalue); `live` False skips side effects (short circuit).
    def run(self) -> int:
        if not self.tokens:
            return 0
        value = self.comma(True)[0]
        if self.peek() is not None:
            raise self.unexpected()
        return value

    def comma(self, live: bool) -> tuple[int, str | None]:
        result = self.assignment(live)
        while self.accept(","):
            result = self.assignment(live)
        return result

    def assignment(self, live: bool) -> tuple[int, str | None]:
        value, name = self.ternary(live)
        op = self.accept(*_ASSIGN)
        if op is None:
            return value, name
        if name is None:
            raise self.fail(f"{op} requires lvalue")
        right = self.assignment(live)[0]
        if op != "=":
            right = _binary(op[:-1], value, right, self.fail)
        if live:
            self.vars[name] = str(right)
        return right, None

    def ternary(self, live: bool) -> tuple[int, str | None]:
        condition, name = self.binary(0, live)
        if not self.accept("?"):
            return condition, name
        yes = self.assignment(live and bool(condition))[0]
        if not self.accept(":"):
            raise self.fail("missing :")
        no = self.assignment(live and not condition)[0]
        return (yes if condition else no), None

    def binary(self, level: int, live: bool) -> tuple[int, str | None]:
        if level == len(_LEVELS):
            return self.unary(live)
        left, name = self.binary(level + 1, live)
        while (op := self.accept(*_LEVELS[level])) is not None:
            if op == "&&":
                right = self.binary(level + 1, live and bool(left))[0]
            elif op == "||":
                right = self.binary(level + 1, live and not left)[0]
            else:
                right = self.binary(level + 1, live)[0]
            left, name = (_binary(op, left, right, self.fail) if live or op not in ("/", "%") else 0), None
        return left, name

    def unary(self, live: bool) -> tuple[int, str | None]:
        op = self.accept("+", "-", "!", "~", "++", "--")
        if op is None:
            return self.postfix(live)
        value, name = self.unary(live)
        if op in ("++", "--"):
            if name is None:
                raise self.fail(f"{op} requires lvalue")
            value = _wrap(value + (1 if op == "++" else -1))
            if live:
                self.vars[name] = str(value)
            return value, None
        return {"+": value, "-": _wrap(-value), "!": int(not value), "~": _wrap(~value)}[op], None

    def postfix(self, live: bool) -> tuple[int, str | None]:
        value, name = self.primary(live)
        op = self.accept("++", "--")
        if op is not None:
            if name is None:
                raise self.fail(f"{op} requires lvalue")
            if live:
                self.vars[name] = str(_wrap(value + (1 if op == "++" else -1)))
            return value, None
        return value, name

    def primary(self, live: bool) -> tuple[int, str | None]:
        tok = self.peek()
        if tok is None or tok[0] == "bad":
            raise self.unexpected()
        if tok[0] == "op":
            if tok[1] != "(":
                raise self.unexpected()
            self.pos += 1
            value = self.comma(live)[0]
            if not self.accept(")"):
                raise self.fail("missing )")
            return value, None
        self.pos += 1
        if tok[0] == "num":
            return _number(tok[1], self.fail), None
        return self.variable(tok[1]), tok[1]

    def variable(self, name: str) -> int:
        text = self.vars.get(name, "")
        if not text.strip():
            return 0
        if re.fullmatch(r"\s*-?[0-9]+\s*", text):
            return _wrap(int(text))
        if name in self.seen or self.depth >= _MAX_DEPTH:
            raise self.fail(f"expression recurses on parameter '{name}'")
        return _Evaluator(text, self.vars, self.depth + 1, self.seen + (name,)).run()


def _number(text: str, fail: Callable[[str], Exception]) -> int:
    """misc.c getn()/expr.c: decimal (a leading 0 too), 0x hexadecimal, BASE#DIGITS."""
    try:
        if "#" in text:
            base_text, _, digits = text.partition("#")
            base = int(base_text, 10)
            if not 2 <= base <= 36:
                raise ValueError
            return _wrap(int(digits, base))
        if text[:2].lower() == "0x":
            return _wrap(int(text[2:], 16))
        return _wrap(int(text, 10))
    except ValueError:
        raise fail(f"bad number '{text}'") from None


def evaluate(text: str, variables: MutableMapping[str, str]) -> int:
    """The value of ``text``; assignments in it update ``variables``. Raises ArithmeticError_."""
    return _Evaluator(text, variables, 0, ()).run()

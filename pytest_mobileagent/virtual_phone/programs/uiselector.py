"""`-android uiautomator` locators: UiSelector chains matched against page-source nodes.

The server parses the Java expression (utils/UiSelectorParser.java in
appium-uiautomator2-server): an optional ``new UiSelector()`` followed by
``.method(arg)`` calls whose arguments are string, int or boolean literals;
several expressions may be joined with ``;`` (UiAutomatorParser), their
matches concatenated. UiSelector's matching rules are AndroidX's
(androidx.test.uiautomator.UiSelector): ``text`` is exact, ``textContains`` a
substring, ``textMatches`` a full regex match, ``instance(n)`` the n-th match
in document order, ``index(n)`` the node's index among its siblings.
"""

from __future__ import annotations

import re
from typing import Callable

__all__ = ["UiSelectorSyntaxError", "select"]


class UiSelectorSyntaxError(Exception):
    """The expression is not a UiSelector chain the parser accepts."""


_CONSTRUCTOR = re.compile(r"\s*(?:new\s+)?UiSelector\s*\(\s*\)\s*")
_CALL = re.compile(r"\s*\.\s*([A-Za-z]+)\s*\(\s*(\"(?:[^\"\\]|\\.)*\"|-?\d+|true|false)?\s*\)\s*")

_ATTR = {
    "text": "text", "description": "content-desc", "resourceId": "resource-id", "className": "class",
    "packageName": "package",
}
_BOOL_ATTR = {
    "checkable": "checkable", "checked": "checked", "clickable": "clickable", "enabled": "enabled",
    "focusable": "focusable", "focused": "focused", "longClickable": "long-clickable",
    "scrollable": "scrollable", "selected": "selected",
}


def _predicate(method: str, arg) -> Callable | None:
    for base, attr in _ATTR.items():
        if method == base:
            return lambda n, a=attr: n.get(a, "") == arg
        if method == base + "Contains":
            return lambda n, a=attr: arg in n.get(a, "")
        if method == base + "StartsWith":
            return lambda n, a=attr: n.get(a, "").startswith(arg)
        if method == base + "Matches":
            pattern = re.compile(arg, re.S)
            return lambda n, a=attr: pattern.fullmatch(n.get(a, "")) is not None
    if method in _BOOL_ATTR:
        return lambda n, a=_BOOL_ATTR[method]: (n.get(a) == "true") == arg
    if method == "index":
        return lambda n: n.get("index") == str(arg)
    return None


def _parse(expression: str) -> tuple[list[Callable], int | None]:
    match = _CONSTRUCTOR.match(expression)
    pos = match.end() if match else 0
    if not match and not expression.lstrip().startswith("."):
        expression = "." + expression.lstrip()
    predicates: list[Callable] = []
    instance = None
    while pos < len(expression):
        call = _CALL.match(expression, pos)
        if call is None:
            raise UiSelectorSyntaxError(f"Could not parse UiSelector argument: '{expression[pos:]}' in "
                                        f"'{expression}'")
        method, raw = call.group(1), call.group(2)
        if raw is None:
            raise UiSelectorSyntaxError(f"Missing argument for UiSelector.{method}() in '{expression}'")
        arg = (raw[1:-1].encode().decode("unicode_escape") if raw.startswith('"')
               else raw == "true" if raw in ("true", "false") else int(raw))
        if method == "instance":
            instance = int(arg)
        else:
            predicate = _predicate(method, arg)
            if predicate is None:
                raise UiSelectorSyntaxError(f"UiSelector has no method `{method}` (or it is not supported "
                                            f"here) in '{expression}'")
            predicates.append(predicate)
        pos = call.end()
    return predicates, instance


def select(expression: str, nodes: list, multiple: bool) -> list:
    """The nodes (in document order) that `expression` matches."""
    if not expression.strip():
        raise UiSelectorSyntaxError("Tried to parse an empty string. Expected to see a string consisting "
                                    "of text, resourceId, className, or other UiSelector methods")
    found: list = []
    # `;` joins expressions only outside string literals
    parts = [p for p in re.split(r';(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)', expression) if p.strip()]
    for part in parts:
        predicates, instance = _parse(part.strip())
        matches = [n for n in nodes if all(p(n) for p in predicates)]
        if instance is not None:
            matches = matches[instance:instance + 1]
        found.extend(m for m in matches if m not in found)
    return found

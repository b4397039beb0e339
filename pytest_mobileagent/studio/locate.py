"""Which element a point on the screen is, and the golden selector that finds it again.

A golden action (``g.tap(id="btn_7")``) is resolved by
:meth:`~pytest_mobileagent.judge.Screen.get`: the *first* view, in document
order, that matches every given selector, with short ids completed by the
task's package. :func:`selector_for` picks the simplest selector that is
unique on the screen under exactly those rules (``id``, then ``text``, then
``desc``, then pairs), falling back to one whose first match is the view.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from ..judge import Node

__all__ = ["Selector", "selector_for", "selectors_for", "short_or_full_id", "target_at", "py_str", "scroll_target_at"]

# Tried in this order; the first unique one wins (what a person would write).
_COMBINATIONS: tuple[tuple[str, ...], ...] = (
    ("id",), ("text",), ("desc",), ("id", "text"), ("id", "desc"), ("text", "desc"), ("id", "text", "desc"),
)


@dataclass(frozen=True)
class Selector:
    """Keyword arguments of a golden action (``{"id": "btn_7"}``) and whether only this view matches."""

    fields: tuple[tuple[str, str], ...]
    unique: bool

    @property
    def kwargs(self) -> dict[str, str]:
        return dict(self.fields)

    def code(self, action: str = "tap", *args: str) -> str:
        """``g.tap(id='btn_7')``: the golden action's source."""
        parts = [py_str(a) for a in args] + [f"{k}={py_str(v)}" for k, v in self.fields]
        return f"g.{action}({', '.join(parts)})"


def py_str(text: str) -> str:
    """A double-quoted Python string literal (the project's style); JSON's escapes are Python's too."""
    return json.dumps(text, ensure_ascii=False)


def short_or_full_id(resource_id: str, package: str) -> str:
    """The id as a task writes it: short for the task's own package (``btn_7``), else in full."""
    prefix = f"{package}:id/"
    if package and resource_id.startswith(prefix) and ":" not in resource_id[len(prefix):]:
        return resource_id[len(prefix):]
    return resource_id


def _values(node: Node, package: str) -> dict[str, str]:
    # Empty attributes select nothing useful ("text=''" matches every layout).
    values = {"id": short_or_full_id(node.id, package), "text": node.text, "desc": node.desc}
    if package and ":" not in node.id:
        values["id"] = ""  # Screen.find would complete it with the package: it cannot find this view
    return {k: v for k, v in values.items() if v}


def selectors_for(nodes: Sequence[Node], package: str, *, fields: tuple[str, ...] = ("id", "text", "desc")
                  ) -> list[Selector | None]:
    """The selector of every node (None: nothing finds it), in one pass over the screen.

    ``fields`` limits the selectors tried (``g.type`` takes ``id`` and ``desc`` only).
    """
    combos = [c for c in _COMBINATIONS if set(c) <= set(fields)]
    # For each combination, each value tuple -> the indices of the views it matches.
    # A node matches a selector exactly when its attributes equal the selector's values,
    # which is Screen.find's rule (ids compared after full_id, texts and descs exactly).
    index: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = {c: defaultdict(list) for c in combos}
    raw = [{"id": n.id, "text": n.text, "desc": n.desc} for n in nodes]
    for i, attrs in enumerate(raw):
        for combo in combos:
            index[combo][tuple(attrs[k] for k in combo)].append(i)
    result: list[Selector | None] = []
    for i, node in enumerate(nodes):
        values = _values(node, package)
        first_match: Selector | None = None
        chosen: Selector | None = None
        for combo in combos:
            if not all(k in values for k in combo):
                continue
            matches = index[combo][tuple(raw[i][k] for k in combo)]
            fields_ = tuple((k, values[k]) for k in combo)
            if len(matches) == 1:
                chosen = Selector(fields_, unique=True)
                break
            if first_match is None and matches[0] == i:
                first_match = Selector(fields_, unique=False)
        result.append(chosen or first_match)
    return result


def selector_for(node: Node, nodes: Sequence[Node], package: str,
                 fields: tuple[str, ...] = ("id", "text", "desc")) -> Selector | None:
    """The selector that finds ``node`` among ``nodes`` (see :func:`selectors_for`)."""
    for candidate, selector in zip(nodes, selectors_for(nodes, package, fields=fields)):
        if candidate is node:
            return selector
    raise ValueError(f"{node!r} is not on this screen")


def _contains(bounds: tuple[int, int, int, int], x: int, y: int) -> bool:
    return bounds[0] <= x < bounds[2] and bounds[1] <= y < bounds[3]


def _area(node: Node) -> int:
    x1, y1, x2, y2 = node.bounds
    return max(0, x2 - x1) * max(0, y2 - y1)


def target_at(nodes: Sequence[Node], x: int, y: int, package: str,
              fields: tuple[str, ...] = ("id", "text", "desc")) -> tuple[Node, Selector] | None:
    """The element a tap at (x, y) acts on, and its selector; None when nothing there has one.

    The tap goes to the innermost clickable view under the finger (Android
    dispatches touches to the deepest view that handles them). When that view
    has no selector of its own, a smaller view with one inside it stands in
    for it (a menu row found by its label): tapping the stand-in's centre
    lands on the same clickable view.
    """
    # Innermost first: smaller views, and of views with equal bounds the deeper (later) one.
    under = sorted((n for n in nodes if _contains(n.bounds, x, y)), key=lambda n: (_area(n), -n.depth))
    if not under:
        return None
    selectors = dict(zip(map(id, nodes), selectors_for(nodes, package, fields=fields)))
    control = next((n for n in under if n.clickable or n.long_clickable), None)
    for node in under:
        selector = selectors.get(id(node))
        if selector is None:
            continue
        if control is None or node is control:
            return node, selector
        # A view inside the control whose centre is on it: tapping there is tapping the control.
        if node.depth > control.depth and _inside(node.bounds, control.bounds) \
                and _contains(control.bounds, *node.center):
            return node, selector
        break  # a larger view around the control: its centre may be another control
    if control is not None:
        # The finger is on the control away from its label: the label stands in for it.
        inside = [n for n in nodes if n is not control and _inside(n.bounds, control.bounds)
                  and selectors.get(id(n)) is not None and _contains(control.bounds, *n.center)]
        inside.sort(key=lambda n: not selectors[id(n)].unique)  # unique first, then document order
        if inside:
            return inside[0], selectors[id(inside[0])]
    return None


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def scroll_target_at(nodes: Sequence[Node], x: int, y: int, package: str) -> tuple[Node, Selector] | None:
    """The scrollable view a swipe starting at (x, y) moves, and its selector (None: the screen)."""
    selectors = dict(zip(map(id, nodes), selectors_for(nodes, package)))
    scrollables = sorted((n for n in nodes if n.scrollable and _contains(n.bounds, x, y)),
                         key=lambda n: (_area(n), -n.depth))
    for node in scrollables:
        selector = selectors.get(id(node))
        if selector is not None and selector.unique:
            return node, selector
    return None

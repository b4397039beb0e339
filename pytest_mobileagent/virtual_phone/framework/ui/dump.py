"""`uiautomator dump` XML of a window, in the exact format real devices write.

Attributes and their order follow the real dumper (index, text, resource-id,
class, package, content-desc, checkable, checked, clickable, enabled,
focusable, focused, scrollable, long-clickable, password, selected, bounds),
two-space indentation, self-closing leaves.  ``class`` is the accessibility class
name (accessibility_class.py), not the widget class.  Like the real dumper, views not
visible on screen are skipped and bounds are clipped to what is visible.
`compressed=True` drops layout-only views the way `--compressed` does
(containers not important for accessibility); their children move up.
"""

from __future__ import annotations

from .accessibility_class import accessibility_class_name
from .views import View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n"
FOOTER = "</hierarchy>\n"

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _escape(value: str) -> str:
    if not value:
        return ""
    for ch in value:
        if ch in _ESCAPES or ord(ch) < 0x20:
            break
    else:
        return value
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 and ch not in "\n\t\r":
            out.append("?")  # XmlSerializer rejects control chars; uiautomator replaces them
        elif ch in "\n\t\r":
            out.append(f"&#{ord(ch)};")
        else:
            out.append(ch)
    return "".join(out)


def resource_id(view: View, package: str) -> str:
    """Full resource-id of `view` ("pkg:id/name"), or "" when it has none."""
    if not view.id:
        return ""
    if ":" in view.id:
        return view.id
    return f"{package}:id/{view.id}"


def _b(value: bool) -> str:
    return "true" if value else "false"


def important(view: View) -> bool:
    """Whether `view` counts as important for accessibility (kept by --compressed)."""
    if view.important is not None:
        return view.important
    return bool(
        view.clickable or view.long_clickable or view.focusable or view.scrollable or view.checkable
        or view.dump_text() or view.desc or view.id
        or not view.children  # leaf widgets are real content (images, dividers...)
    )


def _attrs(view: View, index: int, package: str) -> str:
    clip = view.clip
    return (
        f'index="{index}" text="{_escape(view.dump_text())}" resource-id="{resource_id(view, package)}" '
        f'class="{accessibility_class_name(view.class_name, package)}" package="{package}" content-desc="{_escape(view.desc)}" '
        f'checkable="{_b(view.checkable)}" checked="{_b(view.checked)}" clickable="{_b(view.clickable)}" '
        f'enabled="{_b(view.enabled)}" focusable="{_b(view.focusable)}" focused="{_b(view.focused)}" '
        f'scrollable="{_b(view.scrollable)}" long-clickable="{_b(view.long_clickable)}" '
        f'password="{_b(view.password)}" selected="{_b(view.selected)}" '
        f'bounds="[{clip[0]},{clip[1]}][{clip[2]},{clip[3]}]"'
    )


def _shown_children(view: View, compressed: bool) -> list[View]:
    out: list[View] = []
    for child in view.children:
        if not child.visible or child.clip is None:
            continue
        if not child.in_dump or (compressed and not important(child)):
            out.extend(_shown_children(child, compressed))
        else:
            out.append(child)
    return out


def _node(view: View, index: int, package: str, depth: int, compressed: bool, out: list[str]) -> None:
    pad = "  " * depth
    kids = _shown_children(view, compressed)
    if not kids:
        out.append(f"{pad}<node {_attrs(view, index, package)} />\n")
        return
    out.append(f"{pad}<node {_attrs(view, index, package)}>\n")
    for i, child in enumerate(kids):
        _node(child, i, package, depth + 1, compressed, out)
    out.append(f"{pad}</node>\n")


def dump_window(root: View, package: str, compressed: bool = False) -> str:
    """The XML document for one window's view tree."""
    out = [HEADER]
    if root.clip is not None:
        _node(root, 0, package, 1, compressed, out)
    out.append(FOOTER)
    return "".join(out)

"""Small helpers to read `uiautomator dump` XML in tests."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

CALC = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"


def nodes(xml: str | bytes) -> list[dict[str, str]]:
    root = ET.fromstring(xml if isinstance(xml, bytes) else xml.encode("utf-8"))
    return [dict(node.attrib) for node in root.iter("node")]


def find(xml, **criteria) -> dict[str, str] | None:
    """First node whose attributes equal the criteria (use resource_id for resource-id)."""
    wanted = {k.replace("_", "-"): v for k, v in criteria.items()}
    for node in nodes(xml):
        if all(node.get(k) == v for k, v in wanted.items()):
            return node
    return None


def center(node: dict[str, str]) -> tuple[int, int]:
    x1, y1, x2, y2 = map(int, re.findall(r"-?\d+", node["bounds"]))
    return (x1 + x2) // 2, (y1 + y2) // 2


def area(node: dict[str, str]) -> int:
    x1, y1, x2, y2 = map(int, re.findall(r"-?\d+", node["bounds"]))
    return max(0, x2 - x1) * max(0, y2 - y1)


def launch(shell, package: str) -> None:
    """Fresh app data, then start the app from the launcher (through the device's shell)."""
    shell(f"am force-stop {package}")
    shell(f"pm clear {package}")
    shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")


def focus_editor(shell, dump) -> str:
    """Open Notes fresh and focus its largest text field; returns that field's resource-id."""
    launch(shell, NOTES)
    xml = dump()
    edits = [n for n in nodes(xml) if n.get("class") == "android.widget.EditText" and area(n) > 0]
    assert edits, "no text field on the Notes start screen"
    field = max(edits, key=area)
    shell("input tap %d %d" % center(field))
    return field["resource-id"]


def focused_text(xml) -> str | None:
    for node in nodes(xml):
        if node.get("focused") == "true" and node.get("class") == "android.widget.EditText":
            return node.get("text")
    return None

"""Every widget class the phone's code gives a view has an accessibility class name.

``accessibility_class_name`` raises for a library widget it has no cited entry
for, and it is called while a screen is dumped: a view of a class nobody added
would break the dump of the one screen that shows it, which a test may never
visit. So the code is read instead: every ``class_name=...`` keyword in the
virtual phone's modules, a string or a module-level constant, is resolved.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import pytest_mobileagent.virtual_phone as virtual_phone
from pytest_mobileagent.virtual_phone.framework.ui.accessibility_class import (
    R8_RENAMED,
    REPORTED_AS,
    accessibility_class_name,
)

ROOT = Path(virtual_phone.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _named_classes() -> dict[str, list[str]]:
    """Widget class -> where the code names it (``module:line``)."""
    found: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = None
        for node in ast.walk(tree):
            if not isinstance(node, ast.keyword) or node.arg != "class_name":
                continue
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                name = value.value
            elif isinstance(value, ast.Name) and value.id.isupper():
                module = module or importlib.import_module(_module_name(path))
                name = getattr(module, value.id)
            else:
                continue  # a variable passed along (class_name=class_name): its origin is counted there
            found.setdefault(name, []).append(f"{_module_name(path)}:{node.value.lineno}")
    return found


NAMED = _named_classes()


def test_the_scan_finds_the_phone_s_widget_classes():
    # The scan itself can fail: a handful of classes every app uses must be among what it found.
    assert {"android.widget.RelativeLayout", "androidx.constraintlayout.widget.ConstraintLayout",
            "androidx.coordinatorlayout.widget.CoordinatorLayout",
            "com.simplemobiletools.commons.views.MyViewPager"} <= set(NAMED)
    assert len(NAMED) > 30


@pytest.mark.parametrize("widget_class", sorted(NAMED))
def test_every_named_widget_class_has_an_accessibility_class_name(widget_class):
    try:
        reported = accessibility_class_name(widget_class)
    except ValueError as exc:
        pytest.fail(f"{exc}; named at {', '.join(NAMED[widget_class])}")
    assert reported.count(".") >= 1, reported


def test_library_entries_report_a_platform_or_library_class():
    # An entry's target is itself a class a reader can look up: no entry points at another
    # library widget that would need its own entry.
    for widget, reported in REPORTED_AS.items():
        assert reported == widget or reported.startswith(("android.", "androidx.")), (widget, reported)
    for renamed in R8_RENAMED.values():
        assert set(renamed) <= set(REPORTED_AS.values())

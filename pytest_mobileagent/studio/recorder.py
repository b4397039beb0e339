"""Recording a session on the phone as a task module.

Each action the studio sends while recording becomes a golden action that
targets the element under the finger (:mod:`.locate`), as a task author would
write it: ``g.tap(id="btn_7")``, ``g.type("milk", id="note_title")``,
``g.swipe("up", id="list")``, ``g.key("BACK")``, ``g.launch("notes")``.
At Stop, :func:`write_task` renders the module: the ``@task`` with the golden
path, a seed fixture stub, and a judge suggested from what changed between
the first and the last screen and from the app's events. The author edits
the prompt and the judge; the studio's Replay runs it with ``--agent replay``.
"""

from __future__ import annotations

import keyword
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..judge import Node
from ..tasks import APPS
from .locate import py_str, scroll_target_at, selector_for, short_or_full_id, target_at

__all__ = ["Recorder", "RecordedStep", "render_task", "task_filename", "write_task"]

_SHORT_NAMES = {package: short for short, package in APPS.items()}
_TYPABLE_CLASSES = ("EditText", "AutoCompleteTextView", "SearchView")
MAX_TEXT_SUGGESTIONS = 6
# Navigation chrome whose texts come and go with the app's state rather than with the task: a tab
# strip (Notes shows one, with the neighbouring notes' titles, once there are two notes). By class
# (TabLayout, TabWidget, PagerTabStrip, PagerTitleStrip) or by a resource id that names tabs.
_TAB_CLASS = re.compile(r"TabLayout|TabWidget|Pager(?:Tab|Title)Strip")
_TAB_ID = re.compile(r"(?:^|_)tabs?(?:_|$)", re.IGNORECASE)


@dataclass
class RecordedStep:
    """One recorded action: its golden source (``code``) or, when no element could be named, a note."""

    code: str | None
    note: str = ""
    target_node: Node | None = field(default=None, repr=False)
    kind: str = ""


def app_names(package: str) -> tuple[str, str | None]:
    """``@task``'s ``app=`` and, for apps outside the benchmark's ten, ``package=``."""
    if package in _SHORT_NAMES:
        return _SHORT_NAMES[package], None
    return package.rpartition(".")[2] or package, package


class Recorder:
    """Turns the studio's actions into golden actions for one app."""

    def __init__(self, package: str, initial: Sequence[Node]):
        self.package = package
        self.initial = list(initial)
        self.steps: list[RecordedStep] = []
        self.events: list[Any] = []
        self.typed: list[str] = []  # what the person typed: a text of the final screen worth asserting

    # -- actions -------------------------------------------------------------------
    def tap(self, x: int, y: int, nodes: Sequence[Node], *, long: bool = False) -> RecordedStep:
        kind = "long_press" if long else "tap"
        found = target_at(nodes, x, y, self.package)
        if found is None:
            return self._add(RecordedStep(None, f"{kind} at ({x}, {y}): no view there has an id, text or desc",
                                          kind=kind))
        node, selector = found
        return self._add(RecordedStep(selector.code(kind), target_node=node, kind=kind))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, nodes: Sequence[Node]) -> RecordedStep:
        dx, dy = x2 - x1, y2 - y1
        # golden.swipe("up") moves the content up: the finger travels from bottom to top.
        if abs(dy) >= abs(dx):
            direction = "up" if dy < 0 else "down"
        else:
            direction = "left" if dx < 0 else "right"
        found = scroll_target_at(nodes, x1, y1, self.package)
        if found is None:
            return self._add(RecordedStep(f"g.swipe({py_str(direction)})", kind="swipe"))
        node, selector = found
        return self._add(RecordedStep(selector.code("swipe", direction), target_node=node, kind="swipe"))

    def type(self, text: str, nodes: Sequence[Node]) -> RecordedStep:
        """Typing into the focused field; a tap on that field just before becomes part of it
        (``g.type(text, id=...)`` taps the field and replaces its text)."""
        self.typed.append(text)
        field_node = next((n for n in reversed(nodes)
                           if n.focused and any(c in n.cls for c in _TYPABLE_CLASSES)), None)
        selector = selector_for(field_node, nodes, self.package, fields=("id", "desc")) if field_node else None
        if field_node is None or selector is None:
            return self._add(RecordedStep(f"g.type({py_str(text)})", kind="type"))
        last = self.steps[-1] if self.steps else None
        if last is not None and last.kind == "tap" and last.target_node is not None \
                and last.target_node.bounds == field_node.bounds:
            self.steps.pop()
        return self._add(RecordedStep(selector.code("type", text), target_node=field_node, kind="type"))

    def key(self, name: str) -> RecordedStep:
        key = name.upper().removeprefix("KEYCODE_")
        return self._add(RecordedStep(f"g.key({py_str(key)})", kind="key"))

    def launch(self, package: str) -> RecordedStep:
        return self._add(RecordedStep(f"g.launch({py_str(_SHORT_NAMES.get(package, package))})", kind="launch"))

    def add_events(self, events: Sequence[Any]) -> None:
        self.events.extend(e for e in events if getattr(e, "package", "") == self.package)

    def _add(self, step: RecordedStep) -> RecordedStep:
        self.steps.append(step)
        return step

    # -- the judge ---------------------------------------------------------------
    def suggested_assertions(self, final: Sequence[Node]) -> list[str]:
        """Assertions that fail on the first screen and pass on the last one."""
        lines: list[str] = []
        before_by_id = _by_unique_id(self.initial)
        after_by_id = _by_unique_id(final)
        chrome_ids = {final[i].id for i in _in_tab_strips(final)}
        for rid, node in after_by_id.items():
            if node.package != self.package and not rid.startswith("android:"):
                continue
            if rid in chrome_ids and not self._was_typed(node.text):
                continue
            old = before_by_id.get(rid)
            short = short_or_full_id(rid, self.package)
            if node.text and (old is None or old.text != node.text) and len(lines) < MAX_TEXT_SUGGESTIONS:
                lines.append(f"assert screen.text(id={py_str(short)}) == {py_str(node.text)}")
            if node.checkable and (old is None or old.checked != node.checked):
                lines.append(f"assert {'' if node.checked else 'not '}screen.checked(id={py_str(short)})")
        before_texts = {n.text for n in self.initial if n.text}
        chrome = _in_tab_strips(final)
        new_texts = [n.text for i, n in enumerate(final) if n.text and not n.id and n.text not in before_texts
                     and (i not in chrome or self._was_typed(n.text))]
        # What the person typed first: it is what the task is about.
        new_texts.sort(key=lambda text: not self._was_typed(text))
        for text in list(dict.fromkeys(new_texts))[:3]:
            lines.append(f"assert screen.exists(text={py_str(text)})")
        clicks = [e for e in self.events if e.type == "click" and e.id]
        if clicks:
            last = clicks[-1]
            lines.append(f"assert events.clicked(id={py_str(short_or_full_id(last.id, self.package))})")
        return lines


    def _was_typed(self, text: str) -> bool:
        return any(typed.strip() and typed.strip() in text for typed in self.typed)


def _in_tab_strips(nodes: Sequence[Node]) -> set[int]:
    """Indices of the views that are, or lie inside, a tab strip (``nodes`` in dump order, with depths)."""
    inside: set[int] = set()
    strip_depth: int | None = None  # depth of the strip being walked, None outside any
    for index, node in enumerate(nodes):
        if strip_depth is not None and node.depth <= strip_depth:
            strip_depth = None  # back at the strip's level: its subtree is over
        if strip_depth is None and (_TAB_CLASS.search(node.cls) or _TAB_ID.search(node.short_id)):
            strip_depth = node.depth
        if strip_depth is not None:
            inside.add(index)
    return inside


def _by_unique_id(nodes: Sequence[Node]) -> dict[str, Node]:
    seen: dict[str, list[Node]] = {}
    for node in nodes:
        if node.id:
            seen.setdefault(node.id, []).append(node)
    return {rid: group[0] for rid, group in seen.items() if len(group) == 1}


def _identifier(text: str) -> str:
    name = re.sub(r"\W+", "_", text.lower()).strip("_") or "recorded"
    if name[0].isdigit() or keyword.iskeyword(name):
        name = "task_" + name
    return name


def task_filename(name: str) -> str:
    """``test_<name>.py``: pytest collects it."""
    return f"test_{_identifier(name).removeprefix('test_')}.py"


def render_task(recorder: Recorder, *, prompt: str, name: str, final: Sequence[Node]) -> str:
    """The source of a task module for the recorded session."""
    app, package = app_names(recorder.package)
    test_name = "test_" + _identifier(name).removeprefix("test_")
    filename = task_filename(name)
    golden_lines = []
    for step in recorder.steps:
        if step.code is not None:
            golden_lines.append(f"        {step.code},")
        else:
            golden_lines.append(f"        # TODO {step.note}: target it by hand")
    assertions = recorder.suggested_assertions(final)
    uses_events = any("events." in line for line in assertions)
    if not assertions:
        assertions = ['assert False, "describe the finished state here (nothing changed on screen)"']
    params = ", ".join(["seed", "screen"] + (["events"] if uses_events else []))
    package_arg = f"\n    package={py_str(package)}," if package else ""
    body = "\n".join(f"    {line}" for line in assertions)
    return f'''"""Recorded with mobileagent-studio. Edit the prompt and the judge, then check it:

    pytest {filename} --agent replay    # must pass
    pytest {filename} --agent noop      # must fail
"""

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task


@pytest.fixture
def seed(device):
    """The state the task starts from: runs after the app's data is cleared, before the app starts.

    The recording started from a cleared app, so nothing is seeded yet. Add what
    the task needs through what a real device accepts, e.g.
    ``device.shell("content insert --uri ...")`` or ``device.push(path, data)``.
    """


@task(
    app={py_str(app)},{package_arg}
    prompt={py_str(prompt)},
    golden=[
{chr(10).join(golden_lines)}
    ],
)
def {test_name}({params}):
    # Suggested from the recording (what changed on screen, the last control clicked): edit to taste.
{body}
'''


def write_task(path: Path, source: str) -> Path:
    """Write the module, refusing to overwrite an existing file (an author's edits must survive)."""
    if path.suffix != ".py":
        raise ValueError(f"{path}: a task module must be a .py file")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: never an existing file, and never through a symbolic link, dangling or not (open(2)).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        raise ValueError(f"{path} exists already (or is a link): choose another name "
                         "(the studio never overwrites a task)") from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(source)
    return path

"""Benchmark tasks: the ``@task`` decorator, task metadata and golden-path actions.

A task is a test function marked with ``@task(...)``. The decorator does not
raise on a malformed task: it records the problems on the :class:`TaskSpec`
and the plugin turns them into a collection error that names the task, so a
typo in one task reads like any other collection error.

Golden actions (``golden.tap(id="save")``...) target elements, not
coordinates: the ``replay`` agent resolves them on the live screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

import pytest

from .agents.actions import Action
from .device.baseline import storage_folder
from .errors import TaskDefinitionError
from .metrics import TaskRecord

if TYPE_CHECKING:
    from .judge import Node, Screen
    from .options import MobileAgentOptions

__all__ = [
    "APPS",
    "DIFFICULTIES",
    "GoldenAction",
    "MARKER",
    "TaskSpec",
    "difficulty_for",
    "golden",
    "new_task_record",
    "task",
    "task_spec",
]

MARKER = "mobileagent_task"

# Short app names used by tasks -> Android package. The ten Simple Mobile Tools
# apps of MobileAgentBench plus the launcher that hosts them.
APPS: dict[str, str] = {
    "calculator": "com.simplemobiletools.calculator",
    "calendar": "com.simplemobiletools.calendar.pro",
    "contacts": "com.simplemobiletools.contacts.pro",
    "filemanager": "com.simplemobiletools.filemanager.pro",
    "gallery": "com.simplemobiletools.gallery.pro",
    "launcher": "com.simplemobiletools.applauncher",
    "messenger": "com.simplemobiletools.smsmessenger",
    "music": "com.simplemobiletools.musicplayer",
    "notes": "com.simplemobiletools.notes.pro",
    "recorder": "com.simplemobiletools.voicerecorder",
}

DIFFICULTIES = ("easy", "medium", "hard")


def difficulty_for(min_steps: int) -> str:
    """easy <= 2 steps, medium 3-5, hard >= 6."""
    if min_steps <= 2:
        return "easy"
    if min_steps <= 5:
        return "medium"
    return "hard"


# -- golden actions ----------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Selects one element of the screen by short resource-id, text or content-desc."""

    id: str | None = None
    text: str | None = None
    desc: str | None = None

    def __post_init__(self) -> None:
        if self.id is None and self.text is None and self.desc is None:
            raise TaskDefinitionError("a golden action needs id=, text= or desc= to target an element")

    def to_dict(self) -> dict[str, str]:
        return {k: v for k, v in (("id", self.id), ("text", self.text), ("desc", self.desc)) if v is not None}

    def __str__(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())


_SWIPE_DIRECTIONS = ("up", "down", "left", "right")


@dataclass(frozen=True)
class GoldenAction:
    """One step of a task's reference solution, resolved against the live screen."""

    kind: str  # tap, long_press, type, key, swipe, launch, wait, finish
    target: Target | None = None
    text: str | None = None  # text to type, or the key name, or the app name
    direction: str | None = None  # swipe direction
    answer: str | None = None  # finish(answer)

    def __str__(self) -> str:
        parts = [repr(self.text)] if self.text is not None else []
        if self.direction:
            parts.append(repr(self.direction))
        if self.target:
            parts.append(str(self.target))
        if self.answer is not None:
            parts.append(f"answer={self.answer!r}")
        return f"{self.kind}({', '.join(parts)})"

    def resolve(self, screen: "Screen") -> "Action":
        """The concrete :class:`~pytest_mobileagent.agents.actions.Action` on ``screen``.

        Raises LookupError naming the target when it is not on the screen.
        """
        node = self._find(screen) if self.target is not None else None
        target = self.target.to_dict() if self.target else None
        if self.kind == "tap":
            return Action.tap(*node.center, target=target)
        if self.kind == "long_press":
            return Action.long_press(*node.center, target=target)
        if self.kind == "type":
            x, y = node.center if node is not None else (None, None)
            return Action.type(self.text or "", x=x, y=y, target=target)
        if self.kind == "key":
            return Action.key(self.text or "")
        if self.kind == "launch":
            return Action.launch(APPS.get(self.text or "", self.text or ""))
        if self.kind == "wait":
            return Action.wait()
        if self.kind == "finish":
            return Action.finish(self.answer)
        if self.kind == "swipe":
            if node is not None:
                x1, y1, x2, y2 = node.bounds
            else:
                x1, y1, x2, y2 = screen.bounds
            cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
            dx, dy = (x2 - x1) * 3 // 10, (y2 - y1) * 3 // 10
            # "up" moves the content up: the finger travels from bottom to top.
            start, end = {
                "up": ((cx, cy + dy), (cx, cy - dy)),
                "down": ((cx, cy - dy), (cx, cy + dy)),
                "left": ((cx + dx, cy), (cx - dx, cy)),
                "right": ((cx - dx, cy), (cx + dx, cy)),
            }[self.direction or "up"]
            return Action.swipe(*start, *end, target=target)
        raise TaskDefinitionError(f"unknown golden action kind {self.kind!r}")

    def _find(self, screen: "Screen") -> "Node":
        assert self.target is not None
        node = screen.get(id=self.target.id, text=self.target.text, desc=self.target.desc)
        if node is None:
            raise LookupError(f"golden action {self}: no element with {self.target} on the screen")
        return node


class _Golden:
    """Constructors of golden actions: ``golden.tap(id="save")``, ``golden.key("BACK")``..."""

    @staticmethod
    def tap(*, id: str | None = None, text: str | None = None, desc: str | None = None) -> GoldenAction:
        """Tap the centre of the element."""
        return GoldenAction("tap", Target(id, text, desc))

    @staticmethod
    def long_press(*, id: str | None = None, text: str | None = None, desc: str | None = None) -> GoldenAction:
        """Long-press the centre of the element."""
        return GoldenAction("long_press", Target(id, text, desc))

    @staticmethod
    def type(text: str, *, id: str | None = None, desc: str | None = None) -> GoldenAction:
        """Type ``text``; with ``id``/``desc`` the field is tapped first and its text replaced."""
        target = Target(id, None, desc) if (id or desc) else None
        return GoldenAction("type", target, text=text)

    @staticmethod
    def key(name: str) -> GoldenAction:
        """Press a key: ``BACK``, ``HOME``, ``ENTER``... (``KEYCODE_`` prefix optional)."""
        return GoldenAction("key", None, text=name)

    @staticmethod
    def swipe(
        direction: str = "up", *, id: str | None = None, text: str | None = None, desc: str | None = None
    ) -> GoldenAction:
        """Swipe the content of the element (or the screen) ``up``/``down``/``left``/``right``."""
        if direction not in _SWIPE_DIRECTIONS:
            raise TaskDefinitionError(f"swipe direction must be one of {_SWIPE_DIRECTIONS}, not {direction!r}")
        target = Target(id, text, desc) if (id or text or desc) else None
        return GoldenAction("swipe", target, direction=direction)

    @staticmethod
    def launch(app: str) -> GoldenAction:
        """Start an app by short name (``"notes"``) or package."""
        return GoldenAction("launch", None, text=app)

    @staticmethod
    def wait() -> GoldenAction:
        """Do nothing for one step (the UI settles)."""
        return GoldenAction("wait")

    @staticmethod
    def finish(answer: str | None = None) -> GoldenAction:
        """Declare the task done, with an answer for query tasks (not counted as a step)."""
        return GoldenAction("finish", answer=answer)


golden = _Golden()


# -- task metadata -----------------------------------------------------------


@dataclass
class TaskSpec:
    """The metadata of one task, attached to its test function by ``@task``."""

    name: str
    app: str
    package: str
    prompt: str
    golden: tuple[GoldenAction, ...] = ()
    min_steps: int = 0
    min_steps_reason: str | None = None
    difficulty: str = "easy"
    activity: str | None = None  # launch activity; None = the app's launcher activity
    permissions: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    #: further packages whose data the reset clears (system providers such as com.android.providers.contacts)
    clears: tuple[str, ...] = ()
    #: shared-storage folders the task's seed fills (``/sdcard/Download``): emptied before the run's first task
    storage: tuple[str, ...] = ()
    problems: list[str] = field(default_factory=list)
    #: a query task whose answer the LLM judge decides (skipped without ``--llm-judge-url``)
    llm_judge: bool = False
    #: which repetition of the task an episode runs: 0 to K-1 under ``--repeat-tasks K``, else 0. Set on
    #: the copy each episode hands its agent's ``reset(task)``, so a seeded agent can vary per repetition.
    repeat: int = 0

    def max_steps(self, factor: float) -> int:
        """The step budget: ``ceil(factor * min_steps)``, at least one action."""
        return max(1, math.ceil(factor * self.min_steps))

    @property
    def golden_steps(self) -> int:
        """Actions in the golden path (a final ``finish`` is a declaration, not an action)."""
        return sum(1 for action in self.golden if action.kind != "finish")

    def check(self) -> None:
        """Raise :class:`TaskDefinitionError` naming the task and every problem found."""
        if self.problems:
            raise TaskDefinitionError(f"task {self.name}: " + "; ".join(self.problems))


def task(
    *,
    app: str,
    prompt: str = "",
    golden: Sequence[GoldenAction] = (),
    min_steps: int | None = None,
    min_steps_reason: str | None = None,
    difficulty: str | None = None,
    package: str | None = None,
    activity: str | None = None,
    permissions: Sequence[str] = (),
    tags: Sequence[str] = (),
    clears: Sequence[str] = (),
    storage: Sequence[str] = (),
    llm_judge: bool = False,
) -> Callable[[Callable[..., Any]], Any]:
    """Mark a test function as a benchmark task; its body is the judge.

    :param app: short app name (``"notes"``, see :data:`APPS`) or, with ``package``, any name.
    :param prompt: the instruction given to the agent.
    :param golden: the reference solution (element-targeted golden actions).
    :param min_steps: fewest actions that solve the task; defaults to the golden path's length.
        A different value needs ``min_steps_reason``.
    :param difficulty: ``easy``/``medium``/``hard``; derived from ``min_steps`` when omitted.
    :param package: the app's Android package, for apps outside :data:`APPS`.
    :param permissions: runtime permissions granted after the app's data is cleared.
    :param clears: further packages whose data the reset clears with ``pm clear`` before the
        task's setup, e.g. ``com.android.providers.contacts`` for a task that starts from an
        empty address book (the phone's contacts live in that provider, not in the app).
    :param storage: shared-storage folders the task owns (``"/sdcard/Download"``): the run
        empties them before its first task, and every task starts with them as they were then
        (see :mod:`pytest_mobileagent.device.baseline`).
    :param llm_judge: the judge asks the LLM judge (``answer.judged_by_llm(...)``): without
        ``--llm-judge-url`` the task is skipped, saying so.
    """

    def decorate(func: Callable[..., Any]) -> Any:
        name = getattr(func, "__name__", repr(func))
        problems: list[str] = []
        if not isinstance(prompt, str) or not prompt.strip():
            problems.append("no prompt")
        if isinstance(clears, str) or not all(isinstance(c, str) and c for c in clears):
            problems.append(f"clears must be a list of package names, not {clears!r}")
        if isinstance(storage, str) or not all(isinstance(f, str) and f for f in storage):
            problems.append(f"storage must be a list of shared-storage folders, not {storage!r}")
        else:
            for folder in storage:
                try:
                    storage_folder(folder)
                except ValueError as exc:
                    problems.append(str(exc))
        resolved_package = package or APPS.get(app)
        if resolved_package is None:
            problems.append(f"unknown app {app!r} (known: {', '.join(sorted(APPS))}; or pass package=)")
        actions = tuple(golden)
        bad = [a for a in actions if not isinstance(a, GoldenAction)]
        if bad:
            problems.append(f"golden holds {bad[0]!r}, not a golden action (use golden.tap(...) etc.)")
        golden_steps = sum(1 for a in actions if isinstance(a, GoldenAction) and a.kind != "finish")
        steps = min_steps
        if steps is None:
            steps = golden_steps
            if steps == 0:
                problems.append("no golden path and no min_steps")
        elif not isinstance(steps, int) or steps < 1:
            problems.append(f"min_steps must be a positive integer, not {steps!r}")
            steps = max(golden_steps, 1)
        elif actions and steps != golden_steps and not min_steps_reason:
            problems.append(
                f"min_steps={steps} but the golden path has {golden_steps} actions "
                "(fix one, or give min_steps_reason=)"
            )
        level = difficulty or difficulty_for(steps)
        if level not in DIFFICULTIES:
            problems.append(f"difficulty {level!r} is not one of {', '.join(DIFFICULTIES)}")
        spec = TaskSpec(
            name=name,
            app=app,
            package=resolved_package or "",
            prompt=prompt if isinstance(prompt, str) else "",
            golden=actions,
            min_steps=steps,
            min_steps_reason=min_steps_reason,
            difficulty=level,
            activity=activity,
            permissions=tuple(permissions),
            tags=tuple(tags),
            clears=tuple(clears),
            storage=tuple(storage) if not isinstance(storage, str) else (),
            problems=problems,
            llm_judge=bool(llm_judge),
        )
        return getattr(pytest.mark, MARKER)(spec)(func)

    return decorate


def task_spec(item: pytest.Item) -> TaskSpec | None:
    """The :class:`TaskSpec` of a collected test item, or None for ordinary tests."""
    marker = item.get_closest_marker(MARKER)
    if marker is None or not marker.args or not isinstance(marker.args[0], TaskSpec):
        return None
    return marker.args[0]


def new_task_record(spec: "TaskSpec", nodeid: str, options: "MobileAgentOptions", repeat: int = 0) -> TaskRecord:
    """The record of a task before anything ran (the episode fills it in)."""
    return TaskRecord(
        nodeid=nodeid,
        task=spec.name,
        app=spec.app,
        prompt=spec.prompt,
        difficulty=spec.difficulty,
        min_steps=spec.min_steps,
        max_steps=spec.max_steps(options.max_steps_factor),
        agent=options.agent,
        repeat=repeat,
        expected_answer=next((a.answer for a in reversed(spec.golden) if a.kind == "finish"), None),
    )

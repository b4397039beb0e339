"""The actions an agent takes and the observations it receives."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["ACTION_TYPES", "Action", "Observation"]

ACTION_TYPES = ("tap", "long_press", "swipe", "type", "key", "launch", "wait", "finish")


@dataclass(frozen=True)
class Action:
    """One agent action in screen coordinates; build it with the class methods.

    ``type`` with ``x``/``y`` taps that point first to focus the field and
    replaces its text: typing into a named field is one step, as in
    AndroidLab's action space. Without ``x``/``y`` the text goes to the
    focused field at its cursor.
    ``finish`` declares the task done and is not counted as a step.
    """

    type: str
    x: int | None = None
    y: int | None = None
    x2: int | None = None
    y2: int | None = None
    text: str | None = None  # text to type, key name, or package to launch
    duration_ms: int | None = None
    answer: str | None = None
    target: dict[str, str] | None = field(default=None, compare=False)  # what a golden action aimed at

    def __post_init__(self) -> None:
        if self.type not in ACTION_TYPES:
            raise ValueError(f"unknown action type {self.type!r} (expected one of {', '.join(ACTION_TYPES)})")

    @classmethod
    def tap(cls, x: int, y: int, *, target: dict[str, str] | None = None) -> "Action":
        return cls("tap", int(x), int(y), target=target)

    @classmethod
    def long_press(cls, x: int, y: int, duration_ms: int = 1000, *, target: dict[str, str] | None = None) -> "Action":
        return cls("long_press", int(x), int(y), duration_ms=duration_ms, target=target)

    @classmethod
    def swipe(
        cls, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300, *, target: dict[str, str] | None = None
    ) -> "Action":
        return cls("swipe", int(x1), int(y1), int(x2), int(y2), duration_ms=duration_ms, target=target)

    @classmethod
    def type(  # noqa: A003 - the action's name
        cls, text: str, *, x: int | None = None, y: int | None = None, target: dict[str, str] | None = None
    ) -> "Action":
        return cls("type", x, y, text=text, target=target)

    @classmethod
    def key(cls, name: str) -> "Action":
        return cls("key", text=name)

    @classmethod
    def launch(cls, package: str) -> "Action":
        return cls("launch", text=package)

    @classmethod
    def wait(cls) -> "Action":
        return cls("wait")

    @classmethod
    def finish(cls, answer: str | None = None) -> "Action":
        return cls("finish", answer=answer)

    def to_dict(self) -> dict[str, Any]:
        """The non-empty fields, as recorded in the trajectory."""
        data: dict[str, Any] = {"type": self.type}
        for name in ("x", "y", "x2", "y2", "text", "duration_ms", "answer", "target"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Action":
        known = {"type", "x", "y", "x2", "y2", "text", "duration_ms", "answer", "target"}
        return cls(**{k: v for k, v in data.items() if k in known})


class Observation:
    """What a step agent sees before each action.

    ``screenshot`` (PNG bytes) is taken when first read: agents that work from
    the view hierarchy alone do not pay for rendering it.
    """

    def __init__(
        self,
        prompt: str,
        screenshot: "bytes | Callable[[], bytes]",
        hierarchy: str,
        step: int,
        remaining_steps: int,
        app: str,
        task: str = "",
    ):
        self.prompt = prompt
        self.hierarchy = hierarchy  # uiautomator dump XML
        self.step = step  # 0-based index of the action about to be taken
        self.remaining_steps = remaining_steps  # actions left in the budget, this one included
        self.app = app  # package in the foreground
        self.task = task  # the task's name
        self._screenshot = screenshot

    @property
    def screenshot(self) -> bytes:
        if callable(self._screenshot):
            self._screenshot = self._screenshot()
        return self._screenshot

    def __repr__(self) -> str:
        return f"<Observation step={self.step} remaining={self.remaining_steps} app={self.app}>"

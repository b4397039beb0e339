"""The two ways an agent can act, as protocols, and what the harness gives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .actions import Action, Observation

if TYPE_CHECKING:
    from ..tasks import TaskSpec

__all__ = ["Agent", "AgentContext", "DriverAgent", "Session", "StepAgent"]


@dataclass
class AgentContext:
    """Given to an agent factory once per worker session."""

    name: str
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)  # free-form, from plugins
    config: Any = None  # the pytest Config (None outside pytest)


@runtime_checkable
class StepAgent(Protocol):
    """An agent the harness drives: it returns one action per observation.

    May also define ``reset(task: TaskSpec) -> None``, called before each
    episode, and ``usage() -> (tokens_in, tokens_out)`` for the last step.
    """

    def step(self, observation: Observation) -> Action: ...


@runtime_checkable
class Session(Protocol):
    """What a driver agent reports to while it drives the device itself."""

    prompt: str
    serial: str

    def before_action(self) -> None: ...

    def after_action(
        self,
        action: Any,
        llm_input: str | None = None,
        llm_output: str | None = None,
        tokens_in: int | None = None,
        tokens_out: int | None = None,
    ) -> bool: ...


@runtime_checkable
class DriverAgent(Protocol):
    """An existing agent that drives the device through adb on its own.

    ``run`` calls ``session.before_action()`` before and
    ``session.after_action(action, ...)`` after every action, stops when that
    returns True, and returns (optionally the answer of a query task) when it
    thinks the task is done.
    """

    def run(self, prompt: str, session: Session) -> str | None: ...


Agent = StepAgent | DriverAgent


def agent_kind(agent: Any) -> str:
    """``"step"`` or ``"driver"``; TypeError for anything else."""
    if callable(getattr(agent, "step", None)):
        return "step"
    if callable(getattr(agent, "run", None)):
        return "driver"
    raise TypeError(f"{agent!r} is not an agent: it has neither step(observation) nor run(prompt, session)")


def reset_agent(agent: Any, task: "TaskSpec") -> None:
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(task)

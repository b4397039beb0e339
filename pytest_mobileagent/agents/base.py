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
    episode (``task.repeat``: which repetition of the task it is, 0 to K-1
    under ``--repeat-tasks K``; a seeded agent mixes it into its seed), and
    set ``last_usage`` in each ``step`` to what the step cost:
    ``{"tokens_in": .., "tokens_out": .., "llm_input": .., "llm_output": ..}``,
    read after every step, the one that returns ``Action.finish`` too (its
    turn is no step, but its time and tokens count). An exception ``step``
    raises may carry the failed turn's cost as ``usage``, a dict of the same keys.
    """

    def step(self, observation: Observation) -> Action: ...


@runtime_checkable
class Session(Protocol):
    """What a driver agent reports to while it drives the device itself.

    ``prompt``: the task's instruction; ``task``: the task's name; ``serial``:
    the device for the agent's own adb client, on the adb server ``adb_server``
    (host, port: another machine's under ``--adb-server``); ``device``: the harness's
    ``Device`` on it; ``max_steps``: the step budget; ``steps_taken`` and
    ``remaining_steps``: actions recorded so far and left.  Call
    ``before_action()`` before observing the screen for the next action and
    ``after_action(action, ...)`` once it is carried out, or with
    ``Action.finish(answer)`` when the agent is done (the episode's
    ``DriverSession`` documents both in full).
    """

    prompt: str
    task: str
    serial: str
    adb_server: "tuple[str, int] | None"  # (host, port) of the adb server that owns the device
    device: Any
    max_steps: int

    @property
    def steps_taken(self) -> int: ...

    @property
    def remaining_steps(self) -> int: ...

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

    May also define ``reset(task: TaskSpec) -> None``, called before each
    episode's ``run`` as for step agents (``task.name``, ``.app``,
    ``.package``, ``.prompt``, ``.golden``, ``.min_steps``, ``.difficulty``,
    ``.repeat``: which repetition under ``--repeat-tasks``; ``.suite``, and a
    family instance's drawn ``.params``, whose prompt and golden path are filled in).
    ``run`` calls ``session.before_action()`` before it observes the screen
    for an action and ``session.after_action(action, ...)`` once the action is
    done, stops when that returns True, and returns (optionally the answer of
    a query task) when it thinks the task is done, after reporting the turn
    that decided so with ``session.after_action(Action.finish(answer), ...)``
    if that turn cost tokens. An exception ``run`` raises may carry its last
    turn's cost as ``usage`` (a dict: ``tokens_in``, ``tokens_out``,
    ``llm_input``, ``llm_output``).
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

"""The built-in agents: ``replay`` (golden path), ``noop``, ``random`` and ``mobileagent`` (an LLM)."""

from __future__ import annotations

import random
import zlib
from typing import TYPE_CHECKING

from ..judge import Screen, parse_hierarchy
from .actions import Action, Observation
from .base import AgentContext
from .mobileagent import MobileAgent

if TYPE_CHECKING:
    from ..tasks import TaskSpec

__all__ = ["NoopAgent", "RandomAgent", "ReplayAgent", "register_builtins"]


class ReplayAgent:
    """Replays the task's golden path, resolving each action on the live screen."""

    def __init__(self, context: AgentContext | None = None, *, drop_last: bool = False):
        self.drop_last = drop_last
        self._actions: list = []
        self._package = ""

    def reset(self, task: "TaskSpec") -> None:
        actions = [a for a in task.golden if a.kind != "finish"]
        finish = [a for a in task.golden if a.kind == "finish"]
        if self.drop_last and actions:
            actions.pop()
        self._actions = actions + finish
        self._package = task.package

    def step(self, observation: Observation) -> Action:
        if not self._actions:
            return Action.finish()
        golden = self._actions.pop(0)
        screen = Screen(self._package)
        screen.update(observation.hierarchy)
        return golden.resolve(screen)


class NoopAgent:
    """Declares the task done at once (every task must fail with it)."""

    def __init__(self, context: AgentContext | None = None):
        pass

    def step(self, observation: Observation) -> Action:
        return Action.finish()


class RandomAgent:
    """Taps a random clickable element of the live screen; never declares done.

    Seeded by ``--agent-seed``, the task name and the repetition
    (``task.repeat``, under ``--repeat-tasks``): a run is reproducible, tasks
    do not share one random sequence, and the K runs of a task are K
    trajectories, not one repeated (else pass^k would always equal pass@k).
    """

    def __init__(self, context: AgentContext | None = None):
        self.seed = context.seed if context is not None else 0
        self._rng = random.Random(self.seed)

    def reset(self, task: "TaskSpec") -> None:
        # The first run of a task keeps the sequence earlier releases drew (crc32: the same in every
        # process, unlike hash()), so results of runs without --repeat-tasks stay comparable; each
        # further repetition draws its own (a string seed goes through SHA-512).
        if task.repeat == 0:
            self._rng = random.Random(self.seed * 1_000_003 + zlib.crc32(task.name.encode()))
        else:
            self._rng = random.Random(f"{self.seed}:{task.name}:{task.repeat}")

    def step(self, observation: Observation) -> Action:
        candidates = [
            n for n in parse_hierarchy(observation.hierarchy)
            if n.clickable and n.enabled and n.bounds[2] > n.bounds[0] and n.bounds[3] > n.bounds[1]
        ]
        if not candidates or self._rng.random() < 0.05:
            return Action.key("BACK")
        node = self._rng.choice(candidates)
        target = {"id": node.short_id} if node.id else {"text": node.text} if node.text else None
        return Action.tap(*node.center, target=target)


def register_builtins(registry) -> None:
    registry.register("mobileagent", MobileAgent)
    registry.register("noop", NoopAgent)
    registry.register("random", RandomAgent)
    registry.register("replay", ReplayAgent)

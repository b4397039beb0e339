"""Agents by name: built-ins, the ``pytest_mobileagent_register_agents`` hook and entry points."""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any, Callable

from .base import AgentContext

__all__ = ["ENTRY_POINT_GROUP", "AgentFactory", "AgentRegistry", "UnknownAgentError"]

ENTRY_POINT_GROUP = "pytest_mobileagent.agents"

AgentFactory = Callable[[AgentContext], Any]


class UnknownAgentError(LookupError):
    """No agent is registered under the requested name."""

    def __init__(self, name: str, available: list[str]):
        self.name, self.available = name, available
        super().__init__(f"unknown agent {name!r}; available agents: {', '.join(available) or '(none)'}")


class AgentRegistry:
    """Maps agent names to factories ``factory(context) -> agent``.

    Entry points of the group ``pytest_mobileagent.agents`` are listed by
    name and imported only when chosen, so a broken third-party agent does not
    break runs of other agents.
    """

    def __init__(self) -> None:
        self._factories: dict[str, AgentFactory] = {}
        self._entry_points: dict[str, Any] = {}

    def register(self, name: str, factory: AgentFactory, *, replace: bool = False) -> None:
        """Add an agent; ``factory`` may be a class taking an :class:`AgentContext`."""
        if not name or not isinstance(name, str):
            raise ValueError(f"agent name must be a non-empty string, not {name!r}")
        if not callable(factory):
            raise TypeError(f"agent {name!r}: factory {factory!r} is not callable")
        if name in self._factories and not replace:
            raise ValueError(f"agent {name!r} is already registered")
        self._factories[name] = factory

    def load_entry_points(self) -> None:
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name not in self._factories:
                self._entry_points.setdefault(ep.name, ep)

    def names(self) -> list[str]:
        return sorted(set(self._factories) | set(self._entry_points))

    def __contains__(self, name: object) -> bool:
        return name in self._factories or name in self._entry_points

    def factory(self, name: str) -> AgentFactory:
        if name in self._factories:
            return self._factories[name]
        if name in self._entry_points:
            factory = self._entry_points[name].load()
            self._factories[name] = factory
            return factory
        raise UnknownAgentError(name, self.names())

    def create(self, name: str, context: AgentContext) -> Any:
        return self.factory(name)(context)

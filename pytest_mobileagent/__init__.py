"""pytest-mobileagent: benchmark tasks for mobile LLM agents as pytest tests.

Write a task as a test function marked with :func:`task`; its body asserts on
the live :class:`Screen`, :class:`Events`, :class:`Progress` and
:class:`Answer`. Device and agent types are imported lazily so that loading
the plugin stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .agents import Action, AgentContext, AgentRegistry, DriverAgent, Observation, Session, StepAgent
from .judge import Answer, Events, Progress, Screen
from .tasks import GoldenAction, TaskSpec, golden, task

if TYPE_CHECKING:
    from .device import Device

__version__ = "0.1.0"

__all__ = [
    "Action",
    "AgentContext",
    "AgentRegistry",
    "Answer",
    "Device",
    "DriverAgent",
    "Events",
    "GoldenAction",
    "Observation",
    "Progress",
    "Screen",
    "Session",
    "StepAgent",
    "TaskSpec",
    "golden",
    "task",
]


def __getattr__(name: str) -> Any:
    # Device pulls in adbutils: import it only when someone asks for it.
    if name == "Device":
        from .device import Device

        return Device
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""pytest-mobileagent: benchmark tasks for mobile LLM agents as pytest tests.

Write a task as a test function marked with :func:`task`; its body asserts on
the live :class:`Screen`, :class:`Events`, :class:`Progress` and
:class:`Answer`.
"""

from __future__ import annotations

from .agents import Action, AgentContext, AgentRegistry, DriverAgent, Observation, Session, StepAgent
from .device import Device
from .judge import Answer, Events, Progress, Screen
from .params import Params
from .tasks import GoldenAction, TaskSpec, golden, task
from .version import __version__  # noqa: F401 - pytest_mobileagent.__version__

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
    "Params",
    "Progress",
    "Screen",
    "Session",
    "StepAgent",
    "TaskSpec",
    "golden",
    "task",
]


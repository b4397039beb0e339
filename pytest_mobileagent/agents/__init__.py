"""Agents: the step and driver protocols, the action model, the registry, built-ins."""

from .actions import Action, Observation
from .base import Agent, AgentContext, DriverAgent, Session, StepAgent
from .registry import ENTRY_POINT_GROUP, AgentRegistry, UnknownAgentError

__all__ = [
    "ENTRY_POINT_GROUP",
    "Action",
    "Agent",
    "AgentContext",
    "AgentRegistry",
    "DriverAgent",
    "Observation",
    "Session",
    "StepAgent",
    "UnknownAgentError",
]

"""Exceptions raised by pytest-mobileagent.

Infrastructure faults (a lost device, an adb error, a timeout) have their own
branch so the episode engine can report them as pytest *errors* rather than as
task *failures*: a broken phone says nothing about the agent.
"""

__all__ = [
    "AdbCommandError",
    "DeviceLostError",
    "InfrastructureError",
    "InfrastructureTimeout",
    "ListenerLostError",
    "MalformedEventError",
    "MobileAgentError",
    "TaskDefinitionError",
]


class MobileAgentError(Exception):
    """Base class of every error this project raises."""


class TaskDefinitionError(MobileAgentError):
    """A task is malformed (no prompt, unknown app, inconsistent golden path...)."""


class MalformedEventError(MobileAgentError, ValueError):
    """An event line or POST body could not be understood."""


class InfrastructureError(MobileAgentError):
    """The harness, not the agent, failed: reported as a test error."""


class DeviceLostError(InfrastructureError):
    """The device went away (adb transport closed, device offline)."""


class ListenerLostError(InfrastructureError):
    """The listener answered at the start of the run and does not any more (its device does)."""


class AdbCommandError(InfrastructureError):
    """adb refused or failed a command."""


class InfrastructureTimeout(InfrastructureError, TimeoutError):
    """A device operation did not complete within its bound."""

"""Agent failures in a few lines: what happened, and where in the agent's own code.

An agent's exception usually arrives with a deep traceback: the harness's
frames, then the agent's, then its libraries' (an HTTP client's retries, a
timeout inside the socket layer), often chained. At pytest's default
verbosity and traceback style the failure shows instead one line, the
exception and its message (an :class:`~..agents.mobileagent.LLMEndpointError`
names the status code or the timeout and the endpoint's message), and the
agent's own frames: those under the directory of the agent's method the
harness called (``step`` or ``run``). ``-v`` or ``--tb=long`` (or any
``--tb`` style chosen) shows pytest's full report.
"""

from __future__ import annotations

import traceback
from pathlib import Path

from .. import agent_clock

__all__ = ["MAX_FRAMES", "short_agent_failure", "wants_short_failures"]

#: The agent's innermost frames shown (the ones nearest the error).
MAX_FRAMES = 5
_CLOCK_FILE = str(Path(agent_clock.__file__).resolve())


def wants_short_failures(config) -> bool:
    """Default verbosity and traceback style: the user asked for nothing longer."""
    return config.option.verbose <= 0 and getattr(config.option, "tbstyle", "auto") == "auto"


def _agent_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The frames below the harness's call into the agent that lie in the agent's directory."""
    frames = traceback.extract_tb(exc.__traceback__)
    for index, frame in enumerate(frames):
        if frame.name == "call" and str(Path(frame.filename).resolve()) == _CLOCK_FILE:
            inside = frames[index + 1:]
            if not inside:
                return []
            home = Path(inside[0].filename).resolve().parent
            return [f for f in inside if Path(f.filename).resolve().is_relative_to(home)]
    return []


def short_agent_failure(exc: BaseException) -> str:
    """The agent's failure: one line, then the agent's own frames (where its code was)."""
    message = " ".join(str(exc).split()) or "(no message)"
    lines = [f"agent error: {type(exc).__name__}: {message[:500]}"]
    frames: list[traceback.FrameSummary] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and not frames:
        seen.add(id(current))
        frames = _agent_frames(current)  # an AgentTimeout's are in its cause, where the agent was stopped
        current = current.__cause__ or current.__context__
    for frame in frames[-MAX_FRAMES:]:
        lines.append(f"  {frame.filename}:{frame.lineno} in {frame.name}")
        if frame.line:
            lines.append(f"    {frame.line.strip()}")
    lines.append("(the whole traceback: -v or --tb=long)")
    return "\n".join(lines)

"""Task failures in a line: what the judge said, or what happened to the agent and where.

A benchmark run fails many tasks, each for its own reason, and a person reads
the reasons, not the harness's frames. At pytest's default verbosity and
traceback style (the user asked for nothing else):

* a task the agent did not do shows the judge's assertion message, where in
  the task file it failed and how the episode ended, in one line, followed by
  a line per likely mistake of the judge's (:meth:`~..judge.Lookups.hints`);
* an agent's exception, which usually arrives with a deep traceback (the
  harness's frames, the agent's, its libraries': an HTTP client's retries, a
  timeout inside the socket layer, often chained), shows one line, the
  exception and its message (an :class:`~..agents.mobileagent.LLMEndpointError`
  names the status code or the timeout and the endpoint's message), then the
  agent's own frames: those under the directory of the agent's method the
  harness called (``step`` or ``run``). The built-in agents' frames are the
  plugin's, not the user's: their failures are the one line alone.

``-v`` or ``--tb=long`` (or any ``--tb`` style chosen) shows pytest's full
report; the Allure report keeps it in any case.
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

from .. import agent_clock
from ..app_ids import nearest

__all__ = ["MAX_FRAMES", "missing_fixture", "short_agent_failure", "short_judge_failure", "wants_short_failures"]

#: The agent's innermost frames shown (the ones nearest the error).
MAX_FRAMES = 5
#: The longest message shown of an exception.
MAX_MESSAGE = 500
_CLOCK_FILE = str(Path(agent_clock.__file__).resolve())
#: The plugin's own code: the built-in agents live here.
_PLUGIN_DIR = Path(agent_clock.__file__).resolve().parent


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
            if home.is_relative_to(_PLUGIN_DIR):
                return []  # a built-in agent: its frames are the plugin's, not the user's code
            return [f for f in inside if Path(f.filename).resolve().is_relative_to(home)]
    return []


def short_agent_failure(exc: BaseException) -> str:
    """The agent's failure: one line, then the agent's own frames (where its code was)."""
    message = " ".join(str(exc).split()) or "(no message)"
    lines = [f"agent error: {type(exc).__name__}: {message[:MAX_MESSAGE]}"]
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
    return "\n".join(lines)


def short_judge_failure(exc: AssertionError, where: str, how: str, hints: list[str]) -> str:
    """The judge's verdict in one line: ``<its assertion's first line> (where; how)``, then a line per hint.

    The message comes first: pytest's short test summary shows a line's start.

    ``where`` is the failing assert's ``path:line``; ``how`` how the episode
    ended ("not done after 3 of 8 steps, stop: finished").
    """
    lines = str(exc).strip().splitlines()  # the message, and pytest's explanation of it below
    message = " ".join(lines[0].split()) if lines else "(no message)"
    return "\n".join([f"{message[:MAX_MESSAGE]} ({where}; {how})", *(f"  hint: {hint}" for hint in hints)])


#: pytest's own words for a fixture nobody defines (_pytest/fixtures.py, FixtureLookupError.formatrepr).
_NOT_FOUND = re.compile(r"fixture '(?P<name>[^']+)' not found\n\s*available fixtures: (?P<available>.*)")


def missing_fixture(longrepr: object) -> str | None:
    """A task asking for a fixture that does not exist, as the usage error it is; None for any other failure.

    pytest reports it at setup, as an error like a lost device's; this names
    the fixture, the nearest one defined (a typo, mostly) and where it was asked for.
    """
    text = getattr(longrepr, "errorstring", None)  # a FixtureLookupErrorRepr's
    match = _NOT_FOUND.match(text) if isinstance(text, str) else None
    if match is None:
        return None
    name = match["name"]
    near = nearest(name, {n for n in match["available"].split(", ") if not n.startswith("_")})
    where = getattr(longrepr, "filename", None)
    line = f"UsageError: fixture '{name}' not found: no plugin or conftest defines it"
    if near:
        line += f" (did you mean '{near}'?)"
    if where:
        line += f"; asked for at {_shown(Path(where))}:{int(getattr(longrepr, 'firstlineno', 0)) + 1}"
    return line


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (as pytest shows paths)."""
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path)

"""Replay: run a recorded task file with the plugin, exactly as a user would.

``pytest FILE --agent replay --device SERIAL`` in a subprocess: the plugin
resets the app, runs the seed, replays the golden path resolving each action
on the live screen, and judges with the task's body. ``--agent noop`` is the
other half of a task's validation: it must fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["REPLAY_TIMEOUT", "run_task_file"]

REPLAY_TIMEOUT = 600.0  # seconds; a real device's app reset and dumps are slow, but not this slow


def run_task_file(path: Path, serial: str, agent: str, *, timeout: float = REPLAY_TIMEOUT,
                  claim: "tuple[dict[str, str], int] | None" = None) -> dict:
    """Run ``path`` with ``--agent agent`` on ``serial``; the verdict and pytest's output.

    ``claim``: the studio's claim on the device, lent to the run
    (:meth:`~pytest_mobileagent.device.claims.DeviceClaim.lent`'s environment and descriptor).
    """
    # --suite all: the file's tasks run whatever their suite (an extended file's too).
    cmd = [sys.executable, "-m", "pytest", str(path), "--agent", agent, "--device", serial, "--suite", "all",
           "-p", "no:cacheprovider", "-q", "--no-header", "-rfE"]
    env, fds = ({**os.environ, **claim[0]}, (claim[1],)) if claim else (None, ())
    try:
        done = subprocess.run(cmd, cwd=path.parent, capture_output=True, text=True, timeout=timeout,
                              env=env, pass_fds=fds)
    except subprocess.TimeoutExpired as exc:
        output = (exc.stdout or "") if isinstance(exc.stdout, str) else ""
        return {"agent": agent, "passed": False, "exit_code": None,
                "summary": f"stopped after {timeout:g} s", "output": output[-6000:]}
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    summary = lines[-1].strip("= ") if lines else f"exit code {done.returncode}"
    return {
        "agent": agent,
        # pytest's exit codes: 0 all passed, 1 some failed; anything else is not a verdict.
        "passed": done.returncode == 0,
        "failed": done.returncode == 1,
        "exit_code": done.returncode,
        "summary": summary,
        "output": (done.stdout + done.stderr)[-6000:],
    }

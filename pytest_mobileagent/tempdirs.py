"""Temporary directories of a run: removed at exit, and by the next run when a run died.

A run keeps a few private directories in the system's temporary directory
(the event server's socket, the workers' task manifests, the emulators'
logs). Each is named ``mobileagent-<kind>-<pid>-<random>`` after the process
that made it and removed when that process exits normally (``atexit``, on
top of each owner's own clean-up). A process killed with SIGKILL runs no
exit code: the next run's :func:`remove_stale` removes the directories whose
process no longer exists (same user only; a directory whose number belongs
to a live process, even a recycled one, is left alone).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from pathlib import Path

__all__ = ["make_run_tempdir", "remove_stale"]

_NAME = re.compile(r"^mobileagent-(events|run|emulators)-(\d+)-")
_MADE: set[str] = set()


def make_run_tempdir(kind: str) -> str:
    """A fresh private (0700) directory ``mobileagent-<kind>-<pid>-...``, removed at exit."""
    path = tempfile.mkdtemp(prefix=f"mobileagent-{kind}-{os.getpid()}-")
    if not _MADE:
        atexit.register(_remove_made)
    _MADE.add(path)
    return path


def _remove_made() -> None:
    for path in list(_MADE):
        if os.getpid() == int(_NAME.match(os.path.basename(path)).group(2)):  # type: ignore[union-attr]
            shutil.rmtree(path, ignore_errors=True)  # a forked child leaves its parent's alone
        _MADE.discard(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def remove_stale(base: str | None = None) -> list[str]:
    """Remove this user's run directories whose process is gone; returns what was removed."""
    root = Path(base or tempfile.gettempdir())
    removed = []
    try:
        entries = list(root.iterdir())
    except OSError:
        return removed
    uid = os.getuid()
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None:
            continue
        try:
            info = entry.lstat()
        except OSError:
            continue
        if info.st_uid != uid or not entry.is_dir() or entry.is_symlink() or _alive(int(match.group(2))):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(str(entry))
    return removed

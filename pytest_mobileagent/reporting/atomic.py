"""Allure result files written whole or not at all, and how a failed write is said.

Below allure_files.py (the writer thread) and allure_report.py (the run-level
files), which both write this way.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["WRITE_PROBLEM", "write_atomically"]

#: How a failed write of Allure results starts (the summary shows one such line per run).
WRITE_PROBLEM = "could not write Allure results to "


def _os_error(error: OSError) -> str:
    """``[Errno 28] No space left on device``: the error without the temporary file's name."""
    return f"[Errno {error.errno}] {error.strerror}" if error.errno and error.strerror else str(error)


def write_atomically(destination: Path, body: bytes) -> None:
    # As allure-commons does: a reader never sees half a file under its final name.
    # The temporary name is this process's own: xdist workers may save the same
    # content-named attachment at the same time.
    # Plain os calls: each system call lets the test's thread have the GIL back,
    # and open() would add a stat and an ioctl to the four needed.
    temporary = f"{destination}.{os.getpid()}.tmp"
    # 0o666: the umask applies, as with open(); close-on-exec by default (PEP 446)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        try:
            view = memoryview(body)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(temporary, destination)
    except OSError:
        # A full disk: the partial file would only take the space of the next ones.
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise

"""Virtual phones on a private adb server, for the benchmark scripts.

Each phone runs in its own ``mobileagent-phone serve`` process, as the device
pool boots them, so the figures include real process boundaries. Scripts run
as ``python benchmarks/NAME.py``, which puts this folder on ``sys.path``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from typing import Iterator


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def served_phones(count: int, root: str | None = None) -> Iterator[tuple[list[str], int]]:
    """Start a private adb server and ``count`` phones; yield (serials, adb server port).

    The phones listen outside 5555-5585 (``mobileagent-phone serve``'s default),
    where other adb servers on the machine (other runs, test sessions) do not
    find them, and are connected to this script's adb server only. ``root``:
    a checkout whose code the phones run (another version, to compare with).
    """
    import adbutils

    adb_port = free_port()
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(adb_port)
    subprocess.run([adbutils.adb_path(), "-P", str(adb_port), "start-server"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", "serve", "--adb-port", str(adb_port)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            cwd=root, env=None if root is None else {**os.environ, "PYTHONPATH": root},
        )
        for _ in range(count)
    ]
    try:
        serials = []
        for proc in procs:
            # The CLI prints "<serial> <port>" then "ready" once the adb server lists the phone.
            for line in proc.stdout:
                parts = line.split()
                if len(parts) == 2 and parts[1].isdigit():
                    serials.append(parts[0])
                if line.strip() == "ready":
                    break
        yield serials, adb_port
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
        subprocess.run([adbutils.adb_path(), "-P", str(adb_port), "kill-server"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

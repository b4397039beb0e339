"""``mobileagent-studio``: watch and drive a phone in the browser, record tasks, replay them.

    mobileagent-studio [--device SERIAL] [--port PORT] [--no-browser] [--tasks-dir DIR]

With ``--device`` it uses that device; else the first free device the adb
server lists; else it boots a virtual phone, which stops with the studio.
The device is claimed as a pytest run claims it, so no run takes it while
the studio shows it. The first line printed is the page's URL (127.0.0.1
only, with a secret token); Ctrl-C stops the studio.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Iterator, Sequence

from ..device.claims import DeviceClaim
from ..device.device import connect
from ..device.pool import DevicePool
from ..errors import MobileAgentError
from ..reporting.redact import Redactor
from .app import Studio
from .web import TokenServer

__all__ = ["main"]

RECLAIM_WAIT = 30.0  # seconds a replay's pytest run may take to let go of the device


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mobileagent-studio",
        description="Watch and drive a phone in the browser, record a task as code, replay it.")
    parser.add_argument("--device", metavar="SERIAL",
                        help="adb serial of the device (default: the first free one, else a virtual phone)")
    parser.add_argument("--port", type=int, default=0,
                        help="port on 127.0.0.1 to serve the page on (default: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="print the URL but do not open a browser")
    parser.add_argument("--tasks-dir", type=Path, default=Path.cwd(),
                        help="where recorded task modules are written (default: the current directory)")
    return parser


class HeldDevice:
    """The studio's device, its claim, and the pool that booted it (if it did)."""

    def __init__(self, requested: str | None):
        self._pool = None
        if requested:
            self.device = connect(requested)  # names the attached devices when it is not one of them
            self.claim = DeviceClaim.claim(requested)
        else:
            # Booted in this process: the phone lives exactly as long as the studio.
            self._pool = DevicePool(boot_virtual=True, virtual_in_process=True)
            serial = self._pool.allocate(1)[0]
            self.claim = self._pool.hand_over(serial)
            self.device = connect(serial)

    @contextlib.contextmanager
    def lent(self) -> Iterator[None]:
        """Let a pytest run (a replay) claim the device for the block, then claim it back."""
        serial = self.device.serial
        self.claim.release()
        try:
            yield
        finally:
            self.claim = DeviceClaim.claim(serial, wait=RECLAIM_WAIT)

    def close(self) -> None:
        self.device.close()
        self.claim.release()
        if self._pool is not None:
            self._pool.close()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        _parser().error(f"--port {args.port}: not a port number")
    # SIGTERM (a service manager, a test) stops the studio as Ctrl-C does: phones and claims are let go.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        held = HeldDevice(args.device)
    except (MobileAgentError, OSError) as exc:
        print(f"mobileagent-studio: error: {exc}", file=sys.stderr)
        return 2
    studio = server = None
    try:
        studio = Studio(held.device, args.tasks_dir.resolve(), lend_device=held.lent).start()
        try:
            # What a run redacts from its reports (the default secret names) stays off the page too.
            server = TokenServer(studio, port=args.port, redact=Redactor.from_environ().text).start()
        except OSError as exc:
            print(f"mobileagent-studio: error: cannot serve on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
            return 2
        print(f"{server.url}  (mobileagent-studio on {held.device.serial}; Ctrl-C stops it)", flush=True)
        if not args.no_browser:
            webbrowser.open(server.url)
        threading.Event().wait()  # serve until interrupted
    except KeyboardInterrupt:
        return 0
    finally:
        if server is not None:
            server.stop()
        if studio is not None:
            studio.close()
        held.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

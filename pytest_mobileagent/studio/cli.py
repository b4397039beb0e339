"""``mobileagent-studio``: watch and drive a phone in the browser, record tasks, replay them.

    mobileagent-studio [--device SERIAL] [--port PORT] [--no-browser] [--tasks-dir DIR]

With ``--device`` it uses that device; else the first free device the adb
server lists; else it boots a virtual phone, which stops with the studio.
The device is claimed as a pytest run claims it, so no run takes it while
the studio shows it. The first line printed is the page's URL (127.0.0.1
only, with a secret token); Ctrl-C stops the studio.

The browser is not given that URL on its command line, where any local user
reads it (``ps``): it opens a private file (mode 0600, in a 0700 directory)
that redirects to it, as Jupyter does.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import os
import signal
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Sequence

from ..device.claims import DeviceClaim
from ..device.device import connect
from ..device.pool import DevicePool
from ..errors import MobileAgentError
from ..reporting.redact import Redactor
from ..tempdirs import make_run_tempdir, remove_stale
from .app import Studio
from .web import TokenServer

__all__ = ["main"]

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

    def lent(self) -> "contextlib.AbstractContextManager[tuple[dict[str, str], int]]":
        """Lend the claim to a replay's pytest run for the block (see :meth:`DeviceClaim.lent`).

        The studio never lets go of it: a run waiting for the device (it was
        ours first) must not slip in between the replay and the studio.
        """
        return self.claim.lent()

    def close(self) -> None:
        self.device.close()
        self.claim.release()
        if self._pool is not None:
            self._pool.close()


def redirect_file(url: str) -> Path:
    """A page only this user can read that sends the browser on to ``url`` (the token stays off ``ps``)."""
    path = Path(make_run_tempdir("run")) / "open-studio.html"
    quoted = html.escape(url, quote=True)
    page = (f'<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
            f'<meta http-equiv="refresh" content="0;url={quoted}"><title>mobileagent studio</title>'
            f'<p>Opening the studio: <a href="{quoted}">{quoted}</a></p>\n')
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(page)
    return path


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        _parser().error(f"--port {args.port}: not a port number")
    # SIGTERM (a service manager, a test) stops the studio as Ctrl-C does: phones and claims are let go.
    signal.signal(signal.SIGTERM, _interrupt)
    remove_stale()  # the socket directories of studios (and runs) killed with SIGKILL
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
            webbrowser.open(redirect_file(server.url).as_uri())
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

"""`mobileagent-phone serve`: run virtual phones until interrupted.

Prints one `SERIAL PORT` line per phone, then `ready`, and serves until
SIGINT or SIGTERM (exit status 0).

By default each phone listens on a free port outside 5555-5585 and is
connected to one adb server (serial ``127.0.0.1:PORT``), which is the only
server that lists it. ``--emulator-ports`` takes free odd ports 5555-5585 and
announces the phones as emulators (serials ``emulator-NNNN``), as the Android
emulator does: every adb server on the machine then lists them.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys

from ..memory import freeze_long_lived_objects
from .server import start_phones

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mobileagent-phone", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve virtual phones over the adb protocol")
    serve.add_argument("--port", type=int, action="append",
                       help="port to bind (repeatable; one port with --count N uses PORT, PORT+2, ...); "
                            "default: free ports outside 5555-5585 (with --emulator-ports: free odd ports "
                            "5555-5585)")
    serve.add_argument("--emulator-ports", action="store_true",
                       help="serve as emulators do: odd ports 5555-5585, serials emulator-<port - 1>, listed by "
                            "every adb server on the machine (default: serials 127.0.0.1:PORT, connected to one "
                            "adb server only)")
    serve.add_argument("--count", type=int, default=None, help="number of phones (default 1)")
    serve.add_argument("--seed", type=int, default=0, help="seed of the first phone (others: seed+1, ...)")
    serve.add_argument("--adb-port", type=int, default=None,
                       help="adb server to register with (default $ANDROID_ADB_SERVER_PORT or 5037)")
    serve.add_argument("--no-adb", action="store_true",
                       help="do not contact an adb server (use `adb connect 127.0.0.1:PORT`)")
    serve.add_argument("--fault", choices=sorted(FAULTS), action="append", default=[],
                       help="for tests of a harness: make the phone misbehave (garbage-bounds: every view "
                            "hierarchy it writes, by `uiautomator dump` or to the listener's requests, is "
                            "well-formed XML whose views have bounds=\"garbage\")")
    return parser


def _garbage_bounds(phone) -> None:
    dump_xml = phone.system.dump_xml

    def garbage(compressed: bool = False) -> str:
        return re.sub(r'bounds="[^"]*"', 'bounds="garbage"', dump_xml(compressed))

    phone.system.dump_xml = garbage  # every writer of a hierarchy asks the system for it


#: Faults a phone can be served with (``--fault``), each applied to a booted phone.
FAULTS = {"garbage-bounds": _garbage_bounds}


def _catch_stop_signals() -> int:
    """Catch SIGINT and SIGTERM; returns a pipe that becomes readable when one arrives.

    Python's C-level handler writes the signal number to the wakeup fd, so the
    signal is remembered without running Python code that takes a lock. (Setting
    a threading.Event from the handler can deadlock: the handler runs in the main
    thread, which may hold the Event's own lock inside Event.wait.)
    """
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: None)
    return read_end


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    ports = args.port
    count = args.count if args.count is not None else (len(ports) if ports else 1)
    if count < 1:
        print("mobileagent-phone: --count must be at least 1", file=sys.stderr)
        return 2
    if ports and len(ports) == 1 and count > 1:
        ports = [ports[0] + 2 * i for i in range(count)]
    if ports and len(ports) != count:
        print("mobileagent-phone: give one --port, or one per phone", file=sys.stderr)
        return 2

    stop_signals = _catch_stop_signals()
    try:
        with start_phones(count, ports=ports, seed=args.seed, adb_server_port=args.adb_port,
                          register=not args.no_adb, emulator_ports=args.emulator_ports) as phones:
            for running in phones:
                for fault in args.fault:
                    FAULTS[fault](running.phone)
                print(f"{running.serial} {running.port}")
            freeze_long_lived_objects()  # the booted phones: their system, apps and views
            print("ready", flush=True)
            os.read(stop_signals, 1)  # blocks until SIGINT or SIGTERM (or one came during boot)
    except (OSError, TimeoutError) as exc:
        print(f"mobileagent-phone: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

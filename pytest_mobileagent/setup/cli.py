"""``mobileagent-setup``: prepare every connected device (or the ones named) for the benchmark."""

from __future__ import annotations

import argparse
import sys
import time

from .device_setup import SetupError, prepare_device, scan_apks

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mobileagent-setup",
        description="Install and enable the event listener, install the benchmark apps, grant their "
                    "permissions, give Simple SMS Messenger the SMS role, turn animations off and set the "
                    "time zone, on each device adb lists (or each --device). Safe to run again: it changes "
                    "only what differs.")
    parser.add_argument("--device", "-s", action="append", default=[], metavar="SERIAL",
                        help="a device to prepare (repeatable); default: every device `adb devices` lists")
    parser.add_argument("--apks", metavar="DIR",
                        help="a folder with the Simple Mobile Tools APKs (any file names; checked by package)")
    parser.add_argument("--timezone", default="UTC", help="time zone to set (default: UTC; '' keeps the device's)")
    parser.add_argument("--keep-animations", action="store_true", help="leave the animation scales alone")
    parser.add_argument("--adb-port", type=int, default=None,
                        help="the adb server's port (default: $ANDROID_ADB_SERVER_PORT or 5037)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    import adbutils

    try:
        apks = scan_apks(args.apks)  # bad input stops here, before any device is touched
    except SetupError as exc:
        print(f"mobileagent-setup: {exc}", file=sys.stderr)
        return 2
    client = adbutils.AdbClient(port=args.adb_port) if args.adb_port else adbutils.AdbClient()
    try:
        serials = args.device or [d.serial for d in client.device_list()]
    except (adbutils.AdbError, OSError) as exc:
        print(f"mobileagent-setup: cannot reach the adb server: {exc}", file=sys.stderr)
        return 2
    if not serials:
        print("mobileagent-setup: no device: connect a phone or start an emulator (`adb devices` lists none)",
              file=sys.stderr)
        return 2
    failed = 0
    for serial in serials:
        started = time.monotonic()
        try:
            report = prepare_device(client.device(serial), apks=apks, timezone=args.timezone or None,
                                    animations_off=not args.keep_animations, echo=print)
        except SetupError as exc:
            print(f"mobileagent-setup: {exc}", file=sys.stderr)
            failed += 1
            continue
        for line in report.lines():
            print(line)
        print(f"{serial}: ready ({time.monotonic() - started:.2f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""A stand-in for the Android SDK's ``emulator`` executable, serving a virtual phone.

Where no SDK exists (CI, this project's tests and benchmarks) it lets the
plugin's ``--avd`` code run exactly as it would against a real emulator:

    emulator -avd NAME -port 5554 -read-only -no-window -no-audio -no-boot-anim

* AVDs are ``NAME.ini`` files in ``$ANDROID_AVD_HOME`` (else
  ``$HOME/.android/avd``), as the real emulator finds them; ``-list-avds``
  lists them, an unknown name is a ``PANIC`` and exit status 1.
* It serves a virtual phone on the adb port (console port + 1) and tells the
  adb server about it (``host:emulator:PORT``), so adb lists it as
  ``emulator-<console port>``. ``sys.boot_completed`` is ``1`` after the
  AVD's ``standin.boot_seconds`` (``config.ini``; default 0), so a boot that
  never completes can be staged.
* The console on the console port speaks what ``adb emu`` sends, with the
  real console's authentication (``~/.emulator_console_auth_token``, created
  when missing; an empty file turns authentication off): ``auth TOKEN``,
  ``avd snapshot save/load/list NAME``, ``avd name``, ``kill``, ``quit``.
  Snapshots are whole-phone snapshots kept in memory for the process's life.
* Without ``-read-only`` a second instance of the same AVD is refused.

Only what the plugin uses is modelled; everything else is accepted and ignored
like an option the emulator does not need here.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import secrets
import select
import signal
import socket
import socketserver
import sys
import tempfile
import threading
import time
from pathlib import Path

from .server import start_phones
from .snapshot import load_snapshot, save_snapshot

__all__ = ["avd_home", "create_avd", "install_sdk", "main"]

FIRST_CONSOLE_PORT, LAST_CONSOLE_PORT = 5554, 5682
#: Options of the real emulator that take a value (so the value is not read as an option).
_VALUE_OPTIONS = {"-avd", "-port", "-ports", "-gpu", "-memory", "-partition-size", "-camera-back",
                  "-camera-front", "-netdelay", "-netspeed", "-snapshot", "-sysdir", "-system",
                  "-datadir", "-data", "-sdcard", "-skin", "-skindir", "-cores", "-accel", "-qemu",
                  "-logcat", "-shell-serial", "-dns-server", "-http-proxy", "-timezone", "-feature",
                  "-grpc", "-idle-grpc-timeout"}


def log(level: str, message: str) -> None:
    print(f"{level:<8}| {message}", flush=True)


def avd_home() -> Path:
    """Where AVDs live, as the real emulator looks first."""
    if os.environ.get("ANDROID_AVD_HOME"):
        return Path(os.environ["ANDROID_AVD_HOME"])
    return Path(os.path.expanduser("~")) / ".android" / "avd"


def list_avds() -> list[str]:
    home = avd_home()
    return sorted(p.stem for p in home.glob("*.ini")) if home.is_dir() else []


def _read_config(name: str) -> dict[str, str]:
    """The AVD's ``config.ini`` (key=value lines without a section)."""
    ini = _parse_ini(avd_home() / f"{name}.ini")
    content = Path(ini.get("path") or avd_home() / f"{name}.avd")
    config = content / "config.ini"
    return _parse_ini(config) if config.is_file() else {}


def _parse_ini(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive (hw.lcd.width)
    parser.read_string("[avd]\n" + path.read_text(encoding="utf-8"))
    return dict(parser["avd"])


# -- the console ------------------------------------------------------------------------
def _auth_token() -> str:
    """The console's token, created as the real emulator does when the file is missing."""
    path = Path(os.path.expanduser("~")) / ".emulator_console_auth_token"
    if not path.exists():
        # Instances start side by side: the token appears whole (written aside, then
        # linked into place) and the first one to link it wins; an empty file would
        # mean "no authentication" to a reader that came in between.
        fd, scratch = tempfile.mkstemp(dir=path.parent, prefix=".emulator_console_auth_token.")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(12))
            with contextlib.suppress(FileExistsError):
                os.link(scratch, path)
        finally:
            os.unlink(scratch)
    return path.read_text().strip()


class Emulator:
    """One running instance: its phone, its console, its snapshots."""

    def __init__(self, name: str, console_port: int, phone, stop_fd: int):
        self.name = name
        self.console_port = console_port
        self.phone = phone
        self.snapshots: dict[str, object] = {}
        self._stop_fd = stop_fd  # written to ask the main thread to shut down
        self.token = _auth_token()  # at start-up, so clients find the file before they connect
        self.token_path = Path(os.path.expanduser("~")) / ".emulator_console_auth_token"

    def handle(self, command: str) -> tuple[str, bool]:
        """One console command: the reply lines and whether to close the connection."""
        words = command.split()
        if not words:
            return "", False
        if words[0] in ("quit", "exit"):
            return "", True
        if words[0] == "kill":
            os.write(self._stop_fd, b"k")
            return "OK: killing emulator, bye bye\r\n", True
        if words[0] == "help":
            return ("Android console commands:\r\n\r\n    avd    control virtual device execution\r\n"
                    "    kill   kill the emulator instance\r\n    quit|exit  quit control session\r\n"
                    "OK\r\n"), False
        if words[0] != "avd":
            return "KO: unknown command, try 'help'\r\n", False
        if words[1:2] == ["name"]:
            return f"{self.name}\r\nOK\r\n", False
        if words[1:2] != ["snapshot"] or len(words) < 3:
            return "KO: bad sub-command\r\n", False
        action, names = words[2], words[3:]
        if action == "list":
            listing = "".join(f"{name}\r\n" for name in sorted(self.snapshots))
            return listing + "OK\r\n", False
        if action in ("save", "load", "delete") and len(names) != 1:
            return f"KO: 'avd snapshot {action}' needs a snapshot name\r\n", False
        if action == "save":
            self.snapshots[names[0]] = save_snapshot(self.phone)
            log("INFO", f"Saved snapshot '{names[0]}'")
            return "OK\r\n", False
        if action == "load":
            snapshot = self.snapshots.get(names[0])
            if snapshot is None:
                return f"KO: snapshot '{names[0]}' does not exist\r\n", False
            load_snapshot(self.phone, snapshot)
            return "OK\r\n", False
        if action == "delete":
            self.snapshots.pop(names[0], None)
            return "OK\r\n", False
        return "KO: bad sub-command\r\n", False


class _Console(socketserver.StreamRequestHandler):
    emulator: Emulator

    def handle(self) -> None:
        emulator = self.server.emulator  # type: ignore[attr-defined]
        token = emulator.token
        authenticated = not token
        if authenticated:
            self._write("Android Console: type 'help' for a list of commands\r\nOK\r\n")
        else:
            self._write("Android Console: Authentication required\r\n"
                        "Android Console: type 'auth <auth_token>' to authenticate\r\n"
                        "Android Console: you can find your <auth_token> in \r\n"
                        f"'{emulator.token_path}'\r\nOK\r\n")
        for raw in self.rfile:
            line = raw.decode("utf-8", "replace").strip()
            words = line.split()
            if not authenticated and words[:1] not in (["auth"], ["help"], ["quit"], ["exit"], []):
                self._write("KO: authentication required, type 'auth <auth_token>'\r\n")
                continue
            if words[:1] == ["auth"]:
                if len(words) == 2 and words[1] == token:
                    authenticated = True
                    self._write("Android Console: type 'help' for a list of commands\r\nOK\r\n")
                else:
                    self._write(f"KO: authentication token does not match {emulator.token_path}\r\n")
                continue
            reply, close = emulator.handle(line)
            self._write(reply)
            if close:
                return

    def _write(self, text: str) -> None:
        if text:
            self.wfile.write(text.encode("utf-8"))
            self.wfile.flush()


class _ConsoleServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


# -- start-up -----------------------------------------------------------------------------
def _parse(argv: list[str]) -> tuple[dict[str, str | bool], list[str]]:
    """Options as the emulator spells them (``-avd NAME``, ``@NAME``); unknown flags are kept."""
    options: dict[str, str | bool] = {}
    unknown: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg.startswith("@"):
            options["-avd"] = arg[1:]
        elif arg in _VALUE_OPTIONS:
            value = next(args, None)
            if value is None:
                raise SystemExit(_fail(f"option '{arg}' needs a value"))
            options[arg] = value
        elif arg.startswith("-"):
            options[arg] = True
        else:
            unknown.append(arg)
    return options, unknown


def _fail(message: str) -> int:
    log("ERROR", message)
    return 1


def _free_console_port() -> int | None:
    for port in range(FIRST_CONSOLE_PORT, LAST_CONSOLE_PORT + 1, 2):
        if all(_port_free(p) for p in (port, port + 1)):
            return port
    return None


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _notify_adb_server(adb_port: int) -> None:
    """Tell the adb server a new emulator is up, as the emulator does at start."""
    server_port = int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
    try:
        with socket.create_connection(("127.0.0.1", server_port), timeout=2) as sock:
            payload = f"host:emulator:{adb_port}".encode()
            sock.sendall(f"{len(payload):04x}".encode() + payload)
    except OSError:
        log("INFO", f"no adb server on port {server_port}; it finds this emulator when it starts")


def _lock_avd(name: str) -> Path | None:
    """The AVD's lock file; None when another live instance holds it."""
    lock = avd_home() / f"{name}.avd" / "hardware-qemu.ini.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    try:
        pid = int(lock.read_text().strip() or "0")
    except (OSError, ValueError):
        pid = 0
    if pid and pid != os.getpid():
        try:
            os.kill(pid, 0)
            return None
        except OSError:
            pass  # a stale lock of a dead instance
    lock.write_text(str(os.getpid()))
    return lock


def main(argv: list[str] | None = None) -> int:
    options, unknown = _parse(list(sys.argv[1:] if argv is None else argv))
    if unknown:
        return _fail(f"invalid command-line parameter: {unknown[0]}.")
    if options.get("-version"):
        print("Android emulator version 0.0.0.0 (mobileagent stand-in serving a virtual phone)")
        return 0
    if options.get("-list-avds"):
        for name in list_avds():
            print(name)
        return 0
    name = options.get("-avd")
    if not isinstance(name, str):
        return _fail("No AVD specified. Use '@foo' or '-avd foo' to launch a virtual device named 'foo'")
    log("INFO", "Android emulator version 0.0.0.0 (mobileagent stand-in)")
    if name not in list_avds():
        print(f"PANIC: Unknown AVD name [{name}], use -list-avds to see valid list.", flush=True)
        print(f"HOME is defined but there is no file {name}.ini in {avd_home()}", flush=True)
        return 1
    config = _read_config(name)
    lock = None
    if not options.get("-read-only"):
        lock = _lock_avd(name)
        if lock is None:
            return _fail("Running multiple emulators with the same AVD is an experimental feature. "
                         "Please use -read-only flag to enable this feature.")
    try:
        return _run(name, options, config)
    finally:
        if lock is not None:
            lock.unlink(missing_ok=True)


def _run(name: str, options: dict[str, str | bool], config: dict[str, str]) -> int:
    port_text = options.get("-port")
    if isinstance(port_text, str):
        if not port_text.isdigit() or int(port_text) % 2 or not (
                FIRST_CONSOLE_PORT <= int(port_text) <= LAST_CONSOLE_PORT):
            return _fail(f"-port must be an even number between {FIRST_CONSOLE_PORT} and {LAST_CONSOLE_PORT}, "
                         f"got {port_text}")
        console_port = int(port_text)
    else:
        found = _free_console_port()
        if found is None:
            return _fail("no free console port pair")
        console_port = found
    boot_seconds = float(config.get("standin.boot_seconds", "0"))
    seed = int(config.get("standin.seed", "0"))

    # Signals and the console's `kill` write to this pipe; the main thread waits on it.
    # (Setting a threading.Event in a signal handler can deadlock on the Event's own lock.)
    stop_read, stop_write = os.pipe()
    os.set_blocking(stop_write, False)
    signal.set_wakeup_fd(stop_write)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: None)
    try:
        console = _ConsoleServer(("127.0.0.1", console_port), _Console)
    except OSError as exc:
        return _fail(f"console port {console_port} is not free: {exc}")
    started = time.monotonic()
    try:
        with start_phones(1, ports=[console_port + 1], seed=seed, register=False,
                          emulator_ports=True) as phones:
            phone = phones[0].phone
            _set_booted(phone, boot_seconds <= 0)
            console.emulator = Emulator(name, console_port, phone, stop_write)  # type: ignore[attr-defined]
            threading.Thread(target=console.serve_forever, name="console", daemon=True).start()
            log("INFO", f"Serving virtual phone {phones[0].serial}: console on port {console_port}, "
                        f"adb on port {console_port + 1}")
            _notify_adb_server(console_port + 1)
            if boot_seconds > 0:
                # The staged boot: sys.boot_completed turns 1 after boot_seconds, unless stopped first.
                if not select.select([stop_read], [], [], boot_seconds)[0]:
                    _set_booted(phone, True)
                    log("INFO", f"Boot completed in {int((time.monotonic() - started) * 1000)} ms")
            else:
                log("INFO", f"Boot completed in {int((time.monotonic() - started) * 1000)} ms")
            select.select([stop_read], [], [])
            log("INFO", "Shutting down the emulator")
    except OSError as exc:
        return _fail(f"adb port {console_port + 1}: {exc}")
    finally:
        # No shutdown(): it waits for serve_forever's next poll; the thread is a daemon.
        console.server_close()
    return 0


def _set_booted(phone, booted: bool) -> None:
    phone.props["sys.boot_completed"] = "1" if booted else ""
    phone.props["dev.bootcomplete"] = "1" if booted else ""
    phone.props["init.svc.bootanim"] = "stopped" if booted else "running"


# -- a stand-in SDK for tests and benchmarks ------------------------------------------------
def install_sdk(sdk_root: str | os.PathLike) -> Path:
    """Make ``sdk_root/emulator/emulator`` run this stand-in; returns its path."""
    path = Path(sdk_root) / "emulator" / "emulator"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nexec '{sys.executable}' -m pytest_mobileagent.virtual_phone.emulator_standin "
                    '"$@"\n')
    path.chmod(0o755)
    return path


def create_avd(home: str | os.PathLike, name: str, **config: str) -> Path:
    """An AVD for the stand-in in ``home`` (use it as ``$ANDROID_AVD_HOME``)."""
    home = Path(home)
    content = home / f"{name}.avd"
    content.mkdir(parents=True, exist_ok=True)
    (home / f"{name}.ini").write_text(f"avd.ini.encoding=UTF-8\npath={content}\ntarget=android-34\n")
    lines = {"AvdId": name, "hw.lcd.width": "1080", "hw.lcd.height": "2340", **config}
    (content / "config.ini").write_text("".join(f"{k}={v}\n" for k, v in lines.items()))
    return content


if __name__ == "__main__":
    sys.exit(main())

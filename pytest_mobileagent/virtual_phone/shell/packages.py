"""`pm install` / `cmd package install`, `pm uninstall` and `dumpsys package`.

Both of the paths `adb install` takes reach here: the streamed one
(``exec:cmd package install -S SIZE``, the APK's bytes on stdin; the adb
service reads exactly SIZE bytes first, see :func:`streamed_stdin_size`) and
the pushed one (``pm install /data/local/tmp/x.apk``, what ``adb install
--no-streaming`` and adbutils do). Output and exit status are Android's:
"Success", or "Failure [INSTALL_...: detail]" with status 1.
"""

from __future__ import annotations

import shlex

from .cmd import package_command, service_exception
from .interpreter import Invocation
from ..framework.packages import InstallError

__all__ = ["MAX_STREAMED_APK", "streamed_stdin_size"]

#: Largest APK accepted on stdin; bigger sizes are refused before reading.
MAX_STREAMED_APK = 512 * 1024 * 1024

# Options of `pm install` that take a value (PackageManagerShellCommand.makeInstallParams).
_VALUE_OPTIONS = {"-i", "--user", "--install-reason", "--originating-uri", "--referrer", "-p", "--pkg",
                  "--abi", "--install-location", "--force-uuid", "--apex-timeout", "--staged-ready-timeout",
                  "--update-ownership", "--enable-rollback"}
_FLAG_OPTIONS = {"-r", "-t", "-d", "-g", "-f", "-l", "-s", "--dont-kill", "--force-queryable",
                 "--restrict-permissions", "--instant", "--full", "--ephemeral", "--preload", "--apex",
                 "--staged", "--force-sdk", "--skip-verification", "--bypass-low-target-sdk-block",
                 "--skip-enable", "--no-incremental", "--wait", "--no-wait", "--multi-package"}


def streamed_stdin_size(command: str) -> int | None:
    """SIZE for an `exec:` command that streams an APK (``cmd package install -S SIZE``), else None."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if words[:2] == ["cmd", "package"]:
        verb, args = words[2:3], words[3:]
    elif words[:1] == ["pm"]:
        verb, args = words[1:2], words[2:]
    else:
        return None
    if verb not in (["install"], ["install-write"]):
        return None
    if verb == ["install-write"] and args[-1:] != ["-"]:
        return None  # install-write from a file on the phone reads no stdin
    if "-S" not in args:
        return None
    at = args.index("-S")
    try:
        size = int(args[at + 1])
    except (IndexError, ValueError):
        return None
    return size if 0 <= size <= MAX_STREAMED_APK else None


@package_command("install")
def _install(inv: Invocation, args: list[str]) -> int:
    size: int | None = None
    allow_downgrade = False
    paths: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "-S":
            if not rest:
                return service_exception(inv, "install", "java.lang.IllegalArgumentException: Missing size")
            value = rest.pop(0)
            try:
                size = int(value)
            except ValueError:
                return service_exception(inv, "install",
                                         f"java.lang.NumberFormatException: For input string: \"{value}\"")
        elif arg in _VALUE_OPTIONS:
            if not rest:
                return service_exception(inv, "install",
                                         f"java.lang.IllegalArgumentException: Argument expected after \"{arg}\"")
            rest.pop(0)
        elif arg == "-d":
            allow_downgrade = True
        elif arg in _FLAG_OPTIONS:
            pass
        elif arg.startswith("-"):
            return service_exception(inv, "install", f"java.lang.IllegalArgumentException: Unknown option {arg}")
        else:
            paths.append(arg)
    if size is not None:
        data = inv.stdin
        if len(data) != size:
            inv.out(f"Failure [INSTALL_FAILED_INVALID_APK: Expected {size} bytes of APK, got {len(data)}]\n")
            return 1
    elif not paths:
        inv.err("Error: APK content must be streamed\n")
        return 1
    else:
        path = paths[0]
        try:
            data = inv.phone.fs.read_file(path, inv.session.cwd)
        except Exception:
            inv.err(f"Error: Unable to open file: {path}\nConsider using a file under /data/local/tmp/\n")
            return service_exception(inv, "install",
                                     f"java.lang.IllegalArgumentException: Error: Can't open file: {path}")
    try:
        inv.phone.packages.install(data, allow_downgrade=allow_downgrade)
    except InstallError as exc:
        inv.out(exc.failure_line() + "\n")
        return 1
    inv.out("Success\n")
    return 0


# -- install sessions: what `adb install-multiple` uses -------------------------------------
@package_command("install-create")
def _install_create(inv: Invocation, args: list[str]) -> int:
    store = inv.phone.packages
    session = store.create_session()
    inv.out(f"Success: created install session [{session}]\n")
    return 0


def _session_arg(inv: Invocation, verb: str, value: str | None) -> int | None:
    store = inv.phone.packages
    try:
        session = int(value) if value is not None else None
    except ValueError:
        session = None
    if session is None or session not in store.sessions:
        service_exception(inv, verb, f"java.lang.IllegalArgumentException: Bad session ID: {value}")
        return None
    return session


@package_command("install-write")
def _install_write(inv: Invocation, args: list[str]) -> int:
    rest = list(args)
    size = None
    if rest[:1] == ["-S"]:
        rest.pop(0)
        size = int(rest.pop(0)) if rest and rest[0].isdigit() else None
    if len(rest) < 2:
        return service_exception(inv, "install-write",
                                 "java.lang.IllegalArgumentException: Argument expected after \"install-write\"")
    session = _session_arg(inv, "install-write", rest[0])
    if session is None:
        return 255
    name, source = rest[1], rest[2] if len(rest) > 2 else "-"
    if source == "-":
        data = inv.stdin
        if size is not None and len(data) != size:
            return service_exception(inv, "install-write",
                                     f"java.io.IOException: Expected {size} bytes, got {len(data)}")
    else:
        try:
            data = inv.phone.fs.read_file(source, inv.session.cwd)
        except Exception:
            return service_exception(inv, "install-write",
                                     f"java.lang.IllegalArgumentException: Error: Can't open file: {source}")
    inv.phone.packages.sessions[session].append((name, data))
    inv.out(f"Success: streamed {len(data)} bytes\n")
    return 0


@package_command("install-commit")
def _install_commit(inv: Invocation, args: list[str]) -> int:
    session = _session_arg(inv, "install-commit", args[0] if args else None)
    if session is None:
        return 255
    parts = inv.phone.packages.sessions.pop(session)
    if not parts:
        inv.out("Failure [INSTALL_FAILED_INVALID_APK: No packages staged]\n")
        return 1
    try:
        # The first part is the base APK; split APKs add code and resources the
        # virtual phone does not run, so only the base is read.
        inv.phone.packages.install(parts[0][1])
    except InstallError as exc:
        inv.out(exc.failure_line() + "\n")
        return 1
    inv.out("Success\n")
    return 0


@package_command("install-abandon")
def _install_abandon(inv: Invocation, args: list[str]) -> int:
    session = _session_arg(inv, "install-abandon", args[0] if args else None)
    if session is None:
        return 255
    inv.phone.packages.sessions.pop(session)
    inv.out("Success\n")
    return 0


@package_command("uninstall")
def _uninstall(inv: Invocation, args: list[str]) -> int:
    keep = False
    rest = list(args)
    package = None
    while rest:
        arg = rest.pop(0)
        if arg == "-k":
            keep = True
        elif arg in ("--user", "--versionCode"):
            if rest:
                rest.pop(0)
        elif package is None:
            package = arg
    if package is None:
        return service_exception(inv, "uninstall",
                                 "java.lang.IllegalArgumentException: package name must be specified")
    if not inv.phone.packages.uninstall(package, keep_data=keep):
        inv.out("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
        return 1
    inv.out("Success\n")
    return 0



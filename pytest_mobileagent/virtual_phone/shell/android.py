"""Android commands: input, uiautomator, screencap, wm, dumpsys, am, monkey, pm, settings, pidof.

Each parses its arguments, asks the framework's services and prints what Android 14 prints
wherever clients parse it: AndroidViewClient's display probes (`wm size`, `wm density`),
`uiautomator dump`'s message with its historical typo "hierchary", am's and pm's messages.
`dumpsys` only finds a service in the phone's service registry (framework/services.py) and runs
its dump (`dumpsys window`, `activity`, `display`, `package`... are the services' own); `am` asks
the activity manager (framework/activity_manager.py) to start, force-stop and broadcast.
"""

from __future__ import annotations

import re
import struct
from typing import Callable

from ..framework import activity_manager
from ..framework.active_services import system_state_changed
from ..framework.activity_manager import full_class, monkey_entry, short_component
from ..framework.broadcasts import send_broadcast
from ..framework.services import SERVICE_NAMES, find_dump
from ..kernel.logbuffer import note_start_request
from ..kernel.processes import adbd_uid, processes
from .builtins import parse_flags
from .cmd import PACKAGE_COMMANDS, service_exception
from .instrument import am_instrument, pm_list_instrumentation
from .intent_args import IntentArgs, parse_intent
from .interpreter import Invocation, UsageError, command
from .keycodes import canonical_key
from .system_services import pm_list_features

__all__ = ["VIRTUAL_KEYBOARD_CHARS", "android_input_text"]

#: What `input text` can type: the characters the virtual keyboard's key
#: character map (KeyCharacterMap.VIRTUAL_KEYBOARD, a US layout) has keys for.
VIRTUAL_KEYBOARD_CHARS = frozenset(chr(c) for c in range(0x20, 0x7F)) | {"\n", "\t"}

_INPUT_SOURCES = {"keyboard", "mouse", "joystick", "touchnavigation", "touchpad", "trackball", "dpad",
                  "stylus", "gamepad", "touchscreen", "rotaryencoder"}


def android_input_text(arg: str) -> str:
    """What `input text ARG` types: every "%s" becomes a space (InputShellCommand.sendText).

    This is the whole of Android's escaping: "%%s" gives "% " and "\\%s" gives
    "\\ " (the backslash stays). Everything else is typed as is.
    """
    if "%" not in arg:
        return arg
    buff = list(arg)
    escape = False
    i = 0
    while i < len(buff):
        if escape:
            escape = False
            if buff[i] == "s":
                buff[i] = " "
                del buff[i - 1]
                i -= 1
        if buff[i] == "%":
            escape = True
        i += 1
    return "".join(buff)


# -- input -----------------------------------------------------------------------
class _InputArgs:
    """InputShellCommand's argument reading, and its failures as Android 14 prints them.

    `input` is `cmd input` there: a missing argument or a bad number throws,
    and the shell command prints "Exception occurred while executing ..." and
    exits 255 (BasicShellCommandHandler).
    """

    def __init__(self, args: list[str]):
        self.args, self.pos = args, 0

    def next(self) -> str | None:
        if self.pos >= len(self.args):
            return None
        self.pos += 1
        return self.args[self.pos - 1]

    def required(self) -> str:
        arg = self.next()
        if arg is None:
            raise _InputError("java.lang.IllegalArgumentException: Argument expected after "
                              f"\"{self.args[self.pos - 1] if self.pos else ''}\"")
        return arg


class _InputError(Exception):
    pass


class _BadNumber(Exception):
    pass


def _java_float(text: str) -> float:
    """Float.parseFloat: decimal or exponent notation (no hex, no underscores)."""
    if not re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?\s*", text):
        raise _BadNumber(text)
    return float(text.strip().rstrip("fFdD"))


def _java_int(text: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise _BadNumber(text)
    return int(text)


@command("input")
def _input(inv: Invocation) -> int:
    # `input` is `cmd input` on Android 14: its failures are a service's exceptions
    args = _InputArgs(list(inv.args))
    verb = args.next()
    try:
        if verb in _INPUT_SOURCES:
            verb = args.required()
        if verb == "-d":
            _java_int(args.required())
            verb = args.required()
        try:
            return _input_verb(inv, verb, args)
        except _BadNumber:
            # InputShellCommand turns a NumberFormatException into this message
            raise _InputError("java.lang.IllegalArgumentException: Error: Invalid arguments for "
                              f"command: {verb}") from None
    except _BadNumber as exc:
        return service_exception(inv, inv.args[0], f"java.lang.NumberFormatException: For input string: \"{exc}\"")
    except _InputError as exc:
        return service_exception(inv, inv.args[0] if inv.args else "", str(exc))


def _input_verb(inv: Invocation, verb: str | None, args: _InputArgs) -> int:
    system = inv.phone.system
    if verb == "text":
        text = android_input_text(args.required())
        if not set(text) <= VIRTUAL_KEYBOARD_CHARS:
            # KeyCharacterMap.getEvents() returns null for text it has no keys
            # for, and sendText reads its length: an exception, nothing typed.
            raise _InputError("java.lang.NullPointerException: Attempt to get length of null array")
        system.input_text(text)
    elif verb == "keyevent":
        first = args.required()
        codes = [first] + args.args[args.pos:]
        for code in codes:
            if code in ("--longpress", "--doubletap", "--delay") or code.startswith("--"):
                continue
            name = canonical_key(code)
            if name is not None:  # an unknown name is KEYCODE_UNKNOWN, which does nothing
                system.key(name)
    elif verb == "tap":
        x, y = _java_float(args.required()), _java_float(args.required())
        system.tap(int(x), int(y))
    elif verb in ("swipe", "draganddrop"):
        x1, y1, x2, y2 = (_java_float(args.required()) for _ in range(4))
        duration_arg = args.next()
        duration = _java_int(duration_arg) if duration_arg is not None else -1
        if duration < 0:
            duration = 300  # InputShellCommand's default
        system.swipe(int(x1), int(y1), int(x2), int(y2), duration)
    elif verb == "press":
        system.key("DPAD_CENTER")
    elif verb == "keycombination":
        return _input_keycombination(inv, args.args[args.pos:])
    elif verb in (None, "help", "-h"):
        inv.out(_INPUT_USAGE.lstrip("\n"))
    else:
        inv.out(f"Unknown command: {verb}\n")  # handleDefaultCommands; the exit status stays 0
    return 0


def _input_keycombination(inv: Invocation, args: list[str]) -> int:
    """InputShellCommand.runKeyCombination (API 33+): `[-t duration] KEY KEY...`, modifiers first."""
    if args[:1] == ["-t"]:
        if len(args) < 2 or not args[1].lstrip("-").isdigit():
            return service_exception(inv, "keycombination", "java.lang.IllegalArgumentException: "
                                     "Error: Invalid arguments for command: keycombination")
        args = args[2:]
    if not args:
        return service_exception(inv, "keycombination",
                                 "java.lang.IllegalArgumentException: Argument expected after \"keycombination\"")
    names = []
    for arg in args:
        name = canonical_key(arg)
        if name is None:
            return service_exception(inv, "keycombination",
                                     f"java.lang.IllegalArgumentException: Unknown keycode: {arg}")
        names.append(name)
    if len(names) < 2:
        return service_exception(inv, "keycombination", "java.lang.IllegalArgumentException: "
                                 "keycombination requires at least 2 keycodes")
    inv.phone.system.key_combination(names)
    return 0


_INPUT_USAGE = """
Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
"""


# -- uiautomator / screencap ---------------------------------------------------------
@command("uiautomator")
def _uiautomator(inv: Invocation) -> int:
    if not inv.args or inv.args[0] != "dump":
        raise UsageError("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
                         "dump: creates an XML dump of current UI hierarchy")
    compressed = False
    path = "/sdcard/window_dump.xml"
    for arg in inv.args[1:]:
        if arg == "--compressed":
            compressed = True
        elif arg == "--verbose":
            pass
        elif arg.startswith("-"):
            raise UsageError(f"Unknown option: {arg}")
        else:
            path = arg
    xml = inv.phone.system.dump_xml(compressed=compressed).encode("utf-8")
    if path == "/dev/tty":
        inv.out(xml)
    else:
        inv.fs.write_file(path, xml, inv.cwd)
    inv.out(f"UI hierchary dumped to: {path}\n")
    return 0


@command("screencap")
def _screencap(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "hpa", "d")
    if opts.get("h"):
        inv.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
        return 0
    path = rest[0] if rest else None
    png = bool(opts.get("p")) or (path is not None and path.endswith(".png"))
    system = inv.phone.system
    if png:
        data = system.screenshot_png()
    else:
        # width, height, PIXEL_FORMAT_RGBA_8888, dataspace (sRGB)
        data = struct.pack("<4I", system.width, system.height, 1, 1) + system.screenshot_rgba()
    if path is None:
        inv.out(data)
    else:
        inv.fs.write_file(path, data, inv.cwd)
    return 0


# -- wm ----------------------------------------------------------------------------------
@command("wm")
def _wm(inv: Invocation) -> int:
    system = inv.phone.system
    if inv.args[:1] == ["size"] and len(inv.args) == 1:
        inv.out(f"Physical size: {system.width}x{system.height}\n")
    elif inv.args[:1] == ["density"] and len(inv.args) == 1:
        inv.out(f"Physical density: {system.density}\n")
    elif inv.args[:1] in (["size"], ["density"]):
        # The UI is laid out for one fixed screen; an override would lie to clients.
        return inv.fail("overriding the display is not supported by the virtual phone")
    else:
        raise UsageError("Window manager (window) commands:\n  size [reset|WxH|WdpxHdp]\n  density [reset|DENSITY]")
    return 0


# -- dumpsys ----------------------------------------------------------------------------------
def _dumpsys_options(args: list[str]) -> list[str] | None:
    """Strip dumpsys' own options (`-t SECONDS`, `-T MS`, `--priority LEVEL`, ...); None: bad usage."""
    args = list(args)
    while args and args[0].startswith("-") and args[0] not in ("-l", "--help", "-h"):
        option = args.pop(0)
        if option in ("-t", "-T", "--priority", "--skip"):
            if not args:
                return None
            value = args.pop(0)
            if option in ("-t", "-T") and not value.isdigit():
                return None
        elif option not in ("--proto", "--pid", "--thread", "--stability", "--dump", "--clients", "-c",
                            "--serialNo"):
            return None
    return args


@command("dumpsys")
def _dumpsys(inv: Invocation) -> int:
    args = _dumpsys_options(inv.args)
    if args is None:
        inv.err(_DUMPSYS_USAGE)
        return 255
    if not args:
        return 0
    if args[0] == "-l":
        inv.out("Currently running services:\n" + "".join(f"  {name}\n" for name in sorted(SERVICE_NAMES)))
        return 0
    if args[0] in ("-h", "--help"):
        inv.err(_DUMPSYS_USAGE)
        return 0
    service, rest = args[0], args[1:]
    if service not in SERVICE_NAMES:
        inv.err(f"Can't find service: {service}\n")
        return 0
    # the service's own dump, registered with the phone's services; a service with nothing to
    # report prints nothing
    handler = find_dump(service, rest)
    return handler(inv, rest) if handler is not None else 0


_DUMPSYS_USAGE = (
    "usage: dumpsys\n"
    "         To dump all services.\n"
    "or:\n"
    "       dumpsys [-t TIMEOUT] [--priority LEVEL] [--clients] [--dump] [--pid] [--thread] "
    "[--help | -l | --skip SERVICES | SERVICE [ARGS]]\n"
    "         --help: shows this help\n"
    "         -l: only list services, do not dump them\n"
    "         -t TIMEOUT_SEC: TIMEOUT to use in seconds instead of default 10 seconds\n"
    "         -T TIMEOUT_MS: TIMEOUT to use in milliseconds instead of default 10 seconds\n"
)


# -- am / monkey ----------------------------------------------------------------------------------
def _start_intent(inv: Invocation, intent: IntentArgs) -> int:
    phone, system = inv.phone, inv.phone.system
    if intent.component:
        package, _, activity = intent.component.partition("/")
        if not package or not activity:
            return _bad_component(inv, intent)
        intent.component = short_component(package, full_class(package, activity))
    inv.out(f"Starting: {intent.describe()}\n")
    # the caller is am's own process, the shell's child
    result = activity_manager.start_activity(phone, intent, stop_first=intent.stop_first,
                                             caller_pid=phone.shell_pid + 1)
    if result.outcome == "denied":
        return _security_exception(inv, result.detail)
    if result.outcome == "unresolved":
        inv.err(f"Error: Activity not started, unable to resolve {intent.describe()}\n")
        return 1
    if result.outcome == "not found":
        inv.err(f"Error type 3\nError: Activity class {{{result.detail}}} does not exist.\n")
        return 1
    if result.outcome == "finished":
        return 0  # it did its work and finished at once: the focus stays
    before = result.before
    if before is not None and before == system.focused_window() and not intent.stop_first:
        inv.out("Warning: Activity not started, intent has been delivered to currently running "
                "top-most instance.\n")
    if intent.wait:
        pkg, act = system.focused_window()
        inv.out(f"Status: ok\nLaunchState: {'HOT' if before and before[0] == pkg else 'COLD'}\n"
                f"Activity: {short_component(pkg, act)}\nTotalTime: 0\nWaitTime: 0\nComplete\n")
    return 0


#: the frames of the SecurityException's stack trace, Android 14's call path from `cmd activity start`
_START_FRAMES = (
    "com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission",
    "com.android.server.wm.ActivityStarter.executeRequest",
    "com.android.server.wm.ActivityStarter.execute",
    "com.android.server.wm.ActivityTaskManagerService.startActivityAsUser",
    "com.android.server.am.ActivityManagerService.startActivityAsUserWithFeature",
    "com.android.server.am.ActivityManagerShellCommand.runStartActivity",
    "com.android.server.am.ActivityManagerShellCommand.onCommand",
    "com.android.modules.utils.BasicShellCommandHandler.exec",
    "android.os.ShellCommand.exec",
    "com.android.server.am.ActivityManagerService.onShellCommand",
    "android.os.Binder.shellCommand",
    "android.os.Binder.onTransact",
)


def _security_exception(inv: Invocation, message: str) -> int:
    """ActivityTaskSupervisor refused the start (an activity not exported to the shell): the shell
    command handler (BasicShellCommandHandler.exec) prints "Security exception: <message>", an
    empty line and the stack trace, and answers -1 (exit status 255)."""
    frames = "".join(f"\tat {frame}({frame.rsplit('.', 2)[-2]}.java)\n" for frame in _START_FRAMES)
    inv.err(f"Security exception: {message}\n\njava.lang.SecurityException: {message}\n{frames}")
    return 255


def _bad_component(inv: Invocation, intent: IntentArgs) -> int:
    inv.err(f"Exception occurred while executing 'start':\njava.lang.IllegalArgumentException: "
            f"Bad component name: {intent.component}\n")
    return 255


@command("am")
def _am(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Activity manager (activity) commands:\n  start [options] INTENT\n"
                         "  force-stop [--user <USER_ID>] <PACKAGE>\n  broadcast [options] INTENT")
    verb, rest = inv.args[0], inv.args[1:]
    if verb in ("start", "start-activity"):
        return _start_intent(inv, parse_intent(rest))
    if verb in ("force-stop", "kill", "stop-app"):
        packages = [a for a in rest if not a.startswith("-") and not a.isdigit()]
        for package in packages:
            activity_manager.force_stop(inv.phone, package)  # unknown packages are ignored, as on a phone
        return 0
    if verb == "instrument":
        return am_instrument(inv, rest)
    if verb == "broadcast":
        intent = parse_intent(rest)
        # am sends every broadcast with FLAG_RECEIVER_FOREGROUND (0x400000), which it prints
        inv.out(f"Broadcasting: {intent.describe(flags=0x400000)}\n")
        # A receiver may set a result code and data (setResultCode/setResultData), which am prints.
        code, data = send_broadcast(inv.phone, intent.broadcast())
        inv.out(f"Broadcast completed: result={code}" + (f', data="{data}"' if data is not None else "") + "\n")
        return 0
    return _am_unknown(inv, verb)


def _am_unknown(inv: Invocation, verb: str) -> int:
    inv.err(f"Unknown command: {verb}\n")
    return 255


#: monkey's network mode (MonkeySourceNetwork): fn(inv, port) -> exit status, holding the running
#: monkey; registered by the programs layer (programs/monkey_network.py)
MONKEY_NETWORK: list[Callable[[Invocation, int], int]] = []


@command("monkey")
def _monkey(inv: Invocation) -> int:
    """The launcher idiom, `monkey -p PKG -c android.intent.category.LAUNCHER 1`, and the network
    mode, `monkey --port N` (programs/monkey_network.py)."""
    packages, categories = [], []
    args = inv.args
    i = 0
    count = None
    port = None
    while i < len(args):
        if args[i] == "--port" and i + 1 < len(args):
            port = args[i + 1]
            i += 2
        elif args[i] == "-p" and i + 1 < len(args):
            packages.append(args[i + 1])
            i += 2
        elif args[i] == "-c" and i + 1 < len(args):
            categories.append(args[i + 1])
            i += 2
        elif args[i] in ("-s", "--throttle", "--pct-touch", "--pct-motion") and i + 1 < len(args):
            i += 2
        elif args[i].isdigit():
            count = int(args[i])
            i += 1
        else:
            i += 1
    for arg in args:
        inv.out(f"  bash arg: {arg}\n")
    if port is not None:
        try:  # Monkey.processOptions: nextOptionLong("Server port to listen on for commands")
            number = int(port, 10)
        except ValueError:  # (the usage Monkey prints after it is not modelled)
            inv.err("** Error: Server port to listen on for commands is not a number\n")
            return 1
        return MONKEY_NETWORK[0](inv, number)
    if count is None:
        return inv.fail("** Error: Count not specified", 1)
    system = inv.phone.system
    runnable = [p for p in packages if monkey_entry(inv.phone, p) is not None]
    if not runnable:
        inv.err("** No activities found to run, monkey aborted.\n")
        return 252
    # Real monkey would inject `count` random events; the virtual phone models
    # only the launch that this idiom is used for; ActivityTaskManager logs its launch intent.
    launcher = monkey_entry(inv.phone, runnable[0])
    note_start_request(inv.phone, "act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
                       f"flg=0x10200000 cmp={short_component(runnable[0], launcher)}", uid=adbd_uid(inv.phone))
    system.start_activity(runnable[0], None)
    inv.out("Events injected: 1\n## Network stats: elapsed time=4ms (0ms mobile, 0ms wifi, 4ms not connected)\n")
    return 0


# -- pm -----------------------------------------------------------------------------------------
def _is_system_package(package: str) -> bool:
    # the image's own packages; Google's builds rename some modules (com.google.android.permissioncontroller)
    return package == "android" or package.startswith(("com.android.", "com.google.android."))


def _all_packages(phone) -> list[str]:
    return phone.packages.packages()  # PackageManagerService's one set


@command("pm")
def _pm(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Package manager (package) commands:\n  list packages [-3] [-s] [-e] [-d] [FILTER]\n"
                         "  clear PACKAGE\n  grant PACKAGE PERMISSION\n  revoke PACKAGE PERMISSION\n"
                         "  disable-user PACKAGE\n  enable PACKAGE\n  path PACKAGE")
    verb, rest = inv.args[0], [a for a in inv.args[1:]]
    if verb in PACKAGE_COMMANDS:  # `pm` and `cmd package` are one service on a phone
        return PACKAGE_COMMANDS[verb](inv, rest)
    # `--user 0` may appear anywhere; it changes nothing on a single-user phone.
    while "--user" in rest:
        at = rest.index("--user")
        del rest[at:at + 2]
    phone = inv.phone
    packages = _all_packages(phone)
    if verb == "list" and rest and rest[0] == "instrumentation":
        return pm_list_instrumentation(inv, rest[1:])
    if verb == "list" and rest[:1] == ["features"]:
        return pm_list_features(inv, rest[1:])
    if verb == "list":
        # --show-versioncode adds " versionCode:N" (PackageManagerShellCommand.runListPackages)
        show_versions = "--show-versioncode" in rest
        rest = [a for a in rest if a != "--show-versioncode"]
        if not rest or rest[0] != "packages":
            return _pm_exception(inv, verb, "java.lang.IllegalArgumentException: Unknown list type")
        opts, filters = parse_flags(rest[1:], "3sedfiUu")
        for package in packages:
            if opts.get("3") and _is_system_package(package):
                continue
            if opts.get("s") and not _is_system_package(package):
                continue
            if opts.get("e") and not phone.package_enabled(package):
                continue
            if opts.get("d") and phone.package_enabled(package):
                continue
            if filters and filters[0] not in package:
                continue
            prefix = f"package:{phone.packages.apk_path(package)}=" if opts.get("f") else "package:"
            suffix = f" versionCode:{phone.packages.version_code(package)}" if show_versions else ""
            if opts.get("U"):  # runListPackages prints " uid:" after the version code
                suffix += f" uid:{phone.packages.uid(package)}"
            inv.out(f"{prefix}{package}{suffix}\n")
        return 0
    if not rest:
        return _pm_exception(inv, verb, "java.lang.IllegalArgumentException: Argument expected after \"{verb}\"")
    package = rest[0]
    if verb == "path":
        if package not in packages:
            return 1
        inv.out(f"package:{phone.packages.apk_path(package)}\n")
        return 0
    if verb == "clear":
        if package not in packages or not phone.system.clear_data(package):
            if package in packages:  # system packages hold no app model data
                inv.out("Success\n")
                return 0
            inv.out("Failed\n")
            return 1
        phone.forget_pid(package)
        phone.permissions.pop(package, None)  # clearing data resets runtime grants
        inv.out("Success\n")
        return 0
    if verb in ("grant", "revoke"):
        if len(rest) < 2:
            return _pm_exception(inv, verb, "java.lang.IllegalArgumentException: Argument expected")
        permission = rest[1]
        if package not in packages:
            return _pm_exception(inv, verb, f"java.lang.IllegalArgumentException: Unknown package: {package}")
        if not re.fullmatch(r"[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+", permission):
            return _pm_exception(inv, verb, f"java.lang.IllegalArgumentException: Unknown permission: {permission}")
        granted = phone.permissions.setdefault(package, set())
        if verb == "grant":
            granted.add(permission)
        else:
            granted.discard(permission)
        return 0
    if verb in ("disable-user", "disable", "enable", "default-state"):
        if package not in packages:
            return _pm_exception(inv, verb, f"java.lang.IllegalArgumentException: Unknown package: {package}")
        enabled = verb in ("enable", "default-state")
        phone.set_package_enabled(package, enabled)
        if not enabled:
            phone.system.force_stop(package)
            phone.forget_pid(package)
        state = {"enable": "enabled", "default-state": "default", "disable": "disabled",
                 "disable-user": "disabled-user"}[verb]
        inv.out(f"Package {package} new state: {state}\n")
        return 0
    return _pm_exception(inv, verb, f"java.lang.IllegalArgumentException: Unknown command: {verb}")


def _pm_exception(inv: Invocation, verb: str, message: str) -> int:
    inv.err(f"Exception occurred while executing '{verb}':\n{message}\n")
    return 255


# -- settings -------------------------------------------------------------------------------------
@command("settings")
def _settings(inv: Invocation) -> int:
    args = list(inv.args)
    while "--user" in args:
        at = args.index("--user")
        del args[at:at + 2]
    usage = ("usage:  settings [--user <USER_ID> | current] get namespace key\n"
             "        settings [--user <USER_ID> | current] put namespace key value\n"
             "        settings [--user <USER_ID> | current] delete namespace key\n"
             "        settings [--user <USER_ID> | current] list namespace\n")
    if len(args) < 2:
        raise UsageError(usage.rstrip())
    verb, namespace = args[0], args[1]
    table = inv.phone.settings.get(namespace)
    if table is None:
        inv.err(f"Invalid namespace '{namespace}'\n{usage}")
        return 1
    if verb == "get" and len(args) == 3:
        inv.out(f"{table.get(args[2], 'null')}\n")
    elif verb == "put" and len(args) >= 4:
        table[args[2]] = args[3]
        _settings_changed(inv.phone)
    elif verb == "delete" and len(args) == 3:
        existed = table.pop(args[2], None) is not None
        _settings_changed(inv.phone)
        inv.out(f"Deleted {1 if existed else 0} rows\n")
    elif verb == "list" and len(args) == 2:
        for key in sorted(table):
            inv.out(f"{key}={table[key]}\n")
    else:
        inv.err(usage)
        return 1
    return 0


def _settings_changed(phone) -> None:
    system_state_changed(phone)  # services bound per settings (accessibility, IME)


@command("pidof")
def _pidof(inv: Invocation) -> int:
    table = processes(inv.phone)  # the one process table `ps` also lists
    pids = [str(p.pid) for name in inv.args for p in table
            if p.cmdline and name in (p.cmdline, p.cmdline.rsplit("/", 1)[-1])]
    if not pids:
        return 1
    inv.out(" ".join(pids) + "\n")
    return 0

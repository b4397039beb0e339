"""`app_process`: start a Java program from a dex jar, as clients start their on-device servers.

``CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008``
(uiautomator2), like scrcpy's server, runs a class from a pushed jar. On the
phone the class must be in one of the CLASSPATH jars' dex files (dex.py)
and be one the phone models (`APP_PROCESS_MAINS`); its ``main`` then
runs as the phone's program.

When the class cannot be loaded, app_main.cpp only logs "ERROR: could not find
class" (to logcat) and ART aborts on the pending ClassNotFoundException
("No pending exception expected"), so the shell prints ``Aborted`` and the
status is 134 (SIGABRT) -- what users of scrcpy report for a missing or wrong
jar (Genymobile/scrcpy issues 268 and 953).
"""

from __future__ import annotations

import weakref
from typing import Callable

from ..kernel.fs import FsError
from ..kernel.processes import EXTRA_PROCESSES, Process, adbd_label, adbd_uid
from .dex import jar_classes
from .interpreter import Invocation, command
from .program import track

#: Java main classes the phone can run with app_process: class -> ``main(inv, args) -> exit status``,
#: which may hold a Program.  The programs layer registers them (uiautomator2's server,
#: programs/uiautomator2.py, is ``com.wetest.uia2.Main``).
APP_PROCESS_MAINS: dict[str, Callable[[Invocation, list[str]], int]] = {}


def app_process_main(class_name: str) -> Callable[[Invocation, list[str]], int] | None:
    """The modelled ``main`` of a Java class, or None when the phone has no model of it."""
    return APP_PROCESS_MAINS.get(class_name)


#: sh's status for a child killed by SIGABRT (128 + 6)
ABORTED_STATUS = 134
_USAGE = "Usage: app_process [java-options] cmd-dir start-class-name [options]\n"


@command("app_process", "app_process64")
def _app_process(inv: Invocation) -> int:
    args = list(inv.args)
    # app_main.cpp: leading "-..." words are VM options, then the parent dir,
    # then runtime flags (--nice-name=, --application) and the class name.
    while args and args[0].startswith("-"):
        args.pop(0)
    if not args:
        inv.err(_USAGE)
        return _aborted(inv)
    args.pop(0)  # the parent dir
    while args and args[0].startswith("--") and not args[0] == "--":
        if args[0] in ("--zygote", "--start-system-server"):
            inv.err(_USAGE)  # only zygote itself runs that way
            return _aborted(inv)
        args.pop(0)
    if not args:
        inv.err(_USAGE)
        return _aborted(inv)
    class_name, main_args = args[0], args[1:]
    classpath = inv.env.get("CLASSPATH", inv.session.vars.get("CLASSPATH", ""))
    defined: set[str] = set()
    for jar in filter(None, classpath.split(":")):
        try:
            defined |= jar_classes(inv.fs.read_file(jar, inv.cwd))
        except FsError:
            continue  # ART logs "Unable to load dex file" and goes on
    main = app_process_main(class_name) if class_name in defined else None
    if main is None:
        return _aborted(inv)
    status = main(inv, main_args)
    if inv.session.held is not None:
        _show_in_ps(inv, inv.session.held)
    return status


#: phone -> pids of the app_process programs running on it (listed by ps)
_RUNNING: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _show_in_ps(inv: Invocation, program) -> None:
    """List the running program in `ps` as Android does: argv[0] `app_process`, uid shell,
    the adb shell its parent; ART names the main thread "main" (scrcpy's tombstones:
    "name: main  >>> app_process <<<")."""
    key = f"app_process#{id(program)}"
    pid = inv.phone.pid_of(key)
    running = _RUNNING.setdefault(inv.phone, set())
    running.add(pid)
    track(inv.phone, pid, program)

    def gone() -> None:
        running.discard(pid)
        inv.phone.forget_pid(key)
    program.at_exit(gone)


def _running_processes(phone) -> list:
    return [Process(pid, phone.shell_pid, adbd_uid(phone), "app_process", "main", 13_961_348, 122_880,
                    "do_epoll_wait", "S", adbd_label(phone)) for pid in sorted(_RUNNING.get(phone, ()))]


EXTRA_PROCESSES.append(_running_processes)


def _aborted(inv: Invocation) -> int:
    inv.err("Aborted \n")
    return ABORTED_STATUS

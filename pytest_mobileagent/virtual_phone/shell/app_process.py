"""`app_process`: start a Java program from a dex jar, as clients start their on-device servers.

``CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008``
(uiautomator2), like scrcpy's server, runs a class from a pushed jar. On the
phone the class must be in one of the CLASSPATH jars' dex files (programs/dex.py)
and be one the phone models (programs.APP_PROCESS_MAINS); its ``main`` then
runs as the phone's program.

When the class cannot be loaded, app_main.cpp only logs "ERROR: could not find
class" (to logcat) and ART aborts on the pending ClassNotFoundException
("No pending exception expected"), so the shell prints ``Aborted`` and the
status is 134 (SIGABRT) -- what users of scrcpy report for a missing or wrong
jar (Genymobile/scrcpy issues 268 and 953).
"""

from __future__ import annotations

from ..fs import FsError
from .interpreter import Invocation, command

#: sh's status for a child killed by SIGABRT (128 + 6)
ABORTED_STATUS = 134
_USAGE = "Usage: app_process [java-options] cmd-dir start-class-name [options]\n"


@command("app_process", "app_process64")
def _app_process(inv: Invocation) -> int:
    from ..programs import app_process_main
    from ..programs.dex import jar_classes

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
    return main(inv, main_args)


def _aborted(inv: Invocation) -> int:
    inv.err("Aborted \n")
    return ABORTED_STATUS

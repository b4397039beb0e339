"""`am instrument` and `pm list instrumentation`: test runners of installed APKs, and what they run.

Instrumentations come from the manifests of APKs installed over adb (their
``<instrumentation>`` elements, apkinfo.py). What a runner runs is the test
APK's code; the phone models the ones clients start as servers, by component
(`RUNNERS`, which the programs layer fills with `runner`): Appium's UiAutomator2 server
(programs/appium_uia2.py) is the test
``io.appium.uiautomator2.server.test.AppiumUiAutomator2Server#startServer``
(androidTestServer/ in github:appium/appium-uiautomator2-server), which starts
the HTTP server on port 6790 and waits until the server is told to stop
(``DELETE /session/:id``) or its process is killed (`am force-stop`). A test APK
whose code is not modelled runs no test.

Output is AOSP's: ``am`` (frameworks/base/cmds/am/src/com/android/commands/am/Instrument.java)
prints, without ``-r``, each status's ``stream`` text, then the final result's
``stream`` text and ``INSTRUMENTATION_CODE: N``. AndroidJUnitRunner's stream is
JUnit's TextListener (``ClassName:`` per class, ``.`` per passing test, then
``Time: S``, ``OK (N tests)``). A process that dies under instrumentation is
finished by ActivityManagerService with ``shortMsg=Process crashed.`` and
RESULT_CANCELED (0).
"""

from __future__ import annotations

import weakref
from typing import Callable

from ..framework.activity_manager import FORCE_STOP_LISTENERS
from ..kernel.context import PhoneContext
from ..kernel.processes import RUNNING_PACKAGE_SOURCES
from .interpreter import Invocation
from .program import Program

__all__ = ["RUNNERS", "am_instrument", "finish_test", "instrumentations", "pm_list_instrumentation", "runner",
           "stop_package"]

#: component -> starts the test code it runs, returns its Program (or None when it ran to the end)
Runner = Callable[["PhoneContext", "Invocation", dict[str, str]], Program]
RUNNERS: dict[str, Runner] = {}

#: running instrumentations per phone: (test package, target package) -> Program
_RUNNING: "weakref.WeakKeyDictionary[PhoneContext, dict[tuple[str, str], Program]]" = weakref.WeakKeyDictionary()


def _instrumented_packages(phone: "PhoneContext") -> list[str]:
    """The target processes running an instrumentation (`ps` lists them)."""
    return [target for (_test, target) in _RUNNING.get(phone, {})]


def runner(component: str):
    """Register the modelled test code of an instrumentation component."""
    def register(fn: Runner) -> Runner:
        RUNNERS[component] = fn
        return fn
    return register


def instrumentations(phone: "PhoneContext") -> list[tuple[str, str]]:
    """(component, target package) of every installed instrumentation, sorted."""
    found = []
    for package, entry in phone.packages.installed.items():
        for name, target in getattr(entry.info, "instrumentations", ()):
            found.append((f"{package}/{name}", target))
    return sorted(found)


def pm_list_instrumentation(inv: Invocation, args: list[str]) -> int:
    """`pm list instrumentation [TARGET]` (PackageManagerShellCommand.runListInstrumentation)."""
    target_filter = next((a for a in args if not a.startswith("-")), None)
    show_path = "-f" in args
    for component, target in instrumentations(inv.phone):
        if target_filter is not None and target != target_filter:
            continue
        package = component.split("/", 1)[0]
        prefix = f"{inv.phone.packages.apk_path(package)}=" if show_path else ""
        inv.out(f"instrumentation:{prefix}{component} (target={target})\n")
    return 0


def _short(component: str) -> str:
    package, _, cls = component.partition("/")
    return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else component


def _full(component: str) -> str:
    package, _, cls = component.partition("/")
    return f"{package}/{package}{cls}" if cls.startswith(".") else component


def am_instrument(inv: Invocation, args: list[str]) -> int:
    """`am instrument [-w] [-r] [-e K V]... [--no-window-animation] COMPONENT`."""
    wait, extras, component = False, {}, None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-w":
            wait = True
        elif arg == "-e" and i + 2 < len(args):
            extras[args[i + 1]] = args[i + 2]
            i += 2
        elif arg in ("--user", "-p", "--abi") and i + 1 < len(args):
            i += 1
        elif arg.startswith("-"):
            # --no-window-animation, --no-hidden-api-checks... change nothing here; -r and -m
            # (raw status key/values, protobuf) are not modelled: the text stream is printed
            pass
        else:
            component = arg
        i += 1
    if component is None or "/" not in component:
        inv.err("Exception occurred while executing 'instrument':\n"
                f"java.lang.IllegalArgumentException: Bad component name: {component or ''}\n")
        return 255
    component = _full(component)
    known = dict(instrumentations(inv.phone))
    # ActivityManagerService.startInstrumentation -> reportStartInstrumentationFailure,
    # then Instrument.run throws INSTRUMENTATION_FAILED
    if component not in known:
        return _start_failure(inv, component, f"Unable to find instrumentation info for: ComponentInfo{{{component}}}")
    target = known[component]
    if not inv.phone.packages.is_installed(target):
        return _start_failure(inv, component, f"Unable to find instrumentation target package: {target}")
    stop_package(inv.phone, target)  # instrumenting restarts the target's process
    start = RUNNERS.get(component)
    if start is None:
        if wait:
            inv.out("\nTime: 0\n\nOK (0 tests)\n\n\nINSTRUMENTATION_CODE: -1\n")
        return 0
    program = start(inv.phone, inv, extras)
    phone, key = inv.phone, (component.split("/", 1)[0], target)
    if program.running:  # (a runner whose process could not start has already ended)
        running = _RUNNING.setdefault(phone, {})
        running[key] = program
        phone.pid_of(target)  # the target's process runs the test: `ps` shows it

        def ended() -> None:
            if running.get(key) is program:
                del running[key]
                phone.forget_pid(target)

        program.at_exit(ended)
    if wait:
        inv.session.hold(program)
    else:
        program.on_output(lambda data: None)  # nobody reads it: `am` returned at once
    return 0


def _start_failure(inv: Invocation, component: str, error: str) -> int:
    inv.out("INSTRUMENTATION_STATUS: id=ActivityManagerService\n"
            f"INSTRUMENTATION_STATUS: Error={error}\n"
            "INSTRUMENTATION_STATUS_CODE: -1\n")
    inv.err("Exception occurred while executing 'instrument':\n"
            f"android.util.AndroidException: INSTRUMENTATION_FAILED: {_short(component)}\n")
    return 255


def stop_package(phone: "PhoneContext", package: str) -> None:
    """`am force-stop PACKAGE`: kill an instrumentation whose target (or test) package it names."""
    for packages, program in list(_RUNNING.get(phone, {}).items()):
        if package in packages:
            program.print("INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n")
            program.exit(0)


def finish_test(program: Program, phone: "PhoneContext", test_class: str, started_ms: int) -> None:
    """The runner's test returned: JUnit's summary and the instrumentation's end."""
    seconds = (phone.clock_ms() - started_ms) / 1000
    elapsed = f"{seconds:,.3f}".rstrip("0").rstrip(".")
    program.print(f".\nTime: {elapsed}\n\nOK (1 test)\n\n\nINSTRUMENTATION_CODE: -1\n")
    program.exit(0)


RUNNING_PACKAGE_SOURCES.append(_instrumented_packages)  # the process table (`ps`) reads ours
FORCE_STOP_LISTENERS.append(stop_package)  # an instrumented process dies with its package

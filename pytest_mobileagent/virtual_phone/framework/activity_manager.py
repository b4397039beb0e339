"""ActivityManagerService: what starting an activity of an installed APK does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..phone import VirtualPhone

__all__ = ["ACTIVITIES", "start_activity"]

#: (package, activity class) -> what starting it does: fn(phone, action) -> True when it stays
#: on screen (not modelled here: every helper activity finishes at once)
ACTIVITIES: dict[tuple[str, str], Callable[["VirtualPhone", str | None], None]] = {}


def start_activity(phone: "VirtualPhone", package: str, cls: str, action: str | None) -> bool:
    """Start an activity of an installed helper APK; False when the phone does not model it."""
    entry = phone.packages.installed.get(package)
    behaviour = ACTIVITIES.get((package, cls))
    if entry is None or behaviour is None or cls not in entry.info.activities:
        return False
    behaviour(phone, action)
    return True


def short_component(package: str, activity: str) -> str:
    """`pkg/.Act` when the class is inside the package, else `pkg/full.Class`."""
    if activity.startswith(package + "."):
        return f"{package}/{activity[len(package):]}"
    return f"{package}/{activity}"


def _full_class(package: str, activity: str) -> str:
    return package + activity if activity.startswith(".") else activity


def _hash(text: str, digits: int = 7) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(digits, "0")[:digits]


class _Intent:
    def __init__(self):
        self.action: str | None = None
        self.categories: list[str] = []
        self.component: str | None = None
        self.package: str | None = None
        self.data: str | None = None
        self.mime_type: str | None = None
        self.extras: dict[str, str] = {}  # --es KEY VALUE
        self.int_extras: dict[str, str] = {}  # --ei KEY VALUE, as given
        self.wait = False
        self.stop_first = False

    def describe(self, flags: int = 0) -> str:
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={self.data}")
        if self.mime_type:
            parts.append(f"typ={self.mime_type}")
        if flags:
            parts.append(f"flg={flags:#x}")
        if self.package and not self.component:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={self.component}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"


#: the Intent.EXTRA_* keys `--es` sets that the system screens read (intents.Intent's extras)
_EXTRA_KEYS = {"android.intent.extra.TEXT": "text", "android.intent.extra.SUBJECT": "subject",
               "android.intent.extra.TITLE": "title"}


def _has_launcher_entry(app) -> bool:
    """Whether monkey's LAUNCHER intent finds an activity of the app (the home app counts, as
    before); the system screens (share sheet, permission dialog, the framework) have none."""
    from ..framework.roles import ROLE_HOME

    return app is None or app.in_launcher or ROLE_HOME in app.roles


def _implicit(intent: _Intent):
    return Intent(intent.action, data=intent.data, mime_type=intent.mime_type,
                  extras={_EXTRA_KEYS[k]: v for k, v in intent.extras.items() if k in _EXTRA_KEYS})


def _force_stop(phone, package: str) -> None:
    from .instrument import stop_package  # an instrumented process dies with its package
    from ..framework.active_services import stop_package as stop_services

    stop_package(phone, package)
    stop_services(phone, package)
    phone.system.force_stop(package)
    phone.forget_pid(package)


_MAIN = "android.intent.action.MAIN"
_LAUNCHER = "android.intent.category.LAUNCHER"
_HOME = "android.intent.category.HOME"
_DEFAULT = "android.intent.category.DEFAULT"


def _alias_target(system, package: str, activity: str) -> str:
    """ActivityInfo.targetActivity: the activity an <activity-alias> starts, else null."""
    app = system.app(package)
    if app is not None and activity in app.splash_names[1:]:
        return app.splash_names[0]
    return "null"


def _window_token(package: str, activity: str) -> str:
    return _hash(f"window:{package}/{activity}")


def _record_token(package: str, activity: str) -> str:
    return _hash(f"record:{package}/{activity}")


def _task_id(package: str) -> int:
    return 10 + zlib.crc32(package.encode()) % 90


def _dumpsys_activity_top(phone) -> str:
    package, activity = phone.system.focused_window()
    return (f"TASK {_task_id(package)}:{package} id={_task_id(package)} userId=0\n"
            f"  ACTIVITY {short_component(package, activity)} {_record_token(package, activity)} "
            f"pid={phone.pid_of(package)}\n"
            f"    Local Activity {_hash(activity + 'local')} State:\n"
            "      mResumed=true mStopped=false mFinished=false\n"
            "      mIsChangingConfigurations=false\n"
            "      mCurrentConfig={1.0 ?mcc?mnc [en_US] ldltr sw392dp w392dp h850dp 440dpi nrml port}\n")


def _dumpsys_activities(phone) -> str:
    system = phone.system
    stack = system.activity_stack() or [system.focused_window()]
    top_pkg, top_act = stack[0]
    lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
             "Display #0 (activities from top to bottom):"]
    tasks: list[tuple[str, list[tuple[str, str]]]] = []
    for pkg, act in stack:
        if tasks and tasks[-1][0] == pkg:
            tasks[-1][1].append((pkg, act))
        else:
            tasks.append((pkg, [(pkg, act)]))
    for pkg, records in tasks:
        tid = _task_id(pkg)
        lines.append(f"  * Task{{{_hash('task' + pkg)} #{tid} type=standard A=10{zlib.crc32(pkg.encode()) % 1000:03d}:"
                     f"{pkg} U=0 visible={'true' if pkg == top_pkg else 'false'} mode=fullscreen "
                     f"translucent=false sz={len(records)}}}")
        lines.append(f"    affinity={pkg}")
        for index, (p, a) in enumerate(records):
            rec = f"ActivityRecord{{{_record_token(p, a)} u0 {short_component(p, a)} t{tid}}}"
            lines.append(f"    * Hist  #{len(records) - 1 - index}: {rec}")
            lines.append(f"      packageName={p} processName={p}")
        if pkg == top_pkg:
            lines.append(f"    mResumedActivity: ActivityRecord{{{_record_token(top_pkg, top_act)} u0 "
                         f"{short_component(top_pkg, top_act)} t{tid}}}")
    lines += ["",
              f"  ResumedActivity: ActivityRecord{{{_record_token(top_pkg, top_act)} u0 "
              f"{short_component(top_pkg, top_act)} t{_task_id(top_pkg)}}}",
              "",
              f"  mFocusedRootTask=Task{{{_hash('task' + top_pkg)} #{_task_id(top_pkg)}}}",
              ""]
    return "\n".join(lines)



"""ActivityManagerService and ActivityTaskManager: starting activities, force-stopping packages.

What `am start`, `am force-stop`, `monkey` and `cmd package resolve-activity` ask of the system
(the commands, shell/android.py and shell/cmd.py, parse their arguments and print the outcome):

- `start_activity`: an intent given on a command line (`CommandIntent`: explicit, HOME, a
  package's launcher entry or an implicit intent), started on the activity stack that
  AndroidSystem keeps (system.py); the shell may start only exported activities.  An activity of
  an APK installed over adb that the phone models by what it does (`ACTIVITIES`, registered by
  the programs layer: programs/helper_apps.py) runs that and finishes at once.
- `force_stop`: the package's process dies with its activities and started services
  (active_services.py); `FORCE_STOP_LISTENERS` learn of it first (an instrumentation of the
  package dies with it, shell/instrument.py).
- `resolve_activity`: which activity PackageManager resolves an intent to; `launcher_filters` /
  `launcher_activities`: a package's MAIN / LAUNCHER entries, the one rule `dumpsys package`,
  `resolve-activity`, `am start` and `monkey` share.
- the records' names and tokens (`short_component`, `record_token`, `task_id`, `window_token`),
  and `dumpsys activity` (top, activities; services and processes are active_services.py's).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..kernel.context import PhoneContext
from ..kernel.logbuffer import forget_stopped_activities, note_start_request
from ..kernel.processes import adbd_uid
from .active_services import forget_accessibility_services, stop_package, system_state_changed
from .intents import Intent, candidates, resolve
from .manifests import activity as manifest_activity
from .manifests import launcher_entries
from .roles import ROLE_HOME
from .services import DUMPSYS_HANDLERS
from .system import ActivityNotFound

if TYPE_CHECKING:
    from .services import DumpTarget

__all__ = ["ACTIVITIES", "FORCE_STOP_LISTENERS", "CommandIntent", "StartResult", "force_stop", "full_class",
           "launcher_activities", "launcher_filters", "monkey_entry", "query_activities", "record_token",
           "resolve_activity", "short_component", "start_activity",
           "start_apk_activity", "target_activity", "task_id", "window_token"]

#: (package, activity class) -> what starting it does: fn(phone, action) -> True when it stays
#: on screen (not modelled here: every helper activity finishes at once)
ACTIVITIES: dict[tuple[str, str], Callable[["PhoneContext", str | None], None]] = {}

#: fn(phone, package), called when a package is force-stopped, before its process dies
FORCE_STOP_LISTENERS: list[Callable[["PhoneContext", str], None]] = []

#: Intent.FLAG_ACTIVITY_NEW_TASK, which am adds to what it starts
FLAG_ACTIVITY_NEW_TASK = 0x10000000


# -- names and tokens ------------------------------------------------------------------------------
def short_component(package: str, activity: str) -> str:
    """`pkg/.Act` when the class is inside the package, else `pkg/full.Class`."""
    if activity.startswith(package + "."):
        return f"{package}/{activity[len(package):]}"
    return f"{package}/{activity}"


def full_class(package: str, activity: str) -> str:
    """The class a component's `.Act` names (`pkg.Act`); a full name stays as it is."""
    return package + activity if activity.startswith(".") else activity


def _hash(text: str, digits: int = 7) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(digits, "0")[:digits]


def window_token(package: str, activity: str) -> str:
    """The hash `Window{HASH u0 pkg/cls}` shows for an activity's window (stable per name)."""
    return _hash(f"window:{package}/{activity}")


def record_token(package: str, activity: str) -> str:
    """The hash `ActivityRecord{HASH u0 pkg/.Act tN}` shows (stable per name)."""
    return _hash(f"record:{package}/{activity}")


def task_id(package: str) -> int:
    """The id of the package's task (one task per package)."""
    return 10 + zlib.crc32(package.encode()) % 90


# -- intents given on a command line -----------------------------------------------------------------
#: the Intent.EXTRA_* keys `--es` sets that the system screens read (intents.Intent's extras)
_EXTRA_KEYS = {"android.intent.extra.TEXT": "text", "android.intent.extra.SUBJECT": "subject",
               "android.intent.extra.TITLE": "title"}


@dataclass
class CommandIntent:
    """An intent as a command gives it (am's and pm's INTENT arguments, shell/intent_args.py)."""

    action: str | None = None
    categories: list[str] = field(default_factory=list)
    component: str | None = None
    package: str | None = None
    data: str | None = None
    mime_type: str | None = None
    extras: dict[str, str] = field(default_factory=dict)  # --es KEY VALUE
    int_extras: dict[str, str] = field(default_factory=dict)  # --ei KEY VALUE, as given

    def describe(self, flags: int = 0) -> str:
        """Intent.toShortString, as am prints it."""
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

    def implicit(self) -> Intent:
        """The implicit intent PackageManager resolves (with the extras the system screens read)."""
        return Intent(self.action, data=self.data, mime_type=self.mime_type,
                      extras={_EXTRA_KEYS[k]: v for k, v in self.extras.items() if k in _EXTRA_KEYS})

    def broadcast(self) -> Intent:
        """The intent a broadcast receiver gets: its extras typed as the options gave them (--es, --ei)."""
        extras: dict[str, object] = {}
        for key, value in self.int_extras.items():
            try:
                extras[key] = int(value)
            except ValueError:
                pass  # not a number: the receiver finds no such int extra
        extras.update(self.extras)
        return Intent(self.action, data=self.data, mime_type=self.mime_type, extras=extras)


# -- starting activities ---------------------------------------------------------------------------
@dataclass
class StartResult:
    """What came of `start_activity`."""

    #: "started"; "finished" (a modelled APK activity did its work and finished: the focus stays);
    #: "unresolved" (no activity answers the intent); "not found" (the component's class does not
    #: exist); "denied" (the caller may not start it)
    outcome: str
    #: the focused window before the start, for an explicit or launcher start (None otherwise)
    before: tuple[str, str] | None = None
    #: "not found": the missing activity (pkg/full.Class); "denied": the SecurityException's message
    detail: str = ""


def start_apk_activity(phone: "PhoneContext", package: str, cls: str, action: str | None) -> bool:
    """Start an activity of an installed helper APK; False when the phone does not model it."""
    entry = phone.packages.installed.get(package)
    behaviour = ACTIVITIES.get((package, cls))
    if entry is None or behaviour is None or cls not in entry.info.activities:
        return False
    behaviour(phone, action)
    return True


def start_activity(phone: "PhoneContext", intent: CommandIntent, *, stop_first: bool = False,
                   caller_pid: int = 0) -> StartResult:
    """ActivityTaskManager.startActivity for the shell (uid 2000, or 0 after `adb root`): ``stop_first``
    is `am start -S`.

    An explicit component must be exported (`_permission_denial`); HOME goes home; MAIN with a
    package (and at most the LAUNCHER category) starts its launcher activity; an action alone is
    resolved by PackageManager (one activity, or "Open with").
    """
    system = phone.system
    # ActivityTaskManager logs the request, with the FLAG_ACTIVITY_NEW_TASK am adds
    note_start_request(phone, intent.describe(flags=FLAG_ACTIVITY_NEW_TASK)[len("Intent { "):-len(" }")],
                       uid=adbd_uid(phone))
    if intent.component:
        denial = _permission_denial(phone, intent, caller_pid)
        if denial is not None:
            return StartResult("denied", detail=denial)
    try:
        if intent.component:
            package, _, activity = intent.component.partition("/")
            cls = full_class(package, activity)
            if package not in system.installed_packages() and phone.package_enabled(package):
                if start_apk_activity(phone, package, cls, intent.action):  # helper APKs installed by clients
                    return StartResult("finished")
            if not phone.package_enabled(package) or package not in system.installed_packages():
                raise ActivityNotFound(cls)
            before = system.focused_window()
            if stop_first:
                force_stop(phone, package)
            system.start_activity(package, cls)
        elif intent.action in (None, _MAIN) and _HOME in intent.categories:
            before = None
            system.go_home()
        elif intent.package and intent.action in (None, _MAIN) and (
                not intent.categories or intent.categories == [_LAUNCHER]):
            if not phone.package_enabled(intent.package) or system.launcher_activity(intent.package) is None:
                return StartResult("unresolved")
            if intent.categories and not launcher_activities(phone, intent.package):
                return StartResult("unresolved")  # no enabled activity of the package answers LAUNCHER
            before = system.focused_window()
            if stop_first:
                force_stop(phone, intent.package)
            system.start_activity(intent.package, None)
        elif intent.action and not intent.package and not intent.categories:
            # an implicit intent: the activity PackageManager resolves it to, or "Open with"
            before = None
            if system.start_implicit(intent.implicit()) is None:
                return StartResult("unresolved")
        else:
            return StartResult("unresolved")
    except ActivityNotFound:
        package, _, activity = (intent.component or "/").partition("/")
        return StartResult("not found", detail=f"{package}/{full_class(package, activity)}")
    return StartResult("started", before)


def _permission_denial(phone, intent: CommandIntent, caller_pid: int) -> str | None:
    """The shell (uid 2000, no START_ANY_ACTIVITY) may start only exported activities.

    ActivityTaskSupervisor.checkStartAnyActivityPermission throws SecurityException("Permission
    Denial: starting <intent> from <callerApp> (pid=, uid=) not exported from uid <app's uid>"):
    its message, or None when the start may go on.  Whether an activity is exported comes from
    the app's manifest (manifests.py).
    """
    uid = adbd_uid(phone)
    if uid == 0:
        # ActivityManager.checkComponentPermission: "Root, system server get to do everything."
        return None
    package, _, activity = (intent.component or "").partition("/")
    declared = manifest_activity(package, full_class(package, activity))
    if declared is None or declared.exported:
        return None
    return (f"Permission Denial: starting {intent.describe(flags=FLAG_ACTIVITY_NEW_TASK)} from null "
            f"(pid={caller_pid}, uid={uid}) not exported from uid {phone.packages.uid(package)}")


def monkey_entry(phone: "PhoneContext", package: str) -> str | None:
    """The activity `monkey -p PKG` starts: the package's launcher entry (`launcher_activities`, the
    alias itself), or the home app's HOME activity (it counts for monkey, as before); None for the
    system screens (share sheet, permission dialog, the framework)."""
    answers = launcher_activities(phone, package)
    if answers:
        return answers[0]
    app = phone.system.app(package)
    if app is not None and ROLE_HOME in app.roles and phone.package_enabled(package):
        return app.launcher_activity.name
    return None


def launcher_filters(phone: "PhoneContext", package: str) -> list[tuple[str, bool]]:
    """(activity class, enabled) of each activity of the package with a MAIN / LAUNCHER intent filter.

    ComponentResolver.addActivitiesLocked (frameworks/base services/core/java/com/android/server/pm/
    resolution/ComponentResolver.java) adds every activity's filters to the resolver table, enabled
    or not: `dumpsys package` lists them all.  A query drops the components that are not enabled
    (ActivityIntentResolver.newResult: isEnabledAndMatch): `launcher_activities`.  The ten apps'
    entries come from their manifests (manifests.py: Simple-Commons' SplashActivity.<colour> icon
    aliases, .Orange enabled); another app model shows its launcher activity in the launcher when it
    has one (App.in_launcher); the system screens (the framework's ResolverActivity, IntentResolver,
    PrintSpooler, PermissionController, Launcher3's HOME activity) declare no LAUNCHER filter.
    """
    if not phone.packages.is_installed(package):
        return []
    declared = launcher_entries(package)
    if declared:
        return [(entry.name, entry.enabled) for entry in declared]
    app = phone.system.app(package)
    if app is not None and app.in_launcher:
        return [(app.launcher_activity.name, True)]
    return []


def launcher_activities(phone: "PhoneContext", package: str) -> list[str]:
    """What the launcher intent for the package resolves to: its enabled MAIN / LAUNCHER activities,
    none while the package is disabled."""
    if not phone.package_enabled(package):
        return []
    return [name for name, enabled in launcher_filters(phone, package) if enabled]


def force_stop(phone: "PhoneContext", package: str) -> None:
    """`am force-stop`: the package's process dies, with its activities and started services,
    and its accessibility services are switched off (active_services.forget_accessibility_services)."""
    for listener in FORCE_STOP_LISTENERS:
        listener(phone, package)
    stop_package(phone, package)
    phone.system.force_stop(package)
    forget_stopped_activities(phone, package)  # a task in the background dies without a window change
    phone.forget_pid(package)
    if forget_accessibility_services(phone, package):
        system_state_changed(phone)  # its accessibility services are unbound


# -- resolving intents ------------------------------------------------------------------------------
_MAIN = "android.intent.action.MAIN"
_LAUNCHER = "android.intent.category.LAUNCHER"
_HOME = "android.intent.category.HOME"
_DEFAULT = "android.intent.category.DEFAULT"


def query_activities(phone: "PhoneContext", intent: CommandIntent) -> list[tuple[str, str, bool]]:
    """PackageManager.queryIntentActivities (no flags): every enabled activity that answers, as
    (package, activity class, isDefault); `resolve_activity` chooses among these.

    An explicit intent names one activity; MAIN (with LAUNCHER, or no category) lists the
    launcher entries (`launcher_activities`, of the package or of every installed one) and, for
    MAIN alone, the HOME activities; MAIN / HOME lists the apps whose HOME filter (with
    CATEGORY_DEFAULT, so isDefault) qualifies them for the home role; an implicit intent lists
    every matching filter (intents.resolve).  Other category sets are not modelled: nothing answers.
    """
    system = phone.system
    if intent.component:
        package, _, activity = intent.component.partition("/")
        app = system.app(package)
        if app is not None and phone.package_enabled(package) and app.activity_class(activity) is not None:
            return [(package, app.activity_class(activity).name, False)]
        return []
    categories = set(intent.categories)
    packages = [intent.package] if intent.package else system.installed_packages()
    if intent.data is None and intent.action in (None, _MAIN):
        found: list[tuple[str, str, bool]] = []
        if categories <= {_LAUNCHER, _DEFAULT} and (intent.package or _LAUNCHER in categories or not categories):
            # A Simple Mobile Tools app's LAUNCHER entry is the enabled icon alias
            # (<activity-alias .activities.SplashActivity.Orange>, the one the recordings
            # start), and ResolveInfo names the alias, not its target
            found += [(package, name, False) for package in packages for name in launcher_activities(phone, package)]
        if (_HOME in categories and categories <= {_HOME, _DEFAULT}) or (not categories and not intent.package):
            for package in packages:
                app = system.app(package)
                if app is not None and ROLE_HOME in app.roles and phone.package_enabled(package):
                    found.append((package, app.launcher_activity.name, True))
        return found
    if intent.action and categories <= {_DEFAULT}:
        # every modelled filter carries CATEGORY_DEFAULT (intents.py), so isDefault
        targets = [t for t in resolve(system, intent.implicit()) if intent.package in (None, t.app.package)]
        return [(t.app.package, t.activity.name, True) for t in targets]
    return []


def resolve_activity(phone: "PhoneContext", intent: CommandIntent) -> tuple[str, str, bool] | None:
    """PackageManager.resolveActivity: (package, activity class, isDefault), None when nothing answers.

    One answer of `query_activities` is the activity; several are the framework's ResolverActivity,
    except that HOME goes to the home role's holder and an implicit intent to the user's or the
    system's choice (intents.candidates)."""
    system = phone.system
    categories = set(intent.categories)
    if not intent.component and intent.data is None and intent.action in (None, _MAIN) \
            and _HOME in categories and categories <= {_HOME, _DEFAULT}:
        holders = phone.roles.holders("android.app.role.HOME")
        package = intent.package or (holders[0] if holders else None)
        if package is not None and package in holders and system.launcher_activity(package):
            return (package, system.launcher_activity(package), True)
        return None
    answers = query_activities(phone, intent)
    if len(answers) > 1 and not intent.component and intent.action not in (None, _MAIN):
        targets = candidates(system, intent.implicit())  # a preferred or the one highest-priority match
        if len(targets) == 1:
            return (targets[0].app.package, targets[0].activity.name, False)
    if len(answers) == 1:
        package, activity, _ = answers[0]
        return (package, activity, False)
    if answers:
        return ("android", "com.android.internal.app.ResolverActivity", False)
    return None


def target_activity(phone: "PhoneContext", package: str, activity: str) -> str:
    """ActivityInfo.targetActivity: the activity an <activity-alias> starts, else null."""
    app = phone.system.app(package)
    if app is not None and activity in app.splash_names[1:]:
        return app.splash_names[0]
    return "null"


# -- dumpsys activity ------------------------------------------------------------------------------
def _dumpsys_activity_top(phone) -> str:
    package, activity = phone.system.focused_window()
    return (f"TASK {task_id(package)}:{package} id={task_id(package)} userId=0\n"
            f"  ACTIVITY {short_component(package, activity)} {record_token(package, activity)} "
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
        tid = task_id(pkg)
        lines.append(f"  * Task{{{_hash('task' + pkg)} #{tid} type=standard A=10{zlib.crc32(pkg.encode()) % 1000:03d}:"
                     f"{pkg} U=0 visible={'true' if pkg == top_pkg else 'false'} mode=fullscreen "
                     f"translucent=false sz={len(records)}}}")
        lines.append(f"    affinity={pkg}")
        for index, (p, a) in enumerate(records):
            rec = f"ActivityRecord{{{record_token(p, a)} u0 {short_component(p, a)} t{tid}}}"
            lines.append(f"    * Hist  #{len(records) - 1 - index}: {rec}")
            lines.append(f"      packageName={p} processName={p}")
        if pkg == top_pkg:
            lines.append(f"    mResumedActivity: ActivityRecord{{{record_token(top_pkg, top_act)} u0 "
                         f"{short_component(top_pkg, top_act)} t{tid}}}")
    lines += ["",
              f"  ResumedActivity: ActivityRecord{{{record_token(top_pkg, top_act)} u0 "
              f"{short_component(top_pkg, top_act)} t{task_id(top_pkg)}}}",
              "",
              f"  mFocusedRootTask=Task{{{_hash('task' + top_pkg)} #{task_id(top_pkg)}}}",
              ""]
    return "\n".join(lines)


def _dump_top(target: "DumpTarget", args: list[str]) -> int:
    target.out(_dumpsys_activity_top(target.phone))
    return 0


def _dump_activities(target: "DumpTarget", args: list[str]) -> int:
    target.out(_dumpsys_activities(target.phone))
    return 0


DUMPSYS_HANDLERS[("activity", "top")] = _dump_top
for _section in ("activities", "a", ""):
    DUMPSYS_HANDLERS[("activity", _section)] = _dump_activities

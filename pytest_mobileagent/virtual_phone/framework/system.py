"""The phone's UI system: apps, the activity stack, windows, input and output.

`AndroidSystem` is what the adb/shell layer calls (see the contract in the
project notes): touches, keys and text go in; `uiautomator dump` XML,
screenshots, the focused window and accessibility events come out.  Every
public method takes one lock, so the phone's serving threads may call it
concurrently; events are emitted synchronously, in order, under that lock.

After each input the visible windows are rebuilt from app state and
compared with the previous frame; `version` increases only when something
visible changed, and dumps and screenshots are cached per version.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Iterable

from . import intents
from .app import Activity, App
from .intents import ComponentName, Intent
from .providers import ContentProviders
from .providers.media import MediaQueryProvider
from .roles import RoleStore
from ..kernel.clock import PhoneClock
from .sms_dispatcher import SmsDispatcher
from ..kernel.fs import VirtualFileSystem
from .file_providers import FileProviders
from .ime import SoftKeyboard
from .media_store import MediaStore
from .notifications import NotificationManager
from .ui import dump as _dump
from .ui.accessibility_class import accessibility_class_name
from .ui import editing as _editing
from .ui import keyboard as _keyboard
from .ui.floating_toolbar import SelectionToolbar
from .ui.frame import FrameBuffer
from .ui.shade import ShadeWindow
from .ui import render as _render
from .ui.views import CompoundButton, EditText, RadioButton, RadioGroup, View, dp
from .ui.window import NAV_BAR_H, STATUS_BAR_H, Window

__all__ = ["ActivityNotFound", "AndroidSystem"]

log = logging.getLogger(__name__)

TOUCH_SLOP = dp(8)
LONG_PRESS_MS = 400
DOUBLE_TAP_TIMEOUT_S = 0.3      # ViewConfiguration.DOUBLE_TAP_TIMEOUT
DOUBLE_TAP_SLOP = dp(100)       # ViewConfiguration.DOUBLE_TAP_SLOP
LAUNCHER_PACKAGE = "com.android.launcher3"

#: characters typed by key events with those names
_KEY_CHARS = {
    "SPACE": " ", "PERIOD": ".", "COMMA": ",", "MINUS": "-", "PLUS": "+", "EQUALS": "=", "AT": "@",
    "SLASH": "/", "BACKSLASH": "\\", "SEMICOLON": ";", "APOSTROPHE": "'", "STAR": "*", "POUND": "#",
    "LEFT_BRACKET": "[", "RIGHT_BRACKET": "]", "GRAVE": "`", "NUMPAD_ADD": "+", "NUMPAD_SUBTRACT": "-",
    "NUMPAD_MULTIPLY": "*", "NUMPAD_DIVIDE": "/", "NUMPAD_DOT": ".",
}


#: what SHIFT makes of a key on the virtual keyboard (US layout)
_SHIFTED = {"1": "!", "2": "@", "3": "#", "4": "$", "5": "%", "6": "^", "7": "&", "8": "*", "9": "(",
            "0": ")", "MINUS": "_", "EQUALS": "+", "LEFT_BRACKET": "{", "RIGHT_BRACKET": "}",
            "BACKSLASH": "|", "SEMICOLON": ":", "APOSTROPHE": "\"", "COMMA": "<", "PERIOD": ">",
            "SLASH": "?", "GRAVE": "~"}


class ActivityNotFound(Exception):
    """`start_activity` named a package or activity the phone does not have."""


class _Task:
    """An Android task: the back stack of one app's activities."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.activities: list[Activity] = []
        #: the task that started this one in a task of its own (singleTask): BACK out of
        #: this one returns there, not home (ActivityRecord's resultTo / the task's return)
        self.return_to: "_Task | None" = None


class AndroidSystem:
    """The simulated Android UI: see the module docstring and the contract."""

    def __init__(self, clock: PhoneClock | None = None, emit_event: Callable[[dict], None] | None = None,
                 seed: int = 0, width: int = 1080, height: int = 2340, density: int = 440, fs=None,
                 apps: Iterable[type[App]] = (), roles: RoleStore | None = None) -> None:
        """``apps`` are the installed apps' classes, which the caller hands over as PackageManager scans
        the installed APKs at boot (the phone's: ``apps.INSTALLED_APPS``); the launcher must be one."""
        if (width, height) != (1080, 2340):
            # Layout metrics (bars, dialog margins) are tuned for this screen.
            raise ValueError("the virtual phone's UI supports a 1080x2340 screen only")
        self.width, self.height, self.density = width, height, density
        self.seed = seed
        #: the phone's clock (kernel/clock.py); a system built without a phone (UI tests) gets its own
        self.clock = clock if clock is not None else PhoneClock()
        self._clock_ms = self.clock.now_ms
        # A system built without a phone (UI tests) still gets an empty storage for the file apps.
        self.fs = fs if fs is not None else VirtualFileSystem(lambda: self._clock_ms() // 1000)
        self._emit_sink = emit_event or (lambda event: None)
        self._lock = threading.RLock()
        #: Android's system content providers (contacts, SMS): system data the apps share
        self.providers = ContentProviders(self._clock_ms)
        #: MediaProvider's rows for shared storage
        self.media_store = MediaStore(self.fs, self._clock_ms)
        self.providers.register_call("media", self.media_store.call)
        self.providers.register(MediaQueryProvider(self.media_store))  # `content query --uri content://media/...`
        self._apps: dict[str, App] = {cls.package: cls() for cls in apps}
        #: the apps' FileProvider content URIs and the private files behind them (file_providers.py)
        self.file_providers = FileProviders(lambda: self._apps.values())
        #: the phone's role holders; apps ask it "am I the default SMS app" (roles.py)
        self.roles = roles if roles is not None else RoleStore(
            lambda role, package, bypass: package in self._apps and (bypass or role in self._apps[package].roles))
        if LAUNCHER_PACKAGE not in self._apps:
            raise ValueError(f"the app registry must include the launcher {LAUNCHER_PACKAGE}")
        #: runtime permission grants (`pm grant`): set by the phone; a bare system grants everything
        self.permissions: dict[str, set[str]] | None = None
        self._tasks: list[_Task] = []       # front task last
        self._queue: list[dict] = []
        self._deferred: list[Callable[[], object]] = []
        self._background: list[Callable[[], object]] = []
        #: the user's "Always" choices in "Open with" (PackageManager's preferred activities)
        self.preferred_activities: dict = {}
        #: per-app languages set in Settings' app language screen (LocaleManager; "" = the system's)
        self.app_locales: dict[str, str] = {}
        #: system properties (`getprop`): set by the phone; the telephony stack reads the SIM's country
        self.props: dict[str, str] = {}
        #: the phone process's SMS dispatcher: premium short-code checks and their confirmation dialog
        self.sms_dispatcher = SmsDispatcher(self)
        self._version = 0
        self._fingerprint: object = None
        self._top: Window | None = None
        self._ops: list[tuple] = []
        self._xml: dict[bool, str] = {}
        self._frame = FrameBuffer(self.width, self.height)
        self._toast: str = ""
        #: every toast shown so far, for UiAutomation's toast listeners: (count, last text)
        self.toasts: tuple[int, str] = (0, "")
        #: the primary clip (ClipboardManager): what Cut and Copy put, Paste takes
        self.clipboard: str | None = None
        self._toolbar: SelectionToolbar | None = None
        self._toolbar_target: tuple[Window, str] | None = None  # the field's window and view path
        self._last_field_tap: tuple | None = None  # (window, view path, point, uptime s): double taps
        #: seconds of uptime, the clock of touch events (SystemClock.uptimeMillis)
        self.uptime_s: Callable[[], float] = lambda: self.clock.uptime_ms() / 1000
        #: the soft keyboard (InputMethodManagerService's state): see ime.py
        self.ime = SoftKeyboard(width, height)
        #: NotificationManagerService's posted notifications (notifications.py)
        self.notifications = NotificationManager(self._clock_ms)
        #: SystemUI's notification shade while it is pulled down (ui/shade.py), else None
        self._shade: ShadeWindow | None = None
        #: the settings store (the phone's; the shade's tiles read and toggle it): None without a phone
        self.settings: dict | None = None
        with self._lock:
            self._launch(self._apps[LAUNCHER_PACKAGE], None)
            self._refresh(initial=True)

    # ------------------------------------------------------------------
    # contract: state
    @property
    def version(self) -> int:
        return self._version

    def clock_ms(self) -> int:
        """The phone's wall clock in epoch milliseconds (what apps read as "now")."""
        return int(self._clock_ms())

    def installed_packages(self) -> list[str]:
        return sorted(self._apps)

    def launcher_activity(self, package: str) -> str | None:
        app = self._apps.get(package)
        return app.launcher_activity.name if app is not None else None

    def focused_window(self) -> tuple[str, str]:
        with self._lock:
            activity = self._front_activity()
            return (activity.app.package, activity.name)

    def activity_stack(self) -> list[tuple[str, str]]:
        with self._lock:
            return [(a.app.package, a.name) for task in reversed(self._tasks) for a in reversed(task.activities)]

    def installed_apps(self) -> list[App]:
        return [self._apps[p] for p in sorted(self._apps)]

    def app(self, package: str) -> App | None:
        """The installed app object (tests and seeding use it to reach app data)."""
        return self._apps.get(package)

    # ------------------------------------------------------------------
    # contract: app lifecycle
    def start_activity(self, package: str, activity: str | None = None) -> None:
        with self._lock:
            app = self._apps.get(package)
            cls = None
            if app is not None:
                cls = app.launcher_activity if activity is None else app.activity_class(activity)
            if cls is None:
                name = activity or "<launcher>"
                if name.startswith("."):
                    name = package + name
                raise ActivityNotFound(f"Activity class {{{package}/{name}}} does not exist.")
            self._launch(app, None if activity is None else cls)
            self._refresh()

    def go_home(self) -> None:
        with self._lock:
            self._go_home()
            self._refresh()

    def force_stop(self, package: str) -> None:
        with self._lock:
            # NotificationManagerService cancels a stopped package's notifications (ACTION_PACKAGE_RESTARTED)
            self.notifications.cancel_package(package)
            if self._task_for(package) is None:
                return  # nothing of it runs: nothing changes on screen (no redraw)
            self._kill(package)
            self._refresh()

    def clear_data(self, package: str) -> bool:
        with self._lock:
            app = self._apps.get(package)
            if app is None:
                # A system provider's package: `pm clear` empties its databases.
                cleared = self.providers.clear(package)
                if cleared:
                    self._refresh()
                return cleared
            self._kill(package)
            app.reset_data()
            # clearApplicationUserData also drops the package's preferred activities ("Always")
            self.preferred_activities = {k: t for k, t in self.preferred_activities.items()
                                         if t.app.package != package}
            self._refresh()
            return True

    def has_permission(self, package: str, permission: str) -> bool:
        """Whether `package` holds a runtime permission (always, on a system without a phone)."""
        return self.permissions is None or permission in self.permissions.get(package, ())

    def grant_permission(self, package: str, *permissions: str) -> None:
        """The user allowed a permission request (the system's GrantPermissionsActivity)."""
        if self.permissions is not None:
            self.permissions.setdefault(package, set()).update(permissions)

    def revoke_permission(self, package: str, *permissions: str) -> None:
        """A runtime permission taken back (the user, in Settings; `pm revoke`)."""
        if self.permissions is not None:
            self.permissions.get(package, set()).difference_update(permissions)

    # ------------------------------------------------------------------
    # contract: SystemUI's panels (StatusBarManager: `cmd statusbar`, UiAutomation's global actions)
    def expand_panel(self, settings: bool) -> None:
        """expandNotificationsPanel (``settings`` False) or expandSettingsPanel (True)."""
        with self._lock:
            self._shade = ShadeWindow(self, settings_view=settings)
            self._refresh()

    def collapse_panels(self) -> None:
        """collapsePanels: the shade goes up (nothing happens when it is not down)."""
        with self._lock:
            if self._shade is not None:
                self._shade = None
                self._refresh()

    @property
    def panel_expanded(self) -> str | None:
        """"settings" or "notifications" while the shade is down, else None."""
        shade = self._shade
        return None if shade is None else "settings" if shade.settings_view else "notifications"

    def notify_data_changed(self) -> None:
        """System data changed outside the UI (a provider written through `content`): redraw.

        On Android the apps' ContentObservers reload their lists; here the
        visible windows are simply rebuilt from the new data.
        """
        with self._lock:
            self._refresh()

    # ------------------------------------------------------------------
    # contract: input
    def tap(self, x: int, y: int) -> None:
        with self._lock:
            self._touch(int(x), int(y), long=False)
            self._refresh()

    def long_press(self, x: int, y: int, duration_ms: int = 1000, timed: bool = True) -> None:
        """A press held ``duration_ms``; ``timed``: it takes that long on the phone's clock (the
        injector holds it: InputShellCommand sleeps between its events), False when the host held it."""
        with self._lock:
            if timed:
                self.clock.advance(max(0, int(duration_ms or 0)))
            self._touch(int(x), int(y), long=True)
            self._refresh()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300, timed: bool = True) -> None:
        """A swipe (or, in place, a press) of ``duration_ms``; ``timed`` as for long_press."""
        with self._lock:
            if timed:
                self.clock.advance(max(0, int(duration_ms or 0)))
            x1, y1, x2, y2 = int(x1), int(y1), int(x2), int(y2)
            if abs(x2 - x1) <= TOUCH_SLOP and abs(y2 - y1) <= TOUCH_SLOP:
                self._touch(x1, y1, long=(duration_ms or 0) >= LONG_PRESS_MS)
            else:
                self._scroll(x1, y1, x2, y2)
            self._refresh()

    def input_text(self, text: str) -> None:
        with self._lock:
            if text:
                self._insert(str(text))
            self._refresh()

    def key(self, name: str) -> None:
        with self._lock:
            self._key(str(name).upper().removeprefix("KEYCODE_"))
            self._refresh()

    def key_combination(self, names: list[str]) -> None:
        """Keys pressed together, modifiers first (`input keycombination CTRL_LEFT A`)."""
        with self._lock:
            modifiers: set[str] = set()
            for name in (str(n).upper().removeprefix("KEYCODE_") for n in names):
                modifier = name.split("_")[0] if name.endswith(("_LEFT", "_RIGHT")) else ""
                if modifier in ("CTRL", "SHIFT", "ALT", "META"):
                    modifiers.add(modifier)
                else:
                    self._key(name, frozenset(modifiers))
            self._refresh()

    # ------------------------------------------------------------------
    # contract: output
    def dump_xml(self, compressed: bool = False, *, look: bool = True) -> str:
        """The active window's hierarchy; ``look``: a reader of the screen (kernel/clock.py), False for
        an app reading its own nodes."""
        with self._lock:
            if look:
                self._look()
            compressed = bool(compressed)
            xml = self._xml.get(compressed)
            if xml is None:
                xml = _dump.dump_window(self._top.root, self._top.package, compressed)
                self._xml[compressed] = xml
            return xml

    def screenshot_png(self) -> bytes:
        with self._lock:
            self._look()
            self._frame.show(self._ops)
            return self._frame.png()

    def screenshot_rgba(self) -> bytes:
        with self._lock:
            self._look()
            self._frame.show(self._ops)
            return self._frame.image().convert("RGBA").tobytes()

    # ------------------------------------------------------------------
    # contract: UiAutomation (programs like uiautomator2's server read and act on nodes)
    def read_active_window(self, reader: Callable[[View, str], object]) -> object:
        """``reader(root_view, package)`` for the active window, under the UI lock.

        What a UiAutomation client sees of the screen: the same views and
        window as `uiautomator dump`. Keep the reader short and read-only.
        """
        with self._lock:
            self._look()
            return reader(self._top.root, self._top.package)

    def _look(self) -> None:
        """Something reads the screen: the first look after a change takes the phone's time
        (kernel/clock.py). The screen is not rebuilt for it: what it shows (the status bar's
        minute, a toast) is as the last change left it, as no timer redraws the phone's views."""
        self.clock.look()

    def set_text_by_accessibility(self, view: View, text: str) -> bool:
        """AccessibilityNodeInfo.ACTION_SET_TEXT on ``view`` of the active window.

        TextView.performAccessibilityActionInternal: only an enabled editable
        view takes it; the text is replaced and the cursor put at its end,
        without focusing the field. False when the view is gone or refuses.
        """
        with self._lock:
            window = self._top
            if (not isinstance(view, EditText) or not view.enabled
                    or not any(v is view for v in window.root.walk())):
                return False
            self._set_text(window, view, str(text), len(str(text)))
            self._refresh()
            return True

    # ------------------------------------------------------------------
    # host interface used by activities (app.py) and intents.py
    def push_activity(self, caller: Activity | None, cls: type[Activity], extras: dict, app: App | None = None,
                      own_task: bool = False) -> Activity:
        """Start ``cls`` from ``caller``: in the caller's task, or (``own_task``, another app's
        singleTask activity) in a task of that app's own that returns to the caller's task.
        Without a caller (`am start`, FLAG_ACTIVITY_NEW_TASK) it goes into the app's task."""
        task = self._task_of(caller) if caller is not None else None
        app = app or caller.app
        activity = self._create(app, cls, extras)
        if activity.finished:  # finish() in onCreate: the activity never shows, its caller stays in front
            return activity
        if caller is None or (own_task and app is not caller.app):
            existing = self._task_for(app.package)
            if caller is None and existing is not None and not own_task:
                task = existing
            else:
                if existing is not None:  # singleTask: the app's old task gives way to the new one
                    self._tasks.remove(existing)
                    for old in existing.activities:
                        old.finished = True
                caller_task, task = task, _Task(app.package)
                task.return_to = caller_task
                self._tasks.append(task)
        elif task is None:
            task = _Task(caller.app.package)
            self._tasks.append(task)
        task.activities.append(activity)
        self._bring_to_front(task)
        return activity

    def start_component(self, caller: Activity | None, component: ComponentName, extras: dict) -> Activity:
        """startActivity with an explicit component (the system's own activities: intents.py)."""
        app = self._apps.get(component.package)
        cls = app.activity_class(component.class_name) if app is not None else None
        if cls is None:
            raise ActivityNotFound(f"Unable to find explicit activity class {{{component.package}/"
                                   f"{component.class_name}}}")
        return self.push_activity(caller, cls, extras, app=app)

    def start_cleared_task(self, component: ComponentName, extras: dict) -> Activity:
        """startActivity(component) with FLAG_ACTIVITY_NEW_TASK | FLAG_ACTIVITY_CLEAR_TASK: the app's task
        is emptied and the activity starts a new one (a pinned shortcut's intent, LauncherApps.startShortcut)."""
        app = self._apps.get(component.package)
        cls = app.activity_class(component.class_name) if app is not None else None
        if cls is None:
            raise ActivityNotFound(f"Unable to find explicit activity class {{{component.package}/"
                                   f"{component.class_name}}}")
        old = self._task_for(component.package)
        if old is not None:
            for activity in old.activities:
                activity.finished = True
            self._tasks.remove(old)
        return self.push_activity(None, cls, extras, app=app)

    def start_intent(self, caller: Activity, intent: Intent) -> bool:
        """An app's startActivity(implicit intent): see intents.py."""
        return intents.start(self, caller, intent)

    def start_implicit(self, intent: Intent) -> tuple[str, str] | None:
        """`am start -a ACTION [-d URI] [-t TYPE]`: an implicit intent sent from outside any app
        (with FLAG_ACTIVITY_NEW_TASK); the focused window after it, None when nothing answers."""
        with self._lock:
            if not intents.start(self, None, intent):
                return None
            self._refresh()
            return self.focused_window()

    def finish_activity(self, activity: Activity) -> None:
        task = self._task_of(activity)
        activity.finished = True
        activity.overlays.clear()
        if task is None:
            self._send_result(activity)
            return
        was_front = task is self._tasks[-1]
        task.activities.remove(activity)
        if not task.activities:
            self._tasks.remove(task)
            if was_front and task.return_to in self._tasks:
                self._bring_to_front(task.return_to)
                self._send_result(activity)
                task.return_to.activities[-1].on_resume()
            else:
                self._send_result(activity)
                if was_front:
                    self._go_home()
        else:
            self._send_result(activity)
            if was_front:
                task.activities[-1].on_resume()

    def launch_package(self, package: str) -> None:
        app = self._apps.get(package)
        if app is not None:
            previous = self._tasks[-1] if self._tasks else None
            self._launch(app, None)
            task = self._task_for(package)
            if previous is not None and task is not previous and previous.package != LAUNCHER_PACKAGE:
                # started from another app's task (App Launcher): finishing it shows that task again,
                # the next one down, as ActivityTaskSupervisor resumes the next focusable task
                task.return_to = previous

    def show_window(self, activity: Activity, window: Window) -> None:
        activity.overlays.append(window)

    def dismiss_window(self, window: Window) -> None:
        for task in self._tasks:
            for activity in task.activities:
                if window in activity.overlays:
                    activity.overlays.remove(window)

    def toast(self, text: str) -> None:
        self._toast = text
        self.toasts = (self.toasts[0] + 1, text)

    # ------------------------------------------------------------------
    # internals: tasks
    def _create(self, app: App, cls: type[Activity], extras: dict | None = None) -> Activity:
        activity = cls(self, app, extras)
        intent, caller = (extras or {}).get("intent"), (extras or {}).get("caller")
        if caller is not None and getattr(intent, "request_code", None) is not None:
            # startActivityForResult's reply target; an activity that started this one with the same
            # intent (the resolver) gives its own up: FLAG_ACTIVITY_FORWARD_RESULT
            for task in self._tasks:
                for other in task.activities:
                    if other.reply_to is not None and other.extras.get("intent") is intent:
                        other.reply_to = None
            activity.reply_to = (caller, intent.request_code)
        activity.on_create()
        return activity

    def _send_result(self, activity: Activity) -> None:
        """ActivityRecord.finishIfPossible -> sendResult: a finishing activity started for a result
        hands its setResult (RESULT_CANCELED when none) to the activity that asked, whose
        onActivityResult runs before it resumes."""
        reply, activity.reply_to = activity.reply_to, None
        if reply is not None and not reply[0].finished:
            reply[0].on_activity_result(reply[1], activity.result_code, activity.result_data)

    def _task_for(self, package: str) -> _Task | None:
        for task in self._tasks:
            if task.package == package:
                return task
        return None

    def _task_of(self, activity: Activity) -> _Task | None:
        for task in self._tasks:
            if activity in task.activities:
                return task
        return None

    def _bring_to_front(self, task: _Task) -> None:
        self._tasks.remove(task)
        self._tasks.append(task)

    def _launch(self, app: App, cls: type[Activity] | None) -> None:
        """Launcher intent (cls None): resume the app's task; explicit class: start it in the task."""
        task = self._task_for(app.package)
        if task is None:
            task = _Task(app.package)
            task.activities.append(self._create(app, cls or app.launcher_activity))
            self._tasks.append(task)
            return
        if cls is not None and not isinstance(task.activities[-1], cls):
            created = self._create(app, cls)
            if not created.finished:  # finish() in onCreate: the activity never shows
                task.activities.append(created)
        self._bring_to_front(task)
        task.activities[-1].on_resume()

    def _go_home(self) -> None:
        self._launch(self._apps[LAUNCHER_PACKAGE], None)

    def _kill(self, package: str) -> None:
        task = self._task_for(package)
        if task is None:
            return
        was_front = task is self._tasks[-1]
        for activity in task.activities:
            activity.finished = True
        self._tasks.remove(task)
        if package == LAUNCHER_PACKAGE:
            # The home screen restarts at once, as Android's does.
            home = _Task(package)
            home.activities.append(self._create(self._apps[package], self._apps[package].launcher_activity))
            self._tasks.insert(0, home)
        if was_front or not self._tasks:
            self._go_home()

    def _front_activity(self) -> Activity:
        return self._tasks[-1].activities[-1]

    def _windows(self) -> list[Window]:
        activities = self._tasks[-1].activities
        first = len(activities) - 1
        while first > 0 and activities[first].translucent:
            first -= 1  # a translucent activity (the share sheet) is drawn over the one below
        windows: list[Window] = []
        for activity in activities[first:]:
            windows += [activity.window] + activity.overlays
        if self._shade is not None:
            windows.append(self._shade)  # the NotificationShade window is above every app window
        return windows

    def _active_window(self) -> Window:
        """The focused window: dumps, keys and text go to it (not to the selection toolbar)."""
        return [window for window in self._windows() if window.takes_focus][-1]

    # ------------------------------------------------------------------
    # internals: refresh, version, events
    def defer(self, action: Callable[[], object]) -> None:
        """Run ``action`` once the current input is handled, before the screen is rebuilt (what an
        activity's onCreate posts, such as a permission request, starts over the activity once it is shown)."""
        self._deferred.append(action)

    def background(self, work: Callable[[], object]) -> None:
        """Run ``work`` as an app's background thread or coroutine (Commons' ensureBackgroundThread, a
        Dispatchers.Default job) that the current input starts but does not wait for.

        The input is handled first and its frame shown (its window-state events are sent); then the
        work completes, and what it posts to the main thread (a toast, finish()) gives a frame of its
        own, still before the phone serves its next request.  So the event stream holds the screen the
        work ran under, and a dump taken after the input sees the result: ``uiautomator dump`` waits for
        the UI to be idle before reading it (AOSP cmds/uiautomator DumpCommand:
        ``uiAutomation.waitForIdle(1000, 1000 * 10)``).  No timer is involved.
        """
        self._background.append(work)

    def _refresh(self, initial: bool = False) -> None:
        self.clock.changed()  # an action or a change of state: the next look takes time
        while self._deferred:
            self._run(self._deferred.pop(0))
        windows = self._windows()
        for window in windows:
            try:
                window.rebuild()
            except Exception:  # an app bug must not take the phone down
                log.exception("building %s failed", window.title)
                if window.root is None:
                    raise
        if self._toolbar is not None and (self._toolbar_field() is None or not self._toolbar.items()):
            self._hide_toolbar()  # its field is gone, or nothing is left to offer
            windows = self._windows()
        top = self._active_window()
        self.ime.update(top, windows)
        if top is not self._top:
            self._top = top
            self._queue_window_state(top)
        for kind, window in self.ime.accessibility_changes(windows):  # after the window's own event
            self._queue.append(self._event(kind, window.package, window.resized_view, texts=[])
                               if window is not None else self._event(kind, "", texts=[]))
        xml = _dump.dump_window(top.root, top.package)
        clock = time.strftime("%H:%M", time.gmtime(self._clock_ms() / 1000))
        ops = _render.display_list(windows, clock, ime_shown=self.ime.shown)
        if self._toast:
            ops.append(("toast", self._toast))
            self._toast = ""
        fingerprint = (xml, tuple(ops))
        if fingerprint != self._fingerprint:
            self._fingerprint = fingerprint
            if not initial:
                self._version += 1
            self._ops = ops
            self._xml = {False: xml}
        self._flush()
        if self._background:  # background work started by this input: it completes after its frame
            self._run(self._background.pop(0))
            self._refresh(initial)

    def _event(self, type_: str, package: str, view: View | None = None, texts: list[str] | None = None,
               class_name: str | None = None) -> dict:
        return {
            "v": 1,
            "type": type_,
            "package": package,
            "id": _dump.resource_id(view, package) if view is not None else "",
            "text": texts if texts is not None else (view.event_texts() if view is not None else []),
            "desc": view.desc if view is not None else "",
            "class": class_name or (accessibility_class_name(view.class_name, package) if view is not None else ""),
            "time_ms": int(self._clock_ms()),
        }

    def _queue_window_state(self, window: Window) -> None:
        if window.kind == "activity":
            activity = self._front_activity()
            class_name = activity.name
        elif window.kind == "dialog":
            class_name = "androidx.appcompat.app.AlertDialog"
        else:
            class_name = "android.widget.PopupWindow$PopupDecorView"
        texts = [window.title] if window.title else []
        if window.kind == "dialog" and window.root is not None:
            # A dialog's window-state event carries every text of the dialog (its decor view
            # populates the event from all its children): title, body, buttons.
            texts = window.root.event_texts()
        self._queue.append(self._event("window_state", window.package, texts=texts, class_name=class_name))

    def _flush(self) -> None:
        queue, self._queue = self._queue, []
        for event in queue:
            try:
                self._emit_sink(event)
            except Exception:  # a broken event sink must not break input handling
                log.exception("emit_event failed")

    def _run(self, callback, *args) -> None:
        if callback is None:
            return
        try:
            callback(*args)
        except Exception:
            log.exception("app callback %r failed", callback)

    # ------------------------------------------------------------------
    # internals: input
    def _touch(self, x: int, y: int, long: bool) -> None:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return
        if y >= self.height - NAV_BAR_H:
            third = self.width // 3
            self._key("BACK" if x < third else "HOME" if x < 2 * third else "APP_SWITCH")
            return
        if self.ime.covers(x, y):
            # the keyboard window is above the app's: the app never sees this touch
            self._ime_touch(x, y, long)
            return
        window = self._windows()[-1]
        if not window.takes_focus:  # the selection toolbar
            if window.contains(x, y):
                view = window.hit(x, y)
                if view is not None and not long:
                    self._click(window, view)
                return
            self._hide_toolbar(collapse=True)  # a touch elsewhere ends the selection
            window = self._windows()[-1]
        outside = getattr(window, "outside_touch", None)
        if outside is not None and outside(x, y):
            return  # a touch beside a bottom sheet (the share sheet) dismissed it
        if window.kind != "activity" and not window.contains(x, y):
            # A touch outside a dialog or pop-up cancels it (when it may be cancelled).
            self._cancel(window)
            return
        if y < STATUS_BAR_H and window.kind == "activity" and not window.fullscreen:
            return
        view = window.hit(x, y, "long" if long else "click")
        if view is None:
            return
        if long and view.long_clickable:
            self._long_click(window, view, (x, y))
        elif view.clickable:
            self._click(window, view, (x, y))
        elif not long and getattr(view, "on_touch", None) is not None:
            # an OnTouchListener acting on ACTION_UP (Commons' LineColorPicker): no click, no click event
            self._run(view.on_touch)

    def _ime_touch(self, x: int, y: int, long: bool) -> None:
        """A tap on a key of the keyboard commits what the key types into the focused field."""
        key = _keyboard.key_at(x, y, self.width, self.height, NAV_BAR_H)
        if key is None or long or key.code in ("SHIFT", "SYMBOLS"):
            return  # the strip, a long press, layout keys: nothing reaches the field (not modelled)
        if key.code == "DEL":
            self._delete(forward=False)
        elif key.code == "ENTER":
            self._key_plain("ENTER")
        else:
            self._insert(key.code)

    def _click(self, window: Window, view: View, at: tuple[int, int] | None = None) -> None:
        if isinstance(view, EditText):
            self._hide_toolbar()
            if window.set_focus(view):
                self._queue.append(self._event("focus", window.package, view))
            if self._is_double_tap(window, view, at):
                # SelectionModifierCursorController: a double tap on the text selects the word and
                # starts the selection action mode (its ACTION_UP is discarded: no showSoftInput)
                view.anchor, view.cursor = _editing.word_range(view.text, _editing.offset_at(view, *at))
                window.remember(view)
                self._show_toolbar(window, view)
            else:
                # TextView.onTouchEvent: a tap on an editable field asks for the keyboard, and
                # the cursor goes to the character boundary nearest the finger
                self.ime.request_show(window)
                view.cursor = _editing.offset_at(view, *at) if at is not None else len(view.text)
                view.anchor = view.cursor
                window.remember(view)
        elif isinstance(view, CompoundButton):
            view.toggle()
            group = view.parent if isinstance(view, RadioButton) else None
            window.remember(group if isinstance(group, RadioGroup) else view)
        mark = len(self._queue)
        self._run(view.on_click)
        # Android sends TYPE_VIEW_CLICKED after the listener ran, but before
        # the window changes the listener caused are reported.
        self._queue.insert(mark, self._event("click", window.package, view))

    def _is_double_tap(self, window: Window, view: EditText, at: tuple[int, int] | None) -> bool:
        """EditorTouchState.update: a second tap on the same field's text within the double-tap
        timeout (300 ms) and slop (100 dp) of the first.

        Touch events carry SystemClock.uptimeMillis(), so the gap is measured on
        the phone's uptime (kernel/clock.py): two `input tap` in one shell line
        (10 ms apart) are a double tap; an agent's taps in two steps are not, as
        the look at the screen between them takes a second.
        """
        now = self.uptime_s()
        last, self._last_field_tap = self._last_field_tap, (window, view.path, at, now)
        if at is None or last is None or last[0] is not window or last[1] != view.path or last[2] is None:
            return False
        (x0, y0), (x, y) = last[2], at
        close = (x - x0) ** 2 + (y - y0) ** 2 <= DOUBLE_TAP_SLOP ** 2
        return now - last[3] <= DOUBLE_TAP_TIMEOUT_S and close and _editing.on_text(view, x, y)

    def _long_click(self, window: Window, view: View, at: tuple[int, int] | None = None) -> None:
        mark = len(self._queue)
        if isinstance(view, EditText) and view.on_long_click is None and at is not None:
            # Editor.performLongClick: a press on the text selects the word under the finger; one on
            # empty space (past a line's end, an empty field: !isPositionOnText) only moves the cursor
            # there and starts the insertion action mode. Either way the floating toolbar offers what
            # fits (Paste with a clip, Select all with text; toolbar_items).
            self._hide_toolbar()
            offset = _editing.offset_at(view, *at)
            if _editing.on_text(view, *at):
                view.anchor, view.cursor = _editing.word_range(view.text, offset)
            else:
                view.anchor = view.cursor = offset
            window.remember(view)
            if window.set_focus(view):
                self._queue.append(self._event("focus", window.package, view))
            self._show_toolbar(window, view)
        else:
            self._run(view.on_long_click)
        self._queue.insert(mark, self._event("long_click", window.package, view))

    # -- text selection --------------------------------------------------
    def _show_toolbar(self, window: Window, view: EditText) -> None:
        def items() -> list[str]:
            found = self._toolbar_field()
            return _editing.toolbar_items(found[1], self.clipboard) if found is not None else []

        toolbar = SelectionToolbar(window.package, self._toolbar_field, items, self._toolbar_action)
        self._toolbar, self._toolbar_target = toolbar, (window, view.path)
        if items():
            self._front_activity().overlays.append(toolbar)
        else:
            self._toolbar = self._toolbar_target = None

    def _toolbar_field(self) -> tuple[Window, EditText] | None:
        """The field the selection toolbar acts on, while it is shown and focused."""
        if self._toolbar_target is None:
            return None
        window, path = self._toolbar_target
        if window not in self._windows():
            return None
        view = window.focused_view()
        return (window, view) if isinstance(view, EditText) and view.path == path else None

    def _hide_toolbar(self, collapse: bool = False) -> None:
        """End the selection action mode; ``collapse`` leaves the cursor at the selection's end."""
        if self._toolbar is None:
            return
        found = self._toolbar_field()
        self.dismiss_window(self._toolbar)
        self._toolbar = self._toolbar_target = None
        if collapse and found is not None:
            window, view = found
            view.anchor = view.cursor = view.selection()[1]
            window.remember(view)

    def _toolbar_action(self, action: str) -> None:
        found = self._toolbar_field()
        if found is not None:
            self._edit_action(*found, action)

    def _edit_action(self, window: Window, view: EditText, action: str) -> None:
        """Cut, Copy, Paste or Select all (toolbar buttons, CUT/COPY/PASTE keys, Ctrl shortcuts)."""
        start, end = view.selection()
        if action == "Select all":
            # the action mode stays and offers what is left (TextView.ID_SELECT_ALL)
            view.anchor, view.cursor = 0, len(view.text)
            window.remember(view)
            return
        if action in ("Cut", "Copy"):
            if start == end or view.password:
                return
            self.clipboard = view.text[start:end]
        self._hide_toolbar()
        if action == "Cut":
            self._replace_selection(window, view, "")
        elif action == "Copy":
            view.anchor = view.cursor = end
            window.remember(view)
        elif action == "Paste" and self.clipboard:
            self._replace_selection(window, view, self.clipboard)

    def _scroll(self, x1: int, y1: int, x2: int, y2: int) -> None:
        if self.ime.covers(x1, y1):
            return  # a swipe on the keyboard stays there (no gesture typing modelled)
        window = self._active_window()
        if not window.contains(x1, y1):
            return
        if self._drag(window, x1, y1, x2, y2):
            return
        if abs(x2 - x1) > abs(y2 - y1):
            self._swipe_pager(window, x1, y1, x2)
            return
        scroller = window.scroller_at(x1, y1)
        if scroller is None or y1 == y2:
            return
        before = scroller.scroll_y
        scroller.scroll_y = max(0, min(scroller.max_scroll(), before + (y1 - y2)))
        if scroller.scroll_y != before:
            window.remember(scroller)
            self._queue.append(self._event("scroll", window.package, scroller, texts=[]))

    def _drag(self, window: Window, x1: int, y1: int, x2: int, y2: int) -> bool:
        """A gesture that starts on a drag handle (a view with `on_drag`: an ItemTouchHelper that
        startDrag()s on ACTION_DOWN) drags its item to where the finger lifts, instead of scrolling."""
        handle = None
        for view in window.root.walk():
            if getattr(view, "on_drag", None) is not None and view.clip is not None:
                left, top, right, bottom = view.clip
                if left <= x1 < right and top <= y1 < bottom:
                    handle = view
        if handle is None:
            return False
        self._run(handle.on_drag, x2, y2)
        return True

    def _swipe_pager(self, window: Window, x1: int, y1: int, x2: int) -> None:
        """A horizontal swipe turns the page of the deepest pager (a view with `on_swipe`) under it."""
        pager = None
        for view in window.root.walk():
            handler = getattr(view, "on_swipe", None)
            if handler is not None and view.clip is not None:
                left, top, right, bottom = view.clip
                if left <= x1 < right and top <= y1 < bottom:
                    pager = view
        if pager is None:
            return
        # Finger moving left brings the next page in.
        self._run(pager.on_swipe, 1 if x2 < x1 else -1)
        self._queue.append(self._event("scroll", window.package, pager, texts=[]))

    def _focused_edit(self) -> tuple[Window, EditText] | None:
        window = self._active_window()
        view = window.focused_view()
        if isinstance(view, EditText) and view.enabled:
            return window, view
        return None

    def _set_text(self, window: Window, view: EditText, text: str, cursor: int) -> None:
        view.text = text
        view.cursor = view.anchor = max(0, min(cursor, len(text)))
        window.remember(view)
        self._run(view.on_text_changed, text)
        self._queue.append(self._event("text_changed", window.package, view, texts=[text]))

    def _insert(self, chars: str) -> None:
        found = self._focused_edit()
        if found is None:
            return
        self._hide_toolbar()
        self._replace_selection(*found, chars)  # typing replaces a selection

    def _replace_selection(self, window: Window, view: EditText, chars: str) -> None:
        if view.single_line:
            chars = chars.replace("\n", " ")
        start, end = view.selection()
        if start == end and not chars:
            return
        self._set_text(window, view, view.text[:start] + chars + view.text[end:], start + len(chars))

    def _delete(self, forward: bool) -> None:
        """DEL / FORWARD_DEL: remove the selection, else the character before / after the cursor."""
        found = self._focused_edit()
        if found is None:
            return
        window, view = found
        self._hide_toolbar()
        start, end = view.selection()
        if start == end:
            if forward and end < len(view.text):
                view.cursor, view.anchor = end + 1, end
            elif not forward and start > 0:
                view.cursor, view.anchor = start - 1, start
        self._replace_selection(window, view, "")

    def _move_cursor(self, name: str, extend: bool) -> None:
        """Arrow, HOME and END keys; with SHIFT (``extend``) the selection grows instead."""
        found = self._focused_edit()
        if found is None or not found[1].text:
            return
        window, view = found
        self._hide_toolbar()
        start, end = view.selection()
        text, cursor = view.text, view.cursor
        if name == "DPAD_LEFT":
            target = start if start != end and not extend else cursor - 1
        elif name == "DPAD_RIGHT":
            target = end if start != end and not extend else cursor + 1
        elif view.single_line:
            target = 0 if name == "MOVE_HOME" else len(text)
        else:  # the laid-out line's start or end (ArrowKeyMovementMethod.lineStart / lineEnd)
            starts = _editing.line_starts(view)
            line = max(i for i, at in enumerate(starts) if at <= cursor) if cursor > 0 else 0
            if name == "MOVE_HOME":
                target = starts[line]
            elif line + 1 < len(starts):
                following = starts[line + 1]
                target = following - 1 if text[following - 1:following] in (" ", "\n") else following
            else:
                target = len(text)
        view.cursor = max(0, min(target, len(text)))
        if not extend:
            view.anchor = view.cursor
        window.remember(view)

    def _key(self, name: str, modifiers: frozenset[str] = frozenset()) -> None:
        if "CTRL" in modifiers:
            # TextView.onKeyShortcut; other Ctrl shortcuts do nothing in a text field
            action = {"A": "Select all", "X": "Cut", "C": "Copy", "V": "Paste"}.get(name)
            found = self._focused_edit()
            if action is not None and found is not None:
                self._edit_action(*found, action)
            return
        if "SHIFT" in modifiers:
            if name in ("DPAD_LEFT", "DPAD_RIGHT", "MOVE_HOME", "MOVE_END"):
                self._move_cursor(name, extend=True)
                return
            shifted = _SHIFTED.get(name) or (name if len(name) == 1 and name.isalpha() else None)
            if shifted is not None:
                self._insert(shifted)
                return
        self._key_plain(name)

    def _key_plain(self, name: str) -> None:
        if self._shade is not None and name in ("BACK", "ESCAPE", "HOME", "APP_SWITCH"):
            # NotificationShadeWindowView takes BACK (collapses the shade); HOME and Recents
            # collapse it too before they act (CentralSurfaces: collapsePanels)
            self._shade = None
            if name in ("BACK", "ESCAPE"):
                return
        if name == "BACK" and self.ime.shown and self.ime.target is self._active_window():
            # InputMethodService.onKeyDown: the first BACK hides the keyboard and goes no further
            self.ime.hide()
        elif name in ("BACK", "ESCAPE"):
            self._back()
        elif name == "HOME":
            self._go_home()
        elif name == "MENU":
            window = self._active_window()
            if window.kind == "activity":
                for view in window.root.walk():
                    if view.desc == "More options" and view.clip is not None:
                        self._click(window, view)
                        break
        elif name in ("ENTER", "NUMPAD_ENTER"):
            found = self._focused_edit()
            if found is not None:
                window, view = found
                if view.single_line:
                    self._run(view.on_ime_action)
                else:
                    self._insert("\n")
        elif name in ("DEL", "FORWARD_DEL"):
            self._delete(forward=name == "FORWARD_DEL")
        elif name in ("DPAD_LEFT", "DPAD_RIGHT", "MOVE_HOME", "MOVE_END"):
            self._move_cursor(name, extend=False)
        elif name in ("CUT", "COPY", "PASTE"):
            found = self._focused_edit()
            if found is not None:
                self._edit_action(*found, name.capitalize())
        elif name == "TAB":
            window = self._active_window()
            fields = window.editables()
            if fields:
                current = window.focused_view()
                nxt = fields[(fields.index(current) + 1) % len(fields)] if current in fields else fields[0]
                if window.set_focus(nxt):
                    self._queue.append(self._event("focus", window.package, nxt))
        elif len(name) == 1 and (name.isdigit() or name.isalpha()):
            self._insert(name.lower())
        elif name in _KEY_CHARS:
            self._insert(_KEY_CHARS[name])
        # Anything else (volume, power, DPAD_UP...) changes nothing on screen.

    def _cancel(self, window: Window) -> None:
        """Close a dialog or pop-up the way BACK or an outside touch does, if it may be cancelled."""
        if window is self._toolbar:
            self._hide_toolbar(collapse=True)  # BACK ends the selection first
            return
        if not getattr(window, "cancelable", True):
            return
        dialog = getattr(window, "dialog", None)
        if dialog is not None:
            dialog.dismiss()
        else:
            self.dismiss_window(window)

    def _back(self) -> None:
        activity = self._front_activity()
        if activity.overlays:
            top = activity.overlays[-1]
            # an AlertDialog's OnKeyListener may take BACK (Commons' FilePickerDialog walks up its breadcrumbs)
            on_back = getattr(getattr(top, "dialog", None), "on_back", None)
            if on_back is not None and on_back():
                return
            self._cancel(top)
            return
        if activity.app.package == LAUNCHER_PACKAGE and type(activity) is activity.app.activities[0]:
            return  # the home screen stays; the launcher's other activities (AddItemActivity) close
        try:
            consumed = activity.on_back()
        except Exception:
            log.exception("on_back failed")
            consumed = True
        if not consumed:
            self.finish_activity(activity)

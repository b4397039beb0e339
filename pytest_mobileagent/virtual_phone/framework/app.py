"""The app model: how an app of the virtual phone is declared.

An app is a class with its package, label and activities.  An activity
builds its screen as a view tree from state (declaratively: `build()` is
called again after every input, so it simply describes what the screen
shows now) and reacts through small callbacks.  Dialogs and pop-up menus are
windows shown over an activity.

Quick guide::

    from types import SimpleNamespace
    from pytest_mobileagent.virtual_phone.framework.app import Activity, App, Dialog
    from pytest_mobileagent.virtual_phone.framework.ui.views import (
        Button, Column, EditText, MenuItem, RecyclerView, TextView, dp)

    class MainActivity(Activity):
        name = "com.example.todo.activities.MainActivity"

        def on_create(self):                 # transient, per activity instance
            self.filter = ""

        def build(self):                     # called after every input
            todos = self.data.todos          # persistent app data (pm clear resets it)
            return Column(
                self.toolbar("main_toolbar", title="Todo", items=[
                    MenuItem("Add", self.add, id="add", icon="plus", show="always"),
                    MenuItem("Settings", lambda: self.start(SettingsActivity)),   # overflow menu
                ]),
                RecyclerView(*[TextView(t, "todo_title", key=t, on_click=lambda t=t: self.open(t))
                               for t in todos], id="todos_list", weight=1),
                height=MATCH)

        def add(self):
            self.show_dialog(Dialog(
                "New todo", body=lambda: EditText(id="todo_name", hint="Title", autofocus=True),
                positive=("OK", lambda d: self.data.todos.append(d.find("todo_name").text)),
                negative="Cancel"))

    class TodoApp(App):
        package = "com.example.todo"
        label = "Todo"
        activities = (MainActivity,)         # the first one is the LAUNCHER activity

        def new_data(self):                  # fresh install state
            return SimpleNamespace(todos=[])

Then add the class to the sorted registry in `apps/__init__.py`.

Rules of the model:

* `self.data` is the app's persistent data (survives force-stop, reset by
  `pm clear`); attributes set on the activity are transient (lost when the
  activity finishes or the app is force-stopped), as on Android.
* Short ids ("todo_title") are resolved to "<package>:id/todo_title" in dumps
  and events; "android:id/..." ids stay as given.
* What users type, scroll, or toggle in an unbound CheckBox survives rebuilds
  by itself (keyed by position, or by `key=` for list items); pass the value
  from your state plus a callback (`on_text_changed`, `on_checked_change`)
  when the app needs to know it.  A changed declared value replaces the
  user's value (like `rememberSaveable(key)`).
* Callbacks run under the phone's lock; call `self.start(...)`,
  `self.finish()`, `self.show_dialog(...)`, `self.show_menu(...)`, or just
  change state: the screen is rebuilt after each input.
* `on_back()` returning True consumes BACK (e.g. to close a search bar).
* An app built on Simple-Commons subclasses `CommonsApp`
  (apps/commons/commons_app.py) instead: it gets the library's About screen
  (`com.simplemobiletools.commons.activities.AboutActivity`) and its release's version.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, ClassVar, Iterable

from .components import GRANT_PERMISSIONS_ACTIVITY
from .ui.keyboard import parse_soft_input_mode
from .ui.views import (
    ACCENT,
    Button,
    CheckBox,
    MenuItem,
    RelativeLayout,
    Toolbar,
    View,
    dp,
    sp,
)
from .ui.window import DialogWindow, PopupWindow, Window

__all__ = ["RESULT_CANCELED", "RESULT_OK", "Activity", "App", "Dialog", "settings_checkbox"]

#: Activity.RESULT_OK / RESULT_CANCELED (android.app.Activity)
RESULT_OK = -1
RESULT_CANCELED = 0


class App:
    """An installed app: package, label, activities and its persistent data."""

    package: ClassVar[str]
    label: ClassVar[str]
    #: what `dumpsys package` reports; the ten apps report their releases' (apps/commons/commons_app.py)
    version_name: ClassVar[str] = "1.0.0"
    version_code: ClassVar[int] = 1
    activities: ClassVar[tuple[type["Activity"], ...]] = ()
    #: whether the home screen shows an icon for it
    in_launcher: ClassVar[bool] = True
    #: the activities its libraries declare in their own manifests, which the build's manifest merger
    #: adds to the app's (Simple-Commons' About screens: apps/commons/commons_app.py)
    library_activities: ClassVar[tuple[type["Activity"], ...]] = ()
    #: roles the app qualifies for (its manifest's intent filters), e.g.
    #: {roles.ROLE_SMS}; `cmd role add-role-holder` refuses the others
    roles: ClassVar[frozenset[str]] = frozenset()
    #: the <intent-filter>s of its manifest that implicit intents reach (intents.py), as
    #: (activity class name, the activity's own label or "", IntentFilter)
    intent_filters: ClassVar[tuple] = ()
    #: its androidx FileProvider (<provider android:name="androidx.core.content.FileProvider">): the
    #: authority and the <paths> names with the folder of the app's private storage each maps to
    #: (file_providers.py)
    file_provider: ClassVar[tuple[str, dict[str, str]] | None] = None

    def __init__(self) -> None:
        self.reset_data()

    def new_data(self) -> Any:
        """The app's data right after install (override)."""
        return SimpleNamespace()

    def reset_data(self) -> None:
        """Install-time state again (`pm clear`): its data and the files of its private storage."""
        self.data = self.new_data()
        #: /data/user/0/<package>/... by path below that folder: what only the app reads (the shell user
        #: cannot list it), reached from other apps through its FileProvider's content URIs
        self.private_files: dict[str, bytes] = {}

    @property
    def splash_names(self) -> tuple[str, ...]:
        """<activity-alias> names that start the launcher activity at once (a splash screen that
        forwards at once, and its icon aliases); starting either lands there."""
        return ()

    @property
    def launcher_activity(self) -> type["Activity"]:
        return self.activities[0]

    def all_activities(self) -> tuple[type["Activity"], ...]:
        return self.activities + self.library_activities

    def activity_class(self, name: str) -> type["Activity"] | None:
        """Resolve a full or ".Relative" activity class name (a splash alias: the launcher activity)."""
        if name.startswith("."):
            name = self.package + name
        if name in self.splash_names:
            return self.launcher_activity
        for cls in self.all_activities():
            if cls.name == name:
                return cls
        return None


class Activity:
    """One screen of an app.  Override `build()`; optionally `on_create`, `on_back`."""

    name: ClassVar[str]
    #: window title carried by window_state events (default: the app label)
    title: ClassVar[str | None] = None
    #: draw edge to edge without status/navigation bar nodes (the home screen)
    fullscreen: ClassVar[bool] = False
    #: the activity's android:windowSoftInputMode in the app's AndroidManifest.xml (or what it
    #: sets with window.setSoftInputMode), e.g. "adjustResize"; "" leaves both unspecified
    soft_input_mode: ClassVar[str] = ""
    #: a translucent window (windowIsTranslucent: the share sheet, the permission dialog): the
    #: activity below stays drawn under it
    translucent: ClassVar[bool] = False
    #: launchMode singleTask / singleInstance: another app starting it gets a task of its own,
    #: and finishing that task returns to the starting app's task
    own_task: ClassVar[bool] = False

    def __init__(self, host, app: App, extras: dict | None = None) -> None:
        self.host = host
        self.app = app
        self.extras = dict(extras or {})
        self.window = Window(app.package, self.title or app.label, self.build, fullscreen=self.fullscreen,
                             soft_input_mode=self.soft_input_mode)
        self.overlays: list[Window] = []
        self.finished = False
        #: what setResult gave (RESULT_CANCELED until then, as Activity.mResultCode starts)
        self.result_code = RESULT_CANCELED
        self.result_data: Any = None
        #: (the activity that asked, its request code): startActivityForResult's reply target
        self.reply_to: "tuple[Activity, int] | None" = None

    @property
    def data(self) -> Any:
        return self.app.data

    # -- lifecycle hooks --------------------------------------------------
    def on_create(self) -> None:
        """Called once after construction, before the first build."""

    def on_resume(self) -> None:
        """Called whenever this activity comes to the front."""

    def on_back(self) -> bool:
        """BACK pressed with no dialog open; return True to consume it."""
        return False

    def on_activity_result(self, request_code: int, result_code: int, data: Any) -> None:
        """An activity this one started with start_intent_for_result finished (Activity.onActivityResult)."""

    def build(self) -> View:
        raise NotImplementedError

    # -- helpers ------------------------------------------------------------
    def start(self, activity: "type[Activity] | str", **extras) -> "Activity":
        """Start another activity of this app on top of this one."""
        cls = self.app.activity_class(activity) if isinstance(activity, str) else activity
        if cls is None:
            raise ValueError(f"unknown activity {activity!r} in {self.app.package}")
        return self.host.push_activity(self, cls, extras)

    def finish(self) -> None:
        self.host.finish_activity(self)

    def start_intent(self, intent) -> bool:
        """Context.startActivity(implicit intent) (see intents.py): the one activity that answers,
        the "Open with" resolver, or the share sheet for a createChooser intent.  False when no
        activity answers (ActivityNotFoundException): the caller shows its own toast."""
        return self.host.start_intent(self, intent)

    def start_intent_for_result(self, intent, request_code: int) -> bool:
        """startActivityForResult(intent, request_code): like start_intent; when the started activity
        finishes, its setResult reaches ``on_activity_result`` (RESULT_CANCELED when it set none).  A
        resolver in between forwards the reply target to the activity chosen
        (FLAG_ACTIVITY_FORWARD_RESULT, as ResolverActivity.safelyStartActivity does)."""
        intent.request_code = request_code
        return self.host.start_intent(self, intent)

    def set_result(self, result_code: int, data: Any = None) -> None:
        """Activity.setResult: what the caller's onActivityResult gets once this activity finishes."""
        self.result_code, self.result_data = result_code, data

    def write_uri(self, uri: str, data: bytes) -> None:
        """ContentResolver.openOutputStream(uri).write(data) (file_providers.py)."""
        self.host.file_providers.write(uri, data)

    def read_uri(self, uri: str) -> bytes:
        """ContentResolver.openInputStream(uri).readBytes(); FileNotFoundError when nothing backs it."""
        return self.host.file_providers.read(uri)

    def request_permissions(self, permissions: Iterable[str], message: str, icon: str,
                            on_result: Callable[[bool], object] | None) -> None:
        """ActivityCompat.requestPermissions: the permission controller's GrantPermissionsActivity over
        the app asks ``message``; ``on_result(granted)`` runs once it finished (Deny and BACK refuse).

        As Activity.requestPermissions does, the framework starts that activity by its component
        (intents.GRANT_PERMISSIONS_ACTIVITY) in the app's task, as startActivityForResult does;
        permissions all held already answer at once, with no dialog.
        """
        permissions = tuple(permissions)
        host = self.host
        if all(host.has_permission(self.app.package, p) for p in permissions):
            if on_result is not None:
                on_result(True)
            return
        extras = {"package": self.app.package, "permissions": permissions, "message": message, "icon": icon,
                  "on_result": on_result}
        # from onCreate the request starts once the activity is in its task (the system defers it)
        host.defer(lambda: None if self.finished else host.start_component(self, GRANT_PERMISSIONS_ACTIVITY, extras))

    def request_focus(self, id: str, key: str | None = None, show_keyboard: bool = False) -> None:
        """Focus the view ``id`` (``key`` for one list row) after the next rebuild (View.requestFocus).

        ``show_keyboard`` also asks for the soft keyboard, as Simple-Commons'
        ``Activity.showKeyboard(et)`` does.  For a dialog's field:
        ``dialog.window.request_focus(id)``.
        """
        self.window.request_focus(id, key, show_keyboard)

    def set_soft_input_mode(self, mode: str) -> None:
        """window.setSoftInputMode(mode), e.g. "stateAlwaysVisible": replaces the manifest's mode."""
        self.window.soft_input_state, self.window.soft_input_adjust = parse_soft_input_mode(mode)

    def holds_role(self, role: str) -> bool:
        """Whether this app holds ``role`` now (RoleManager.isRoleHeld), e.g. roles.ROLE_SMS."""
        return self.host.roles.is_holder(role, self.app.package)

    def launch_app(self, package: str) -> None:
        """Start another app's launcher activity (what a home screen icon does)."""
        self.host.launch_package(package)

    def show_dialog(self, dialog: "Dialog") -> "Dialog":
        dialog._attach(self)
        return dialog

    def show_menu(self, items: Iterable[MenuItem | tuple[str, Callable[[], object]]],
                  anchor: View | None = None) -> PopupWindow:
        """Show a pop-up menu (ListView of rows); `anchor` None = the toolbar's overflow corner."""
        entries = []
        for item in items:
            title, callback = (item.title, item.on_click) if isinstance(item, MenuItem) else item
            entries.append((title, callback))
        window = PopupWindow(self.app.package, [], anchor=None)
        window.items = [(title, self._menu_callback(window, cb)) for title, cb in entries]
        if anchor is not None and not _is_overflow(anchor):
            window.anchor = anchor.rect
        self.host.show_window(self, window)
        return window

    def _menu_callback(self, window: Window, callback):
        def run():
            self.host.dismiss_window(window)
            if callback is not None:
                callback()
        return run

    def toolbar(self, id: str = "", *, title: str = "", items: Iterable[MenuItem] = (), back: bool = False,
                on_nav: Callable[[], object] | None = None, cross: bool = False, **kw) -> View:
        """The app's toolbar; overflow items open as a pop-up menu; `back` adds the up arrow
        ("Back"), `cross` makes it Commons' NavigationIcon.Cross ("Close")."""
        arrow = "close" if cross else "back"
        return Toolbar(id, title=title, items=items, nav_icon=arrow if (back or on_nav) else "",
                       on_nav=on_nav or (self.finish if back else None),
                       on_overflow=lambda anchor, overflow: self.show_menu(overflow, anchor), **kw)

    def find(self, id: str) -> View | None:
        """The live view with this id in this activity's topmost window that has one."""
        for window in reversed([self.window] + self.overlays):
            view = window.find(id)
            if view is not None:
                return view
        return None

    def toast(self, text: str) -> None:
        """Show a toast (drawn on screenshots only; real toasts are not in uiautomator dumps)."""
        self.host.toast(text)


def _is_overflow(view: View) -> bool:
    return view.desc == "More options"


class Dialog:
    """An AlertDialog: title, custom `body` (a function building a view) or `message`, buttons.

    Buttons are a label or (label, callback(dialog)); a callback returning
    False keeps the dialog open (e.g. to reject empty input).  `positive`,
    `negative`, `neutral` become android:id/button1, button2, button3.
    """

    def __init__(self, title: str = "", body: Callable[[], View] | None = None, *, message: str = "",
                 positive=None, negative=None, neutral=None, cancelable: bool = True,
                 on_dismiss: Callable[[], object] | None = None,
                 on_back: Callable[[], bool] | None = None) -> None:
        self.title = title
        #: an OnKeyListener's BACK: returns True when it consumed the key (the dialog stays)
        self.on_back = on_back
        self.body = body
        self.message = message
        self.specs = [("android:id/button3", neutral), ("android:id/button2", negative),
                      ("android:id/button1", positive)]
        self.cancelable = cancelable
        self.on_dismiss = on_dismiss
        self.activity: Activity | None = None
        self.window: DialogWindow | None = None

    def _attach(self, activity: Activity) -> None:
        self.activity = activity
        self.window = DialogWindow(activity.app.package, self.title, self._build, buttons=[],
                                   cancelable=self.cancelable, message=self.message)
        self.window.dialog = self  # type: ignore[attr-defined]
        activity.host.show_window(activity, self.window)

    def _build(self) -> View | None:
        self.window.buttons = [self._button(view_id, spec) for view_id, spec in self.specs if spec]
        return self.body() if self.body is not None else None

    def _button(self, view_id: str, spec) -> View:
        label, callback = (spec, None) if isinstance(spec, str) else spec

        def press():
            keep_open = callback(self) is False if callback is not None else False
            if not keep_open:
                self.dismiss()

        return Button(label, view_id, bg=None, color=ACCENT, bold=True, on_click=press, min_width=dp(64),
                      padding=(dp(12), dp(10)))

    def find(self, id: str) -> View | None:
        return self.window.find(id) if self.window is not None else None

    def dismiss(self) -> None:
        if self.activity is not None and self.window is not None:
            self.activity.host.dismiss_window(self.window)
            if self.on_dismiss is not None:
                self.on_dismiss()


def settings_checkbox(prefix: str, label: str, checked: bool, on_change: Callable[[bool], object]) -> View:
    """A Simple Mobile Tools settings row: `<prefix>_holder` is clickable, `<prefix>` is the check box.

    As in the real apps the whole row toggles the box: the holder receives the
    touch, the CheckBox itself is not clickable.
    """
    return RelativeLayout(
        CheckBox(label, prefix, checked=checked, clickable=False, focusable=False, padding=(0, 0, dp(40), 0),
                 size=sp(16)),
        id=f"{prefix}_holder", padding=(dp(16), dp(12)), on_click=lambda: on_change(not checked),
    )

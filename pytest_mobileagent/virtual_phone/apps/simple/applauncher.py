"""Simple App Launcher (`com.simplemobiletools.applauncher`) for the virtual phone.

Not the phone's home screen (that is `launcher.py`): an app that holds a grid
of shortcuts to other installed apps.  Ids, texts and layout follow the
recorded screens (DroidTask, July 2023) and the app's sources:

* MainActivity: the search menu (`top_toolbar_search`; "Sort by" and
  "Toggle app name visibility" as actions; "Column count", "Settings",
  "About" under "More options"), the grid `launchers_grid` of
  `launcher_holder` items (tap launches the app, long press selects it: the
  selection bar offers "Change order", "Rename", "Remove"), the FAB that opens
  the dialog of check boxes over the phone's launchable apps; "No items
  found." when the grid is empty.
* Dialogs: add launchers, rename ("Please enter a launcher name" for an empty
  one), the one-time remove explanation, "Sort by" (Title / Custom,
  Ascending / Descending), column count.
* SettingsActivity: "Close this app at launching a different one".

A fresh install holds no launchers (as the recordings' empty grid shows).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
    CheckBox,
    Column,
    Divider,
    EditText,
    FloatingActionButton,
    FrameLayout,
    ImageView,
    LinearLayout,
    MenuItem,
    RadioButton,
    RadioGroup,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity, App, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..commons.commons_app import CommonsApp
from ..commons.commons_compose import AboutActivity
from ..commons.simple_commons import action_mode_bar
from ..commons.commons_dialogs import radio_dialog
from ..commons.search_menu import SearchMenu
from ..commons.simple_commons import CustomizationActivity

APP = "applauncher"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.applauncher"
HOME_PACKAGE = "com.android.launcher3"

SORT_BY_TITLE = 1
SORT_BY_CUSTOM = 2
SORT_DESCENDING = 1024
MAX_COLUMNS = 15


@dataclass
class Shortcut:
    """One launcher of the grid (a row of the app's `launchers` table)."""

    id: int
    package: str
    title: str
    renamed: bool = False
    order: int = 0


@dataclass
class LauncherData:
    """The app's database and preferences (cleared by `pm clear`)."""

    shortcuts: list[Shortcut] = field(default_factory=list)
    next_id: int = 1
    show_app_name: bool = True
    close_app: bool = True
    sorting: int = SORT_BY_TITLE
    columns: int = 5
    was_remove_info_shown: bool = False

    def add(self, package: str, title: str) -> Shortcut:
        shortcut = Shortcut(self.next_id, package, title)
        self.next_id += 1
        self.shortcuts.append(shortcut)
        return shortcut

    def rename(self, shortcut_id: int, title: str) -> None:
        if not title:
            raise ValueError("Please enter a launcher name")
        for shortcut in self.shortcuts:
            if shortcut.id == shortcut_id:
                shortcut.title, shortcut.renamed = title, True

    def remove(self, ids) -> None:
        wanted = set(ids)
        self.shortcuts = [s for s in self.shortcuts if s.id not in wanted]

    def sorted(self) -> list[Shortcut]:
        """AppLauncher.compareTo: by title (case-insensitive) or by custom order, maybe reversed."""
        if self.sorting & SORT_BY_CUSTOM:
            return sorted(self.shortcuts, key=lambda s: (s.order, s.title.lower()))
        items = sorted(self.shortcuts, key=lambda s: s.title.lower())
        return list(reversed(items)) if self.sorting & SORT_DESCENDING else items


class MainActivity(Activity):
    """The launchers grid with its search menu, selection mode and dialogs."""

    name = "com.simplemobiletools.applauncher.activities.MainActivity"

    def on_create(self) -> None:
        self.search = SearchMenu(self)
        self.selected: list[int] = []
        self.changing_order = False

    @property
    def store(self) -> LauncherData:
        return self.data

    def on_back(self) -> bool:
        if self.selected:
            self.finish_selection()
            return True
        if self.search.open:
            self.search.close()
            return True
        return False

    # -- the phone's apps -------------------------------------------------------------
    def launchable_apps(self) -> list[App]:
        """Every app with a launcher icon except this one (`getAllLaunchers`), by label."""
        apps = [a for a in self.host.installed_apps() if a.in_launcher and a.package not in (PACKAGE, HOME_PACKAGE)]
        return sorted(apps, key=lambda a: a.label.lower())

    def _shown(self) -> list[Shortcut]:
        """Shortcuts whose app is still installed, with their current label unless renamed."""
        labels = {a.package: a.label for a in self.launchable_apps()}
        out = []
        for shortcut in self.store.sorted():
            if shortcut.package in labels:
                if not shortcut.renamed:
                    shortcut.title = labels[shortcut.package]
                out.append(shortcut)
        return out

    def visible_shortcuts(self) -> list[Shortcut]:
        query = self.search.query.lower()
        return [s for s in self._shown() if query in s.title.lower()]

    # -- actions ------------------------------------------------------------------------
    def launch(self, shortcut: Shortcut) -> None:
        if self.selected:
            self.toggle(shortcut.id)
            return
        close = self.store.close_app
        self.launch_app(shortcut.package)
        if close:
            self.finish()

    def toggle(self, shortcut_id: int) -> None:
        if shortcut_id in self.selected:
            self.selected.remove(shortcut_id)
        else:
            self.selected.append(shortcut_id)
        if not self.selected:
            self.finish_selection()

    def long_press(self, shortcut: Shortcut) -> None:
        if shortcut.id not in self.selected:
            self.selected.append(shortcut.id)

    def finish_selection(self) -> None:
        if self.changing_order:
            for index, shortcut in enumerate(self._shown()):
                shortcut.order = index + 1
        self.selected = []
        self.changing_order = False

    def toggle_app_name(self) -> None:
        self.store.show_app_name = not self.store.show_app_name

    def show_add_dialog(self) -> None:
        apps = self.launchable_apps()
        shown = {s.package for s in self._shown()}
        checked = {a.package: a.package in shown for a in apps}

        def flip(package: str) -> None:
            checked[package] = not checked[package]

        def body() -> View:
            rows = [RelativeLayout(
                Row(ImageView("launcher_icon", icon=f"app:{a.label}", tint=TEXT, width=dp(40), height=dp(40),
                              margin=(dp(16), 0, dp(8), 0)),
                    CheckBox(a.label, "launcher_checkbox", checked=checked[a.package], clickable=False,
                             focusable=False, weight=1, width=MATCH)),
                id="add_launchers_holder", on_click=lambda p=a.package: flip(p), key=a.package,
                padding=(0, dp(4)))
                for a in apps]
            return RecyclerView(*rows, id="add_launchers_holder", height=WRAP)

        def ok(_d: Dialog) -> None:
            for package, on in checked.items():
                present = [s for s in self.store.shortcuts if s.package == package]
                if on and not present:
                    self.store.add(package, next(a.label for a in apps if a.package == package))
                elif not on and present:
                    self.store.remove([s.id for s in present])
            self.search.close()

        self.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))

    def show_rename_dialog(self) -> None:
        shortcut = next(s for s in self.store.shortcuts if s.id == self.selected[0])

        def ok(d: Dialog) -> bool:
            name = d.find("edit_launcher_edittext").text
            try:
                self.store.rename(shortcut.id, name)
            except ValueError as exc:
                self.toast(str(exc))
                return False
            self.finish_selection()
            self.search.close()
            return True

        self.show_dialog(Dialog("Rename", lambda: FrameLayout(
            LinearLayout(EditText(shortcut.title, "edit_launcher_edittext", hint="Label", autofocus=True),
                         id="edit_launcher_hint"),
            id="edit_launcher_holder", padding=(dp(20), dp(12))), positive=("OK", ok), negative="Cancel"))

    def remove_selected(self) -> None:
        ids = list(self.selected)

        def remove() -> None:
            self.store.remove(ids)
            self.selected = []

        if self.store.was_remove_info_shown:
            remove()
            return

        def confirmed(_d: Dialog) -> None:
            self.store.was_remove_info_shown = True
            remove()

        self.show_dialog(Dialog(
            body=lambda: ScrollView(TextView(
                "This will just remove the launcher icon from this grid, not uninstall the actual app.", "message",
                width=MATCH, padding=(dp(24), dp(20))), id="message_scrollview", height=WRAP, focusable=False),
            positive=("OK", confirmed), negative="Cancel"))

    def select_all(self) -> None:
        self.selected = [s.id for s in self.visible_shortcuts()]

    def change_order(self) -> None:
        self.changing_order = True

    def drag(self, shortcut: Shortcut, x: int, y: int) -> None:
        """LaunchersAdapter's ItemTouchHelper: the item dragged by its handle moves to the place of the
        item under the finger (onRowMoved), and the sorting becomes custom."""
        target = next((key for key, view in self._item_views.items()
                       if view.clip is not None and view.clip[0] <= x < view.clip[2] and view.clip[1] <= y < view.clip[3]),
                      None)
        items = self._shown()
        order = [s.id for s in items]
        if target is None or target == shortcut.id:
            return
        moved = items.pop(order.index(shortcut.id))
        items.insert(order.index(target), moved)
        # the order is stored when the selection mode ends (onActionModeDestroyed); shown at once
        for index, item in enumerate(items):
            item.order = index + 1
        self.store.sorting = SORT_BY_CUSTOM

    def show_sort_dialog(self) -> None:
        sorting = self.store.sorting
        state = {"custom": bool(sorting & SORT_BY_CUSTOM)}

        def sort_changed(index: int) -> None:
            state["custom"] = index == 1

        def body() -> View:
            return ScrollView(LinearLayout(
                RadioGroup(RadioButton("Title", "sorting_dialog_radio_title"),
                           RadioButton("Custom", "sorting_dialog_radio_custom"),
                           id="sorting_dialog_radio_sorting", checked_index=1 if sorting & SORT_BY_CUSTOM else 0,
                           on_checked_change=sort_changed),
                Divider("sorting_dialog_divider", margin=(0, dp(8)), visible=not state["custom"]),
                RadioGroup(RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                           RadioButton("Descending", "sorting_dialog_radio_descending"),
                           id="sorting_dialog_radio_order", checked_index=1 if sorting & SORT_DESCENDING else 0,
                           visible=not state["custom"]),
                id="sorting_dialog_holder", padding=(dp(16), dp(16), dp(16), 0)),
                id="sorting_dialog_scrollview", height=WRAP, focusable=False)

        def ok(d: Dialog) -> None:
            custom = d.find("sorting_dialog_radio_sorting").checked_index == 1
            value = SORT_BY_CUSTOM if custom else SORT_BY_TITLE
            if not custom and d.find("sorting_dialog_radio_order").checked_index == 1:
                value |= SORT_DESCENDING
            self.store.sorting = value

        self.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))

    def show_column_dialog(self) -> None:
        options = [f"{n} column" + ("s" if n > 1 else "") for n in range(1, MAX_COLUMNS + 1)]
        radio_dialog(self, options, self.store.columns - 1, lambda i: setattr(self.store, "columns", i + 1))

    # -- screen ----------------------------------------------------------------------------
    def _menu(self) -> list[MenuItem]:
        return menu(APP, "menu", {
            "sort": self.show_sort_dialog, "toggle_app_name": self.toggle_app_name,
            "column_count": self.show_column_dialog, "settings": lambda: self.start(SettingsActivity),
            "about": lambda: self.start(AboutActivity)}, hide=FDROID_HIDDEN)

    def _selection_bar(self) -> View:
        """LaunchersAdapter's action mode: cab.xml, Rename for one selected launcher only."""
        count = len(self.selected)
        total = len(self.visible_shortcuts())
        items = menu(APP, "cab", {
            "cab_change_order": self.change_order, "cab_edit": self.show_rename_dialog,
            "cab_remove": self.remove_selected, "cab_select_all": self.select_all},
            hide=() if count == 1 else ("cab_edit",), kind=ACTION_MODE)
        return action_mode_bar(self, f"{count} / {total}", items, on_close=self.finish_selection,
                               on_title=self.finish_selection if count >= total else self.select_all)

    def _item(self, shortcut: Shortcut) -> View:
        selected = shortcut.id in self.selected
        children: list[View] = [ImageView("launcher_icon", icon=f"app:{shortcut.title}", tint=TEXT,
                                          width=MATCH, height=dp(64), margin=(dp(4), dp(8), dp(4), 0))]
        if self.store.show_app_name:
            children.append(TextView(shortcut.title, "launcher_label", size=sp(14), width=MATCH, gravity="center",
                                     max_lines=1, color=TEXT, padding=(dp(4), dp(4))))
        if selected:
            children.append(ImageView("launcher_check", icon="check", tint=ACCENT, width=dp(24), height=dp(24)))
        if self.changing_order:
            # item_launcher_label.xml's launcher_drag_handle: shown on every item while changing the order
            # (launcherDragHandle.beVisibleIf(isChangingOrder)); a touch on it starts the drag
            handle = ImageView("launcher_drag_handle", icon="drag_handle", tint=TEXT_SECONDARY, width=dp(32),
                               height=dp(32))
            handle.on_drag = lambda x, y, s=shortcut: self.drag(s, x, y)
            children.append(handle)
        item = Column(*children, id="launcher_holder", class_name="android.widget.RelativeLayout",
                      on_click=lambda s=shortcut: self.launch(s), on_long_click=lambda s=shortcut: self.long_press(s),
                      selected=selected, bg=(255, 224, 214) if selected else None, key=f"launcher-{shortcut.id}",
                      padding=(0, 0, 0, dp(8)))
        self._item_views[shortcut.id] = item
        return item

    def build(self) -> View:
        self._item_views: dict = {}  # shortcut id -> its grid item, for the drag's drop target
        shortcuts = self.visible_shortcuts()
        if shortcuts:
            grid = RelativeLayout(
                RecyclerView(*[self._item(s) for s in shortcuts], id="launchers_grid", columns=self.store.columns),
                id="launchers_fastscroller", height=MATCH)
            holder = RelativeLayout(grid, id="launchers_holder", height=MATCH)
        else:
            placeholders: list[View] = [TextView("No items found.", "no_items_placeholder", size=sp(18),
                                                 color=TEXT_SECONDARY, width=MATCH, gravity="center",
                                                 padding=(dp(16), dp(12)))]
            if not self.search.query:
                placeholders.append(TextView("Manage visible app icons", "no_items_placeholder_2", size=sp(18),
                                             color=ACCENT, layout_gravity="center_horizontal", padding=dp(16),
                                             on_click=self.show_add_dialog))
            holder = Column(*placeholders, id="launchers_holder", class_name="android.widget.RelativeLayout")
        top = self._selection_bar() if self.selected else self.search.build(self._menu())
        return Column(
            top,
            RelativeLayout(
                FrameLayout(holder, FloatingActionButton("fab", icon="plus", on_click=self.show_add_dialog),
                            id="coordinator_layout", class_name=COORDINATOR_LAYOUT, height=MATCH),
                id="main_relative_layout", weight=1, height=MATCH),
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


class SettingsActivity(Activity):
    """Settings: color customization and "Close this app at launching a different one"."""

    name = "com.simplemobiletools.applauncher.activities.SettingsActivity"
    title = "Settings"

    def build(self) -> View:
        store: LauncherData = self.data

        def label(text: str, id: str) -> View:
            return TextView(text, id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                            padding=(dp(22), dp(24), dp(16), dp(12)))

        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(
                label("COLOR CUSTOMIZATION", "settings_color_customization_section_label"),
                Column(TextView("Customize colors", "settings_color_customization_label", size=sp(16)),
                       id="settings_color_customization_holder", class_name=CONSTRAINT_LAYOUT,
                       padding=(dp(22), dp(20)), on_click=lambda: self.start(CustomizationActivity)),
                Divider("settings_color_customization_divider"),
                label("GENERAL", "settings_general_settings_label"),
                settings_checkbox("settings_close_app", "Close this app at launching a different one",
                                  store.close_app, lambda v: setattr(store, "close_app", v)),
                id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


class AppLauncherApp(CommonsApp):
    """Simple App Launcher: an empty grid after install."""

    package = PACKAGE
    label = "App Launcher"
    activities = (MainActivity, SettingsActivity, CustomizationActivity)
    faq = (("Can I make this app the default launcher?",
            "No, it is a basic app icon holder, not a home screen. Use a real home screen launcher for that."),)

    def new_data(self) -> LauncherData:
        return LauncherData()


__all__ = ["AppLauncherApp", "LauncherData", "MainActivity", "SettingsActivity"]

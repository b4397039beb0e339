"""Simple-Commons' "Manage blocked numbers" as the pinned Commons (b72ded2a75) draws it: Jetpack Compose.

``activities/ManageBlockedNumbersActivity.kt`` sets the content to
``compose/screens/ManageBlockedNumbersScreen.kt``; its add/edit dialog is the
Compose ``AddOrEditBlockedNumberAlertDialog`` (``dialogs/AddBlockedNumberDialog.kt``).
Dumped as ``commons_compose`` describes Compose screens: no resource-ids,
``android.view.View`` nodes, ``TextView`` for Text, ``ImageView`` for an Icon
with a content description, ``CheckBox`` for a Checkbox, ``Button`` for a
TextButton, ``EditText`` for the text field; layout-only composables (Column,
Row without a click, dividers) have no node.

What the screen shows for an app that is not a dialer (``Context.isDefaultDialer``
is true for every package but Simple Contacts / Dialer, so the list shows):

* the top bar: "Back", the title, "Add a blocked number" (an icon) and "More
  options" (Import / Export blocked numbers, ``OverflowMode.ALWAYS_OVERFLOW``);
* "Block messages from not stored contacts" and "Block messages from hidden
  numbers" (``SettingsCheckBoxComponent``: a clickable row holding the label and
  the Checkbox);
* the list (a LazyColumn): each blocked number a clickable row (tap: edit it in
  the dialog; long press: select) with its "More options" icon (Copy number to
  clipboard, Delete); when empty, "You are not blocking anyone." and the
  clickable "Add a blocked number".

Texts are Commons' English strings at b72ded2a75 (``res/values/strings.xml``).
"""

from __future__ import annotations

from typing import Callable

from ...framework.ui.views import (ACCENT, MATCH, TEXT, TEXT_SECONDARY, WRAP, CheckBox, EditText, FrameLayout, ImageView,
                        LinearLayout, ListView, ScrollView, View, dp, sp)
from ...framework.ui.window import DialogWindow, PopupWindow
from ...framework.app import Activity, Dialog
from .commons_compose import COMPOSE_VIEW, _layout_only, _text

__all__ = ["ManageBlockedNumbersActivity"]

TITLE = "Manage blocked numbers"
ADD = "Add a blocked number"
MORE = "More options"
NOT_STORED = "Block messages from not stored contacts"  # block_not_stored_messages (not a dialer)
HIDDEN = "Block messages from hidden numbers"  # block_hidden_messages
EMPTY = "You are not blocking anyone."
NUMBER = "Number"
HELPER = ("Enter a number or a pattern (e.g. *12345*, +1*8888) to block all calls and messages from numbers "
          "matching the pattern.")
BLOCKED_URI = "content://com.android.blockednumber/blocked"


def _icon_button(desc: str, icon: str, on_click: Callable[[], object], key: str) -> View:
    """ActionIconButton / IconButton: a clickable 40dp Box (a View) holding the described Icon."""
    return LinearLayout(
        ImageView(icon=icon, desc=desc, class_name="android.widget.ImageView", tint=TEXT, width=dp(24),
                  height=dp(24), focusable=False),
        class_name=COMPOSE_VIEW, width=dp(48), height=dp(48), gravity="center", on_click=on_click, key=key)


def _checkbox_row(label: str, checked: bool, on_change: Callable[[bool], object], key: str) -> View:
    """SettingsCheckBoxComponent: the clickable Row holds the label Text and the (toggleable) Checkbox."""
    return LinearLayout(
        _layout_only(LinearLayout(_text(label, size=sp(14), width=MATCH, padding=(0, 0, dp(16), 0)),
                                  weight=1, width=MATCH)),
        CheckBox("", checked=checked, width=dp(48), height=dp(48), padding=0,
                 on_click=lambda: on_change(not checked)),
        orientation="horizontal", class_name=COMPOSE_VIEW, gravity="center_vertical", width=MATCH,
        padding=(dp(24), dp(6), dp(20), dp(6)), on_click=lambda: on_change(not checked), key=key)


class _ComposeDialogWindow(DialogWindow):
    """A Compose AlertDialog's window: the dialog's ComposeView and its nodes, no AppCompat panels."""

    def decorate(self, content: View | None) -> View:
        if content is not None and self.soft_input_state == "unspecified" and any(
                isinstance(view, EditText) and view.autofocus for view in content.walk()):
            # ShowKeyboardWhenDialogIsOpenedAndRequestFocus: the field takes focus, the keyboard shows
            self.soft_input_state = "always_visible"
        compose_view = LinearLayout(content, class_name="android.view.ViewGroup")
        return FrameLayout(FrameLayout(compose_view, id="android:id/content"), bg=(255, 255, 255), radius=dp(28))


class _DropdownMenu(PopupWindow):
    """Compose's DropdownMenu: a popup whose items (SimpleDropDownMenuItem) are clickable Views holding a Text."""

    def _build_list(self) -> View:
        rows = [LinearLayout(_text(title, size=sp(16), max_lines=1, padding=(dp(16), 0)), class_name=COMPOSE_VIEW,
                             height=dp(48), gravity="center_vertical", on_click=callback, key=f"item{i}")
                for i, (title, callback) in enumerate(self.items)]
        return ListView(*rows, height=WRAP, class_name=COMPOSE_VIEW)


class _ComposeDialog(Dialog):
    def _attach(self, activity: Activity) -> None:
        self.activity = activity
        self.window = _ComposeDialogWindow(activity.app.package, "", self._build, buttons=[],
                                           cancelable=self.cancelable)
        self.window.dialog = self  # type: ignore[attr-defined]
        activity.host.show_window(activity, self.window)


class ManageBlockedNumbersActivity(Activity):
    """Commons' ManageBlockedNumbersActivity (Compose) over the phone's blocked-number provider."""

    name = "com.simplemobiletools.commons.activities.ManageBlockedNumbersActivity"

    def on_create(self) -> None:
        self.selected: list[int] = []
        self.menu_for: int | None = None

    def on_back(self) -> bool:
        if self.selected:  # BackHandler(isInActionMode): clearSelection
            self.selected = []
            return True
        return False

    def _blocked(self):
        return self.host.providers.blocked.rows("SELECT _id, original_number FROM blocked ORDER BY _id")

    def build(self) -> View:
        config = self.app.base_config
        blocked = self._blocked()
        self.selected = [i for i in self.selected if any(r["_id"] == i for r in blocked)]
        if self.selected:
            bar = self._action_mode_bar(blocked)
        else:
            bar = LinearLayout(
                _icon_button("Back", "back", self.finish, "back"),
                _text(TITLE, size=sp(22), weight=1, width=MATCH, max_lines=1, padding=(dp(8), 0, 0, 0)),
                _icon_button(ADD, "plus", self.add_number, "add"),
                _icon_button(MORE, "more", self.show_overflow, "more"),
                orientation="horizontal", height=dp(64), gravity="center_vertical", class_name=COMPOSE_VIEW)
            bar.in_dump = False  # the TopAppBar has no node of its own; its children do
        header = [
            bar,
            _checkbox_row(NOT_STORED, bool(getattr(config, "block_unknown_numbers", False)),
                          lambda value: setattr(config, "block_unknown_numbers", value), "unknown"),
            _checkbox_row(HIDDEN, bool(getattr(config, "block_hidden_numbers", False)),
                          lambda value: setattr(config, "block_hidden_numbers", value), "hidden"),
            _layout_only(View(height=dp(1), bg=(224, 224, 224))),  # SettingsHorizontalDivider
        ]
        if blocked:
            items = [self._row(row) for row in blocked]
        else:
            add = LinearLayout(_text(ADD, color=ACCENT, size=sp(18), padding=dp(12)),
                               class_name=COMPOSE_VIEW, width=WRAP, on_click=self.add_number, key="empty-add")
            items = [_text(EMPTY, color=TEXT, width=MATCH, gravity="center", padding=(dp(32), dp(32), dp(32), dp(8))),
                     _layout_only(LinearLayout(add, width=MATCH, gravity="center_horizontal"))]
        column = LinearLayout(*items, class_name=COMPOSE_VIEW, width=MATCH)
        column.in_dump = False  # LazyColumn: one scrollable node holding the items
        body = ScrollView(column, class_name=COMPOSE_VIEW, weight=1, height=MATCH)
        # ComposeView (a ViewGroup) hosting the semantics tree, whose root node is a View
        return LinearLayout(LinearLayout(*header, body, class_name=COMPOSE_VIEW, height=MATCH),
                            class_name="android.view.ViewGroup", height=MATCH)

    def _row(self, row) -> View:
        """BlockedNumber: a ListItem with combinedClickable (tap edits, long press selects; in action mode a tap
        toggles), its headline the number, its trailing "More options" icon."""
        row_id, number = row["_id"], row["original_number"]
        selected = row_id in self.selected
        if self.selected:
            on_click, on_long = (lambda: self.toggle(row_id)), (lambda: None)
        else:
            on_click, on_long = (lambda: self.add_number(number)), (lambda: self.toggle(row_id))
        return LinearLayout(
            _text(number, size=sp(16), weight=1, width=MATCH, padding=(dp(12), 0)),
            _icon_button(MORE, "more", lambda: self.show_row_menu(row_id, number), f"more-{row_id}"),
            orientation="horizontal", class_name=COMPOSE_VIEW, gravity="center_vertical", width=MATCH,
            min_height=dp(56), padding=(dp(16), dp(8), dp(8), dp(8)), on_click=on_click, on_long_click=on_long,
            bg=(255, 230, 220) if selected else None, key=f"blocked-{row_id}")

    def _action_mode_bar(self, blocked) -> View:
        """ActionModeToolbar: back (clears), the clickable "n / N" title (select all / clear), Copy when one is
        selected, and Delete (NEVER_OVERFLOW icons)."""
        count, total = len(self.selected), len(blocked)

        def title_clicked() -> None:
            self.selected = [] if count == total else [r["_id"] for r in blocked]

        chosen = next((r["original_number"] for r in blocked if r["_id"] == self.selected[0]), "")
        bar = LinearLayout(
            _icon_button("Back", "back", self.selected.clear, "back"),
            LinearLayout(_text(f"{count} / {total}", max_lines=1), class_name=COMPOSE_VIEW, width=WRAP,
                         height=MATCH, gravity="center", padding=(dp(18), 0), on_click=title_clicked, key="title"),
            _layout_only(View(weight=1, width=MATCH)),
            _icon_button("Copy", "copy", lambda: self.copy(chosen), "copy") if count == 1 else None,
            _icon_button("Delete", "delete", self.delete_selected, "delete"),
            orientation="horizontal", height=dp(64), gravity="center_vertical", class_name=COMPOSE_VIEW)
        bar.in_dump = False
        return bar

    # -- behaviour -------------------------------------------------------------------------------
    def _dropdown(self, items) -> None:
        window = _DropdownMenu(self.app.package, [], anchor=None)
        window.items = [(title, self._menu_callback(window, callback)) for title, callback in items]
        self.host.show_window(self, window)

    def toggle(self, row_id: int) -> None:
        if row_id in self.selected:
            self.selected.remove(row_id)
        else:
            self.selected.append(row_id)

    def copy(self, number: str) -> None:
        self.selected = []
        self.host.clipboard = number  # copyToClipboard
        self.toast("Copied to clipboard")

    def delete_selected(self) -> None:
        for row_id in list(self.selected):
            self.host.providers.blocked.delete(f"{BLOCKED_URI}/{row_id}")
        self.selected = []

    def show_overflow(self) -> None:
        # Import opens the system's ACTION_GET_CONTENT picker, Export a file-name dialog then the
        # system's CreateDocument picker: neither picker is on this phone, so both end here.
        self._dropdown([("Import blocked numbers", lambda: None), ("Export blocked numbers", lambda: None)])

    def show_row_menu(self, row_id: int, number: str) -> None:
        self._dropdown([("Copy number to clipboard", lambda: self.copy(number)),
                        ("Delete", lambda: self.host.providers.blocked.delete(f"{BLOCKED_URI}/{row_id}"))])

    def add_number(self, editing: str | None = None) -> None:
        """AddOrEditBlockedNumberAlertDialog: OK replaces an edited number, adds a non-empty one (".*" -> "*")."""
        blocked = self.host.providers.blocked

        def ok(d: Dialog) -> None:
            field = next(v for v in d.window.root.walk() if isinstance(v, EditText))
            new = field.text
            if editing is not None and new != editing:
                for row in self._blocked():
                    if row["original_number"] == editing:
                        blocked.delete(f"{BLOCKED_URI}/{row['_id']}")
            if new:
                blocked.insert(BLOCKED_URI, {"original_number": new.replace(".*", "*")})

        dialog = _ComposeDialog()

        def body() -> View:
            def press(callback) -> Callable[[], None]:
                def run() -> None:
                    if callback is not None:
                        callback(dialog)
                    dialog.dismiss()
                return run

            buttons = LinearLayout(
                LinearLayout(_text("Cancel", color=ACCENT, bold=True), class_name="android.widget.Button",
                             width=WRAP, padding=(dp(12), dp(10)), on_click=press(None), key="cancel"),
                LinearLayout(_text("OK", color=ACCENT, bold=True), class_name="android.widget.Button",
                             width=WRAP, padding=(dp(12), dp(10)), on_click=press(ok), key="ok"),
                orientation="horizontal", gravity="end", width=MATCH, padding=(0, dp(16), 0, 0))
            buttons.in_dump = False
            return LinearLayout(
                EditText(editing or "", hint=NUMBER, autofocus=True, key="number"),
                _text(HELPER, size=sp(12), color=TEXT_SECONDARY, width=MATCH, padding=(dp(16), dp(4), dp(16), 0)),
                buttons,
                class_name=COMPOSE_VIEW, width=MATCH, padding=(dp(24), dp(24), dp(24), dp(18)))

        dialog.body = body
        self.show_dialog(dialog)

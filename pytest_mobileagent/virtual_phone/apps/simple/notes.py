"""Simple Notes Pro (`com.simplemobiletools.notes.pro`) for the virtual phone.

Screens, ids, texts and navigation follow real recordings of the app (DroidTask,
July 2023) and, where no recording shows a screen, the app's and the Simple
Mobile Tools commons library's sources:

* MainActivity: the toolbar menu of 6.17.0 (Search, Open note, Create a new
  note and Undo are `always` icons, the rest go to "More options" by
  AppCompat's rule), the pager title strip with
  the previous, current and next note titles, and the current note: a text
  note (`text_note_view`), a checklist (`checklist_fab`, rows whose whole
  area toggles the item) or, for a locked note, "Show content".
* Dialogs: Add a new note, Rename note, delete confirmation, Open note, Add
  new checklist items, Sort by, the lock warning and the commons security
  dialog (Pattern / PIN tabs, PIN pad `pin_0`..`pin_9`, `pin_c`, `pin_ok`).
* Export as file (DocumentsUI's CREATE_DOCUMENT, then the sync / export-only
  choice), Print (Android's print dialog, print_spooler.py), Share (the share
  sheet).
* SettingsActivity (its check boxes work), WidgetConfigureActivity (Customize
  widget colors) and the shared About screen.

The data (notes, checklist items, PINs, settings) lives in `notes_model`.
"""

from __future__ import annotations

import json
from typing import Callable

from ...framework.ui.views import (
    ACCENT,
    MATCH,
    Button,
    CheckBox,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
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
    StaggeredGridRecyclerView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.intents import ACTION_CREATE_DOCUMENT, ACTION_SEND, ACTION_VIEW, ComponentName, Intent, IntentFilter
from ...framework.shortcut_manager import ShortcutInfo, is_request_pin_shortcut_supported, request_pin_shortcut
from ...framework.ui.window import NAV_BAR_H, STATUS_BAR_H
from . import notes_model as m
from ...framework.ui.text import line_height
from ...framework.app import Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER
from ..menus import FDROID_HIDDEN, menu
from ..system.print_spooler import print_job
from ..commons.commons_app import CommonsApp
from ..commons.commons_compose import AboutActivity
from ..commons.simple_commons import CustomizationActivity, radio_group_dialog

APP = "notes"  # its menus in data/menus.json
#: helpers/Constants.kt: the extra a note's shortcut and widget open it with
OPEN_NOTE_ID = "open_note_id"
PACKAGE = "com.simplemobiletools.notes.pro"
TOOLBAR_H = dp(64)
TAB_STRIP_H = dp(32)
SEARCH_BAR_H = dp(48)
GREY = (158, 158, 158)

def document_uri(path: str) -> str:
    """The content URI DocumentsUI returns for a file it saved on shared storage, which the app keeps as the
    note's path: ExternalStorageProvider's document id "primary:<relative path>", encoded as
    DocumentsContract.buildDocumentUri does (Uri.encode)."""
    from urllib.parse import quote

    relative = path.removeprefix("/storage/emulated/0/")
    return f"content://com.android.externalstorage.documents/document/{quote('primary:' + relative, safe='')}"


LOCKING_WARNING = ("WARNING: If you forget the notes' password, you won't be able to recover it "
                   "or access the notes' content anymore.")


# ---------------------------------------------------------------------------
# the commons security dialog (lock / unlock with a PIN)


class SecurityDialog:
    """Commons `SecurityDialog`: Pattern and PIN tabs, or only the PIN tab to unlock.

    Setting a PIN (`required_hash` empty) takes it twice ("Enter PIN", then
    "Repeat PIN"); unlocking takes it once.  `pin_ok` confirms, as in the
    app version the benchmark was recorded with.
    """

    PATTERN, PIN = 0, 1

    def __init__(self, activity: Activity, required_hash: str, on_success: Callable[[str], object]) -> None:
        self.activity = activity
        self.required_hash = required_hash
        self.hash = required_hash
        self.on_success = on_success
        self.all_tabs = not required_hash
        self.tab = self.PATTERN if self.all_tabs else self.PIN
        self.pin = ""
        self.title = "Enter PIN"
        self.dialog = Dialog(body=self.build, negative="Cancel")
        activity.show_dialog(self.dialog)

    # -- behaviour ---------------------------------------------------------
    def select_tab(self, tab: int) -> None:
        self.tab = tab

    def add_digit(self, digit: str) -> None:
        if len(self.pin) < m.MAX_PIN_LENGTH:
            self.pin += digit

    def delete_digit(self) -> None:
        self.pin = self.pin[:-1]

    def confirm(self) -> None:
        new_hash = m.hash_pin(self.pin)
        if not self.pin:
            self.activity.toast("Please enter a PIN")
        elif not self.hash and len(self.pin) < m.MIN_PIN_LENGTH:
            self.pin = ""
            self.activity.toast("PIN must be at least 4 digits long")
        elif not self.hash:
            self.hash = new_hash
            self.pin = ""
            self.title = "Repeat PIN"
        elif self.hash == new_hash:
            self.dialog.dismiss()
            self.on_success(self.hash)
        else:
            self.pin = ""
            self.activity.toast("Wrong PIN")
            if not self.required_hash:
                self.hash = ""
                self.title = "Enter PIN"

    # -- views ---------------------------------------------------------------
    def build(self) -> View:
        children: list[View] = []
        if self.all_tabs:
            children.append(self._tabs())
        children.append(self._pattern_tab() if self.tab == self.PATTERN else self._pin_tab())
        return ScrollView(
            LinearLayout(*children, id="dialog_holder", class_name="android.widget.RelativeLayout"),
            id="dialog_scrollview", height=WRAP, focusable=False)

    def _tabs(self) -> View:
        tabs = []
        for index, label in ((self.PATTERN, "Pattern"), (self.PIN, "PIN")):
            selected = index == self.tab
            tabs.append(LinearLayout(
                TextView(label, bold=True, size=sp(14), color=ACCENT if selected else TEXT_SECONDARY,
                         selected=selected, max_lines=1),
                desc=label, selected=selected, weight=1, width=MATCH, height=dp(48), gravity="center",
                on_click=None if selected else (lambda i=index: self.select_tab(i)), key=f"tab-{label}"))
        return FrameLayout(LinearLayout(*tabs, orientation="horizontal"), id="dialog_tab_layout",
                           class_name="android.widget.HorizontalScrollView", height=dp(48))

    def _pattern_tab(self) -> View:
        return Column(
            TextView("Insert pattern", "pattern_lock_title", size=sp(18), padding=(dp(16), dp(16))),
            View("pattern_lock_view", width=dp(280), height=dp(280), layout_gravity="center_horizontal",
                 clickable=True, focusable=False),
            id="pattern_lock_holder", class_name="android.widget.RelativeLayout",
            padding=(0, 0, 0, dp(16)))

    def _pin_tab(self) -> View:
        def key(text: str, id: str, action) -> View:
            return TextView(text, id, size=sp(26), weight=1, width=MATCH, height=dp(60), gravity="center",
                            on_click=action)

        rows = []
        for digits in ("123", "456", "789"):
            rows.append(Row(*[key(d, f"pin_{d}", lambda d=d: self.add_digit(d)) for d in digits],
                            gravity="center"))
        rows.append(Row(
            key("C", "pin_c", self.delete_digit),
            key("0", "pin_0", lambda: self.add_digit("0")),
            ImageView("pin_ok", icon="check", tint=TEXT, weight=1, width=MATCH, height=dp(60),
                      on_click=self.confirm),
            gravity="center"))
        return Column(
            TextView(self.title, "pin_lock_title", size=sp(18), width=MATCH, gravity="center",
                     padding=(dp(16), dp(16), dp(16), dp(8))),
            TextView("*" * len(self.pin), "pin_lock_current_pin", size=sp(24), width=MATCH, gravity="center",
                     min_height=dp(32)),
            Column(*rows, margin=(0, dp(16), 0, 0)),
            id="pin_lock_holder", class_name="android.widget.RelativeLayout")


# ---------------------------------------------------------------------------
# MainActivity


class MainActivity(Activity):
    """The notes pager with its toolbar, search bar and dialogs."""

    name = "com.simplemobiletools.notes.pro.activities.MainActivity"

    def on_create(self) -> None:
        # OPEN_NOTE_ID (a pinned shortcut's intent, through SplashActivity): getWantedNoteIndex shows that note
        wanted = self.extras.get(OPEN_NOTE_ID)
        if wanted is not None and any(n.id == wanted for n in self.notes.notes):
            self.notes.current_id = wanted
        self.search_active = False
        self.search_query = ""
        self.search_index = 0
        #: note ids whose locked content was shown with the PIN (fragment state)
        self.revealed: set[int] = set()
        #: note ids locked during this visit: they stay shown until the screen resumes
        self.locked_while_shown: set[int] = set()
        #: per note: (text snapshots, position) for Undo / Redo
        self.history: dict[int, tuple[list[str], int]] = {}
        self.cursors: dict[int, int] = {}
        self._note_view: EditText | None = None
        note = self.data.current
        if not note.is_checklist and self.data.settings["show_keyboard"]:
            # TextFragment: config.showKeyboard -> requestFocus() + showSoftInput(SHOW_IMPLICIT)
            self.request_focus("text_note_view", show_keyboard=True)

    def on_resume(self) -> None:
        # Fragments re-check their lock state when the screen comes back.
        self.locked_while_shown.clear()
        # Note.getNoteStoredValue: a text note that follows a file shows the file's text
        for note in self.notes.notes:
            if note.path and not note.is_checklist and self.host.fs.exists(note.path):
                note.value = self.host.fs.read_file(note.path).decode("utf-8", "replace")

    def on_back(self) -> bool:
        if self.search_active:
            self.close_search()
            return True
        return False

    # -- state helpers --------------------------------------------------------
    @property
    def notes(self) -> m.NotesData:
        return self.data

    def content_hidden(self, note: m.Note) -> bool:
        return note.locked and note.id not in self.revealed and note.id not in self.locked_while_shown

    def with_unlock(self, action: Callable[[], object]) -> None:
        """Run `action`, asking for the note's PIN first if its content is hidden."""
        note = self.notes.current
        if not self.content_hidden(note):
            action()
            return

        def unlocked(_hash: str) -> None:
            self.revealed.add(note.id)
            action()

        SecurityDialog(self, note.pin_hash, unlocked)

    def select_note(self, note_id: int) -> None:
        if note_id != self.notes.current_id:
            self.notes.current_id = note_id
            self.close_search()

    def _undo_state(self, note: m.Note) -> tuple[list[str], int]:
        return self.history.setdefault(note.id, ([note.value], 0))

    # -- toolbar and menu -------------------------------------------------------
    def _toolbar_items(self) -> list[MenuItem]:
        """menu.xml as MainActivity.refreshMenuItems shows it (autosave on: no Save button)."""
        note = self.notes.current
        many = len(self.notes.notes) > 1
        checklist = note.is_checklist
        snapshots, pos = self._undo_state(note) if not checklist else ([], 0)
        can_undo, can_redo = pos > 0, pos < len(snapshots) - 1
        no_app = lambda: self.toast("No app found")  # noqa: E731 - other apps are not installed
        hidden = ["save_note", "import_folder", *FDROID_HIDDEN,  # import_folder: below Android 10 only
                  "unlock_note" if not note.locked else "lock_note"]
        if not many:
            hidden += ["rename_note", "open_note", "delete_note"]
        if checklist:
            hidden.append("open_search")
        else:
            hidden += ["remove_done_items", "sort_checklist"]
        if checklist or not (can_undo or can_redo):
            hidden += ["undo", "redo"]
        return menu(APP, "menu", {
            "open_search": lambda: self.with_unlock(self.open_search), "open_note": self.show_open_note_dialog,
            "new_note": self.show_new_note_dialog, "undo": self.undo if can_undo else None,
            "redo": self.redo if can_redo else None,
            "rename_note": lambda: self.with_unlock(self.show_rename_dialog),
            "remove_done_items": lambda: self.with_unlock(self.remove_done_items),
            "sort_checklist": lambda: self.with_unlock(self.show_sort_dialog),
            "share": lambda: self.with_unlock(self.share), "cab_create_shortcut": self.create_shortcut,
            "lock_note": self.show_lock_warning, "unlock_note": self.unlock_note, "open_file": no_app,
            "export_as_file": lambda: self.with_unlock(self.try_export_as_file),
            "print": lambda: self.with_unlock(self.print_text),
            "delete_note": lambda: self.with_unlock(self.show_delete_dialog),
            "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(AboutActivity)},
            hide=hidden)

    # -- screen ---------------------------------------------------------------------
    def build(self) -> View:
        items = self._toolbar_items()
        body: list[View] = []
        if self.search_active:
            body.append(self._search_bar())
        body.append(self._pager())
        return Column(
            self.toolbar("main_toolbar", items=items, height=TOOLBAR_H),
            Column(*body, id="main_linear_layout", weight=1, height=MATCH),
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _search_bar(self) -> View:
        icon = dict(width=dp(40), height=dp(40), margin=(dp(4), 0), tint=TEXT)
        return FrameLayout(
            Row(
                EditText(self.search_query, "search_query", hint="Search", autofocus=True, weight=1,
                         margin=(dp(16), 0, dp(8), 0), on_text_changed=self.search_changed,
                         on_ime_action=self.search_next, key="search_query"),
                ImageView("search_previous", icon="up", on_click=self.search_previous, **icon),
                ImageView("search_next", icon="down", on_click=self.search_next, **icon),
                ImageView("search_clear", icon="close", on_click=self.close_search, **icon),
                id="search_layout", height=SEARCH_BAR_H),
            id="search_wrapper", bg=(255, 236, 229))

    def _pager(self) -> View:
        notes = self.notes.sorted_notes()
        index = self.notes.current_index()
        note = notes[index]
        children: list[View] = []
        if len(notes) > 1:
            children.append(self._tab_strip(notes, index))
        children.append(self._checklist_page(note) if note.is_checklist else self._text_page(note))
        pager = Column(*children, id="view_pager", class_name=MY_VIEW_PAGER,
                       weight=1, height=MATCH, focusable=True)
        pager.scrollable = len(notes) > 1  # type: ignore[misc] - swipeable between notes
        return pager

    def _tab_strip(self, notes: list[m.Note], index: int) -> View:
        """PagerTitleStrip: previous (tap = go back), current, next (tap = go on)."""
        titles: list[View] = []
        if index > 0:
            prev = notes[index - 1]
            titles.append(TextView(prev.title, color=GREY, layout_gravity="center_vertical", max_lines=1,
                                   on_click=lambda n=prev.id: self.select_note(n), key=f"prev-{prev.id}"))
        titles.append(TextView(notes[index].title, layout_gravity="center", max_lines=1,
                               key=f"cur-{notes[index].id}"))
        if index < len(notes) - 1:
            nxt = notes[index + 1]
            titles.append(TextView(nxt.title, color=GREY, layout_gravity="end|center_vertical", max_lines=1,
                                   on_click=lambda n=nxt.id: self.select_note(n), key=f"next-{nxt.id}"))
        return FrameLayout(*titles, id="pager_tab_strip", class_name="android.view.ViewGroup",
                           height=TAB_STRIP_H)

    def _page_height(self) -> int:
        """Height of a note page: what the toolbar, search bar and title strip leave."""
        used = STATUS_BAR_H + NAV_BAR_H + TOOLBAR_H
        used += SEARCH_BAR_H if self.search_active else 0
        used += TAB_STRIP_H if len(self.notes.notes) > 1 else 0
        return 2340 - used

    def _locked_layout(self) -> View:
        return Column(
            ImageView("note_locked_image", icon="lock", tint=TEXT, layout_gravity="center_horizontal",
                      margin=(0, dp(16), 0, 0)),
            # fragment_text.xml / fragment_checklist.xml (6.17.0): @string/note_content_locked
            TextView("The notes' content is locked.", "note_locked_label", layout_gravity="center_horizontal",
                     padding=(dp(32), dp(8), dp(32), 0), margin=(0, dp(16), 0, 0)),
            TextView("Show content", "note_locked_show", color=ACCENT, layout_gravity="center_horizontal",
                     padding=dp(16), margin=(0, dp(8), 0, 0), on_click=lambda: self.with_unlock(lambda: None)),
            id="note_locked_layout", class_name="android.widget.RelativeLayout",
            margin=(0, dp(16), 0, 0))

    def _text_page(self, note: m.Note) -> View:
        if self.content_hidden(note):
            self._note_view = None
            return RelativeLayout(self._locked_layout(), id="note_fragment_holder", height=MATCH,
                                  key=f"page-{note.id}")
        view = EditText(note.value, "text_note_view", hint="Insert text here", single_line=False,
                        gravity="top", padding=(dp(12), dp(12)), min_height=self._page_height(),
                        autofocus=self.data.settings["show_keyboard"],
                        on_text_changed=lambda text, n=note: self.text_changed(n, text), key=f"text-{note.id}")
        matches = m.search_matches(note.value, self.search_query) if self.search_active else []
        if matches:
            view.cursor = matches[self.search_index % len(matches)]
        elif note.id in self.cursors:
            view.cursor = min(self.cursors[note.id], len(note.value))
        self._note_view = view
        return RelativeLayout(
            ScrollView(RelativeLayout(view, id="notes_relative_layout"), id="notes_scrollview"),
            id="note_fragment_holder", height=MATCH, key=f"page-{note.id}")

    def _checklist_page(self, note: m.Note) -> View:
        self._note_view = None
        hidden = self.content_hidden(note)
        inner: list[View] = []
        if hidden:
            inner.append(self._locked_layout())
        elif not note.items:
            inner.append(Column(
                TextView("The checklist is empty", "fragment_placeholder", width=MATCH, gravity="center",
                         padding=(0, dp(16), 0, 0)),
                TextView("Add new checklist items", "fragment_placeholder_2", color=ACCENT,
                         layout_gravity="center_horizontal", padding=dp(16), on_click=self.show_add_items_dialog),
                id="checklist_content_holder", class_name="android.widget.RelativeLayout"))
        else:
            rows = [self._checklist_row(note, item) for item in note.sorted_items(self.notes.checklist_sort)]
            inner.append(RelativeLayout(
                RecyclerView(*rows, id="checklist_list", padding=(0, 0, 0, dp(88))),
                id="checklist_content_holder", height=MATCH))
        children: list[View] = [RelativeLayout(*inner, id="checklist_items_holder", height=MATCH)]
        if not hidden:
            children.append(FloatingActionButton("checklist_fab", on_click=self.show_add_items_dialog))
        return FrameLayout(*children, id="checklist_holder", class_name="android.view.ViewGroup", height=MATCH,
                           key=f"page-{note.id}")

    def _checklist_row(self, note: m.Note, item: m.ChecklistItem) -> View:
        """One item: the whole row is the touch target; the drawn mark is the small icon."""
        return RelativeLayout(
            Row(
                TextView(item.title, "checklist_title", size=sp(18), weight=1, width=MATCH,
                         color=GREY if item.done else TEXT, padding=(dp(16), dp(8), dp(8), dp(8))),
                ImageView("checklist_image", icon="check" if item.done else "cross", width=dp(40), height=dp(40),
                          tint=ACCENT if item.done else GREY, margin=(0, 0, dp(8), 0)),
            ),
            id="checklist_holder", padding=(0, dp(4)), on_click=lambda: self.toggle_item(note, item.id),
            long_clickable=True, key=f"item-{item.id}")

    # -- text notes -----------------------------------------------------------------
    def text_changed(self, note: m.Note, text: str) -> None:
        if self._note_view is not None:
            self.cursors[note.id] = self._note_view.cursor
        if text == note.value:
            return
        snapshots, pos = self._undo_state(note)
        snapshots = snapshots[:pos + 1] + [text]
        self.history[note.id] = (snapshots, len(snapshots) - 1)
        note.value = text  # autosave is on by default
        if note.path and self.host.fs.exists(note.path):
            # NoteFragment.saveNoteValue: a note that follows a file saves into it (tryExportNoteValueToFile)
            self._write_export(note.path, text)

    def _step_history(self, delta: int) -> None:
        note = self.notes.current
        snapshots, pos = self._undo_state(note)
        pos = max(0, min(len(snapshots) - 1, pos + delta))
        self.history[note.id] = (snapshots, pos)
        note.value = snapshots[pos]
        self.cursors[note.id] = len(note.value)

    def undo(self) -> None:
        self._step_history(-1)

    def redo(self) -> None:
        self._step_history(+1)

    # -- search ---------------------------------------------------------------------
    def open_search(self) -> None:
        self.search_active = True
        self.search_query = ""
        self.search_index = 0
        self.request_focus("search_query", show_keyboard=True)  # MainActivity: showKeyboard(searchQueryET)

    def close_search(self) -> None:
        self.search_active = False
        self.search_query = ""
        self.search_index = 0

    def search_changed(self, text: str) -> None:
        self.search_query = text
        self.search_index = 0

    def _matches(self) -> list[int]:
        note = self.notes.current
        return [] if note.is_checklist else m.search_matches(note.value, self.search_query)

    def search_next(self) -> None:
        count = len(self._matches())
        self.search_index = (self.search_index + 1) % count if count else 0

    def search_previous(self) -> None:
        count = len(self._matches())
        self.search_index = (self.search_index - 1) % count if count else 0

    # -- checklists -----------------------------------------------------------------
    def toggle_item(self, note: m.Note, item_id: int) -> None:
        note.toggle_item(item_id)
        self._checklist_saved(note)

    def _checklist_saved(self, note: m.Note) -> None:
        """ChecklistFragment.saveNote -> NoteFragment.saveNoteValue: a checklist that follows a file (exported
        with "Update the file itself") writes its items' JSON into it instead of the database."""
        if note.path and self.host.fs.exists(note.path):
            self._write_export(note.path, self._stored_value(note))

    def remove_done_items(self) -> None:
        self.notes.current.remove_done_items()
        self._checklist_saved(self.notes.current)

    def show_add_items_dialog(self) -> None:
        note = self.notes.current
        fields = [0]  # one title field; add_item appends another

        def add_field() -> None:
            fields.append(len(fields))
            # NewChecklistItemDialog.addNewEditText: activity.showKeyboard(titleEditText)
            dialog.window.request_focus("title_edit_text", key=f"title-{fields[-1]}", show_keyboard=True)

        def body() -> View:
            edits = [EditText("", "title_edit_text", autofocus=(i == 0), key=f"title-{i}",
                              on_ime_action=add_field) for i in fields]
            return ScrollView(
                Column(
                    Column(*edits, id="checklist_holder"),
                    ImageView("add_item", icon="plus", tint=ACCENT, on_click=add_field, margin=(0, dp(8), 0, 0)),
                    padding=(dp(16), dp(16), dp(16), 0)),
                id="dialog_holder", height=WRAP, focusable=False)

        def ok(d: Dialog) -> bool:
            titles = [view.text for view in d.window.root.walk()
                      if isinstance(view, EditText) and view.id == "title_edit_text"]
            if all(not t for t in titles):
                self.toast("Empty name")
                return False
            note.add_items([t for t in titles if t])
            self._checklist_saved(note)
            return True

        dialog = self.show_dialog(Dialog("Add new checklist items", body, positive=("OK", ok), negative="Cancel"))

    def show_sort_dialog(self) -> None:
        sort = self.notes.checklist_sort
        fields = [m.SORT_TITLE, m.SORT_DATE_CREATED, m.SORT_CUSTOM]

        def body() -> View:
            return Column(
                RadioGroup(
                    RadioButton("Title", "sorting_dialog_radio_title"),
                    RadioButton("Date created", "sorting_dialog_radio_date_created"),
                    RadioButton("Custom", "sorting_dialog_radio_custom"),
                    id="sorting_dialog_radio_sorting", checked_index=fields.index(sort.field)),
                Divider("sorting_dialog_order_divider", margin=(0, dp(8))),
                RadioGroup(
                    RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                    RadioButton("Descending", "sorting_dialog_radio_descending"),
                    id="sorting_dialog_radio_order", checked_index=0 if sort.ascending else 1),
                Divider("move_undone_checklist_items_divider", margin=(0, dp(8))),
                settings_checkbox("settings_move_undone_checklist_items", "Move done checklist items to the bottom",
                                  sort.move_done_to_bottom, self._toggle_move_done),
                id="dialog_holder", padding=(dp(16), dp(4)))

        def ok(d: Dialog) -> None:
            sort.field = fields[max(0, d.find("sorting_dialog_radio_sorting").checked_index)]
            sort.ascending = d.find("sorting_dialog_radio_order").checked_index != 1

        self.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))

    def _toggle_move_done(self, value: bool) -> None:
        self.notes.checklist_sort.move_done_to_bottom = value

    # -- note dialogs ---------------------------------------------------------------------
    def _title_field(self, text: str, hint: str) -> View:
        return LinearLayout(
            FrameLayout(EditText(text, "locked_note_title", hint=hint, autofocus=True)),
            id="note_title_hint", margin=(0, 0, 0, dp(16)))

    def show_new_note_dialog(self, then: Callable[[], object] | None = None) -> None:
        def body() -> View:
            return Column(
                self._title_field("", "Label"),
                TextView("New note type:", "new_note_type_label", width=MATCH, color=TEXT_SECONDARY),
                RadioGroup(RadioButton("Text note", "type_text_note"), RadioButton("Checklist", "type_checklist"),
                           id="new_note_type", checked_index=0),
                id="dialog_holder", padding=(dp(16), dp(12), dp(16), 0))

        def ok(d: Dialog) -> bool:
            title = d.find("locked_note_title").text.strip()
            checklist = d.find("new_note_type").checked_index == 1
            try:
                note = self.notes.add_note(title, m.TYPE_CHECKLIST if checklist else m.TYPE_TEXT)
            except m.NoteError as exc:
                self.toast(str(exc))
                return False
            self.close_search()
            if not checklist:
                self.request_focus("text_note_view", key=f"text-{note.id}", show_keyboard=True)
            if then is not None:
                then()
            return True

        self.show_dialog(Dialog("Add a new note", body, positive=("OK", ok), negative="Cancel"))

    def show_rename_dialog(self) -> None:
        note = self.notes.current

        def ok(d: Dialog) -> bool:
            try:
                self.notes.rename(note, d.find("locked_note_title").text.strip())
            except m.NoteError as exc:
                self.toast(str(exc))
                return False
            return True

        self.show_dialog(Dialog(
            "Rename note",
            lambda: Column(self._title_field(note.title, "Title"), id="dialog_holder",
                           padding=(dp(16), dp(12), dp(16), 0)),
            positive=("OK", ok), negative="Cancel"))

    def show_delete_dialog(self) -> None:
        """DeleteNoteDialog (6.17.0): a note that follows a file also offers "Also delete file "<uri>""."""
        note = self.notes.current
        delete_file = [False]

        def delete(_d: Dialog) -> None:
            if note in self.notes.notes and len(self.notes.notes) > 1:
                ordered = self.notes.sorted_notes()
                index = ordered.index(note)
                # doDeleteNote's noteToRefresh: the note before, else the one after
                neighbour = ordered[index - 1 if index > 0 else index + 1]
                self.notes.delete(note)
                self.revealed.discard(note.id)
                self.close_search()
                if delete_file[0] and note.path:
                    # MainActivity.refreshNotes deletes FileDirItem(note.path) of the note it refreshes to, the
                    # neighbour, not the deleted note's file (Commons' deleteFileBg counts a missing path as done)
                    if neighbour.path and self.host.fs.exists(neighbour.path):
                        self.host.fs.remove(neighbour.path)

        def toggle() -> None:
            delete_file[0] = not delete_file[0]

        def body() -> View:
            children: list[View] = [
                TextView(f'Are you sure you want to delete note "{note.title}"?', "delete_note_description",
                         width=MATCH, padding=(dp(20), dp(20), dp(16), dp(16)))]
            if note.path:
                children.append(RelativeLayout(
                    CheckBox(f'Also delete file "{document_uri(note.path)}"', "delete_note_checkbox",
                             checked=delete_file[0], clickable=False, focusable=False, size=sp(16)),
                    id="delete_note_checkbox_holder", padding=dp(16), on_click=toggle))
            return Column(*children, id="delete_note_holder")

        self.show_dialog(Dialog(body=body, positive=("Delete", delete), negative="Cancel"))

    def show_open_note_dialog(self) -> None:
        """OpenNoteDialog (6.17.0 dialog_open_note.xml, open_note_item.xml, OpenNoteAdapter): a
        CoordinatorLayout `dialog_open_note_holder` with a NestedScrollView (min_open_note_popup_height
        200dp) around `dialog_open_note_list`, a staggered grid of grid_note_item_width (150dp) note
        cards, and `new_note_fab`; the AlertDialog has the title "Open note" and a Cancel button.
        A card is the note's title (primary colour, bold, 18sp, one line) and its formatted text
        (gone when blank or locked; a lock icon instead when locked).  A card opens its note; the FAB
        opens NewNoteDialog, and this dialog closes once that note is made."""
        dialog: Dialog

        def pick(note_id: int) -> None:
            dialog.dismiss()
            self.select_note(note_id)

        def create() -> None:
            self.show_new_note_dialog(then=dialog.dismiss)

        def card(note: m.Note) -> View:
            text = self._open_note_text(note)
            children: list[View] = [TextView(note.title, "open_note_item_title", size=sp(18), bold=True,
                                             color=ACCENT, max_lines=1)]
            if note.locked:
                # icon_lock: layout_below the title, match_parent x open_note_popup_lock_size, padding 4dp
                children.append(ImageView("icon_lock", icon="lock", tint=ACCENT, width=MATCH, height=dp(56), important=False,
                                          padding=dp(4), margin=(0, line_height(sp(18)), 0, 0)))
            elif text.strip():
                # open_note_item_text: below the title, marginTop medium_margin, maxHeight 150dp
                children.append(TextView(text, "open_note_item_text", size=sp(14),
                                         max_lines=dp(150) // line_height(sp(14)),
                                         margin=(0, line_height(sp(18)) + dp(8), 0, 0)))
            return RelativeLayout(*children, id="open_note_item_holder", key=f"note-{note.id}", margin=dp(8),
                                  padding=dp(12), on_click=lambda: pick(note.id))

        def body() -> View:
            cards = [card(n) for n in self.notes.sorted_notes()]
            return FrameLayout(
                ScrollView(StaggeredGridRecyclerView(*cards, id="dialog_open_note_list", item_width=dp(150),
                                                     height=WRAP, padding=(0, 0, 0, dp(76))),
                           height=WRAP, min_height=dp(200), margin=(dp(4), dp(8), dp(4), 0)),
                FloatingActionButton("new_note_fab", icon="plus", on_click=create),
                id="dialog_open_note_holder", class_name="android.view.ViewGroup", height=WRAP)

        dialog = self.show_dialog(Dialog("Open note", body, negative="Cancel"))

    def _open_note_text(self, note: m.Note) -> str:
        """OpenNoteAdapter.getFormattedValue: a text note's stored text; a checklist's items as "• title"
        lines in the checklist's sort order."""
        if not note.is_checklist:
            return note.value
        return "\n".join(f"• {item.title}" for item in note.sorted_items(self.notes.checklist_sort))

    # -- locking ----------------------------------------------------------------------------
    def show_lock_warning(self) -> None:
        note = self.notes.current

        def locked(pin_hash: str) -> None:
            note.pin_hash = pin_hash
            # The open page keeps showing the content until it is resumed.
            self.locked_while_shown.add(note.id)

        def confirmed(_dialog: Dialog) -> None:
            SecurityDialog(self, "", locked)

        self.show_dialog(Dialog(
            body=lambda: ScrollView(TextView(LOCKING_WARNING, "message", width=MATCH, padding=(dp(24), dp(20))),
                                    id="message_scrollview", height=WRAP, focusable=False),
            positive=("OK", confirmed), negative="Cancel"))

    def unlock_note(self) -> None:
        note = self.notes.current

        def unlocked(_hash: str) -> None:
            note.pin_hash = ""
            self.revealed.add(note.id)

        SecurityDialog(self, note.pin_hash, unlocked)

    def share(self) -> None:
        note = self.notes.current
        if not (note.items if note.is_checklist else note.value):
            self.toast("Cannot share empty text")
            return
        # MainActivity.shareText: ACTION_SEND text/plain in Intent.createChooser(.., "Share via");
        # a checklist shares its stored value (the items as JSON)
        text = self._stored_value(note)
        self.start_intent(Intent(ACTION_SEND, mime_type="text/plain", chooser=True, title="Share via",
                                 extras={"subject": note.title, "text": text}))


    @staticmethod
    def _stored_value(note: m.Note) -> str:
        """MainActivity.getCurrentNoteValue: a text note's text, a checklist's items as its JSON."""
        if not note.is_checklist:
            return note.value
        return json.dumps([{"id": item.id, "title": item.title, "isDone": item.done} for item in note.items])

    # -- shortcut -------------------------------------------------------------------------------
    def create_shortcut(self) -> None:
        """MainActivity.createShortcut (6.17.0): when ShortcutManager.isRequestPinShortcutSupported, a
        ShortcutInfo labelled with the note's title whose intent is SplashActivity with OPEN_NOTE_ID
        (NEW_TASK | CLEAR_TASK | NO_HISTORY), handed to requestPinShortcut: the launcher confirms it.
        Its id is note.hashCode(), which the data class draws from the note's fields (and NoteType's
        identity hash); the phone uses the note's id, title and value."""
        if not is_request_pin_shortcut_supported(self.host):
            return
        note = self.notes.current
        package = self.app.package
        request_pin_shortcut(self, ShortcutInfo(
            package, str(hash((note.id, note.title, note.value))), note.title,
            ComponentName(package, f"{package}.activities.SplashActivity"), {OPEN_NOTE_ID: note.id}))

    # -- export and print ---------------------------------------------------------------------
    def try_export_as_file(self) -> None:
        """MainActivity.tryExportAsFile (6.17.0): WRITE_EXTERNAL_STORAGE is declared only up to
        maxSdkVersion 28 (AndroidManifest.xml), so on Android 14 hasPermission is false and the app asks
        the system for a document: ACTION_CREATE_DOCUMENT, type text/*, EXTRA_TITLE "<title>.txt"."""
        self.host.ime.hide()  # hideKeyboard()
        note = self.notes.current
        title = note.title.removesuffix(".txt") + ".txt"
        intent = Intent(ACTION_CREATE_DOCUMENT, mime_type="text/*",
                        extras={"title": title, "on_result": lambda path: self._export_picked(note, path)})
        if not self.start_intent(intent):
            self.toast("System service for selecting files and folders is unavailable")

    def _export_picked(self, note: m.Note, path: str | None) -> None:
        """onActivityResult(PICK_EXPORT_FILE_INTENT) -> showExportFilePickUpdateDialog: a RadioGroupDialog
        (no title, no buttons) whose pick writes the note to the file (exportNoteValueToUri)."""
        if path is None or note not in self.notes.notes:
            return
        text = self._stored_value(note)
        # strings.xml at 6.17.0: update_file_at_note, only_export_file_content (EXPORT_FILE_SYNC first)
        options = ["Update the file itself at updating the note\n(note gets deleted if file gets deleted, "
                   "or path changes)",
                   "Only export the current file content\n(changing the note will not affect the file)"]

        def picked(index: int) -> None:
            self._write_export(path, text)
            self.toast(f'Note "{note.title}" exported successfully')
            # EXPORT_FILE_SYNC: the note follows the file from now on; NO_SYNC: it keeps its own value
            note.path = path if index == 0 else ""

        radio_group_dialog(self, options, -1, picked)

    def _write_export(self, path: str, text: str) -> None:
        """exportNoteValueToUri: the text written over the document (mode "rwt"), which MediaProvider indexes."""
        self.host.fs.write_file(path, text.encode("utf-8"))
        store = getattr(self.host, "media_store", None)
        if store is not None:
            store.scan(path)

    def print_text(self) -> None:
        """MainActivity.printText: a WebView loads getPrintableText() and, once loaded, createWebPrintJob
        hands it to PrintManager.print under the note's title (the spooler's print dialog opens)."""
        note = self.notes.current
        text = note.value if not note.is_checklist else "".join(f"{item.title}\n\n" for item in note.items)
        print_job(self, note.title, text)


# ---------------------------------------------------------------------------
# SettingsActivity


class SettingsActivity(Activity):
    """The app's settings: its check boxes toggle the stored preferences."""

    name = "com.simplemobiletools.notes.pro.activities.SettingsActivity"

    CHECKBOXES = {
        "TEXT": (("settings_show_word_count", "Show word count", "show_word_count"),
                 ("settings_clickable_links", "Make links and emails clickable", "clickable_links"),
                 ("settings_monospaced_font", "Use monospaced font", "monospaced_font"),
                 ("settings_use_incognito_mode", "Use Incognito mode of keyboards", "use_incognito_mode"),
                 ("settings_enable_line_wrap", "Enable line wrap", "enable_line_wrap")),
        "STARTUP": (("settings_cursor_placement", "Place cursor to the end of note", "cursor_placement"),
                    ("settings_show_keyboard", "Show keyboard on startup", "show_keyboard"),
                    ("settings_show_note_picker", "Show a note picker on startup", "show_note_picker")),
        "SAVING": (("settings_autosave_notes", "Autosave notes", "autosave_notes"),
                   ("settings_display_success", "Display save success messages", "display_success")),
    }

    def build(self) -> View:
        settings = self.data.settings
        blocks: list[View] = [
            self._label("COLOR CUSTOMIZATION", "settings_color_customization_section_label"),
            # activity_settings.xml builds these two rows as ConstraintLayouts, the others as RelativeLayouts
            self._row("settings_color_customization", "Customize colors",
                      on_click=lambda: self.start(CustomizationActivity), class_name=CONSTRAINT_LAYOUT),
            self._row("settings_widget_color_customization", "Customize widget colors",
                      on_click=lambda: self.start(WidgetConfigureActivity), class_name=CONSTRAINT_LAYOUT),
            Divider("settings_color_customization_divider"),
            self._label("GENERAL", "settings_general_settings_label"),
            self._row("settings_font_size", "Font size", settings["font_size"],
                      lambda: self._choose("font_size", "Font size", ("50%", "60%", "75%", "90%", "100%", "125%",
                                                                      "150%", "175%", "200%", "250%", "300%"))),
            Divider("settings_general_settings_divider"),
            self._label("TEXT", "settings_text_label"),
        ]
        for section, divider in (("TEXT", "settings_text_divider"), ("STARTUP", "settings_startup_divider"),
                                 ("SAVING", None)):
            if section != "TEXT":
                blocks.append(self._label(section, f"settings_{section.lower()}_label"))
            for prefix, label, key in self.CHECKBOXES[section]:
                blocks.append(settings_checkbox(prefix, label, settings[key],
                                                lambda value, k=key: settings.__setitem__(k, value)))
            if section == "TEXT":
                blocks.append(self._row("settings_gravity", "Alignment", settings["gravity"],
                                        lambda: self._choose("gravity", "Alignment", ("Left", "Center", "Right"))))
            if divider:
                blocks.append(Divider(divider))
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    @staticmethod
    def _label(text: str, id: str) -> View:
        return TextView(text, id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                        padding=(dp(22), dp(24), dp(16), dp(12)))

    @staticmethod
    def _row(prefix: str, label: str, value: str | None = None, on_click=None,
             class_name: str = "android.widget.RelativeLayout") -> View:
        children = [TextView(label, f"{prefix}_label", size=sp(16))]
        if value is not None:
            children.append(TextView(value, prefix, color=TEXT_SECONDARY, size=sp(14), width=MATCH))
        return Column(*children, id=f"{prefix}_holder", class_name=class_name,
                      padding=(dp(22), dp(16)), on_click=on_click or (lambda: None))

    def _choose(self, key: str, title: str, options: tuple[str, ...]) -> None:
        """A commons RadioGroupDialog: picking an option stores it and closes the dialog."""
        settings = self.data.settings

        def pick(value: str) -> None:
            settings[key] = value
            dialog.dismiss()

        dialog = self.show_dialog(Dialog(body=lambda: ScrollView(
            RadioGroup(*[RadioButton(o, on_click=lambda o=o: pick(o)) for o in options], id="dialog_radio_group",
                       checked_index=options.index(settings[key]) if settings[key] in options else -1,
                       padding=(dp(16), dp(8))),
            id="dialog_radio_holder", height=WRAP, focusable=False)))


# ---------------------------------------------------------------------------
# WidgetConfigureActivity


#: strings.xml at 6.17.0: widget_config, the sample text of the widget preview
WIDGET_SAMPLE = "Thank you for using Simple Notes.\nFor more simple apps please visit SimpleMobileTools.com."


class WidgetConfigureActivity(Activity):
    """The widget's colours, as Settings' "Customize widget colors" opens it (IS_CUSTOMIZING_COLORS).

    widget_config.xml and WidgetConfigureActivity.initVariables at 6.17.0: while customizing colours the
    note picker (notes_picker_holder) is gone and so is the title (mShowTitle false); the preview shows
    the first unlocked note: a text note as the widget_config sample text, a checklist as its items
    (the sample Milk, Butter, Salt, Water, Meat when it has none).  OK (config_save) stores the colours
    and finishes.  The colour pickers behind config_bg_color / config_text_color (Commons'
    ColorPickerDialog) are not modelled, as in CustomizationActivity: a tap on them does nothing here.
    """

    name = "com.simplemobiletools.notes.pro.activities.WidgetConfigureActivity"

    def build(self) -> View:
        note = next((n for n in self.data.sorted_notes() if not n.locked), None)
        preview: View
        if note is not None and note.is_checklist:
            items = [(i.title, i.done) for i in note.items] or [
                ("Milk", True), ("Butter", True), ("Salt", False), ("Water", False), ("Meat", True)]
            preview = RecyclerView(*[RelativeLayout(
                Row(TextView(title, "checklist_title", size=sp(18), weight=1, width=MATCH,
                             color=GREY if done else TEXT, padding=(dp(16), dp(8), dp(8), dp(8))),
                    ImageView("checklist_image", icon="check" if done else "cross", width=dp(40), height=dp(40),
                              tint=ACCENT if done else GREY)),
                id="checklist_holder", key=f"item-{index}") for index, (title, done) in enumerate(items)],
                id="checklist_note_view", weight=1, height=MATCH, margin=(0, 0, 0, dp(16)))
        else:
            # the preview fills what the colour rows leave (layout_above config_bg_color)
            preview = FrameLayout(TextView(WIDGET_SAMPLE, "text_note_view", width=MATCH, gravity="top",
                                           padding=dp(16), bg=(255, 255, 255)),
                                  weight=1, height=MATCH, margin=(0, 0, 0, dp(16)))
        swatch = dict(width=dp(50), height=dp(50), margin=dp(2), on_click=lambda: None)
        return FrameLayout(
            Column(
                preview,
                Row(ImageView("config_bg_color", icon="dot", tint=(255, 255, 255), **swatch),
                    RelativeLayout(View("config_bg_seekbar", class_name="android.widget.SeekBar", width=MATCH,
                                        height=dp(32), padding=(dp(16), 0), layout_gravity="center_vertical",
                                        clickable=True, focusable=True),
                                   id="config_bg_seekbar_holder", weight=1, width=MATCH, height=dp(50),
                                   margin=(dp(8), 0, 0, 0))),
                Row(ImageView("config_text_color", icon="dot", tint=TEXT, **swatch),
                    View(weight=1, width=MATCH),
                    Button("OK", "config_save", on_click=self.finish)),
                id="config_relative", class_name="android.widget.RelativeLayout", height=MATCH, margin=dp(16)),
            id="config_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


# ---------------------------------------------------------------------------
# the app


class NotesApp(CommonsApp):
    """Simple Notes Pro: one empty "General note" after install."""

    package = PACKAGE
    label = "Notes"
    activities = (MainActivity, SettingsActivity, CustomizationActivity, WidgetConfigureActivity)
    # AndroidManifest.xml: MainActivity takes SEND and VIEW of text/*
    intent_filters = ((MainActivity.name, "", IntentFilter((ACTION_SEND, ACTION_VIEW), mime_types=("text/*",))),)

    def new_data(self) -> m.NotesData:
        return m.NotesData()


__all__ = ["MainActivity", "NotesApp", "SecurityDialog", "SettingsActivity", "WidgetConfigureActivity"]

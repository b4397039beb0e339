"""Simple Notes on the virtual phone, driven at the Python level.

Every flow taps the centre of a view found in the dumped XML (by resource-id,
text or content-desc) and types with `input_text`, as an agent would; the
assertions read the dump and the emitted accessibility events.  The flows
cover the ten MobileAgentBench note_* tasks and the seed states they need.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from listener_stream import ListenerSink

from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

PKG = "com.simplemobiletools.notes.pro"
MAIN = f"{PKG}.activities.MainActivity"


def rid(short: str) -> str:
    return short if ":" in short else f"{PKG}:id/{short}"


class Notes:
    """Drives the Notes app of one AndroidSystem through taps, keys and text."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), emit_event=self.events.append,
                                    apps=INSTALLED_APPS)
        self.system.clear_data(PKG)
        self.system.start_activity(PKG)

    # -- reading -----------------------------------------------------------------
    def nodes(self) -> list[dict[str, str]]:
        root = ET.fromstring(self.system.dump_xml().encode("utf-8"))
        return [dict(n.attrib) for n in root.iter("node")]

    def all(self, id: str | None = None, text: str | None = None, desc: str | None = None,
            cls: str | None = None) -> list[dict[str, str]]:
        found = []
        for node in self.nodes():
            if id is not None and node["resource-id"] != rid(id):
                continue
            if text is not None and node["text"] != text:
                continue
            if desc is not None and node["content-desc"] != desc:
                continue
            if cls is not None and node["class"] != cls:
                continue
            found.append(node)
        return found

    def one(self, **criteria) -> dict[str, str]:
        found = self.all(**criteria)
        assert found, f"no view with {criteria} on screen:\n{self.summary()}"
        return found[0]

    def has(self, **criteria) -> bool:
        return bool(self.all(**criteria))

    def text(self, id: str) -> str:
        return self.one(id=id)["text"]

    def summary(self) -> str:
        return "\n".join(f"{n['class'].split('.')[-1]} {n['resource-id'].split('/')[-1]} {n['text']!r} "
                         f"{n['content-desc']!r}" for n in self.nodes() if n["text"] or n["resource-id"]
                         or n["content-desc"])

    def tab_titles(self) -> list[str]:
        """Titles in the pager strip, left to right."""
        strip = self.one(id="pager_tab_strip")
        return [n["text"] for n in self.nodes() if n["class"] == "android.widget.TextView"
                and _inside(n, strip)]

    def clicks(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "click"]

    # -- acting ---------------------------------------------------------------------
    def tap(self, **criteria) -> None:
        self.system.tap(*_center(self.one(**criteria)))

    def type(self, text: str) -> None:
        self.system.input_text(text)

    def key(self, name: str) -> None:
        self.system.key(name)

    def menu(self, title: str) -> None:
        """More options, then the entry with this title."""
        self.tap(desc="More options")
        self.tap(id="title", text=title)

    # -- flows (the tasks' seed states are built with these) ------------------------------
    def new_note(self, title: str, checklist: bool = False) -> None:
        self.tap(id="new_note")
        self.tap(id="locked_note_title")
        self.type(title)
        if checklist:
            self.tap(id="type_checklist")
        self.tap(id="android:id/button1")

    def add_items(self, *titles: str) -> None:
        for title in titles:
            self.tap(id="checklist_fab")
            self.tap(id="title_edit_text")
            self.type(title)
            self.tap(id="android:id/button1")

    def write(self, text: str) -> None:
        self.tap(id="text_note_view")
        self.type(text)

    def pin(self, digits: str) -> None:
        for digit in digits:
            self.tap(id=f"pin_{digit}")
        self.tap(id="pin_ok")

    def lock_current(self, digits: str) -> None:
        """The note_lock seed: More options -> Lock note -> OK -> PIN -> digits, OK, twice."""
        self.menu("Lock note")
        self.tap(id="android:id/button1")
        self.tap(text="PIN")
        self.pin(digits)
        self.pin(digits)


def _bounds(node) -> tuple[int, int, int, int]:
    return tuple(map(int, re.findall(r"-?\d+", node["bounds"])))  # type: ignore[return-value]


def _center(node) -> tuple[int, int]:
    x1, y1, x2, y2 = _bounds(node)
    return (x1 + x2) // 2, (y1 + y2) // 2


def _inside(node, outer) -> bool:
    a, b = _bounds(node), _bounds(outer)
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3] and node is not outer


@pytest.fixture
def notes() -> Notes:
    return Notes()


# ---------------------------------------------------------------------------
# the start screen


def test_fresh_install_shows_one_empty_general_note(notes):
    assert notes.system.focused_window() == (PKG, MAIN)
    assert notes.text("text_note_view") == "Insert text here"  # the hint of an empty field
    # One note: no title strip and no "Open note"; the editor has the focus.
    assert not notes.has(id="pager_tab_strip") and not notes.has(id="open_note")
    assert notes.one(id="text_note_view")["focused"] == "true"
    assert [n["content-desc"] for n in notes.all(cls="android.widget.Button")] == ["Search", "Create a new note"]
    assert notes.has(desc="More options")


def test_launcher_alias_and_monkey_land_on_main_activity(notes):
    notes.system.go_home()
    notes.system.start_activity(PKG, ".activities.SplashActivity.Orange")
    assert notes.system.focused_window() == (PKG, MAIN)


def test_typed_text_is_saved_and_undo_redo_restore_it(notes):
    notes.write("123456")
    assert notes.text("text_note_view") == "123456"
    assert notes.system.app(PKG).data.current.value == "123456"
    assert [e["text"] for e in notes.events if e["type"] == "text_changed"][-1] == ["123456"]
    # After typing: Search, Create a new note and Undo are `always` icons; Redo (ifRoom) finds no
    # slot left on a 392 dp phone (AppCompat's rule), so it is under More options.
    notes.tap(id="undo")
    assert notes.text("text_note_view") == "Insert text here"
    assert not notes.has(id="redo")
    notes.tap(desc="More options")
    notes.tap(id="title", text="Redo")
    assert notes.text("text_note_view") == "123456"
    # Leaving and coming back keeps the text (autosave).
    notes.system.force_stop(PKG)
    notes.system.start_activity(PKG)
    assert notes.text("text_note_view") == "123456"


def test_pm_clear_resets_to_a_fresh_install(notes):
    notes.new_note("work_list")
    notes.system.clear_data(PKG)
    notes.system.start_activity(PKG)
    assert not notes.has(id="pager_tab_strip")
    assert [n.title for n in notes.system.app(PKG).data.notes] == ["General note"]


def test_overflow_menu_lists_the_release_entries(notes):
    """6.17.0's menu.xml (import and export of all notes moved to Settings in 6.16.0)."""
    notes.new_note("Diary")
    notes.tap(desc="More options")
    titles = [n["text"] for n in notes.all(id="title")]
    assert titles == ["Rename note", "Share", "Create shortcut", "Lock note", "Open file",
                      "Export as file", "Print", "Delete note", "Settings", "About"]
    notes.key("BACK")
    assert not notes.has(id="title")


# ---------------------------------------------------------------------------
# the ten note_* tasks (golden paths) and their seed states


def test_note_add(notes):
    """add a new note named 'TODO List': new_note, type the title, OK."""
    notes.tap(id="new_note")
    dialog_title = notes.one(id="dialog_title_textview")["text"]
    assert dialog_title == "Add a new note"
    assert notes.one(id="locked_note_title")["focused"] == "true"
    assert notes.one(id="type_text_note")["checked"] == "true"
    notes.type("TODO List")
    notes.tap(id="android:id/button1")
    assert notes.all(text="TODO List", cls="android.widget.TextView")
    assert notes.tab_titles() == ["General note", "TODO List"]
    assert notes.text("text_note_view") == "Insert text here"
    assert notes.one(id="text_note_view")["focused"] == "true"  # the new note's editor


def test_note_add_refuses_empty_and_duplicate_titles(notes):
    notes.tap(id="new_note")
    notes.tap(id="android:id/button1")
    assert notes.has(id="locked_note_title")  # still open: "Please name your note"
    notes.type("general note")
    notes.tap(id="android:id/button1")
    assert notes.has(id="locked_note_title")  # "A note with that title already exists"
    notes.tap(id="android:id/button2")
    assert not notes.has(id="locked_note_title")


def test_note_new_checklist(notes):
    """add a new Checklist named 'TODO List': new_note, type, Checklist, OK."""
    notes.tap(id="new_note")
    notes.type("TODO List")
    notes.tap(id="type_checklist")
    notes.tap(id="android:id/button1")
    assert notes.all(text="TODO List", cls="android.widget.TextView")
    assert notes.text("fragment_placeholder") == "The checklist is empty"
    assert notes.has(id="checklist_fab") and not notes.has(id="open_search")
    click_texts = [e["text"] for e in notes.clicks()]
    assert ["Checklist"] in click_texts


def test_note_new_checklist_items(notes):
    """create a checklist 'Shopping list' with the item 'Milk'."""
    notes.new_note("Shopping list", checklist=True)
    notes.tap(id="checklist_fab")
    assert notes.one(id="dialog_title_textview")["text"] == "Add new checklist items"
    assert notes.one(id="title_edit_text")["focused"] == "true"
    notes.type("Milk")
    notes.tap(id="android:id/button1")
    assert notes.one(id="checklist_title")["text"] == "Milk"
    assert notes.all(text="Shopping list", cls="android.widget.TextView")


def test_checklist_dialog_adds_several_items_and_placeholder_link_opens_it(notes):
    notes.new_note("groceries", checklist=True)
    notes.tap(id="fragment_placeholder_2")
    notes.type("eggs")
    notes.tap(id="add_item")
    fields = notes.all(id="title_edit_text")
    assert len(fields) == 2 and fields[1]["focused"] == "true"
    notes.type("beer")
    notes.tap(id="android:id/button1")
    assert [n["text"] for n in notes.all(id="checklist_title")] == ["beer", "eggs"]


def test_note_item_checked(notes):
    """Check the item 'eggs' for shopping_list: one tap on the row."""
    notes.new_note("shopping_list", checklist=True)
    notes.add_items("eggs", "beer", "steak")
    assert [n["text"] for n in notes.all(id="checklist_title")] == ["beer", "eggs", "steak"]
    eggs_title = notes.one(id="checklist_title", text="eggs")
    # The row is the innermost checklist_holder (the fragment's holder has the same id).
    row = [n for n in notes.all(id="checklist_holder") if _inside(eggs_title, n)][-1]
    assert row["clickable"] == "true"
    del notes.events[:]
    # Tap the row far from the drawn text and mark: the whole row is the touch target.
    x1, y1, x2, y2 = _bounds(row)
    notes.system.tap(x1 + 5, (y1 + y2) // 2)
    click = notes.clicks()[-1]
    assert click["id"] == rid("checklist_holder") and "eggs" in click["text"]
    data = notes.system.app(PKG).data.current
    assert [it.title for it in data.items if it.done] == ["eggs"]
    notes.system.tap(*_center(row))
    assert not any(it.done for it in data.items)


def test_note_open(notes):
    """open the note 'meeting': one tap on its title in the strip."""
    for title, text in (("meeting", "9pm May 5th 2024"), ("Charles's secrets", "I love you"),
                        ("to_do_list", "Complete the task")):
        notes.new_note(title)
        notes.write(text)
    assert notes.tab_titles() == ["meeting", "to_do_list"]
    notes.tap(text="meeting")
    assert notes.text("text_note_view") == "9pm May 5th 2024"
    assert notes.tab_titles() == ["General note", "meeting", "to_do_list"]


def test_open_note_dialog_switches_notes(notes):
    """6.17.0 OpenNoteDialog: note cards (open_note_item.xml), not the older radio list; the through-adb
    test of its layout is in test_notes_export_print.py."""
    notes.new_note("meeting")
    notes.type("9pm May 5th 2024")
    notes.new_note("to_do_list")
    notes.tap(id="open_note")
    assert notes.one(id="dialog_title_textview")["text"] == "Open note"
    assert [n["text"] for n in notes.all(id="open_note_item_title")] == ["General note", "meeting", "to_do_list"]
    notes.tap(id="open_note_item_title", text="meeting")
    assert not notes.has(id="dialog_title_textview")
    assert notes.text("text_note_view") == "9pm May 5th 2024"


def test_note_delete(notes):
    """delete 'to_do_list' and 'meeting' (seed: text notes work_list, to_do_list, meeting)."""
    for title in ("work_list", "to_do_list", "meeting"):
        notes.new_note(title)
    notes.menu("Delete note")
    assert notes.text("delete_note_description") == 'Are you sure you want to delete note "meeting"?'
    assert notes.one(id="android:id/button1")["text"] == "Delete"
    notes.tap(id="android:id/button1")
    # The first note becomes current; to_do_list is next in the strip.
    assert notes.tab_titles() == ["General note", "to_do_list"]
    notes.tap(text="to_do_list")
    notes.menu("Delete note")
    notes.tap(id="android:id/button1")
    assert notes.has(text="work_list") and not notes.has(text="to_do_list") and not notes.has(text="meeting")


def test_delete_is_cancelled_and_not_offered_for_the_last_note(notes):
    notes.new_note("meeting")
    notes.menu("Delete note")
    notes.tap(id="android:id/button2")
    assert "meeting" in notes.tab_titles()
    notes.menu("Delete note")
    notes.tap(id="android:id/button1")
    notes.tap(desc="More options")
    assert not notes.has(id="title", text="Delete note") and not notes.has(id="title", text="Rename note")


def test_note_rename(notes):
    """rename the current note to 'finished_task' (seed: text note unfinished_task='Undo')."""
    notes.new_note("unfinished_task")
    notes.write("Undo")
    notes.menu("Rename note")
    assert notes.one(id="dialog_title_textview")["text"] == "Rename note"
    field = notes.one(id="locked_note_title")
    assert field["text"] == "unfinished_task" and field["focused"] == "true"
    for _ in "unfinished_task":
        notes.key("DEL")
    notes.type("finished_task")
    notes.tap(id="android:id/button1")
    assert notes.text("text_note_view") == "Undo"
    assert notes.all(text="finished_task", cls="android.widget.TextView")
    assert not notes.has(text="unfinished_task")


def test_note_search(notes):
    """search 'secret' in "Charles's secrets": Search, type the query."""
    notes.new_note("Charles's secrets")
    notes.write("The secret is I love you")
    notes.tap(id="open_search")
    query = notes.one(id="search_query")
    assert query["text"] == "Search" and query["focused"] == "true"
    notes.type("secret")
    assert notes.text("search_query") == "secret"
    assert "secret" in notes.text("text_note_view")
    assert all(notes.has(id=i) for i in ("search_previous", "search_next", "search_clear"))
    # The first BACK hides the keyboard; the next closes the search bar and leaves the note as it was.
    notes.key("BACK")
    assert notes.has(id="search_query") and not notes.system.ime.shown
    notes.key("BACK")
    assert not notes.has(id="search_query")
    assert notes.text("text_note_view") == "The secret is I love you"


def test_note_open_about(notes):
    """open about page: More options, About."""
    notes.menu("About")
    assert notes.system.focused_window() == (PKG, "com.simplemobiletools.commons.activities.AboutActivity")
    notes.key("BACK")
    assert notes.system.focused_window() == (PKG, MAIN)


def test_note_lock(notes):
    """use the pin '2580' to open the locked note 'password_list' (seed built through the UI)."""
    notes.new_note("password_list", checklist=True)
    notes.add_items("unique2580")
    notes.tap(desc="More options")
    notes.tap(id="title", text="Lock note")
    assert notes.text("message").startswith("WARNING: If you forget the notes' password")
    notes.tap(id="android:id/button1")
    # The security dialog opens on the Pattern tab; the seed switches to PIN.
    assert notes.one(desc="Pattern")["selected"] == "true"
    assert notes.has(id="pattern_lock_view")
    notes.tap(text="PIN")
    assert notes.text("pin_lock_title") == "Enter PIN"
    for digit in "2580":
        notes.tap(id=f"pin_{digit}")
    assert notes.text("pin_lock_current_pin") == "****"
    notes.tap(id="pin_ok")
    assert notes.text("pin_lock_title") == "Repeat PIN"
    notes.pin("2580")
    assert not notes.has(id="pin_ok")
    # Still shown until the screen is resumed: HOME and relaunch, as the seed does.
    assert notes.has(text="unique2580")
    notes.tap(text="password_list")
    notes.system.go_home()
    notes.system.start_activity(PKG)
    assert not notes.has(text="unique2580")
    assert notes.text("note_locked_show") == "Show content"
    assert not notes.has(id="checklist_fab")
    # The golden path: Show content, 2, 5, 8, 0, OK.
    notes.tap(id="note_locked_show")
    assert not notes.has(desc="PIN")  # unlocking shows the PIN pad only
    notes.pin("2580")
    assert notes.one(id="checklist_title")["text"] == "unique2580"


def test_wrong_pin_keeps_the_note_locked(notes):
    notes.new_note("password_list")
    notes.write("unique2580")
    notes.lock_current("2580")
    notes.system.go_home()
    notes.system.start_activity(PKG)
    assert not notes.has(id="text_note_view")
    notes.tap(id="note_locked_show")
    notes.pin("1111")
    assert notes.has(id="pin_ok") and notes.text("pin_lock_title") == "Enter PIN"
    notes.tap(id="pin_c")  # nothing to delete: harmless
    notes.pin("2580")
    assert notes.text("text_note_view") == "unique2580"


def test_setting_a_pin_needs_four_digits_and_matching_repeat(notes):
    notes.menu("Lock note")
    notes.tap(id="android:id/button1")
    notes.tap(text="PIN")
    notes.pin("12")
    assert notes.text("pin_lock_title") == "Enter PIN"  # too short
    notes.pin("1234")
    notes.pin("4321")
    assert notes.text("pin_lock_title") == "Enter PIN"  # mismatch starts over
    notes.tap(id="android:id/button2")
    assert not notes.system.app(PKG).data.current.locked


def test_unlock_note_removes_the_pin(notes):
    notes.write("secret")
    notes.lock_current("2580")
    notes.tap(desc="More options")
    assert notes.has(id="title", text="Unlock note") and not notes.has(id="title", text="Lock note")
    notes.tap(id="title", text="Unlock note")
    notes.pin("2580")
    assert not notes.system.app(PKG).data.current.locked
    notes.system.go_home()
    notes.system.start_activity(PKG)
    assert notes.text("text_note_view") == "secret"


# ---------------------------------------------------------------------------
# the rest of the app


def test_settings_check_boxes_toggle_and_back_returns(notes):
    notes.menu("Settings")
    assert notes.system.focused_window() == (PKG, f"{PKG}.activities.SettingsActivity")
    assert notes.one(id="settings_show_word_count")["checked"] == "false"
    notes.tap(id="settings_show_word_count_holder")
    assert notes.one(id="settings_show_word_count")["checked"] == "true"
    assert not notes.has(id="settings_autosave_notes")  # below the fold, as on the real screen
    notes.system.swipe(540, 1800, 540, 600, 300)
    assert notes.one(id="settings_autosave_notes")["checked"] == "true"
    notes.tap(id="settings_gravity_holder")
    notes.tap(text="Center")
    assert notes.text("settings_gravity") == "Center"
    notes.key("BACK")
    assert notes.system.focused_window() == (PKG, MAIN)


def test_checklist_sort_and_remove_done_items(notes):
    notes.new_note("list", checklist=True)
    notes.add_items("b", "a", "c")
    notes.tap(id="checklist_title", text="a")
    notes.menu("Sort by")
    assert notes.one(id="sorting_dialog_radio_title")["checked"] == "true"
    notes.tap(id="sorting_dialog_radio_descending")
    notes.tap(id="android:id/button1")
    assert [n["text"] for n in notes.all(id="checklist_title")] == ["c", "b", "a"]
    notes.menu("Remove done items")
    assert [n["text"] for n in notes.all(id="checklist_title")] == ["c", "b"]


def test_screenshot_renders_the_note(notes):
    from io import BytesIO

    from PIL import Image

    notes.write("hello")
    image = Image.open(BytesIO(notes.system.screenshot_png()))
    assert image.size == (1080, 2340)
    x1, y1, x2, y2 = _bounds(notes.one(id="text_note_view"))
    crop = image.convert("L").crop((x1, y1, x2, y1 + 200))
    assert crop.getextrema()[0] < 128  # dark text pixels are drawn in the editor


# ---------------------------------------------------------------------------
# through the real adb server (adbutils), with events from the listener's socket


def _adb_tap(device, xml: str, **criteria) -> None:
    """Tap the centre of the first node of a dump matching resource-id/text/content-desc."""
    wanted = {{"id": "resource-id", "desc": "content-desc"}.get(k, k): (rid(v) if k == "id" else v)
              for k, v in criteria.items()}
    for node in ET.fromstring(xml.encode("utf-8")).iter("node"):
        if all(node.get(k) == v for k, v in wanted.items()):
            device.click(*_center(node.attrib))
            return
    raise AssertionError(f"no node {criteria} in the dump")


def test_checklist_click_event_reaches_the_host_through_adb(adb_device):
    """note_item_checked over adb: the click on 'eggs' arrives as a JSON line from the listener's socket."""
    adb_device.shell(f"am force-stop {PKG}")
    adb_device.shell(f"pm clear {PKG}")
    adb_device.shell(f"monkey -p {PKG} -c android.intent.category.LAUNCHER 1")
    sink = ListenerSink(adb_device)
    try:
        _adb_tap(adb_device, adb_device.dump_hierarchy(), id="new_note")
        adb_device.send_keys("shopping_list")
        _adb_tap(adb_device, adb_device.dump_hierarchy(), id="type_checklist")
        _adb_tap(adb_device, adb_device.dump_hierarchy(), id="android:id/button1")
        for item in ("eggs", "beer"):
            _adb_tap(adb_device, adb_device.dump_hierarchy(), id="checklist_fab")
            adb_device.send_keys(item)
            _adb_tap(adb_device, adb_device.dump_hierarchy(), id="android:id/button1")
        sink.wait_for(lambda e: e["type"] == "click" and e["id"] == rid("type_checklist")
                      and e["text"] == ["Checklist"])
        _adb_tap(adb_device, adb_device.dump_hierarchy(), id="checklist_title", text="eggs")
        event = sink.wait_for(lambda e: e["type"] == "click" and "eggs" in e["text"])
        assert event["package"] == PKG and event["id"] == rid("checklist_holder")
        # note_open_about over adb: the top activity is the commons AboutActivity.
        _adb_tap(adb_device, adb_device.dump_hierarchy(), desc="More options")
        _adb_tap(adb_device, adb_device.dump_hierarchy(), id="title", text="About")
        assert "AboutActivity" in adb_device.app_current().activity
        assert "AboutActivity" in adb_device.shell("dumpsys activity top")
    finally:
        sink.close()

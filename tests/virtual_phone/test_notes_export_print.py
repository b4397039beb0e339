"""Simple Notes 6.17.0's Export as file, Print and widget colours, through the real adb server.

Export as file asks DocumentsUI for a document (ACTION_CREATE_DOCUMENT), then the
release's sync / export-only choice writes the note there; Print opens Android's
print dialog (PrintSpooler's PrintActivity) whose "Save to PDF" goes through
DocumentsUI too; Settings' "Customize widget colors" opens WidgetConfigureActivity.
"""

from __future__ import annotations

import json

import pytest

from uitools import add_text_note, dumped, find_on, tap_on

PKG = "com.simplemobiletools.notes.pro"
SPOOLER = "com.android.printspooler"
FILES = "com.google.android.documentsui"
DOWNLOAD = "/sdcard/Download"


def _menu(device, entry: str) -> None:
    tap_on(device, desc="More options")
    tap_on(device, **{"resource-id": f"{PKG}:id/title", "text": entry})


@pytest.fixture
def notes(adb_device):
    """Notes with one text note "Diary" holding "2023.6.10 Sunny" (typed through the UI), and Download empty."""
    adb_device.shell(f"am force-stop {PKG}")
    adb_device.shell(f"pm clear {PKG}")
    adb_device.shell(f"rm -rf {DOWNLOAD}/Diary*")
    add_text_note(adb_device, "Diary", "2023.6.10%sSunny")
    yield adb_device
    adb_device.shell(f"am force-stop {PKG}")
    adb_device.shell(f"rm -rf {DOWNLOAD}/Diary*")


def test_export_as_file_saves_through_documents_ui_and_offers_sync(notes):
    _menu(notes, "Export as file")
    assert notes.app_current().package == FILES
    assert find_on(notes, **{"resource-id": "android:id/title", "text": "Diary.txt"}) is not None
    tap_on(notes, **{"resource-id": "android:id/button1", "text": "SAVE"})
    # back in the app: the release's RadioGroupDialog, no title and no buttons
    assert notes.app_current().package == PKG
    assert find_on(notes, **{"resource-id": f"{PKG}:id/dialog_radio_group"}) is not None
    assert find_on(notes, **{"resource-id": "android:id/button1"}) is None
    tap_on(notes, text="Only export the current file content\n(changing the note will not affect the file)")
    assert notes.shell(f"cat {DOWNLOAD}/Diary.txt") == "2023.6.10 Sunny"
    # export-only: later edits stay in the note
    tap_on(notes, **{"resource-id": f"{PKG}:id/text_note_view"})
    notes.shell("input text %sRain")
    assert notes.shell(f"cat {DOWNLOAD}/Diary.txt") == "2023.6.10 Sunny"


def test_export_with_sync_makes_the_note_update_its_file(notes):
    _menu(notes, "Export as file")
    tap_on(notes, **{"resource-id": "android:id/button1", "text": "SAVE"})
    tap_on(notes, text="Update the file itself at updating the note\n(note gets deleted if file gets deleted, "
                     "or path changes)")
    tap_on(notes, **{"resource-id": f"{PKG}:id/text_note_view"})
    notes.shell("input keyevent MOVE_END")
    notes.shell("input text %sRain")
    assert notes.shell(f"cat {DOWNLOAD}/Diary.txt") == "2023.6.10 Sunny Rain"


def test_export_cancelled_in_documents_ui_returns_without_a_dialog(notes):
    _menu(notes, "Export as file")
    notes.shell("input keyevent BACK")
    assert notes.app_current().package == PKG
    assert find_on(notes, **{"resource-id": f"{PKG}:id/dialog_radio_group"}) is None
    assert "Diary" not in notes.shell(f"ls {DOWNLOAD}")


def test_print_opens_the_print_dialog_and_saves_a_pdf(notes):
    _menu(notes, "Print")
    current = notes.app_current()
    assert (current.package, current.activity) == (SPOOLER, "com.android.printspooler.ui.PrintActivity")
    assert find_on(notes, **{"resource-id": f"{SPOOLER}:id/title", "text": "Save as PDF"}) is not None
    assert find_on(notes, **{"resource-id": f"{SPOOLER}:id/paper_size_summary", "text": "Letter"}) is not None
    tap_on(notes, **{"resource-id": f"{SPOOLER}:id/print_button", "content-desc": "Save to PDF"})
    assert notes.app_current().package == FILES
    # PrintActivity.startCreateDocumentActivity names the document after the job (the note's title);
    # the provider gives it the PDF extension (FileUtils.splitFileName)
    tap_on(notes, **{"resource-id": "android:id/button1", "text": "SAVE"})
    assert notes.app_current().package == PKG
    head = notes.shell(f"head -c 5 {DOWNLOAD}/Diary.pdf")
    assert head == "%PDF-"


def test_back_from_the_print_dialog_returns_to_the_note(notes):
    _menu(notes, "Print")
    notes.shell("input keyevent BACK")
    current = notes.app_current()
    assert (current.package, current.activity) == (PKG, f"{PKG}.activities.MainActivity")
    assert "Diary" not in notes.shell(f"ls {DOWNLOAD}")


def test_print_dialog_started_bare_finishes(adb_device):
    """PrintActivity without a print job (`am start -n`) finishes at once, as on Android."""
    adb_device.shell(f"am start -W -n {SPOOLER}/.ui.PrintActivity")
    assert adb_device.app_current().package != SPOOLER


def test_customize_widget_colors_opens_the_widget_configuration(notes):
    _menu(notes, "Settings")
    tap_on(notes, **{"resource-id": f"{PKG}:id/settings_widget_color_customization_label"})
    current = notes.app_current()
    assert current.activity == f"{PKG}.activities.WidgetConfigureActivity"
    sample = find_on(notes, **{"resource-id": f"{PKG}:id/text_note_view"})
    assert sample["text"].startswith("Thank you for using Simple Notes.\n")
    assert find_on(notes, **{"resource-id": f"{PKG}:id/notes_picker_holder"}) is None  # customizing colours
    tap_on(notes, **{"resource-id": f"{PKG}:id/config_save", "text": "OK"})
    assert notes.app_current().activity == f"{PKG}.activities.SettingsActivity"


def test_deleting_a_note_that_follows_a_file_offers_the_file(notes):
    """DeleteNoteDialog shows "Also delete file" with the document's URI; 6.17.0's refreshNotes then deletes
    the file of the note it moves to (here General note, which has none), so Diary.txt stays."""
    _menu(notes, "Export as file")
    tap_on(notes, **{"resource-id": "android:id/button1", "text": "SAVE"})
    tap_on(notes, text="Update the file itself at updating the note\n(note gets deleted if file gets deleted, "
                     "or path changes)")
    _menu(notes, "Delete note")
    box = find_on(notes, **{"resource-id": f"{PKG}:id/delete_note_checkbox"})
    assert box["text"] == ('Also delete file "content://com.android.externalstorage.documents/document/'
                           'primary%3ADownload%2FDiary.txt"')
    assert box["checked"] == "false"
    tap_on(notes, **{"resource-id": f"{PKG}:id/delete_note_checkbox_holder"})
    assert find_on(notes, **{"resource-id": f"{PKG}:id/delete_note_checkbox"})["checked"] == "true"
    tap_on(notes, **{"resource-id": "android:id/button1", "text": "Delete"})
    assert find_on(notes, text="Diary") is None
    assert notes.shell(f"cat {DOWNLOAD}/Diary.txt") == "2023.6.10 Sunny"


def test_deleting_a_note_without_a_file_has_no_file_option(notes):
    _menu(notes, "Delete note")
    assert find_on(notes, **{"resource-id": f"{PKG}:id/delete_note_description"}) is not None
    assert find_on(notes, **{"resource-id": f"{PKG}:id/delete_note_checkbox_holder"}) is None


def test_a_checklist_that_follows_its_file_saves_its_items_there(notes):
    tap_on(notes, **{"resource-id": f"{PKG}:id/new_note"})
    notes.shell("input text Groceries")
    tap_on(notes, **{"resource-id": f"{PKG}:id/type_checklist"})
    tap_on(notes, **{"resource-id": "android:id/button1"})
    tap_on(notes, **{"resource-id": f"{PKG}:id/checklist_fab"})
    notes.shell("input text eggs")
    tap_on(notes, **{"resource-id": "android:id/button1"})
    _menu(notes, "Export as file")
    assert find_on(notes, **{"resource-id": "android:id/title", "text": "Groceries.txt"}) is not None
    tap_on(notes, **{"resource-id": "android:id/button1", "text": "SAVE"})
    tap_on(notes, text="Update the file itself at updating the note\n(note gets deleted if file gets deleted, "
                     "or path changes)")
    try:
        def items() -> list[tuple[str, bool]]:
            return [(i["title"], i["isDone"]) for i in json.loads(notes.shell(f"cat {DOWNLOAD}/Groceries.txt"))]

        assert items() == [("eggs", False)]
        tap_on(notes, **{"resource-id": f"{PKG}:id/checklist_title", "text": "eggs"})
        assert items() == [("eggs", True)]
    finally:
        notes.shell(f"rm -f {DOWNLOAD}/Groceries.txt")


def _bounds(node: dict) -> tuple[int, ...]:
    return tuple(int(v) for v in node["bounds"].replace("][", ",").strip("[]").split(","))


def test_open_note_is_6_17_0s_grid_of_note_cards(notes):
    """6.17.0 OpenNoteDialog (dialog_open_note.xml, open_note_item.xml, OpenNoteAdapter.setupView): a
    staggered grid (Commons' AutoStaggeredGridLayoutManager, grid_note_item_width 150dp) of cards, each
    the note's title and its text (gone when blank), a FAB for a new note and Cancel.  The radio list
    (dialog_open_note_linear, dialog_open_note_new_radio) is 6.12.2-6.15.6's."""
    device = notes
    tap_on(device, **{"resource-id": f"{PKG}:id/new_note"})
    device.shell("input text Plans")
    tap_on(device, **{"resource-id": "android:id/button1"})
    tap_on(device, **{"resource-id": f"{PKG}:id/open_note"})
    ids = [n["resource-id"].rpartition("/")[2] for n in dumped(device)]
    assert "dialog_open_note_linear" not in ids and "dialog_open_note_new_radio" not in ids
    cards = [n for n in dumped(device) if n["resource-id"] == f"{PKG}:id/open_note_item_holder"]
    titles = [n["text"] for n in dumped(device) if n["resource-id"] == f"{PKG}:id/open_note_item_title"]
    texts = [n["text"] for n in dumped(device) if n["resource-id"] == f"{PKG}:id/open_note_item_text"]
    assert titles == ["Diary", "General note", "Plans"] and texts == ["2023.6.10 Sunny"]
    assert [c["clickable"] for c in cards] == ["true"] * 3
    # two 150dp spans fit the dialog; the third card goes under the shorter (text-less) second one
    lefts = [_bounds(c)[0] for c in cards]
    assert lefts[0] < lefts[1] == lefts[2]
    assert find_on(device, id=f"{PKG}:id/new_note_fab") is not None
    assert find_on(device, id="android:id/button2")["text"] == "Cancel"
    tap_on(device, id=f"{PKG}:id/open_note_item_title", text="Diary")
    assert find_on(device, id=f"{PKG}:id/dialog_open_note_holder") is None
    assert find_on(device, id=f"{PKG}:id/text_note_view")["text"] == "2023.6.10 Sunny"

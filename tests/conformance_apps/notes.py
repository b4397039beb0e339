"""Conformance replay: Simple Notes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conformance import ExpectedChange, centre, seed_media
from pytest_mobileagent.device.text import input_text_command

PACKAGE = "com.simplemobiletools.notes.pro"
MAIN = f"{PACKAGE}/{PACKAGE}.activities.MainActivity"


def _tap(device, resource_id: str) -> None:
    """Tap the view with this resource-id on the current screen (through uiautomator, as a user would)."""
    full = resource_id if ":" in resource_id else f"{PACKAGE}:id/{resource_id}"
    nodes = [n.attrib for n in ET.fromstring(device.dump_hierarchy().encode("utf-8")).iter("node")
             if n.get("resource-id") == full]
    if not nodes:
        raise AssertionError(f"seed: {full} not on screen")
    x, y = centre(nodes[0])
    device.shell(f"input tap {x} {y}")


def _type(device, resource_id: str, text: str) -> None:
    _tap(device, resource_id)
    device.shell(input_text_command(text))


def seed(device) -> None:
    """The recording phone's shared storage (conformance.SHARED_FILES: the recorded save dialogs, DocumentsUI
    in state 2023-07-03_222610, list Diary.pdf in Downloads) and the notes."""
    seed_media(device)
    make_notes(device)


def make_notes(device) -> None:
    """The notes every recorded session starts with (screen 7dd599d9b413): "General note" (empty) and
    "Diary", the current note, whose text is "2023.6.10 Sunny".  Made through the app's UI."""
    device.shell(f"am start -W -n {MAIN}")
    _tap(device, "new_note")
    _type(device, "locked_note_title", "Diary")
    _tap(device, "android:id/button1")
    _type(device, "text_note_view", "2023.6.10 Sunny")
    device.shell(f"am force-stop {PACKAGE}")


def before_session(device) -> None:
    """The recording started (nearly) every session on the same notes: 17 of the 19 sessions begin on
    screen 7dd599d9b413 (Diary current, "2023.6.10 Sunny", General note before it) although sessions
    0, 1, 3, 10 and 16 create notes and session 2 deletes the current one.  So each was recorded after a
    reset of the app's data and the two notes.  Sessions 5 and 17 go on from the session before them
    (the renamed Diary, the checklist "test"); after the reset session 17's one step stays a miss."""
    device.shell(f"pm clear {PACKAGE}")
    make_notes(device)


#: The recorded release's Open note dialog (dialog_open_note.xml at 6.12.2-6.15.6: a radio list of the notes in
#: dialog_open_note_linear, a divider and a "create new" radio); 6.16.0 replaced it (Simple-Notes 92f4863b
#: "Update UI of OpenNoteDialog", 835168ef "Add fab for OpenNoteDialog"): at the pinned 6.17.0 it is a grid of
#: note cards, dialog_open_note_list, with new_note_fab.
_OLD_OPEN_NOTE = {"dialog_open_note_linear", "dialog_open_note_new_radio", "dialog_open_note_create_new"}
_NEW_OPEN_NOTE = {"dialog_open_note_list", "new_note_fab"}


def _open_note_dialog(step, recorded, ours) -> bool:
    return recorded is not None and _OLD_OPEN_NOTE <= recorded.ids and _NEW_OPEN_NOTE <= ours.ids


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(
        "6.16.0 replaced the Open note dialog the recording shows (dialog_open_note.xml at 6.15.6: a radio list "
        "with dialog_open_note_linear and dialog_open_note_new_radio) with a grid of note cards and a fab "
        "(Simple-Notes 92f4863b and 835168ef; at the pinned 6.17.0 dialog_open_note_list and new_note_fab)",
        _open_note_dialog),
)

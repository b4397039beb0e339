"""Conformance replay: Simple File Manager."""

from __future__ import annotations

from conformance import ExpectedChange, seed_media

def seed(device) -> None:
    """Files where the recording's first screens show them (Download 1 item, DCIM 6, Music > Recordings 2,
    the two screenshots in the root): the recording phone's shared storage (conformance.SHARED_FILES)."""
    seed_media(device)


_PICKER = ("Commons' StoragePickerDialog (eceb48949e, dialogs/StoragePickerDialog.kt), opened by a tap on the first "
           "breadcrumb (ItemsFragment.breadcrumbClicked, 6.16.1), offers Internal / SD card / USB / root only when "
           "the phone has them; with internal storage alone and root access off it picks it at once "
           "(pickSingleOption) and shows no dialog. The recording phone had an SD card; an emulator has none")


def _storage_picker_skipped(step: dict, recorded, ours) -> bool:
    return (step.get("target", {}).get("id") == "breadcrumb_text" and "dialog_radio_group" in recorded.ids
            and "dialog_radio_group" not in ours.ids and ours.activity == recorded.activity)


def _sd_card_target(step: dict, recorded, ours) -> bool:
    return step.get("target", {}).get("text") == "SD Card"


def before_session(device) -> None:
    """The recording started each session on fresh app data: the favourite session 9 adds (Alarms) and the
    tab session 10 hides (Recents) are gone from the first screens of sessions 10 and 11 (no Go to
    favorite icon, three tabs); every session up to 12 begins on the same recorded screen.

    ``pm clear`` empties the app's data; the seeded files stay on shared storage.
    """
    device.shell("pm clear com.simplemobiletools.filemanager.pro")

#: The recording phone's SD card (see conformance.ExpectedChange, environment=True).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(_PICKER, _storage_picker_skipped, environment=True),
    ExpectedChange(_PICKER, _sd_card_target, on="target", environment=True),
)

"""Conformance replay: Simple File Manager."""

from __future__ import annotations

from conformance import ExpectedChange, push_files

#: The recordings' shared storage as their Files and Recents tabs show it: (folder, name, fixture, modified).
FILES = (
    ("/sdcard/Music/Recordings", "test1.m4a", "tone.m4a", "2023-06-30 12:26:00"),
    ("/sdcard/Music/Recordings", "test2.m4a", "audio/recordings/2024_05_01_09_30_00.m4a", "2023-06-30 12:26:00"),
    ("/sdcard/Download", "Diary.pdf", "diary.pdf", "2023-06-30 12:22:00"),
    ("/sdcard/DCIM", "pic1.jpg", "forest.jpg", "2023-06-30 12:16:00"),
    ("/sdcard/DCIM", "pic2.jpg", "sunset.jpg", "2023-06-30 12:16:00"),
    ("/sdcard/DCIM", "video1.mp4", "clip_red.mp4", "2023-06-30 12:16:00"),
    ("/sdcard/DCIM", "video2.mp4", "clip_blue.mp4", "2023-06-30 12:15:00"),
    ("/sdcard/DCIM", "video3.mp4", "clip_red.mp4", "2023-06-30 12:15:00"),
    ("/sdcard/DCIM", "pic3.jpg", "forest.jpg", "2023-06-30 12:15:00"),
)


def seed(device) -> None:
    """Files where the recording's first screens show them (Download 1 item, DCIM 6, Music > Recordings 2)."""
    for folder, name, fixture, modified in FILES:
        push_files(device, folder, {name: fixture})
        device.shell(f"touch -d '{modified}' {folder}/{name}")


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

#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(_PICKER, _storage_picker_skipped),
    ExpectedChange(_PICKER, _sd_card_target, on="target"),
)

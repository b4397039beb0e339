"""Conformance replay: Simple Gallery."""

from __future__ import annotations

from conformance import ExpectedChange, seed_media

PACKAGE = "com.simplemobiletools.gallery.pro"


def seed(device) -> None:
    """The recording phone's shared storage (conformance.SHARED_FILES): Gallery's first screen
    (073664fc497d) shows DCIM with 6 items and "Internal" (the root) with the 2 screenshots."""
    seed_media(device)


def before_session(device) -> None:
    """Every recorded Gallery session starts from one state: the app's data fresh, the seeded storage.

    The recordings show it: session 7 switches the folders to the list view, yet sessions 8 and 9
    start on the grid (screen 073664fc497d, with "Column count" in the overflow, which
    MainActivity.refreshMenuItems shows in the grid view only); session 6 unticks GIFs and
    session 10 shows hidden items, yet later sessions start with the defaults; sessions 17 and 19
    both create DCIM/traveling_photos and the release accepts the name both times (a folder of that
    name would be refused: Commons' CreateNewFolderDialog).  So each session was recorded after a
    reset of the app's data and of the folders a session created.
    """
    device.shell(f"pm clear {PACKAGE}")
    device.shell("rm -rf /sdcard/DCIM/*/")  # the seed puts files only into DCIM: its folders are sessions'


_STORAGE_PICKER = (
    "Commons' StoragePickerDialog (9e60e24790, dialogs/StoragePickerDialog.kt), opened by a tap on the "
    "FilePickerDialog's first breadcrumb (FilePickerDialog.breadcrumbClicked), offers Internal / SD card / USB / "
    "root only when the phone has them; with internal storage alone it picks it at once (pickSingleOption) and "
    "shows no dialog. The recording phone had an SD card; an emulator has none")


def _storage_picker_skipped(step: dict, recorded, ours) -> bool:
    return (step.get("target", {}).get("id") == "breadcrumb_text" and "dialog_radio_group" in recorded.ids
            and "dialog_radio_group" not in ours.ids and "filepicker_list" in ours.ids
            and ours.activity == recorded.activity)


def _sd_card_target(step: dict, recorded, ours) -> bool:
    return step.get("target", {}).get("text") == "SD Card"


_ONE_CAMERA = (
    "Activity.launchCamera (6.28.1) starts MediaStore.INTENT_ACTION_STILL_IMAGE_CAMERA; the recording phone had two "
    "camera apps (session 1 picks \"Camera\" among them) so Android's ResolverActivity asked (\"Just once\"); the "
    "Android 14 emulator image has Camera2 alone, which Android starts without asking "
    "(PackageManagerService.chooseBestActivity: a single match)")


def _one_camera(step: dict, recorded, ours) -> bool:
    return (step.get("target", {}).get("id") in ("android:id/button_once", "android:id/button_always")
            and ours.activity.startswith("com.android.camera2/"))


#: The recording phone's camera apps and SD card (see conformance.ExpectedChange, environment=True).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(_ONE_CAMERA, _one_camera, on="target", environment=True),
    ExpectedChange(_STORAGE_PICKER, _storage_picker_skipped, environment=True),
    ExpectedChange(_STORAGE_PICKER, _sd_card_target, on="target", environment=True),
)

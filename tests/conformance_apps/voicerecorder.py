"""Conformance replay: Simple Voice Recorder."""

from __future__ import annotations

from conformance import ExpectedChange
from conformance import seed_media as seed  # noqa: F401

_PICKER = ("Commons' FilePickerDialog (8e7dd4508e, dialogs/FilePickerDialog.breadcrumbClicked) opens "
           "StoragePickerDialog on a tap of the first breadcrumb; it offers Internal / SD card / USB / root only "
           "when the phone has them, and with internal storage alone it picks it at once (pickSingleOption) and "
           "shows no dialog. The recording phone had an SD card; an emulator has none")


def _storage_picker_skipped(step: dict, recorded, ours) -> bool:
    return (step.get("target", {}).get("id") == "breadcrumb_text" and "dialog_radio_group" in recorded.ids
            and "dialog_radio_group" not in ours.ids and ours.activity == recorded.activity)


def _sd_card_target(step: dict, recorded, ours) -> bool:
    return step.get("target", {}).get("text") == "SD Card"


#: The recording phone's SD card (see conformance.ExpectedChange, environment=True).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(_PICKER, _storage_picker_skipped, environment=True),
    ExpectedChange(_PICKER, _sd_card_target, on="target", environment=True),
)

"""Conformance replay: Simple SMS Messenger."""

from __future__ import annotations

from conformance import ExpectedChange
from conformance import CONVERSATIONS, add_contact, add_sms, seed_media

MAIN = "com.simplemobiletools.smsmessenger.activities.MainActivity"
SETTINGS = "com.simplemobiletools.smsmessenger.activities.SettingsActivity"
BLOCKED = "com.simplemobiletools.commons.activities.ManageBlockedNumbersActivity"
COMPOSE_BLOCKED = ("Simple-Commons b72ded2a75 (the commit 5.19.3 pins) draws Manage blocked numbers and its add dialog "
                   "with Jetpack Compose (activities/ManageBlockedNumbersActivity.kt setContent, "
                   "compose/screens/ManageBlockedNumbersScreen.kt, AddOrEditBlockedNumberAlertDialog): its dump has "
                   "no resource-ids; the recorded 2023 release used XML layouts")


def seed(device) -> None:
    """The conversations, and the recording phone's shared storage (conformance.SHARED_FILES): the recorded
    attachment picker (session 19) lists DCIM's pic1.jpg, pic3.jpg, video1.mp4 and video2.mp4."""
    seed_media(device)
    device.shell("cmd role add-role-holder android.app.role.SMS com.simplemobiletools.smsmessenger")
    for name, number, email, body in CONVERSATIONS:
        add_contact(device, name, number, email)
        add_sms(device, number, body)


def _moved_to_settings(step: dict, recorded, ours) -> bool:
    return step.get("target", {}).get("id") == "title" and \
        step.get("target", {}).get("text") in ("Import messages", "Export messages")


def _scrolled_settings(step: dict, recorded, ours) -> bool:
    """Our Settings page is scrolled down where the recorded one shows its top, and they differ only in
    the Settings rows shown."""
    differ = recorded.ids ^ ours.ids
    return recorded.activity.endswith(SETTINGS) and ours.activity == recorded.activity \
        and "settings_color_customization_holder" in recorded.ids \
        and "settings_color_customization_holder" not in ours.ids \
        and all(i.startswith("settings_") for i in differ) \
        and (step["action"] == "key" or (_target(step) in ours.ids))


def _target(step: dict) -> str:
    return (step.get("target") or {}).get("id") or ""


#: Differences the pinned release makes on purpose (see conformance.ExpectedChange).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(
        "5.19.3's Settings shows more rows above the recorded one on Android 14: \"Language\" (in the recorded 5.18.2 "
        "too, but SettingsActivity.setupLanguage shows it on Android 13+ only; the recording phone ran Android 11) and "
        "\"Manage blocked keywords\" (new in 5.19.x: activity_settings.xml at 5.18.2 has no "
        "settings_manage_blocked_keywords_holder), so the row is below the fold: the user scrolls to it and the "
        "page stays scrolled after the tap, where the recorded page showed it, and its top, without scrolling",
        _scrolled_settings),
    ExpectedChange(
        "5.19.x moved \"Import messages\" / \"Export messages\" from the main screen's overflow to Settings "
        "(menu_main.xml at 5.19.3 has no import/export items; activity_settings.xml has "
        "settings_import_messages_holder / settings_export_messages_holder under \"Migrating\")",
        _moved_to_settings),
    ExpectedChange(
        "5.19.3 opens ExportMessagesDialog only from Settings (SettingsActivity.setupMessagesExport): the recorded "
        "export dialog over the main screen does not exist in the pinned release",
        lambda step, recorded, ours: recorded is not None and recorded.activity.endswith(MAIN)
        and "export_messages_holder" in recorded.ids,
        on="target"),
    ExpectedChange(
        COMPOSE_BLOCKED,
        lambda step, recorded, ours: recorded.activity.endswith(BLOCKED) and ours.activity.endswith(BLOCKED)),
    ExpectedChange(
        COMPOSE_BLOCKED,
        lambda step, recorded, ours: recorded is not None and recorded.activity.endswith(BLOCKED)
        and ours.activity.endswith(BLOCKED),
        on="target"),
)

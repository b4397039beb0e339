"""Conformance replay: Simple Contacts."""

from __future__ import annotations

from conformance import CONTACTS_URI
from conformance import ExpectedChange
from conformance import CONVERSATIONS, add_contact, add_sms, seed_media

PACKAGE = "com.simplemobiletools.contacts.pro"
#: the contacts the recordings' detail screens show: name, mobile number, home email
CONTACTS = (("Alice", "111111", "alice@mails.com"), ("Bob", "222222", "bob@mails.com"),
            ("Jack", "333333", "jack@mails.com"))
LANGUAGE_ROW = {"settings_language", "settings_language_holder", "settings_language_label"}


def seed(device) -> None:
    """The recording phone's shared storage (conformance.SHARED_FILES: the photo picker shows DCIM's pictures),
    its SMS conversations (conformance.CONVERSATIONS: "Send SMS" opens Alice's thread with "Hello") and the
    contacts."""
    seed_media(device)
    # the recording phone's SMS app was Simple SMS Messenger (Contacts' "Send SMS" opened it), as in
    # conformance_apps/messenger.py
    device.shell("cmd role add-role-holder android.app.role.SMS com.simplemobiletools.smsmessenger")
    for _name, number, _email, body in CONVERSATIONS:
        add_sms(device, number, body)
    add_contacts(device)


def add_contacts(device) -> None:
    for name, number, email in CONTACTS:
        add_contact(device, name, number, email)


def before_session(device) -> None:
    """Every recorded Contacts session starts from one state: the app's data fresh, Alice, Bob and
    Jack, no favourite, no group, on the Contacts tab.

    The recordings show it: all 27 sessions that start in the app start on the same screen, with
    "There are no contact groups on the device" although sessions 10, 11, 19 and 20 create groups
    (session 24 then taps the empty Groups tab's "Create group"), no favourite although sessions 12
    and 13 star Bob, and Bob although session 18 deletes him.  So each session was recorded after a
    reset of the app's data (its permissions granted, as the recorder installs with them) and of
    the contacts.
    """
    device.shell(f"pm clear {PACKAGE}")
    device.shell(f"pm grant {PACKAGE} android.permission.READ_CONTACTS")
    device.shell(f"pm grant {PACKAGE} android.permission.WRITE_CONTACTS")
    # the recorded "Call contact" went straight to the call screen: the recorder (DroidBot's
    # -grant_perm) had granted every runtime permission, the phone's too
    device.shell(f"pm grant {PACKAGE} android.permission.CALL_PHONE")
    device.shell(f"content delete --uri {CONTACTS_URI}/raw_contacts")
    add_contacts(device)


#: Differences the pinned release makes on Android 14 (see conformance.ExpectedChange).  A rule that the new
#: group shows at once in 6.22.7 was dropped: GroupsFragment.showNewGroupsDialog's callback,
#: MainActivity.refreshContacts(TAB_GROUPS), is the same in 6.22.4 (the release of July 2023).
CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(
        "On Android 13+ the pinned 6.22.7 shows a Language row in Settings' General section (SettingsActivity."
        "setupLanguage: settings_language_holder visible if isTiramisuPlus()); the recording phone ran Android 11. "
        "The row moves \"Tab to open at app start\" and the rows after it below the screen's edge, where the "
        "recording still lists them (DroidBot dumps views with visible=false; uiautomator does not)",
        lambda step, recorded, ours: recorded.activity.endswith(".SettingsActivity")
        and ours.activity == recorded.activity and "settings_language_holder" in ours.ids
        and "settings_language_holder" not in recorded.ids and ours.ids - recorded.ids <= LANGUAGE_ROW
        and all(i.startswith("settings_") for i in recorded.ids - ours.ids)),
    ExpectedChange(
        "On Android 13+ the pinned 6.22.7 shows a Language row in Settings' General section (SettingsActivity."
        "setupLanguage: isTiramisuPlus()), one row more than the recording phone (Android 11) showed: \"Tab to "
        "open at app start\", the last row the recording shows within the screen (its bounds end at y=2179 of "
        "2280), moves below the screen's edge",
        lambda step, recorded, ours: recorded is not None and recorded.activity.endswith(".SettingsActivity")
        and ours.activity == recorded.activity and "settings_language_holder" in ours.ids
        and "settings_language_holder" not in recorded.ids
        and step.get("target", {}).get("id") in ("settings_default_tab_holder", "settings_default_tab_label",
                                                   "settings_default_tab"), on="target"),
    ExpectedChange(
        "On Android 13+ the pinned 6.22.7 shows a Language row in Settings' General section (SettingsActivity."
        "setupLanguage: isTiramisuPlus()), which puts \"Tab to open at app start\" below the screen's edge: the user "
        "scrolls to it, and once its dialog closes the page is still scrolled, where the recording (Android 11) "
        "showed the page's top",
        lambda step, recorded, ours: recorded.activity.endswith(".SettingsActivity")
        and ours.activity == recorded.activity and "settings_color_customization_holder" in recorded.ids
        and "settings_color_customization_holder" not in ours.ids
        and {"settings_default_tab_holder", "settings_default_tab_label"} <= ours.ids
        and all(i.startswith("settings_") for i in recorded.ids ^ ours.ids)),
)

"""Simple SMS Messenger: the ten messager_* tasks of MobileAgentBench.

The app works only as the default SMS app, so every task's seed makes it the
SMS role holder with `cmd role add-role-holder` (and disables Google
Messages where a phone has it), as on a real phone.  Messages, threads and
blocked numbers live in Android's telephony and blocked-number providers:
each reset clears them, seeds insert the conversation with 123456789 holding
"i luv u" through `content insert`, and judges read them back with `content
query` where the screen cannot show the change (archived, sent, blocked).
The composite tasks latch their first part as a milestone and require the
second part after it.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.device.content import content_rows as rows

APP = "com.simplemobiletools.smsmessenger"
#: the reset also empties the phone's messages, blocked numbers and contacts (system providers)
CLEARS = ["com.android.providers.telephony", "com.android.providers.blockednumber",
          "com.android.providers.contacts"]
NUMBER = "123456789"
MESSAGE = "i luv u"



class Phone:
    """The phone's SMS data through `adb shell content` (seeds and judges)."""

    def __init__(self, device):
        self.device = device

    def sent(self) -> list[tuple[str, str]]:
        """(address, body) of every sent SMS."""
        return [(r["address"], r["body"]) for r in rows(self.device.shell(
            "content query --uri content://sms/sent --projection address:body"))]

    def has_sent(self, address: str, body: str) -> bool:
        return any(a == address and b.strip().lower() == body for a, b in self.sent())

    def archived_threads(self) -> set[str]:
        """Thread ids whose conversation is archived."""
        return {r["_id"] for r in rows(self.device.shell(
            "content query --uri content://mms-sms/conversations --projection _id:archived")) if r["archived"] == "1"}

    def thread_of(self, address: str) -> str | None:
        found = rows(self.device.shell(f"content query --uri content://sms --projection thread_id "
                                       f"--where \"address='{address}'\""))
        return found[0]["thread_id"] if found else None

    def blocked(self) -> list[str]:
        return [r["original_number"] for r in rows(self.device.shell(
            "content query --uri content://com.android.blockednumber/blocked --projection original_number"))]


@pytest.fixture
def phone(device) -> Phone:
    return Phone(device)


@pytest.fixture
def default_sms_app(device):
    """Make SMS Messenger the default SMS app (Android 10+: the only way the app works)."""
    google_messages = "com.google.android.apps.messaging"
    if f"package:{google_messages}" in device.shell(f"pm list packages {google_messages}"):
        device.shell(f"pm disable-user --user 0 {google_messages}")
    device.shell(f"cmd role add-role-holder android.app.role.SMS {APP}")


@pytest.fixture
def conversation(default_sms_app, device):
    """A conversation with 123456789 holding the sent message "i luv u"."""
    device.shell(f"content insert --uri content://sms/sent --bind address:s:{NUMBER} --bind 'body:s:{MESSAGE}'")


def sent_the_message(screen, phone) -> bool:
    """The thread with 123456789 shows "i luv u" and the phone stored it as sent."""
    return MESSAGE in [t.strip().lower() for t in screen.texts(id="thread_message_body")] and \
        phone.has_sent(NUMBER, MESSAGE)


def showed_properties(events, since: str | None = None) -> bool:
    """A "Message details" dialog opened for a message of 123456789 (its window-state texts)."""
    return any(e.text and e.text[0] == "Message details" and any(NUMBER in t for t in e.text)
               for e in events.window_changes(since=since))


def found_by_search(screen, query: str) -> bool:
    return (screen.text(id="top_toolbar_search") or "").strip().lower() == query.lower() and \
        screen.exists(id="search_result_holder")


START = [g.tap(id="conversations_fab"), g.type(NUMBER, id="new_conversation_address"),
         g.tap(id="new_conversation_confirm"), g.type(MESSAGE, id="thread_type_message"),
         g.tap(id="thread_send_message")]
PROPERTIES = [g.long_press(text=MESSAGE), g.tap(desc="More options"), g.tap(text="Properties")]


@task(app="messenger", clears=CLEARS,
      prompt="Add a number '123456789' to block list",
      # Commons b72ded2a75 draws the screen and its add dialog with Compose (no resource-ids): the
      # dialog's field takes focus as it opens (ShowKeyboardWhenDialogIsOpenedAndRequestFocus)
      golden=[g.tap(desc="Settings"), g.tap(text="Manage blocked numbers"),
              g.tap(desc="Add a blocked number"), g.type(NUMBER), g.tap(text="OK")])
def test_messager_add_block_numbers(default_sms_app, phone, screen):
    assert not screen.exists(text="OK"), "the add dialog is still open"
    assert screen.exists(text=NUMBER), "the list does not show the number"
    assert phone.blocked() == [NUMBER]
    assert screen.activity.endswith("ManageBlockedNumbersActivity")
    assert NUMBER in phone.blocked()


@task(app="messenger", clears=CLEARS,
      prompt="Change the Font size to 'Large' in the settings interface",
      golden=[g.tap(desc="Settings"), g.tap(id="settings_font_size_holder"), g.tap(text="Large")])
def test_messager_change_font_size(default_sms_app, screen):
    assert (screen.text(id="settings_font_size") or "").lower() == "large"


@task(app="messenger", clears=CLEARS,
      prompt="open the conversation with contact number '123456789', and check for a random "
             "message's properties ",
      golden=[g.tap(text=NUMBER), *PROPERTIES])
def test_messager_check_message_properties(conversation, events):
    assert showed_properties(events), "no Message details of a message with 123456789 were shown"


@task(app="messenger", clears=CLEARS,
      prompt="start a conversation with number '123456789', send a message 'i luv u', and check for "
             "message properties ",
      golden=[*START, *PROPERTIES])
def test_messager_create_conversation_and_check_message_properties(default_sms_app, phone, screen, events,
                                                                     progress):
    assert progress.reach("message sent", sent_the_message(screen, phone)), "'i luv u' was not sent to 123456789"
    assert showed_properties(events, since="message sent"), "the message's properties were not shown after sending"


@task(app="messenger", clears=CLEARS,
      prompt="start a conversation with number '123456789', and send a message 'i luv u', back to the "
             "main page and search for the contact '123456789'",
      golden=[*START, g.key("BACK"), g.key("BACK"), g.key("BACK"), g.key("BACK"),
              g.type(NUMBER, id="top_toolbar_search")],
      min_steps_reason="the paper counts 8; a targeted typing is one action here; the keyboard still up "
                       "after sending takes the first BACK, the second returns to New conversation (5.19.3's "
                       "launchThreadActivity does not finish it), whose keyboard (stateAlwaysVisible) takes "
                       "the third, and the fourth reaches the main page")
def test_messager_create_conversation_and_search(default_sms_app, phone, screen, progress):
    assert progress.reach("message sent", sent_the_message(screen, phone)), "'i luv u' was not sent to 123456789"
    assert found_by_search(screen, NUMBER) and NUMBER in screen.texts(id="search_result_title")
    assert screen.exists(id="conversations_fab"), "not back on the main page"


@task(app="messenger", clears=CLEARS,
      prompt="make the conversation with number '123456789' archived",
      min_steps=4, min_steps_reason="the paper counts 3; Archive is under More options in 5.19.3's selection bar "
                                     "(Delete, Add number to contact and Dial number fill it)",
      golden=[g.long_press(text=NUMBER), g.tap(desc="More options"), g.tap(text="Archive"),
              g.tap(id="android:id/button1")])
def test_messager_make_conversation_archived(conversation, phone, screen):
    assert not screen.exists(id="message"), "the confirmation is still open"
    thread = phone.thread_of(NUMBER)
    assert thread is not None, "the conversation with 123456789 was deleted, not archived"
    assert thread in phone.archived_threads(), "the conversation with 123456789 is not archived"


@task(app="messenger", clears=CLEARS,
      prompt="search for the contact '123456789' at top search bar",
      golden=[g.type(NUMBER, id="top_toolbar_search")],
      min_steps_reason="the paper counts 2 (tap the bar, type); a targeted typing is one action here")
def test_messager_search_contacts(conversation, screen):
    assert found_by_search(screen, NUMBER) and NUMBER in screen.texts(id="search_result_title")


@task(app="messenger", clears=CLEARS,
      prompt="search message 'i luv u' at the top search bar",
      golden=[g.type(MESSAGE, id="top_toolbar_search")],
      min_steps_reason="the paper counts 2 (tap the bar, type); a targeted typing is one action here")
def test_messager_search_message(conversation, screen):
    assert found_by_search(screen, MESSAGE)
    assert MESSAGE in [t.strip().lower() for t in screen.texts(id="search_result_snippet")]


@task(app="messenger", clears=CLEARS,
      prompt="show me the archived conversations",
      golden=[g.tap(desc="More options"), g.tap(text="Show archived conversations")])
def test_messager_show_archived_messages(default_sms_app, screen):
    assert screen.activity.endswith(".ArchivedConversationsActivity")
    assert screen.exists(text="Archive")


@task(app="messenger", clears=CLEARS,
      prompt="start a conversation with number '123456789', and send a message 'i luv u'",
      golden=START, min_steps_reason="the paper counts 8; targeted typings are one action each here")
def test_messager_start_a_conversation(default_sms_app, phone, screen):
    assert sent_the_message(screen, phone), "'i luv u' was not sent to 123456789"

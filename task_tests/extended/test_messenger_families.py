"""Simple SMS Messenger: task families (numbers and texts drawn per instance).

Seeds and judges are the fixed tasks' (test_messenger.py): the app is made the
default SMS app with `cmd role add-role-holder`, conversations are inserted
into the telephony provider with `content insert`, and the judges read the
sent box, the conversations' archived flag and the blocked numbers back with
`content query`.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_messenger import CLEARS, Phone, default_sms_app  # noqa: F401 - default_sms_app is a fixture
from .names import MESSAGES, distinct_numbers, phone_number

pytestmark = pytest.mark.suite("extended")


@pytest.fixture
def phone(device) -> Phone:
    return Phone(device)


def sent(phone: Phone, number: str, text: str) -> bool:
    return (number, text) in [(address, body.strip()) for address, body in phone.sent()]


@task(app="messenger", clears=CLEARS,
      prompt="start a conversation with number '{number}', and send a message '{text}'",
      params={"number": phone_number, "text": MESSAGES},
      golden=lambda p: [g.tap(id="conversations_fab"), g.type(p.number, id="new_conversation_address"),
                        g.tap(id="new_conversation_confirm"), g.type(p.text, id="thread_type_message"),
                        g.tap(id="thread_send_message")])
def test_messenger_send_message(params, default_sms_app, phone, screen):
    assert params.text in [t.strip() for t in screen.texts(id="thread_message_body")], "the thread does not show it"
    assert sent(phone, params.number, params.text), f"{params.text!r} was not sent to {params.number}"


@task(app="messenger", clears=CLEARS, prompt="Add a number '{number}' to block list", params={"number": phone_number},
      golden=lambda p: [g.tap(desc="Settings"), g.tap(text="Manage blocked numbers"),
                        g.tap(desc="Add a blocked number"), g.type(p.number), g.tap(text="OK")])
def test_messenger_block_number(params, default_sms_app, phone, screen):
    assert not screen.exists(text="OK"), "the add dialog is still open"
    assert screen.exists(text=params.number), "the list does not show the number"
    assert phone.blocked() == [params.number]


def _conversations(rng):
    numbers = distinct_numbers(rng, 3)
    return {"number": rng.choice(numbers), "numbers": numbers, "texts": rng.sample(MESSAGES, 3)}


@pytest.fixture
def conversations(params, default_sms_app, device):
    """A conversation with each of the instance's numbers (one received message each)."""
    for number, text in zip(params.numbers, params.texts):
        device.shell(f"content insert --uri content://sms/inbox --bind address:s:{number} --bind 'body:s:{text}'")


@task(app="messenger", clears=CLEARS, prompt="make the conversation with number '{number}' archived",
      params=_conversations,
      # Archive is under More options in 5.19.3's selection bar (as in the fixed task: 4 steps, not the paper's 3)
      golden=lambda p: [g.long_press(text=p.number), g.tap(desc="More options"), g.tap(text="Archive"),
                        g.tap(id="android:id/button1")])
def test_messenger_archive_conversation(params, conversations, phone, screen):
    assert not screen.exists(id="message"), "the confirmation is still open"
    threads = {number: phone.thread_of(number) for number in params.numbers}
    assert threads[params.number] is not None, f"the conversation with {params.number} was deleted, not archived"
    archived = phone.archived_threads()
    assert threads[params.number] in archived, f"the conversation with {params.number} is not archived"
    others = [n for n in params.numbers if n != params.number and threads[n] in archived]
    assert not others, f"other conversations were archived too: {others}"


def _search(rng):
    drawn = _conversations(rng)
    return {"text": drawn["texts"][drawn["numbers"].index(drawn.pop("number"))], **drawn}


@task(app="messenger", clears=CLEARS, prompt="search message '{text}' at the top search bar",
      params=_search, golden=lambda p: [g.type(p.text, id="top_toolbar_search")])
def test_messenger_search_message(params, conversations, screen):
    assert (screen.text(id="top_toolbar_search") or "").strip().lower() == params.text
    assert screen.exists(id="search_result_holder")
    assert [t.strip().lower() for t in screen.texts(id="search_result_snippet")] == [params.text]

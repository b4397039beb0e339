"""Simple SMS Messenger: query tasks (the agent reads the phone and answers).

Messages are seeded with `content insert` into the phone's SMS provider, with
their dates, as the MobileAgentBench tasks seed theirs (task_tests/test_messenger.py).
The conversation list shows only each thread's last message, so the answers take
opening a conversation or searching the messages.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_messenger import CLEARS, default_sms_app  # noqa: F401 - a fixture the seeds use
from .queries import Answers

pytestmark = pytest.mark.suite("extended")


#: (box, address, body, date in ms since the epoch); the phone's clock reads 2024-05-01 09:00 UTC
MESSAGES = (
    ("inbox", "5550123", "Your parcel arrives Friday", 1714540000000),  # 05:06
    ("inbox", "5550100", "Are you coming tonight?", 1714550000000),  # 07:53
    ("inbox", "5550100", "Bring the blue folder", 1714551000000),  # 08:10
    ("sent", "5550100", "see you at 6", 1714552000000),  # 08:26
    ("inbox", "5550100", "Great, thanks", 1714553000000),  # 08:43
)


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_messenger_query_count": Answers(
        right=("4", "four", "There are 4 messages in that conversation."),
        wrong=("3", "5", "3 or 4"),
        shown=("Are you coming tonight?", "Bring the blue folder", "see you at 6", "Great, thanks")),
    "test_messenger_query_first_message": Answers(
        right=("Are you coming tonight?", "are you coming tonight",
               'The first message was "Are you coming tonight?"'),
        wrong=("Bring the blue folder", "Great, thanks"),
        shown=("Are you coming tonight?",)),
    "test_messenger_query_sent_time": Answers(
        right=("8:26 AM", "08:26", "I sent it at 8:26 a.m."),
        wrong=("8:43 AM", "8:26 PM", "8:25 AM"),
        shown=("see you at 6", "8:26 AM")),
}


@pytest.fixture
def two_conversations(default_sms_app, device):  # noqa: F811 - the imported fixture, requested
    for box, address, body, date in MESSAGES:
        device.shell(f"content insert --uri content://sms/{box} --bind address:s:{address} "
                     f"--bind 'body:s:{body}' --bind date:l:{date}")


@task(app="messenger", clears=CLEARS,
      prompt="How many messages are there in my conversation with 5550100, mine included?",
      golden=[g.tap(text="5550100"), g.finish(answer="4")])
def test_messenger_query_count(two_conversations, answer):
    assert answer.count() == 4


@task(app="messenger", clears=CLEARS, prompt="What was the first message 5550100 sent me?",
      golden=[g.tap(text="5550100"), g.finish(answer="Are you coming tonight?")])
def test_messenger_query_first_message(two_conversations, answer):
    assert answer.mentions("Are you coming tonight", excluding=[m[2] for m in MESSAGES[2:]])


@task(app="messenger", clears=CLEARS, prompt="At what time did I send the message 'see you at 6'?",
      golden=[g.type("see you at 6", id="top_toolbar_search"), g.finish(answer="8:26 AM")])
def test_messenger_query_sent_time(two_conversations, answer):
    assert answer.matches_time("08:26")

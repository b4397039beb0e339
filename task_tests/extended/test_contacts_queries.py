"""Simple Contacts Pro: query tasks (the agent reads the phone and answers).

The address book is seeded with `content insert` into the phone's contacts
provider, as the MobileAgentBench tasks do (task_tests/test_contacts.py); the
list shows names only, so each answer takes opening a contact or a search.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_contacts import CLEARS, PERMISSIONS, AddressBook
from .queries import Answers

pytestmark = pytest.mark.suite("extended")

PEOPLE = ("Yuzai", "Zack", "Amy")


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_contacts_query_number": Answers(
        right=("123456789", "123 456 789", "Yuzai's number is 123-456-789."),
        wrong=("987654321", "12345678", "123456780"),
        shown=("123456789",)),
    "test_contacts_query_email": Answers(
        right=("zack.miller@outlook.com", "ZACK.MILLER@OUTLOOK.COM",
               "His email is zack.miller@outlook.com."),
        wrong=("yuzai@gmail.com", "zack.miller@outlook.co", "zack.miler@outlook.com"),
        shown=("zack.miller@outlook.com",)),
    "test_contacts_query_owner": Answers(
        right=("Zack", "zack", "The number 987654321 belongs to Zack."),
        wrong=("Yuzai", "Amy", "Zack or Amy"),
        shown=("Zack",)),
}


@pytest.fixture
def three_people(device):
    book = AddressBook(device)
    book.add("Yuzai", "123456789", email="yuzai@gmail.com")
    book.add("Zack", "987654321", email="zack.miller@outlook.com")
    book.add("Amy", "555123456")


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS, prompt="What is Yuzai's phone number?",
      golden=[g.tap(text="Yuzai"), g.finish(answer="123456789")])
def test_contacts_query_number(three_people, answer):
    assert answer.matches_phone("123456789")


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS, prompt="What is Zack's email address?",
      golden=[g.tap(text="Zack"), g.finish(answer="zack.miller@outlook.com")])
def test_contacts_query_email(three_people, answer):
    assert answer.mentions("zack.miller@outlook.com", excluding=["yuzai@gmail.com"])


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS,
      prompt="Which of my contacts has the phone number 987654321? Answer with the name.",
      golden=[g.type("987654321", id="top_toolbar_search"), g.finish(answer="Zack")])
def test_contacts_query_owner(three_people, answer):
    assert answer.mentions("Zack", excluding=[p for p in PEOPLE if p != "Zack"])

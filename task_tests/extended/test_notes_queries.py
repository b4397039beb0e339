"""Simple Notes Pro: query tasks (the agent reads the phone and answers).

The notes are written through the app's UI, as the MobileAgentBench tasks write
theirs (task_tests/test_notes.py); the note opened last is a different one, so
each answer takes switching notes. One query is free-form and needs the LLM
judge (``llm_judge=True``): without ``--llm-judge-url`` it is skipped.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_notes import NotesSeed
from .queries import Answers

pytestmark = pytest.mark.suite("extended")

APP = "com.simplemobiletools.notes.pro"

#: in the order they are added, which is also the app's default order (by title, ascending)
GROCERIES = ("apples", "bread", "cheese", "milk")


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_notes_query_third_item": Answers(
        right=("cheese", "Cheese.", "The third item is cheese."),
        wrong=("bread", "milk", "cheese and milk"),
        shown=GROCERIES),
    "test_notes_query_item_count": Answers(
        right=("4", "four", "It has 4 items."),
        wrong=("3", "5", "4 or 5"),
        shown=GROCERIES),
    "test_notes_query_door_code": Answers(
        right=("4827", "The door code is 4827.", "door code: 4827"),
        wrong=("4872", "4828", "4827 or 4828"),
        shown=("Door code 4827, the spare key is under the mat",)),
}


@pytest.fixture
def four_notes(ui_factory):
    """A note 'Trip', a checklist 'Groceries', a note 'Home' holding the door
    code, and last an empty note 'Ideas', which the app shows when it starts (its tab strip shows 'Home'
    beside it; the others are one "Open note" away)."""
    seed = NotesSeed(ui_factory(APP)).new_note("Trip", text="Pack passport, charger and sunscreen for Oslo")
    seed.new_note("Groceries", checklist=True, items=GROCERIES)
    seed.new_note("Home", text="Door code 4827, the spare key is under the mat")
    seed.new_note("Ideas")


def open_note(title: str) -> list:
    return [g.tap(desc="Open note"), g.tap(text=title)]


@task(app="notes", prompt="What is the third item of my checklist 'Groceries'?",
      golden=[*open_note("Groceries"), g.finish(answer="cheese")])
def test_notes_query_third_item(four_notes, answer):
    assert answer.mentions("cheese", excluding=[i for i in GROCERIES if i != "cheese"])


@task(app="notes", prompt="How many items does my checklist 'Groceries' have?",
      golden=[*open_note("Groceries"), g.finish(answer="4")])
def test_notes_query_item_count(four_notes, answer):
    assert answer.count() == len(GROCERIES)


@task(app="notes", prompt="What is the door code written in my note 'Home'?",
      golden=[g.tap(text="Home"), g.finish(answer="4827")])
def test_notes_query_door_code(four_notes, answer):
    assert answer.number() == 4827


@task(app="notes", llm_judge=True, prompt="In one sentence: what is my note 'Trip' about?",
      golden=[*open_note("Trip"), g.finish(answer="It is a packing list for Oslo: passport, charger and sunscreen.")])
def test_notes_query_trip_summary(four_notes, answer):
    assert answer.judged_by_llm(expected="a packing list for the trip to Oslo (passport, charger, sunscreen)",
                                criteria="The answer must say the note is about packing for a trip; it need "
                                         "not name every item.")

"""Simple Contacts Pro: task families (names and numbers drawn per instance).

Seeds and judges are the fixed tasks' (test_contacts.py): contacts are written
into Android's contacts provider with `content insert`, and the judges read it
back with `content query` besides the screen. Several contacts are seeded
where the task names one, so the judge can tell the right one from its
neighbours (a near miss: the wrong contact deleted, starred or changed).
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_contacts import CLEARS, PERMISSIONS, AddressBook
from .names import FIRST_NAMES, distinct_numbers, phone_number

pytestmark = pytest.mark.suite("extended")


@pytest.fixture
def address_book(device) -> AddressBook:
    return AddressBook(device)


def three_people(rng):
    """Three contacts; the task is about the one named ``name``."""
    people = rng.sample(FIRST_NAMES, 3)
    return {"name": rng.choice(people), "people": people, "numbers": distinct_numbers(rng, 3)}


@pytest.fixture
def seeded_people(params, address_book):
    """The instance's three contacts, in the provider."""
    for person, number in zip(params.people, params.numbers):
        address_book.add(person, number)


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS,
      prompt="Create a new contact, his First Name is {name}, and his Phone Number is {number}",
      params={"name": FIRST_NAMES, "number": phone_number},
      golden=lambda p: [g.tap(id="fragment_fab"), g.type(p.name, id="contact_first_name"),
                        g.type(p.number, id="contact_number"), g.tap(desc="Save")])
def test_contacts_add_contact(params, address_book, screen):
    assert not screen.exists(id="contact_first_name"), "the contact form is still open (not saved)"
    people = address_book.people()
    assert params.name.lower() in people, f"no contact with first name {params.name} among {sorted(people)}"
    assert people[params.name.lower()]["numbers"] == [params.number]


def _renumber(rng):
    old, new = distinct_numbers(rng, 2)
    return {"name": rng.choice(FIRST_NAMES), "old": old, "new": new}


@pytest.fixture
def one_person(params, address_book):
    address_book.add(params.name, params.old)


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS,
      prompt="Change the contact {name}'s number to {new} and save it", params=_renumber,
      golden=lambda p: [g.tap(text=p.name), g.tap(desc="Edit contact"), g.type(p.new, id="contact_number"),
                        g.tap(desc="Save")])
def test_contacts_change_number(params, one_person, address_book, screen):
    assert not screen.exists(id="contact_first_name"), "the edit form is still open (not saved)"
    assert params.new in screen.texts(id="contact_number")
    assert address_book.people()[params.name.lower()]["numbers"] == [params.new]


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS, prompt="Delete contact {name}", params=three_people,
      golden=lambda p: [g.tap(text=p.name), g.tap(desc="Delete"), g.tap(id="android:id/button1")])
def test_contacts_delete_contact(params, seeded_people, address_book, screen):
    assert not screen.exists(text=params.name)
    left = set(address_book.people())
    assert params.name.lower() not in left, f"{params.name} is still in the phone's contacts"
    others = {p.lower() for p in params.people if p != params.name}
    assert others <= left, f"another contact was deleted: {sorted(others - left)}"


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS, prompt="Set the contact {name} to Favorite",
      params=three_people, golden=lambda p: [g.tap(text=p.name), g.tap(id="contact_toggle_favorite")])
def test_contacts_favorite_contact(params, seeded_people, address_book, events):
    assert events.clicked(id="contact_toggle_favorite"), "no favourite toggle was touched"
    starred = sorted(name for name, entry in address_book.people().items() if entry["starred"])
    assert starred == [params.name.lower()], f"the favourites are {starred}"


@task(app="contacts", clears=CLEARS, permissions=PERMISSIONS, prompt="Search contact {name}", params=three_people,
      golden=lambda p: [g.type(p.name, id="top_toolbar_search")])
def test_contacts_search_contact(params, seeded_people, screen):
    assert (screen.text(id="top_toolbar_search") or "").strip().lower() == params.name.lower()
    assert screen.texts(id="item_contact_name") == [params.name]

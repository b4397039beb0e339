"""Simple Notes Pro: task families (titles and checklist items drawn per instance).

Seeds build the notes through the app's UI (test_notes.py's NotesSeed), as the
fixed tasks do; the judges read the tab strip, the note shown and, for a
checked item, the toggles of that item's row.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_notes import APP, NotesSeed, tabs
from .names import GROCERIES, WORDS

pytestmark = pytest.mark.suite("extended")


@pytest.fixture
def notes_seed(ui_factory) -> NotesSeed:
    return NotesSeed(ui_factory(APP))


def new_note(title: str, *, checklist: bool = False) -> list:
    return [g.tap(id="new_note"), g.type(title, id="locked_note_title"),
            *([g.tap(id="type_checklist")] if checklist else []), g.tap(id="android:id/button1")]


@task(app="notes", prompt="add a new note named '{title}'", params={"title": WORDS},
      golden=lambda p: new_note(p.title))
def test_notes_add_note(params, screen):
    assert not screen.exists(id="locked_note_title"), "the new-note dialog is still open"
    assert params.title in tabs(screen)
    assert not screen.exists(id="checklist_fab"), f"{params.title} is a checklist, not a text note"


def _checklist(rng):
    return {"title": rng.choice(WORDS).capitalize() + " list", "entries": rng.sample(GROCERIES, rng.randint(1, 3))}


@task(app="notes", prompt="create a checklist named '{title}' and add the items {entries}", params=_checklist,
      golden=lambda p: [*new_note(p.title, checklist=True),
                        *[step for item in p.entries for step in (
                            g.tap(id="checklist_fab"), g.type(item, id="title_edit_text"),
                            g.tap(id="android:id/button1"))]])
def test_notes_checklist_with_items(params, screen, progress):
    progress.reach("checklist created", params.title in tabs(screen) and screen.exists(id="checklist_fab"))
    assert params.title in tabs(screen) and screen.exists(id="checklist_fab"), f"no checklist {params.title}"
    assert sorted(screen.texts(id="checklist_title")) == sorted(params.entries)


def _rename(rng):
    old, new = rng.sample(WORDS, 2)
    return {"old": old, "new": new, "text": rng.choice(GROCERIES)}


@pytest.fixture
def note_to_rename(params, notes_seed):
    notes_seed.new_note(params.old, text=params.text)


@task(app="notes", prompt="rename the current note to '{new}'", params=_rename,
      golden=lambda p: [g.tap(desc="More options"), g.tap(text="Rename note"),
                        g.type(p.new, id="locked_note_title"), g.tap(id="android:id/button1")])
def test_notes_rename_note(params, note_to_rename, screen):
    titles = tabs(screen)
    assert params.new in titles and params.old not in titles
    assert screen.text(id="text_note_view") == params.text, "the renamed note is not the one shown"


def _shopping(rng):
    entries = rng.sample(GROCERIES, 3)
    return {"title": rng.choice(WORDS), "entries": entries, "item": rng.choice(entries)}


@pytest.fixture
def checklist_to_tick(params, notes_seed):
    notes_seed.new_note(params.title, checklist=True, items=params.entries)


@task(app="notes", prompt="Check the item '{item}' for {title}", params=_shopping,
      golden=lambda p: [g.tap(text=p.item)])
def test_notes_check_item(params, checklist_to_tick, screen, events):
    assert params.title in tabs(screen)
    # A done item differs from an open one only in its drawing: count each row's toggles.
    toggled = {item: len(events.clicks(id="checklist_holder", text=item)) % 2 for item in params.entries}
    assert toggled[params.item] == 1, f"'{params.item}' is not checked"
    assert not any(toggled[item] for item in params.entries if item != params.item), f"other items checked: {toggled}"


def _two_notes(rng):
    """Two drawn notes beside the General note; the task deletes one of them."""
    notes = rng.sample(WORDS, 2)
    return {"title": rng.choice(notes), "notes": notes}


@pytest.fixture
def two_notes(params, notes_seed):
    for title in params.notes:
        notes_seed.new_note(title)


def open_note(title: str, notes: list[str]) -> list:
    """Golden actions that show note ``title`` when ``notes`` were created in this order.

    The last note created is shown. The pager orders notes by title (``ORDER BY title COLLATE
    NOCASE``, as the app's NotesDao) and its tab strip shows the shown note's neighbours: a
    neighbour is one tap away, any other note is picked in the Open note dialog.
    """
    if title == notes[-1]:
        return []
    order = sorted(notes, key=str.lower)
    if abs(order.index(title) - order.index(notes[-1])) == 1:
        return [g.tap(text=title)]
    return [g.tap(desc="Open note"), g.tap(text=title)]


@task(app="notes", prompt="delete the note '{title}'", params=_two_notes,
      golden=lambda p: [*open_note(p.title, ["General note", *p.notes]), g.tap(desc="More options"),
                        g.tap(text="Delete note"), g.tap(id="android:id/button1")])
def test_notes_delete_note(params, two_notes, screen, events, progress):
    # Notes are sorted by title and the strip shows a note's neighbours only: before the deletion it may
    # already show exactly the two notes that are to be left, so the deletion itself is asked for.
    progress.reach("asked to delete it",
                   screen.text(id="delete_note_description") == f'Are you sure you want to delete note "{params.title}"?')
    assert events.clicked(id="android:id/button1", since="asked to delete it"), f"'{params.title}' was not deleted"
    left = [title for title in ("General note", *params.notes) if title != params.title]
    assert sorted(tabs(screen)) == sorted(left)  # two notes left: the strip shows both

"""Simple Notes Pro: the ten note_* tasks of MobileAgentBench.

Seed states are fixtures that build the notes through the app's UI (after the
harness cleared the app's data). The judges check the intent on the final
screen -- the pager's tab strip lists the current note and its neighbours --
plus click events where the screen cannot show the state (a checked item).
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

APP = "com.simplemobiletools.notes.pro"


def tabs(screen) -> list[str]:
    """Titles in the tab strip (current note and its neighbours), left to right."""
    strip = screen.get(id="pager_tab_strip")
    return screen.texts(cls="android.widget.TextView", within=strip) if strip is not None else []


class NotesSeed:
    """Builds notes through the UI, as a user would, for the tasks' seed states."""

    def __init__(self, ui):
        self.ui = ui.launch()

    def new_note(self, title: str, *, checklist: bool = False, text: str | None = None, items=()) -> "NotesSeed":
        self.ui.tap(id="new_note").type(title, id="locked_note_title")
        if checklist:
            self.ui.tap(id="type_checklist")
        self.ui.tap(id="android:id/button1")
        if text is not None:
            self.ui.type(text, id="text_note_view")
        for item in items:
            self.ui.tap(id="checklist_fab").type(item, id="title_edit_text").tap(id="android:id/button1")
        return self

    def menu(self, entry: str) -> "NotesSeed":
        self.ui.tap(desc="More options").tap(id="title", text=entry)
        return self


@pytest.fixture
def notes_seed(ui_factory) -> NotesSeed:
    return NotesSeed(ui_factory(APP))


@task(app="notes", prompt="add a new note named 'TODO List'",
      golden=[g.tap(id="new_note"), g.type("TODO List", id="locked_note_title"), g.tap(id="android:id/button1")])
def test_note_add(screen):
    assert not screen.exists(id="locked_note_title"), "the new-note dialog is still open"
    assert "TODO List" in tabs(screen)


@pytest.fixture
def three_text_notes(notes_seed):
    for title in ("work_list", "to_do_list", "meeting"):
        notes_seed.new_note(title)


@task(app="notes", prompt="delete the 'to_do_list' and 'meeting' note",
      golden=[g.tap(desc="More options"), g.tap(text="Delete note"), g.tap(id="android:id/button1"),
              g.tap(text="to_do_list"), g.tap(desc="More options"), g.tap(text="Delete note"),
              g.tap(id="android:id/button1")])
def test_note_delete(three_text_notes, screen):
    # Two notes left: the strip shows both, so nothing else can hide off-screen.
    assert sorted(tabs(screen)) == ["General note", "work_list"]


@pytest.fixture
def shopping_list(notes_seed):
    notes_seed.new_note("shopping_list", checklist=True, items=("eggs", "beer", "steak"))


@task(app="notes", prompt="Check the item 'eggs' for shopping_list", golden=[g.tap(text="eggs")])
def test_note_item_checked(shopping_list, screen, events):
    assert "shopping_list" in tabs(screen)
    # A done item differs from an open one only in its drawing: count the toggles.
    toggles = events.clicks(id="checklist_holder", text="eggs")
    assert len(toggles) % 2 == 1, f"'eggs' was toggled {len(toggles)} times"


@pytest.fixture
def locked_password_list(notes_seed, device):
    notes_seed.new_note("password_list", checklist=True, items=("unique2580",))
    notes_seed.menu("Lock note")
    ui = notes_seed.ui
    ui.tap(id="android:id/button1").tap(text="PIN")
    for _ in range(2):  # enter and repeat
        for digit in "2580":
            ui.tap(id=f"pin_{digit}")
        ui.tap(id="pin_ok")
    ui.key("HOME")  # the lock shows once the screen is resumed


@task(app="notes", prompt="use the pin '2580' to open the locked note 'password_list'",
      golden=[g.tap(id="note_locked_show"), g.tap(id="pin_2"), g.tap(id="pin_5"), g.tap(id="pin_8"),
              g.tap(id="pin_0"), g.tap(id="pin_ok")])
def test_note_lock(locked_password_list, screen):
    assert "password_list" in tabs(screen)
    assert screen.texts(id="checklist_title") == ["unique2580"]


@task(app="notes", prompt="add a new Checklist named 'TODO List'",
      golden=[g.tap(id="new_note"), g.type("TODO List", id="locked_note_title"), g.tap(id="type_checklist"),
              g.tap(id="android:id/button1")])
def test_note_new_checklist(screen, events):
    assert not screen.exists(id="locked_note_title"), "the new-note dialog is still open"
    assert "TODO List" in tabs(screen)
    # The current note is a checklist: its add-item button shows.
    assert screen.exists(id="checklist_fab"), "TODO List is not a checklist"


@task(app="notes", prompt="create a checklist named 'Shopping list' and add an item named 'Milk'",
      golden=[g.tap(id="new_note"), g.type("Shopping list", id="locked_note_title"), g.tap(id="type_checklist"),
              g.tap(id="android:id/button1"), g.tap(id="checklist_fab"), g.type("Milk", id="title_edit_text"),
              g.tap(id="android:id/button1")])
def test_note_new_checklist_items(screen, progress):
    progress.reach("checklist created", "Shopping list" in tabs(screen) and screen.exists(id="checklist_fab"))
    assert "Shopping list" in tabs(screen) and screen.exists(id="checklist_fab")
    assert "Milk" in screen.texts(id="checklist_title")


@pytest.fixture
def three_notes_with_text(notes_seed):
    for title, text in (("meeting", "9pm May 5th 2024"), ("Charles's secrets", "I love you"),
                        ("to_do_list", "Complete the task")):
        notes_seed.new_note(title, text=text)


@task(app="notes", prompt="open the note 'meeting'", golden=[g.tap(text="meeting")])
def test_note_open(three_notes_with_text, screen):
    assert screen.text(id="text_note_view") == "9pm May 5th 2024"


@task(app="notes", prompt="open about page", golden=[g.tap(desc="More options"), g.tap(text="About")])
def test_note_open_about(screen):
    assert screen.package == APP
    assert screen.activity.endswith(".AboutActivity")


@pytest.fixture
def unfinished_task(notes_seed):
    notes_seed.new_note("unfinished_task", text="Undo")


@task(app="notes", prompt="rename the current note to 'finished_task'",
      golden=[g.tap(desc="More options"), g.tap(text="Rename note"), g.type("finished_task", id="locked_note_title"),
              g.tap(id="android:id/button1")])
def test_note_rename(unfinished_task, screen):
    titles = tabs(screen)
    assert "finished_task" in titles and "unfinished_task" not in titles
    assert screen.text(id="text_note_view") == "Undo", "the renamed note is not the one shown"


@pytest.fixture
def charles_secrets(notes_seed):
    notes_seed.new_note("Charles's secrets", text="The secret is I love you")


@task(app="notes", prompt="search 'secret' in note 'Charles's secrets'",
      golden=[g.tap(id="open_search"), g.type("secret", id="search_query")])
def test_note_search(charles_secrets, screen):
    assert "Charles's secrets" in tabs(screen)
    assert (screen.text(id="search_query") or "").lower() == "secret"
    assert "secret" in (screen.text(id="text_note_view") or "")

"""Data model of Simple Notes: notes, checklist items, PIN locks, search.

Pure Python with no UI: the screens in ``notes.py`` read and change it. It
follows the real app's rules (Simple-Notes and Simple-Commons sources): notes
are ordered by title ignoring case, titles must be non-empty and unique,
checklist items are ordered by title (the app's default "Sort by: Title,
Ascending"), a PIN needs at least four digits and is entered twice when set.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

TYPE_TEXT = "text"
TYPE_CHECKLIST = "checklist"

GENERAL_NOTE = "General note"
MIN_PIN_LENGTH = 4
MAX_PIN_LENGTH = 10


class NoteError(ValueError):
    """A user action the app refuses; the message is the app's toast text."""


SORT_TITLE = "title"
SORT_DATE_CREATED = "date_created"
SORT_CUSTOM = "custom"


@dataclass
class ChecklistSort:
    """The checklist "Sort by" dialog's choice (a fresh install: Title, Ascending)."""

    field: str = SORT_TITLE
    ascending: bool = True
    move_done_to_bottom: bool = False


@dataclass
class ChecklistItem:
    """One row of a checklist note."""

    id: int
    title: str
    done: bool = False


@dataclass
class Note:
    """One note: a text note (``value``) or a checklist (``items``)."""

    id: int
    title: str
    type: str = TYPE_TEXT
    value: str = ""
    items: list[ChecklistItem] = field(default_factory=list)
    pin_hash: str = ""  # SHA-1 of the PIN, as the app stores it; "" = not locked
    #: the file the note follows ("Update the file itself at updating the note" on export); "" = none
    path: str = ""

    @property
    def locked(self) -> bool:
        return bool(self.pin_hash)

    @property
    def is_checklist(self) -> bool:
        return self.type == TYPE_CHECKLIST

    def sorted_items(self, sort: "ChecklistSort | None" = None) -> list[ChecklistItem]:
        """Items in display order; the default is the app's: title, ascending, ignoring case."""
        sort = sort or ChecklistSort()
        if sort.field == SORT_CUSTOM:
            return list(self.items)  # the user's own order: insertion order here
        key = (lambda it: (it.title.lower(), it.id)) if sort.field == SORT_TITLE else (lambda it: it.id)
        items = sorted(self.items, key=key, reverse=not sort.ascending)
        if sort.move_done_to_bottom:
            items.sort(key=lambda it: it.done)  # stable: keeps the order inside each group
        return items

    def add_items(self, titles: list[str]) -> list[ChecklistItem]:
        """Adds one item per non-blank line of each title, as the app does."""
        next_id = max((it.id for it in self.items), default=0) + 1
        added = []
        for title in titles:
            for row in title.split("\n"):
                row = row.strip()
                if row:
                    added.append(ChecklistItem(next_id, row))
                    next_id += 1
        self.items.extend(added)
        return added

    def toggle_item(self, item_id: int) -> ChecklistItem:
        item = next(it for it in self.items if it.id == item_id)
        item.done = not item.done
        return item

    def remove_done_items(self) -> None:
        self.items = [it for it in self.items if not it.done]


def hash_pin(pin: str) -> str:
    """The commons PinTab's hash: lower-case hex SHA-1 of the digits."""
    return hashlib.sha1(pin.encode("utf-8")).hexdigest()


def search_matches(text: str, query: str) -> list[int]:
    """Start offsets of case-insensitive, non-overlapping matches (the app's
    ``String.searchMatches``); queries shorter than two characters match
    nothing, as in ``MainActivity.searchTextChanged``."""
    if len(query) < 2 or not query.strip():
        return []
    haystack, needle = text.lower(), query.lower()
    found, start = [], haystack.find(needle)
    while start != -1:
        found.append(start)
        start = haystack.find(needle, start + len(needle))
    return found


class NotesData:
    """Everything the app keeps in its database and preferences.

    A fresh install (``pm clear``) holds one empty text note "General note".
    """

    def __init__(self) -> None:
        self._next_id = 1
        self.notes: list[Note] = []
        self.current_id = 0
        self.settings = dict(DEFAULT_SETTINGS)
        self.checklist_sort = ChecklistSort()
        self.add_note(GENERAL_NOTE, TYPE_TEXT)

    # -- queries ---------------------------------------------------------------
    def sorted_notes(self) -> list[Note]:
        """Notes in pager order: ``ORDER BY title COLLATE NOCASE ASC``."""
        return sorted(self.notes, key=lambda n: (n.title.lower(), n.id))

    def note(self, note_id: int) -> Note:
        return next(n for n in self.notes if n.id == note_id)

    @property
    def current(self) -> Note:
        ids = [n.id for n in self.notes]
        if self.current_id not in ids:  # e.g. after a delete: the first note
            self.current_id = self.sorted_notes()[0].id
        return self.note(self.current_id)

    def current_index(self) -> int:
        return [n.id for n in self.sorted_notes()].index(self.current.id)

    def find_by_title(self, title: str) -> Note | None:
        return next((n for n in self.notes if n.title.lower() == title.lower()), None)

    # -- changes ---------------------------------------------------------------
    def check_title(self, title: str, ignore: Note | None = None) -> None:
        """Raises NoteError with the app's toast text if a title is refused."""
        if not title:
            raise NoteError("Please name your note")
        other = self.find_by_title(title)
        if other is not None and other is not ignore:
            raise NoteError("A note with that title already exists")

    def add_note(self, title: str, type_: str = TYPE_TEXT, value: str = "") -> Note:
        """Adds a note and makes it the current one (as the new note dialog does)."""
        self.check_title(title)
        note = Note(self._next_id, title, type_, value)
        self._next_id += 1
        self.notes.append(note)
        self.current_id = note.id
        return note

    def rename(self, note: Note, title: str) -> None:
        self.check_title(title, ignore=note)
        note.title = title

    def delete(self, note: Note) -> None:
        """Deletes a note; the first remaining note becomes current.

        The app never deletes its last note (the menu item is hidden then).
        """
        if len(self.notes) <= 1:
            raise NoteError("The last note cannot be deleted")
        self.notes.remove(note)
        self.current_id = self.sorted_notes()[0].id


DEFAULT_SETTINGS = {
    # Defaults of a fresh install, as the recorded Settings screen shows them.
    "show_word_count": False,
    "clickable_links": False,
    "monospaced_font": False,
    "use_incognito_mode": False,
    "enable_line_wrap": True,
    "cursor_placement": True,
    "show_keyboard": True,
    "show_note_picker": False,
    "autosave_notes": True,
    "display_success": False,
    "font_size": "100%",
    "gravity": "Left",
}

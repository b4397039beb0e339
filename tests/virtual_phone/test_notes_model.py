"""The Simple Notes data model: ordering, titles, checklists, PINs, search."""

import pytest

from pytest_mobileagent.virtual_phone.apps.simple.notes_model import (
    TYPE_CHECKLIST,
    NoteError,
    NotesData,
    hash_pin,
    search_matches,
)


def test_fresh_install_has_one_empty_general_note():
    data = NotesData()
    assert [(n.title, n.type, n.value) for n in data.notes] == [("General note", "text", "")]
    assert data.current.title == "General note"


def test_notes_sort_by_title_ignoring_case_and_new_note_is_current():
    data = NotesData()
    data.add_note("work_list")
    data.add_note("Meeting")
    assert [n.title for n in data.sorted_notes()] == ["General note", "Meeting", "work_list"]
    assert data.current.title == "Meeting"
    assert data.current_index() == 1


@pytest.mark.parametrize(
    "title, message",
    [("", "Please name your note"), ("general NOTE", "A note with that title already exists")],
)
def test_refused_titles_give_the_apps_toast(title, message):
    data = NotesData()
    with pytest.raises(NoteError, match=message):
        data.add_note(title)


def test_rename_to_own_title_is_allowed_but_not_to_another():
    data = NotesData()
    note = data.add_note("unfinished_task")
    data.rename(note, "unfinished_task")
    with pytest.raises(NoteError):
        data.rename(note, "General note")
    data.rename(note, "finished_task")
    assert data.current.title == "finished_task"


def test_delete_makes_the_first_note_current_and_keeps_the_last_note():
    data = NotesData()
    data.add_note("to_do_list")
    meeting = data.add_note("meeting")
    data.delete(meeting)
    assert data.current.title == "General note"
    data.delete(data.find_by_title("to_do_list"))
    with pytest.raises(NoteError):
        data.delete(data.current)


def test_checklist_items_split_lines_sort_by_title_and_toggle():
    data = NotesData()
    note = data.add_note("shopping_list", TYPE_CHECKLIST)
    note.add_items(["eggs", "beer\n  \nsteak "])
    assert [it.title for it in note.sorted_items()] == ["beer", "eggs", "steak"]
    eggs = next(it for it in note.items if it.title == "eggs")
    assert note.toggle_item(eggs.id).done
    note.remove_done_items()
    assert [it.title for it in note.sorted_items()] == ["beer", "steak"]


def test_pin_hash_is_sha1_hex():
    # Value from coreutils: printf 2580 | sha1sum
    assert hash_pin("2580") == "0ebcdc7babc0de9a1d6c7d1c180bfcb8183fa492"
    assert hash_pin("2580") != hash_pin("2581")


@pytest.mark.parametrize(
    "text, query, expected",
    [
        ("The secret is I love you", "secret", [4]),
        ("Secret SECRET secret", "secret", [0, 7, 14]),
        ("aaaa", "aa", [0, 2]),
        ("abc", "a", []),
        ("abc", "  ", []),
    ],
)
def test_search_matches(text, query, expected):
    assert search_matches(text, query) == expected


def test_checklist_sort_options():
    from pytest_mobileagent.virtual_phone.apps.simple.notes_model import ChecklistSort

    data = NotesData()
    note = data.add_note("list", TYPE_CHECKLIST)
    note.add_items(["b", "C", "a"])
    note.toggle_item(note.items[2].id)  # "a" done
    titles = lambda sort: [it.title for it in note.sorted_items(sort)]
    assert titles(ChecklistSort()) == ["a", "b", "C"]
    assert titles(ChecklistSort(ascending=False)) == ["C", "b", "a"]
    assert titles(ChecklistSort("date_created")) == ["b", "C", "a"]
    assert titles(ChecklistSort("custom", ascending=False)) == ["b", "C", "a"]
    assert titles(ChecklistSort(move_done_to_bottom=True)) == ["b", "C", "a"]

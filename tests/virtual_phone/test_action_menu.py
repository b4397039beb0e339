"""AppCompat's toolbar rule (ui/action_menu.py) and the menu facts it is applied to.

The cases follow androidx.appcompat's ActionBarPolicy.getMaxActionButtons and
ActionMenuPresenter.flagActionItems; the facts are data/menus.json, generated
by tools/menu_facts.py from the apps' res/menu XML at their release tags.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent.virtual_phone.apps import menus
from pytest_mobileagent.virtual_phone.framework.ui import action_menu as rule
from pytest_mobileagent.virtual_phone.framework.ui.views import MenuItem, place_menu


def ids(items) -> list[str]:
    return [i.id for i in items]


def items(*specs: str, **kw) -> list[MenuItem]:
    """'id:show' specs, e.g. 'a:always', 'b:ifRoom', 'c:never', 'd:ifRoom:nogroup'."""
    out = []
    for spec in specs:
        parts = spec.split(":")
        out.append(MenuItem(parts[0], id=parts[0], icon="dot", show=parts[1],
                            group=parts[2] if len(parts) > 2 else "", **kw))
    return out


@pytest.mark.parametrize(("width", "height", "density", "slots"), [
    (1080, 2340, 2.75, 3),  # the virtual phone: 392 dp wide
    (720, 1280, 2.0, 3),    # 360 dp: values-w360dp
    (480, 800, 1.5, 2),     # 320 dp: below 360 dp
    (1080, 1920, 2.0, 4),   # 540 dp: values-w500dp
    (1600, 2560, 2.0, 5),   # 800 dp, a tablet: values-w600dp
])
def test_slot_count_follows_action_bar_policy(width, height, density, slots):
    assert rule.max_action_buttons(rule.ScreenConfig(width, height, density)) == slots


def test_the_phone_has_three_slots():
    assert rule.PHONE.width_dp == 392
    assert rule.max_action_buttons() == 3


def test_always_items_are_icons_even_beyond_the_slot_count():
    actions, overflow = place_menu(items("a:always", "b:always", "c:always", "d:always", "e:never"))
    assert ids(actions) == ["a", "b", "c", "d"]
    assert ids(overflow) == ["e"]


def test_an_overflow_item_reserves_a_slot_so_if_room_items_move_under_more_options():
    # Messenger's selection bar: three `always` items and a `never` one leave no slot for Archive.
    actions, overflow = place_menu(items("delete:always", "add:always", "dial:always", "archive:ifRoom",
                                         "copy:never"))
    assert ids(actions) == ["delete", "add", "dial"]
    assert ids(overflow) == ["archive", "copy"]


def test_if_room_items_fill_the_slots_left_in_order():
    actions, overflow = place_menu(items("a:always", "b:ifRoom", "c:ifRoom", "d:never"))
    assert ids(actions) == ["a", "b"]  # 3 slots - 1 for "More options" - 1 always
    assert ids(overflow) == ["c", "d"]


def test_no_overflow_button_when_everything_fits():
    actions, overflow = place_menu(items("a:always", "b:always", "c:ifRoom"))
    assert ids(actions) == ["a", "b", "c"]
    assert overflow == []


def test_too_many_requested_items_reserve_the_overflow_slot():
    actions, overflow = place_menu(items("a:ifRoom", "b:ifRoom", "c:ifRoom", "d:ifRoom"))
    assert ids(actions) == ["a", "b"]
    assert ids(overflow) == ["c", "d"]


def test_hidden_items_are_neither_icons_nor_overflow_entries_and_free_their_slot():
    menu = items("rename:always", "share:always", "delete:always", "select:ifRoom")
    menu[0].visible = False  # Voice Recorder hides Rename when two recordings are selected
    actions, overflow = place_menu(menu)
    assert ids(actions) == ["share", "delete", "select"]
    assert overflow == []


def test_a_group_with_an_action_may_break_the_slot_count_but_is_demoted_as_a_whole():
    actions, _ = place_menu(items("a:always", "b:ifRoom:g", "c:ifRoom:g", "d:never"))
    assert ids(actions) == ["a", "b", "c"]  # c joins its group's slot despite max actions


def test_the_width_limit_demotes_wide_text_items():
    wide = MenuItem("A very long title that is shown as text", id="wide", show="ifRoom")
    actions, overflow = place_menu([*items("a:always", "b:always"), wide])
    assert ids(actions) == ["a", "b"]
    assert ids(overflow) == ["wide"]


def test_show_as_action_values_are_parsed_as_android_does():
    assert rule.parse_show_as_action("") == rule.NEVER
    assert rule.parse_show_as_action("ifRoom|withText") == rule.IF_ROOM | rule.WITH_TEXT
    assert rule.parse_show_as_action("collapseActionView|always") == rule.ALWAYS | rule.COLLAPSE_ACTION_VIEW
    with pytest.raises(ValueError, match="unknown showAsAction value 'sometimes'"):
        rule.parse_show_as_action("sometimes")


# ---------------------------------------------------------------------------
# the facts


def test_facts_cover_the_ten_pinned_releases():
    facts = menus.facts()
    assert {app: f["release"] for app, f in facts.items()} == {
        "applauncher": "5.11.4", "calculator": "5.12.0", "calendar": "6.23.1", "contacts": "6.22.7",
        "filemanager": "6.16.1", "gallery": "6.28.1", "messenger": "5.19.3", "musicplayer": "5.18.3",
        "notes": "6.17.0", "voicerecorder": "5.12.3"}
    for app, f in facts.items():
        assert f["menus"], app
        for name, entries in f["menus"].items():
            assert all(e["id"] and e["title"] for e in entries), (app, name)
            for e in entries:
                rule.parse_show_as_action(e["android_show"])
                rule.parse_show_as_action(e["app_show"])


def test_selection_bars_read_android_show_as_action_and_toolbars_app_show_as_action():
    # Voice Recorder's cab_recordings declares Rename/Share/Delete with android:showAsAction only.
    cab = menus.menu("voicerecorder", "cab_recordings", {
        "cab_rename": None, "cab_share": None, "cab_delete": None, "cab_open_with": None, "cab_select_all": None},
        kind=menus.ACTION_MODE)
    # Select all has no android:showAsAction: the action mode's MenuBuilder default, ifRoom.
    assert [i.show for i in cab] == ["always", "always", "always", "never", "ifRoom"]
    actions, overflow = place_menu(cab)
    assert ids(actions) == ["cab_rename", "cab_share", "cab_delete"]
    assert ids(overflow) == ["cab_open_with", "cab_select_all"]
    toolbar = menus.menu("voicerecorder", "cab_recordings", {
        "cab_rename": None, "cab_share": None, "cab_delete": None, "cab_open_with": None, "cab_select_all": None})
    assert [i.show for i in toolbar] == ["", "", "", "never", "ifRoom"]


def test_two_selected_recordings_leave_room_for_select_all():
    cab = menus.menu("voicerecorder", "cab_recordings", {
        "cab_share": None, "cab_delete": None, "cab_select_all": None},
        hide=("cab_rename", "cab_open_with"), kind=menus.ACTION_MODE)
    actions, overflow = place_menu(cab)
    assert ids(actions) == ["cab_share", "cab_delete", "cab_select_all"]
    assert overflow == []


def test_a_menu_declaration_must_handle_or_hide_every_item():
    with pytest.raises(ValueError, match="'cab_open_with' is shown but has no handler"):
        menus.menu("voicerecorder", "cab_recordings", {"cab_rename": None, "cab_share": None, "cab_delete": None,
                                                       "cab_select_all": None})
    with pytest.raises(KeyError, match="no item"):
        menus.menu("voicerecorder", "cab_recordings", {"cab_archive": None})
    with pytest.raises(KeyError, match="has no menu 'menu_nope'"):
        menus.menu("voicerecorder", "menu_nope", {})

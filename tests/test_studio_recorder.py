"""The studio's recorder: actions on a screen -> golden actions, and the task module it writes.

Screens here are small uiautomator dumps; the module written for them is
compiled and its golden path resolved with the plugin's own resolution.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import pytest

from pytest_mobileagent.judge import Screen, parse_hierarchy
from pytest_mobileagent.studio.recorder import Recorder, app_names, render_task, task_filename, write_task

NOTES = "com.simplemobiletools.notes.pro"


def dump(*nodes: str) -> list:
    """A hierarchy: a full-screen root holding ``nodes`` (XML attribute strings)."""
    body = "".join(f'<node index="{i}" package="{NOTES}" {attrs} />' for i, attrs in enumerate(nodes))
    return parse_hierarchy(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        f'<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="{NOTES}" '
        f'content-desc="" bounds="[0,0][1080,2340]">{body}</node></hierarchy>'
    )


TITLE = ('text="{text}" resource-id="{p}:id/note_title" class="android.widget.EditText" content-desc="" '
         'clickable="true" focused="{focused}" bounds="[0,200][1080,400]"')
ROW = ('text="" resource-id="" class="android.widget.LinearLayout" content-desc="" clickable="true" '
       'bounds="[0,500][1080,700]"')
ROW_LABEL = 'text="Settings" resource-id="" class="android.widget.TextView" content-desc="" bounds="[40,550][400,650]"'
LIST = ('text="" resource-id="{p}:id/notes_list" class="androidx.recyclerview.widget.RecyclerView" '
        'content-desc="" scrollable="true" bounds="[0,800][1080,2000]"')
CHECK = ('text="Pinned" resource-id="{p}:id/pin" class="android.widget.CheckBox" content-desc="" checkable="true" '
         'checked="{checked}" clickable="true" bounds="[0,2000][1080,2100]"')
BLANK = 'text="" resource-id="" class="android.view.View" content-desc="" clickable="true" bounds="[0,2200][1080,2300]"'


def screen(title: str = "", focused: bool = False, checked: bool = False) -> list:
    return dump(TITLE.format(p=NOTES, text=escape(title, {'"': "&quot;"}), focused=str(focused).lower()), ROW, ROW_LABEL,
                LIST.format(p=NOTES), CHECK.format(p=NOTES, checked=str(checked).lower()), BLANK)


def test_a_tap_targets_the_control_under_the_finger_or_a_label_inside_it():
    recorder = Recorder(NOTES, screen())
    assert recorder.tap(540, 300, screen()).code == 'g.tap(id="note_title")'
    # The row has no selector of its own; its label has one and its centre lies on the row.
    assert recorder.tap(900, 600, screen()).code == 'g.tap(text="Settings")'
    assert recorder.tap(540, 2050, screen(), long=True).code == 'g.long_press(id="pin")'
    untargeted = recorder.tap(540, 2250, screen())
    assert untargeted.code is None and "(540, 2250)" in untargeted.note


def test_typing_after_a_tap_on_the_field_becomes_one_targeted_type():
    recorder = Recorder(NOTES, screen())
    recorder.tap(540, 300, screen())
    recorder.type("Milk", screen(focused=True))
    assert [s.code for s in recorder.steps] == ['g.type("Milk", id="note_title")']
    recorder.type("more", dump())  # nothing focused: untargeted
    assert recorder.steps[-1].code == 'g.type("more")'


def test_swipes_name_the_direction_the_content_moves_and_the_scrolled_view():
    recorder = Recorder(NOTES, screen())
    assert recorder.swipe(540, 1800, 540, 900, screen()).code == 'g.swipe("up", id="notes_list")'
    assert recorder.swipe(540, 900, 540, 1800, screen()).code == 'g.swipe("down", id="notes_list")'
    assert recorder.swipe(900, 300, 100, 320, screen()).code == 'g.swipe("left")'
    assert recorder.key("keycode_back").code == 'g.key("BACK")'
    assert recorder.launch("com.simplemobiletools.calculator").code == 'g.launch("calculator")'


def test_the_judge_is_suggested_from_what_changed_and_fails_on_the_first_screen():
    first = screen()
    recorder = Recorder(NOTES, first)
    recorder.tap(540, 300, first)
    recorder.type("Milk", screen(focused=True))
    recorder.tap(540, 2050, screen(title="Milk"))
    last = screen(title="Milk", checked=True)
    assertions = recorder.suggested_assertions(last)
    assert assertions == ['assert screen.text(id="note_title") == "Milk"', 'assert screen.checked(id="pin")']
    for nodes, holds in ((first, False), (last, True)):
        judge = Screen(NOTES)
        judge.update("", nodes)
        outcomes = [eval(line.removeprefix("assert "), {"screen": judge}) for line in assertions]  # noqa: S307
        assert all(outcomes) is holds


def test_the_written_module_is_a_valid_task_whose_golden_path_resolves(tmp_path):
    first = screen()
    recorder = Recorder(NOTES, first)
    recorder.tap(540, 300, first)
    recorder.type('say "hi"', screen(focused=True))
    recorder.tap(540, 2250, first)  # nothing to target: a TODO line, not a coordinate
    source = render_task(recorder, prompt="Write a note titled 'say \"hi\"'", name="notes title", final=screen(title='say "hi"'))
    path = write_task(tmp_path / task_filename("notes title"), source)
    assert path.name == "test_notes_title.py"
    namespace: dict = {}
    exec(compile(source, str(path), "exec"), namespace)  # noqa: S102
    function = namespace["test_notes_title"]
    spec = function.pytestmark[0].args[0]
    assert spec.problems == [] and spec.app == "notes" and spec.package == NOTES
    assert [str(a) for a in spec.golden] == ["""type('say "hi"', id='note_title')"""]
    assert "# TODO tap at (540, 2250)" in source
    live = Screen(NOTES)
    live.update("", first)
    action = spec.golden[0].resolve(live)
    assert (action.x, action.y) == (540, 300) and action.text == 'say "hi"'
    with pytest.raises(ValueError, match="exists already"):
        write_task(path, "overwritten")
    assert path.read_text() == source


def test_apps_outside_the_benchmark_keep_their_package():
    assert app_names("com.simplemobiletools.calculator") == ("calculator", None)
    assert app_names("org.example.shop") == ("shop", "org.example.shop")
    recorder = Recorder("org.example.shop", [])
    source = render_task(recorder, prompt="Open the shop", name="shop", final=[])
    assert 'app="shop",\n    package="org.example.shop",' in source
    assert 'assert False, "describe the finished state here' in source


def test_of_views_with_the_same_bounds_the_innermost_is_the_target():
    # Simple Notes: the note's EditText fills its (clickable) layout exactly.
    nodes = dump(
        'text="" resource-id="{p}:id/holder" class="android.widget.LinearLayout" content-desc="" clickable="true" '
        'bounds="[0,300][1080,2200]"'.format(p=NOTES),
    )
    inner = parse_hierarchy(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        f'<node index="0" text="" resource-id="{NOTES}:id/holder" class="android.widget.LinearLayout" '
        f'package="{NOTES}" content-desc="" clickable="true" bounds="[0,300][1080,2200]">'
        f'<node index="0" text="Insert text here" resource-id="{NOTES}:id/text_note_view" '
        f'class="android.widget.EditText" package="{NOTES}" content-desc="" focused="true" '
        'bounds="[0,300][1080,2200]" /></node></hierarchy>'
    )
    assert Recorder(NOTES, nodes).tap(540, 900, nodes).code == 'g.tap(id="holder")'
    assert Recorder(NOTES, inner).tap(540, 900, inner).code == 'g.tap(id="text_note_view")'

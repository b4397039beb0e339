"""Unit tests of the task API: @task metadata, golden actions, live judging objects."""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.agents import Action
from pytest_mobileagent.errors import TaskDefinitionError
from pytest_mobileagent.judge import Answer, Events, Progress, Screen, parse_hierarchy
from pytest_mobileagent.tasks import TaskSpec, difficulty_for

PKG = "com.simplemobiletools.notes.pro"

XML = f"""<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="{PKG}" content-desc=""
        checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false"
        scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2280]">
    <node index="0" text="Title" resource-id="{PKG}:id/task_title" class="android.widget.EditText" package="{PKG}"
          content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true"
          focused="true" scrollable="false" long-clickable="false" password="false" selected="false"
          bounds="[0,100][1080,200]" />
    <node index="1" text="eggs" resource-id="{PKG}:id/checklist_title" class="android.widget.TextView" package="{PKG}"
          content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true"
          focused="false" scrollable="false" long-clickable="true" password="false" selected="false"
          bounds="[0,300][1080,400]" />
    <node index="2" text="beer" resource-id="{PKG}:id/checklist_title" class="android.widget.TextView" package="{PKG}"
          content-desc="" checkable="true" checked="false" clickable="true" enabled="true" focusable="true"
          focused="false" scrollable="false" long-clickable="true" password="false" selected="true"
          bounds="[0,400][1080,500]" />
    <node index="3" text="" resource-id="android:id/button1" class="android.widget.Button" package="{PKG}"
          content-desc="Save" checkable="false" checked="false" clickable="true" enabled="true" focusable="true"
          focused="false" scrollable="false" long-clickable="false" password="false" selected="false"
          bounds="[800,2000][1000,2100]" />
  </node>
</hierarchy>"""


def make_screen() -> Screen:
    screen = Screen(PKG)
    screen.update(XML)
    return screen


# -- @task -------------------------------------------------------------------


def spec_of(func) -> TaskSpec:
    return func.pytestmark[0].args[0]


def test_task_defaults_from_golden():
    @task(app="notes", prompt="p", golden=[g.tap(id="a"), g.tap(text="b"), g.type("x", id="c")])
    def test_x():
        pass

    spec = spec_of(test_x)
    assert spec.package == PKG
    assert spec.min_steps == 3 and spec.difficulty == "medium" and not spec.problems
    assert spec.max_steps(2) == 6 and spec.max_steps(1.5) == 5


@pytest.mark.parametrize("steps, level", [(1, "easy"), (2, "easy"), (3, "medium"), (5, "medium"), (6, "hard")])
def test_difficulty_from_min_steps(steps, level):
    assert difficulty_for(steps) == level


@pytest.mark.parametrize(
    "kwargs, problem",
    [
        (dict(app="notes", prompt="", golden=[g.key("BACK")]), "no prompt"),
        (dict(app="nonesuch", prompt="p", golden=[g.key("BACK")]), "unknown app 'nonesuch'"),
        (dict(app="notes", prompt="p", golden=[g.key("BACK")], min_steps=3), "min_steps=3 but the golden path has 1"),
        (dict(app="notes", prompt="p"), "no golden path and no min_steps"),
        (dict(app="notes", prompt="p", golden=["tap save"]), "not a golden action"),
        (dict(app="notes", prompt="p", golden=[g.key("BACK")], difficulty="trivial"), "difficulty 'trivial'"),
    ],
)
def test_malformed_task_records_the_problem(kwargs, problem):
    @task(**kwargs)
    def test_bad():
        pass

    spec = spec_of(test_bad)
    assert any(problem in p for p in spec.problems), spec.problems
    with pytest.raises(TaskDefinitionError, match="task test_bad: "):
        spec.check()


def test_min_steps_reason_allows_a_different_count():
    @task(app="notes", prompt="p", golden=[g.key("BACK")], min_steps=2, min_steps_reason="two taps in the app")
    def test_ok():
        pass

    assert spec_of(test_ok).problems == [] and spec_of(test_ok).min_steps == 2


def test_custom_package_for_an_unknown_app():
    @task(app="mine", package="org.example.mine", prompt="p", golden=[g.key("BACK")])
    def test_ok():
        pass

    assert spec_of(test_ok).package == "org.example.mine"


def test_golden_target_needs_a_selector():
    with pytest.raises(TaskDefinitionError):
        g.tap()
    with pytest.raises(TaskDefinitionError):
        g.swipe("sideways")


# -- golden resolution ---------------------------------------------------------


def test_golden_actions_resolve_on_the_live_screen():
    screen = make_screen()
    assert g.tap(id="task_title").resolve(screen) == Action.tap(540, 150)
    assert g.tap(text="beer").resolve(screen) == Action.tap(540, 450)
    assert g.long_press(desc="Save").resolve(screen) == Action.long_press(900, 2050)
    typed = g.type("laundry", id="task_title").resolve(screen)
    assert (typed.type, typed.text, typed.x, typed.y) == ("type", "laundry", 540, 150)
    assert g.type("plain").resolve(screen).x is None
    assert g.key("BACK").resolve(screen) == Action.key("BACK")
    assert g.launch("notes").resolve(screen) == Action.launch(PKG)
    up = g.swipe("up").resolve(screen)
    assert up.y > up.y2 and up.x == up.x2
    assert g.finish("42").resolve(screen) == Action.finish("42")


def test_golden_action_missing_target_names_it():
    with pytest.raises(LookupError, match="text='milk'"):
        g.tap(text="milk").resolve(make_screen())


# -- Screen ------------------------------------------------------------------------


def test_screen_queries():
    screen = make_screen()
    assert screen.exists(id="task_title")
    assert screen.exists(id=f"{PKG}:id/task_title")
    assert not screen.exists(id="missing")
    assert screen.text(id="task_title") == "Title"
    assert screen.text(id="missing") is None
    assert screen.texts(id="checklist_title") == ["eggs", "beer"]
    assert screen.in_order("eggs", "beer", id="checklist_title")
    assert not screen.in_order("beer", "eggs", id="checklist_title")
    assert screen.checked(text="eggs") and not screen.checked(text="beer")
    assert screen.selected(text="beer") and not screen.selected(text="missing")
    assert screen.exists(text="eggs", cls="TextView") and not screen.exists(text="eggs", cls="EditText")
    assert screen.exists(id="android:id/button1", desc="Save")
    assert screen.count(id="checklist_title") == 2
    assert screen.exists(text_contains="eg")
    assert screen.package == PKG  # from the hierarchy when no current-app probe is given


def test_screen_activity_is_asked_lazily():
    calls = []

    def current():
        calls.append(1)
        return (PKG, f"{PKG}.activities.AboutActivity")

    screen = Screen(PKG, current_app=current)
    screen.update(XML)
    assert calls == []
    assert screen.activity.endswith("AboutActivity") and screen.package == PKG
    assert calls == [1]
    screen.update(XML)
    assert screen.activity and calls == [1, 1]


@pytest.mark.parametrize("bad", ["", "not xml", "<root/>"])
def test_parse_hierarchy_rejects_non_hierarchies(bad):
    with pytest.raises(ValueError):
        parse_hierarchy(bad)


# -- Events and Progress -------------------------------------------------------------


class Ev:
    def __init__(self, type, id="", text=(), desc="", package=PKG):
        self.type, self.id, self.text, self.desc, self.package = type, id, tuple(text), desc, package


def test_events_filters():
    events = Events(PKG)
    events.extend([
        Ev("window_state", text=["Notes"]),
        Ev("click", id=f"{PKG}:id/save", text=["Save"]),
        Ev("click", id="", text=["="], package="com.other"),
        Ev("long_click", text=["eggs"]),
    ])
    assert events.clicked(id="save") and events.clicked(text="Save")
    assert not events.clicked(text="=")  # another app's click is not the task app's
    assert events.clicked(text="=", package=None)
    assert events.long_clicked(text="eggs")
    assert len(events.window_changes()) == 1
    assert events.last_click().text == ("Save",)


def test_events_since_a_milestone():
    progress = Progress()
    events = Events(PKG, progress)
    events.extend([Ev("click", id=f"{PKG}:id/save")])
    progress.step = 1
    assert not progress.reach("form filled", False)
    assert not events.clicked(id="save", since="form filled")  # not latched yet
    progress.step = 2
    assert progress.reach("form filled", True)
    assert not events.clicked(id="save", since="form filled")  # the save click came before
    events.extend([Ev("click", id=f"{PKG}:id/save")])
    assert events.clicked(id="save", since="form filled")
    progress.step = 3
    assert progress.reach("form filled", False)  # latched: stays reached
    assert progress.reached_at == {"form filled": 2}
    with pytest.raises(TaskDefinitionError, match="unknown milestone 'typo'"):
        events.clicked(since="typo")


def test_answer():
    answer = Answer()
    assert not answer.given and answer.number() is None
    answer.text = "It is 1.609344 km"
    assert answer.contains("KM") and answer.number() == 1.609344

"""Simple Calendar Pro: task families (titles and descriptions drawn per instance).

Seed events are created through the app's UI (test_calendar.py's
CalendarSeed). The monthly view paints its events itself, so the judges of a
saved editor read its last edits before the save that took the app back to
the calendar (test_calendar.py's saved_editor); lists are read from the screen.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_calendar import APP, CalendarSeed, list_titles, saved_editor
from .names import EVENTS, GROCERIES

pytestmark = pytest.mark.suite("extended")


@pytest.fixture
def calendar_seed(ui_factory) -> CalendarSeed:
    return CalendarSeed(ui_factory(APP))


@pytest.fixture
def warned(calendar_seed):
    """One event saved already, so the reminder Disclaimer (asked at a reset's first save) is behind."""
    calendar_seed.event("event1")


@task(app="calendar", prompt="Create a new event '{title}'", params={"title": EVENTS},
      golden=lambda p: [g.tap(id="calendar_fab"), g.tap(text="Event"), g.type(p.title, id="event_title"),
                        g.tap(id="save")])
def test_calendar_new_event(params, warned, events):
    assert saved_editor(events, "event", {"title": params.title}), f"no event '{params.title}' was saved"


@task(app="calendar", prompt="Create a new task, named '{title}', with the description of '{description}'",
      params={"title": EVENTS, "description": lambda r: f"bring {r.choice(GROCERIES)}"},
      golden=lambda p: [g.tap(id="calendar_fab"), g.tap(text="Task"), g.type(p.title, id="task_title"),
                        g.type(p.description, id="task_description"), g.tap(id="save")])
def test_calendar_new_described_task(params, warned, events):
    assert saved_editor(events, "task", {"title": params.title, "description": params.description}), \
        f"no task '{params.title}' described '{params.description}' was saved"


def _three_events(rng):
    titles = rng.sample(EVENTS, 3)
    return {"title": rng.choice(titles), "titles": titles}


@pytest.fixture
def three_events(params, calendar_seed):
    for title in params.titles:
        calendar_seed.event(title)


@task(app="calendar", prompt="Show events in simple event list, delete the {title} event.", params=_three_events,
      golden=lambda p: [g.tap(id="change_view"), g.tap(text="Simple event list"), g.long_press(text=p.title),
                        g.tap(id="cab_delete"), g.tap(id="android:id/button1")])
def test_calendar_delete_event(params, three_events, screen):
    assert screen.exists(id="calendar_events_list_holder"), "the simple event list is not shown"
    assert not screen.exists(id="delete_event_description"), "the deletion is not confirmed yet"
    assert sorted(list_titles(screen)) == sorted(t for t in params.titles if t != params.title)


@task(app="calendar", prompt="search event '{title}'", params=_three_events,
      golden=lambda p: [g.tap(id="top_toolbar_search"), g.type(p.title)])
def test_calendar_search_event(params, three_events, screen):
    assert (screen.text(id="top_toolbar_search") or "").strip().lower() == params.title
    assert list_titles(screen, "search_results_list") == [params.title]

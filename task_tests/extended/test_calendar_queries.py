"""Simple Calendar Pro: query tasks (the agent reads the phone and answers).

The events are created through the app's UI, as the MobileAgentBench tasks
create theirs (task_tests/test_calendar.py), with their day picked in the date
picker and their start in the app's time list. The phone's clock reads
2024-05-01 09:00 UTC, so they fall later in May 2024; the monthly view paints
its events without views of their own, so the answers take the event list.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from .queries import Answers

pytestmark = pytest.mark.suite("extended")

APP = "com.simplemobiletools.calendar.pro"


#: (title, day of May 2024, start in the app's time list); created in this order, not the calendar's
EVENTS = (("Dentist", 17, "06:30"), ("Flight to Oslo", 21, "05:00"), ("Yoga", 16, "06:00"))
EVENT_LIST = [g.tap(id="change_view"), g.tap(text="Simple event list")]


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_calendar_query_date": Answers(
        right=("May 17, 2024", "17.05.2024", "It is on Friday, May 17."),
        wrong=("May 16, 2024", "May 18", "Thursday, May 17"),
        shown=("Dentist", "May 17 (Fri)")),
    "test_calendar_query_time": Answers(
        right=("5:00 AM", "05:00", "The flight leaves at 5 am."),
        wrong=("5:30 AM", "5:00 PM", "6:00"),
        shown=("Flight to Oslo", "05:00")),
    "test_calendar_query_order": Answers(
        right=("Yoga, Dentist, Flight to Oslo", "1. Yoga\n2. Dentist\n3. Flight to Oslo",
               "yoga, dentist and flight to oslo"),
        wrong=("Dentist, Yoga, Flight to Oslo", "Yoga, Dentist", "Yoga, Dentist, Flight"),
        shown=("Yoga", "Dentist", "Flight to Oslo")),
}


@pytest.fixture
def may_events(ui_factory):
    ui = ui_factory(APP).launch()
    for i, (title, day, start) in enumerate(EVENTS):
        ui.tap(id="calendar_fab").tap(id="fab_event_label").type(title, id="event_title")
        ui.tap(id="event_start_date").tap(text=str(day)).tap(id="android:id/button1")
        ui.tap(id="event_start_time").tap(text=start)
        ui.tap(id="save")
        if i == 0:
            ui.tap(id="android:id/button1")  # the first save after a reset asks its reminder Disclaimer


@task(app="calendar", prompt="On what date is my dentist appointment?",
      golden=[*EVENT_LIST, g.finish(answer="May 17, 2024")])
def test_calendar_query_date(may_events, answer):
    assert answer.matches_date("2024-05-17")


@task(app="calendar", prompt="At what time does my flight to Oslo leave?",
      golden=[*EVENT_LIST, g.finish(answer="5:00 AM")])
def test_calendar_query_time(may_events, answer):
    assert answer.matches_time("05:00")


@task(app="calendar", prompt="List my calendar's events in the order they take place.",
      golden=[*EVENT_LIST, g.finish(answer="Yoga, Dentist, Flight to Oslo")])
def test_calendar_query_order(may_events, answer):
    assert answer.matches_list(["Yoga", "Dentist", "Flight to Oslo"], ordered=True)

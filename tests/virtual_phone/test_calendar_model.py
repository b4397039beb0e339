"""Simple Calendar's data and date helpers (no UI)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_mobileagent.virtual_phone.apps.simple import calendar_model as m

MAY_1 = dt.date(2024, 5, 1)  # a Wednesday


def test_month_grid_starts_on_the_first_weekday_and_holds_six_weeks():
    sunday_first = m.month_grid(MAY_1, 6)
    assert sunday_first[0] == dt.date(2024, 4, 28) and len(sunday_first) == 42
    assert m.month_grid(MAY_1, 0)[0] == dt.date(2024, 4, 29)
    assert m.weekday_letters(6) == ["S", "M", "T", "W", "T", "F", "S"]
    assert m.weekday_letters(0)[0] == "M"


@given(st.dates(min_value=dt.date(1971, 1, 1), max_value=dt.date(2200, 12, 31)), st.integers(0, 6))
def test_every_grid_covers_its_month(day, first_weekday):
    grid = m.month_grid(day, first_weekday)
    assert grid[0].weekday() == first_weekday and grid[0] <= day.replace(day=1)
    assert all(b - a == dt.timedelta(days=1) for a, b in zip(grid, grid[1:]))
    following = m.add_months(day, 1)
    assert grid[-1] >= following - dt.timedelta(days=1)


def test_add_months_crosses_years():
    assert m.add_months(dt.date(2024, 12, 31), 1) == dt.date(2025, 1, 1)
    assert m.add_months(dt.date(2024, 1, 15), -1) == dt.date(2023, 12, 1)


def test_formats():
    assert [m.format_minutes(n) for n in (1, 5, 60, 120)] == ["1 minute", "5 minutes", "1 hour", "2 hours"]
    assert m.format_date(MAY_1) == "May 1 2024"
    assert m.format_section(MAY_1) == "May 1 (Wed)"


def test_add_rejects_an_empty_title_and_an_end_before_the_start():
    data = m.CalendarData()
    with pytest.raises(m.CalendarError, match="Title cannot be empty"):
        data.add("  ", MAY_1)
    with pytest.raises(m.CalendarError, match="cannot end earlier"):
        data.add("x", MAY_1, start_minute=600, end_minute=540)
    assert data.events == []


def test_days_search_and_the_upcoming_list():
    data = m.CalendarData()
    trip = data.add("Trip", dt.date(2024, 4, 30), end_day=dt.date(2024, 5, 2), all_day=True)
    laundry = data.add("Laundry", MAY_1, start_minute=600, description="wash")
    old = data.add("Old", dt.date(2024, 4, 1))
    days = m.month_grid(MAY_1, 6)
    by_day = data.by_day(days)
    assert all(by_day[d] == data.on_day(d) for d in days)
    assert by_day[MAY_1] == [trip, laundry]  # all-day events first
    assert data.search("WASH") == [laundry] and data.search("zzz") == []
    assert old not in data.upcoming(MAY_1) and data.upcoming(MAY_1) == [trip, laundry]
    data.delete([trip.id])
    assert data.on_day(MAY_1) == [laundry]

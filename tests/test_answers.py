"""The answer comparisons of query tasks (pytest_mobileagent/answers.py through judge.Answer).

Properties: every way the phone (or a person) writes a value reads back as that value, and the
neighbouring value (a byte, a second, a minute, a day, one more) does not.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_mobileagent.errors import TaskDefinitionError
from pytest_mobileagent.judge import Answer

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def said(text: str | None) -> Answer:
    answer = Answer(year=2024)
    answer.text = text
    return answer


def commons_size(size: int) -> str:
    """Simple-Commons' Long.formatSize(): DecimalFormat("#,##0.#") over 1024-based B, kB, MB, GB, TB."""
    units = ("B", "kB", "MB", "GB", "TB")
    group = 0
    while group < len(units) - 1 and size >= 1024 ** (group + 1):
        group += 1
    text = f"{size / 1024 ** group:,.1f}".rstrip("0").rstrip(".")
    return f"{text} {units[group]}"


# -- numbers and sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("three", 3), ("There are 3 photos.", 3), ("twenty-one", 21), ("3,145,728", 3145728),
    ("-61.6", -61.6), ("It is 1.609344 km", 1.609344), ("15.6250", 15.625),
])
def test_number(text, value):
    assert said(text).number() == value


@pytest.mark.parametrize("text", ["3 or 4", "between 3 and 5", "no number", "", None])
def test_no_one_number(text):
    assert said(text).number() is None and said(text).count() is None


def test_digits_in_words_dates_and_clock_times_are_no_numbers_of_their_own():
    assert said("IMG_001.jpg has 3 faces").numbers() == [3]
    assert said("At 10:30 there were 4").number() == 4
    assert said("64 x 48 pixels").numbers() == [64, 48]


@pytest.mark.parametrize("form", ["3 MB", "3.0 MB", "3 megabytes", "3 MiB", "The file is 3 MB.", "3,072 kB",
                                  "3,145,728 bytes", "3 MB (3,145,728 bytes)"])
def test_size_forms(form):
    assert said(form).matches_size("3 MB") and said(form).number("MB") == 3


@pytest.mark.parametrize("miss", ["3.1 MB", "2.9 MB", "4 MB", "3 kB", "3 GB", "3", "3 or 4 MB", "3 MB or 4 MB"])
def test_size_near_misses(miss):
    assert not said(miss).matches_size("3 MB")


@given(st.integers(1, 2 ** 40))
def test_a_size_as_the_apps_print_it_reads_back_and_its_neighbour_does_not(size):
    shown = commons_size(size)
    assert said(shown).matches_size(shown)
    assert said(f"{size:,} bytes").matches_size(shown)
    value, unit = shown.split()
    step = 1 if unit == "B" else 0.1
    assert not said(f"{float(value.replace(',', '')) + step:.1f} {unit}").matches_size(shown)


def test_a_size_must_be_a_size():
    with pytest.raises(TaskDefinitionError, match="give a size"):
        said("3").matches_size("3 apples")
    with pytest.raises(TaskDefinitionError, match="unknown unit"):
        said("3").number("parsecs")


# -- durations --------------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["0:07", "00:07", "7 seconds", "7 s", "It is 7 sec long", "seven seconds"])
def test_duration_forms(form):
    assert said(form).matches_duration("0:07") and said(form).duration() == dt.timedelta(seconds=7)


@pytest.mark.parametrize("form", ["1:05", "1 min 5 s", "1 minute and 5 seconds", "65 seconds", "0:01:05"])
def test_durations_add_up(form):
    assert said(form).matches_duration(65)


@pytest.mark.parametrize("miss", ["0:08", "0:06", "7 minutes", "0:07 or 0:08", "7:00"])
def test_duration_near_misses(miss):
    assert not said(miss).matches_duration("0:07")


@given(st.integers(0, 20 * 3600))
def test_a_duration_as_the_apps_print_it_reads_back_and_the_next_second_does_not(seconds):
    hours, rest = divmod(seconds, 3600)
    shown = f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"
    assert said(shown).matches_duration(shown) and said(f"{seconds} seconds").matches_duration(shown)
    assert not said(shown).matches_duration(seconds + 1)


# -- dates and times -------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["March 5, 2026", "5 March 2026", "Thursday, March 5", "05.03.2026", "3/5/2026",
                                  "2026-03-05", "Mar 5th", "the 5th of March", "It is on Thu, Mar 5 at 10:00."])
def test_date_forms(form):
    assert said(form).matches_date("2026-03-05")


@pytest.mark.parametrize("miss", ["March 6, 2026", "March 4", "Friday, March 5", "05.03.2025", "5/3/2026",
                                  "March 5 or March 6", "in March"])
def test_date_near_misses(miss):
    assert not said(miss).matches_date("2026-03-05")


@given(st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 30)))
def test_a_date_in_every_format_reads_back_and_the_next_day_does_not(day):
    forms = [f"{MONTHS[day.month - 1]} {day.day}, {day.year}", day.strftime("%d.%m.%Y"),
             f"{day.month}/{day.day}/{day.year}", day.isoformat(), f"{day.day} {MONTHS[day.month - 1][:3]} {day.year}",
             f"{day.strftime('%A')}, {MONTHS[day.month - 1]} {day.day} {day.year}"]
    for form in forms:
        assert said(form).matches_date(day), form
        assert not said(form).matches_date(day + dt.timedelta(days=1)), form


@pytest.mark.parametrize("form, time", [
    ("8:26 AM", "08:26"), ("08:26", "08:26"), ("8.26am", "08:26"), ("at 8:26 a.m.", "08:26"), ("10 pm", "22:00"),
    ("22:00", "22:00"), ("noon", "12:00"), ("12:30 AM", "00:30"), ("12 PM", "12:00"),
])
def test_time_forms(form, time):
    assert said(form).matches_time(time)


@pytest.mark.parametrize("miss", ["8:27 AM", "8:26 PM", "20:26", "8:26 or 8:43"])
def test_time_near_misses(miss):
    assert not said(miss).matches_time("08:26")


@given(st.times().map(lambda t: t.replace(second=0, microsecond=0)))
def test_a_time_on_either_clock_reads_back_and_the_next_minute_does_not(time):
    later = (dt.datetime.combine(dt.date(2024, 1, 1), time) + dt.timedelta(minutes=1)).time()
    for form in (time.strftime("%H:%M"), time.strftime("%I:%M %p").lstrip("0")):
        assert said(form).matches_time(time) and not said(form).matches_time(later), form


# -- phone numbers, names, lists, yes/no ---------------------------------------------------------


@pytest.mark.parametrize("form", ["123456789", "123 456 789", "123-456-789", "(123) 456-789",
                                  "Yuzai's number is 123 456 789."])
def test_phone_forms(form):
    assert said(form).matches_phone("123456789")


@pytest.mark.parametrize("miss", ["987654321", "12345678", "1234567890", "123456789 or 987654321"])
def test_phone_near_misses(miss):
    assert not said(miss).matches_phone("123456789")


@pytest.mark.parametrize("form", ["Abbey Road", "abbey  road", "The album is 'Abbey Road'.", "**Abbey Road**",
                                  "Answer: Abbey Road", "The album of This Is It is Abbey Road."])
def test_matches(form):
    assert said(form).matches("Abbey Road")


@pytest.mark.parametrize("miss", ["Abbey Road 2", "Let It Be", "Abbey", "Abbey Road or Let It Be"])
def test_matches_near_misses(miss):
    assert not said(miss).matches("Abbey Road")


def test_mentions_names_one_value_and_none_of_the_others():
    assert said("The song is on the album Grid.").mentions("Grid", excluding=["Dusk"])
    assert not said("Grid or Dusk").mentions("Grid", excluding=["Dusk"])
    assert not said("Gridlock").mentions("Grid")


@pytest.mark.parametrize("form", ["Milk, eggs and bread", "1. milk\n2. eggs\n3. bread", "- Milk\n- Eggs\n- Bread",
                                  "The items are: milk; eggs; bread.", "milk, eggs, and bread"])
def test_list_forms(form):
    assert said(form).matches_list(["milk", "eggs", "bread"])


def test_lists_with_and_without_order():
    assert said("bread, milk, eggs").matches_list(["milk", "eggs", "bread"], ordered=False)
    assert not said("bread, milk, eggs").matches_list(["milk", "eggs", "bread"])
    assert not said("milk, eggs").matches_list(["milk", "eggs", "bread"], ordered=False)
    assert not said("milk, eggs, bread, jam").matches_list(["milk", "eggs", "bread"], ordered=False)
    assert said("The apps are Calculator, Camera and Chrome").items() == ["calculator", "camera", "chrome"]


@pytest.mark.parametrize("text, yes, no", [
    ("Yes", True, False), ("yes, it is", True, False), ("The answer is yes.", True, False),
    ("No", False, True), ("nope, it isn't", False, True), ("yes and no", False, False), ("maybe", False, False),
    ("Yes, it isn't", False, False), (None, False, False),
])
def test_yes_no(text, yes, no):
    assert (said(text).is_yes(), said(text).is_no()) == (yes, no)


def test_an_llm_judged_answer_needs_the_judge_declared():
    with pytest.raises(TaskDefinitionError, match="llm_judge=True"):
        said("eight").judged_by_llm(expected="8")
    assert said(None).judged_by_llm(expected="8") is False  # no answer yet: no question to ask


@given(st.lists(st.from_regex(r"[A-Za-z][a-z]{1,8}( [A-Za-z][a-z]{1,8})?", fullmatch=True)
                .filter(lambda item: "and" not in item.lower().split()), min_size=1, max_size=6, unique_by=str.lower))
def test_a_list_written_any_usual_way_reads_back_and_one_item_less_does_not(items):
    forms = [", ".join(items), "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1)),
             "\n".join(f"- {item}" for item in items), "; ".join(items) + ".",
             ", ".join(items[:-1]) + (f" and {items[-1]}" if len(items) > 1 else items[-1])]
    for form in forms:
        assert said(form).matches_list(items), form
        assert said(form).matches_list(list(reversed(items)), ordered=False), form
        assert not said(form).matches_list(items[:-1] or ["nothing"]), form

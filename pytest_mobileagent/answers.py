"""Normalised reading of a free-text answer: numbers with units, dates, times, names, lists, yes/no.

An agent answers a query task in its own words ("3 MB", "3.0 megabytes", "The file is 3 MB."),
and a judge should accept every way of saying the right thing and reject every near miss (another
contact's number, an off-by-one count, a date a day off). These functions turn the text into values
once, so the comparisons in :class:`~pytest_mobileagent.judge.Answer` are plain equality.

What the phone shows decides what counts as its format:

- sizes are Simple-Commons' ``Long.formatSize()`` (``DecimalFormat("#,##0.#")`` over 1024-based
  units labelled ``B, kB, MB, GB, TB``: commons/extensions/Long.kt), so "MB" here is 1024² bytes
  and "MiB" is the same;
- durations are commons' ``Int.getFormattedDuration()`` (``mm:ss``, ``h:mm:ss`` from an hour on);
- dates are the phone's en-US locale (``M/d/yy`` for slashes, month names in English) and commons'
  default ``DATE_FORMAT_ONE`` ``dd.MM.yyyy`` for dots (commons/helpers/Constants.kt), plus ISO
  ``yyyy-MM-dd``; times are 12-hour with AM/PM or 24-hour ``HH:mm``.

Nothing here guesses: an answer that states two different values of what is asked (two numbers,
two dates) has no value, so "3 or 4" is neither 3 nor 4.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Iterable, Sequence

__all__ = [
    "UNITS",
    "dates",
    "durations",
    "fold",
    "framings",
    "list_items",
    "numbers",
    "phone_digits",
    "quantities",
    "times",
    "yes_no",
]

class _Lazy:
    """A regular expression compiled when first used: the plugin imports this module in every pytest run
    (``--version`` too), and compiling its patterns up front cost about 5 ms there."""

    __slots__ = ("_pattern", "_flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0):
        self._pattern, self._flags, self._compiled = pattern, flags, None

    def __getattr__(self, name: str):  # finditer, sub, split...: the compiled pattern's
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return getattr(self._compiled, name)


#: Unit aliases (folded) -> (dimension, factor to the dimension's base unit: bytes or seconds).
UNITS: dict[str, tuple[str, Decimal]] = {}
for _names, _dimension, _factor in (
    (("b", "byte", "bytes"), "bytes", 1),
    (("kb", "kib", "k", "kilobyte", "kilobytes", "kibibyte", "kibibytes"), "bytes", 1024),
    (("mb", "mib", "meg", "megs", "megabyte", "megabytes", "mebibyte", "mebibytes"), "bytes", 1024 ** 2),
    (("gb", "gib", "gig", "gigs", "gigabyte", "gigabytes", "gibibyte", "gibibytes"), "bytes", 1024 ** 3),
    (("tb", "tib", "terabyte", "terabytes"), "bytes", 1024 ** 4),
    (("ms", "msec", "millisecond", "milliseconds"), "seconds", Decimal("0.001")),
    (("s", "sec", "secs", "second", "seconds"), "seconds", 1),
    (("m", "min", "mins", "minute", "minutes"), "seconds", 60),
    (("h", "hr", "hrs", "hour", "hours"), "seconds", 3600),
):
    for _name in _names:
        UNITS[_name] = (_dimension, Decimal(_factor))

_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}
_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
               "hundred": 100, "a dozen": 12})
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_DIGITS_WORDS = "one two three four five six seven eight nine".split()
# A number written in digits: grouping commas only in threes ("3,145,728"), an optional fraction.
_NUMERAL = r"[-\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_WORD_NUMBER = (r"(?:(?:" + "|".join(_TENS) + r")[- ](?:" + "|".join(_DIGITS_WORDS) + r")|"
                + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")")
_NUMBER = _Lazy(rf"(?<![\w.:/]){_NUMERAL}(?![\w:/]|\.\d)|\b{_WORD_NUMBER}\b", re.IGNORECASE)
_UNIT_NAMES = "|".join(sorted(map(re.escape, UNITS), key=len, reverse=True))
_QUANTITY = _Lazy(rf"(?<![\w.:/])({_NUMERAL}|{_WORD_NUMBER})\s*({_UNIT_NAMES})\b", re.IGNORECASE)
# mm:ss or h:mm:ss (commons getFormattedDuration), not a time of day with am/pm after it.
_CLOCK_DURATION = _Lazy(r"(?<![\w:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\w:]|\s*[ap]\.?m\b)", re.IGNORECASE)


def fold(text: str) -> str:
    """Case, width, accents' composition and whitespace folded; quotes and a final stop dropped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[\"'\u2018\u2019\u201c\u201d`*_]", "", text)  # quotes and markdown emphasis
    text = " ".join(text.split())
    return text.rstrip(" .!;")


#: Phrases that introduce the value in an answer: "The album is X", "Answer: X", "It's X".
_FRAMING = _Lazy(r"(?:^|\s)(?:is|are|was|were|its|it's|reads|says|shows|called|named|equals|=)\s+|:\s*",
                      re.IGNORECASE)


def framings(text: str, *, folded: bool = True) -> list[str]:
    """The answer, and what follows each phrase that may introduce its value (longest first).

    "The album of This Is It is Abbey Road." -> ["the album of this is it is abbey road",
    "it is abbey road", "abbey road"], so a name equal to one of them is what the answer states.
    ``folded=False`` keeps the parts as written (line breaks too, for lists).
    """
    text = unicodedata.normalize("NFKC", text).strip()
    parts = [text] + [text[match.end():].strip() for match in _FRAMING.finditer(text)]
    out: list[str] = []
    for part in parts:
        part = fold(part) if folded else part
        if part and part not in out:
            out.append(part)
    return out


def _decimal(token: str) -> Decimal | None:
    token = token.strip().casefold().replace("\u2212", "-")
    if token in _WORDS:
        return Decimal(_WORDS[token])
    parts = re.split(r"[- ]", token)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _DIGITS_WORDS:
        return Decimal(_WORDS[parts[0]] + _DIGITS_WORDS.index(parts[1]) + 1)
    try:
        return Decimal(token.replace(",", ""))
    except InvalidOperation:
        return None


def numbers(text: str) -> list[Decimal]:
    """Every number the text states, in digits or (up to ninety-nine) in words, in order.

    Digits inside a word, a date or a clock time ("A4", "5.3.2026", "10:30") are not numbers of their own.
    """
    out = []
    for match in _NUMBER.finditer(unicodedata.normalize("NFKC", text)):
        value = _decimal(match.group())
        if value is not None:
            out.append(value)
    return out


def quantities(text: str) -> list[tuple[Decimal, str, str]]:
    """(value in the base unit, dimension, the unit as written) for every "<number> <unit>" in the text.

    "3 MB" -> (3145728, "bytes", "MB"); "1 min 5 s" -> two quantities; "2:05" is a duration, see
    :func:`durations`.
    """
    out = []
    for match in _QUANTITY.finditer(unicodedata.normalize("NFKC", text)):
        value = _decimal(match.group(1))
        dimension, factor = UNITS[match.group(2).casefold()]
        if value is not None:
            out.append((value * factor, dimension, match.group(2)))
    return out


def durations(text: str) -> list[Decimal]:
    """Every length of time the text states, in seconds: "0:07", "1:02:03", "7 seconds", "1 min 5 s".

    Adjacent quantities ("1 minute and 5 seconds", "1 min, 5 s") add up to one duration.
    """
    text = unicodedata.normalize("NFKC", text)
    out: list[Decimal] = []
    for match in _CLOCK_DURATION.finditer(text):
        a, b, c = match.groups()
        out.append(Decimal(int(a) * 3600 + int(b) * 60 + int(c)) if c else Decimal(int(a) * 60 + int(b)))
    text = _CLOCK_DURATION.sub(" ", text)
    total: Decimal | None = None
    last_end = 0
    for match in _QUANTITY.finditer(text):
        dimension, factor = UNITS[match.group(2).casefold()]
        value = _decimal(match.group(1))
        if dimension != "seconds" or value is None:
            continue
        joined = total is not None and re.fullmatch(r"\s*(?:,|and|,\s*and)?\s*", text[last_end:match.start()],
                                                     re.IGNORECASE)
        if total is not None and not joined:
            out.append(total)
            total = None
        total = (total or Decimal(0)) + value * factor
        last_end = match.end()
    if total is not None:
        out.append(total)
    return out


def phone_digits(text: str) -> list[str]:
    """The phone numbers in the text as their digits (a leading + kept): "+1 (555) 010-2030" -> "+15550102030".

    A run of digits with the separators people and Android's formatter write (spaces, dashes,
    dots, brackets) counts as one number when it has at least three digits.
    """
    out = []
    for match in re.finditer(r"\+?\(?\d[\d\s().\-]*\d", unicodedata.normalize("NFKC", text)):
        token = match.group().strip()
        digits = re.sub(r"\D", "", token)
        if len(digits) >= 3:
            out.append(("+" if token.startswith("+") else "") + digits)
    return out


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH = r"(?P<month>" + "|".join(m[:3] + f"(?:{m[3:]})?" for m in MONTHS) + r")\.?"
_WEEKDAY = _Lazy(r"\b(" + "|".join(d[:3] + f"(?:{d[3:]})?" for d in WEEKDAYS) + r")\b\.?", re.IGNORECASE)
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s*(?P<year>\d{4}))?"
_DATE_FORMS = [
    # "March 5, 2026", "Mar 5 2026", "March 5th"
    _Lazy(rf"\b{_MONTH}\s+{_DAY}\b{_YEAR}", re.IGNORECASE),
    # "5 March 2026", "5th of March"
    _Lazy(rf"\b{_DAY}(?:\s+of)?\s+{_MONTH}\b{_YEAR}", re.IGNORECASE),
    # ISO 8601 "2026-03-05"
    _Lazy(r"\b(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})\b"),
    # commons' default DATE_FORMAT_ONE "dd.MM.yyyy"
    _Lazy(r"(?<![\d.])(?P<day>\d{1,2})\.(?P<month>\d{1,2})\.(?P<year>\d{4}|\d{2})(?![\d.])"),
    # en-US DateFormat.SHORT "M/d/yy", and "M/d/yyyy"
    _Lazy(r"(?<![\d/])(?P<month>\d{1,2})/(?P<day>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?(?![\d/])"),
]


def dates(text: str, default_year: int) -> list[dt.date]:
    """Every calendar date the text states (a year left out is ``default_year``).

    A weekday named beside a date must be that date's weekday: "Friday, March 5, 2026" (a Thursday) is
    no date at all, since the answer contradicts itself.
    """
    text = unicodedata.normalize("NFKC", text)
    found: list[tuple[int, dt.date]] = []
    taken: list[tuple[int, int]] = []
    for form in _DATE_FORMS:
        for match in form.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            month_text = match.group("month")
            month = int(month_text) if month_text.isdigit() else \
                next(i for i, m in enumerate(MONTHS, 1) if m.startswith(month_text.casefold()[:3]))
            year_text = match.group("year")
            year = default_year if not year_text else int(year_text) + (2000 if len(year_text) == 2 else 0)
            try:
                day = dt.date(year, month, int(match.group("day")))
            except ValueError:
                continue
            taken.append((match.start(), match.end()))
            found.append((match.start(), day))
    found.sort()
    days = [day for _, day in found]
    named = {WEEKDAYS.index(next(d for d in WEEKDAYS if d.startswith(m.group(1).casefold()[:3])))
             for m in _WEEKDAY.finditer(text)}
    if named and days and any(day.weekday() not in named for day in days):
        return []
    return days


_TIME = _Lazy(
    r"(?<![\d:.])(?P<hour>\d{1,2})(?:[:.](?P<minute>\d{2}))?(?::\d{2})?\s*"
    r"(?P<half>[ap])\.?\s?m\b\.?|(?<![\d:.])(?P<hour24>\d{1,2}):(?P<minute24>\d{2})(?![\d:])"
    r"|\b(?P<named>noon|midday|midnight)\b",
    re.IGNORECASE)


def times(text: str) -> list[dt.time]:
    """Every time of day the text states: "10:30 AM", "10.30am", "10 pm", "22:30", "noon".

    A bare "10:30" is 10:30 in the morning, as a 24-hour clock reads it.
    """
    out = []
    for match in _TIME.finditer(unicodedata.normalize("NFKC", text)):
        if match.group("named"):
            out.append(dt.time(0 if match.group("named").casefold() == "midnight" else 12, 0))
            continue
        if match.group("half"):
            hour, minute = int(match.group("hour")), int(match.group("minute") or 0)
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if match.group("half").casefold() == "p" else 0)
        else:
            hour, minute = int(match.group("hour24")), int(match.group("minute24"))
        if hour < 24 and minute < 60:
            out.append(dt.time(hour, minute))
    return out


_LIST_SPLIT = _Lazy(r"\s*(?:[,;\n\u2022]|\band\b|&)\s*", re.IGNORECASE)
_BULLET = _Lazy(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")


def list_items(text: str) -> list[str]:
    """The items of a listed answer, folded: "Milk, eggs and bread." -> ["milk", "eggs", "bread"].

    Items are split at commas, semicolons, line breaks, bullets and "and"; numbering ("1. ", "2) ") and
    list bullets are dropped.
    """
    lines = [_BULLET.sub("", line) for line in unicodedata.normalize("NFKC", text).splitlines()]
    return [item for item in (fold(part) for part in _LIST_SPLIT.split("\n".join(lines))) if item]


_YES = {"yes", "y", "yeah", "yep", "yup", "true", "correct", "affirmative", "sure", "indeed", "right"}
_NO = {"no", "n", "nope", "nah", "false", "incorrect", "negative", "not", "none", "never"}
#: negations written without their apostrophe ("isnt")
_NEGATIONS = {"isnt", "arent", "wasnt", "werent", "dont", "doesnt", "didnt", "cant", "cannot", "wont", "hasnt",
              "havent"}


def yes_no(text: str) -> bool | None:
    """True for a yes ("Yes.", "yes, it is"), False for a no ("No", "nope, it isn't"), None otherwise.

    The first word decides, and a later word of the other kind makes it None ("yes and no").
    """
    words = re.findall(r"[a-z']+", unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'"))
    if not words:
        return None
    first = words[0]
    verdict = True if first in _YES else False if first in _NO else None
    if verdict is None:
        return None
    contrary = _NO if verdict else _YES
    if any(word in contrary or (verdict and (word.endswith("n't") or word in _NEGATIONS)) for word in words[1:]):
        return None
    return verdict


def distinct(values: Iterable) -> list:
    """The values in order, each once."""
    out: list = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def same_items(given: Sequence[str], expected: Sequence[str], ordered: bool) -> bool:
    """Two folded lists hold the same items (in the same order when ``ordered``)."""
    if ordered:
        return list(given) == list(expected)
    return sorted(given) == sorted(expected)

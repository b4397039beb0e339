"""Live judging: the objects a task body asserts on.

The episode engine re-runs the task body against these objects after every
action: :class:`Screen` holds the current view hierarchy (parsed once per
step), :class:`Events` the app events since the episode started,
:class:`Progress` the milestones latched so far and :class:`Answer` the agent's
final answer. Resource-ids may be written short (``task_title``): they are
resolved against the task's app package.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import re
from decimal import ROUND_HALF_EVEN, Decimal
from xml.parsers import expat
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import answers
from .app_ids import known_ids, nearest
from .errors import TaskDefinitionError

__all__ = ["Answer", "Events", "LLMQuestion", "LLMVerdictNeeded", "Lookups", "Node", "Progress", "Screen",
           "parse_hierarchy"]

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(frozen=True, slots=True)
class Node:
    """One view of a ``uiautomator dump`` hierarchy."""

    id: str  # full resource-id ("com.x:id/save"), "" when the view has none
    text: str
    desc: str
    cls: str
    package: str
    bounds: tuple[int, int, int, int]
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    long_clickable: bool = False
    enabled: bool = True
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    depth: int = 0

    @property
    def short_id(self) -> str:
        return self.id.rpartition(":id/")[2] if ":id/" in self.id else self.id

    @property
    def center(self) -> tuple[int, int]:
        x1, y1, x2, y2 = self.bounds
        return ((x1 + x2) // 2, (y1 + y2) // 2)

    def __repr__(self) -> str:
        label = self.short_id or self.cls.rpartition(".")[2]
        return f"<Node {label} text={self.text!r}>"


#: The attributes of a ``uiautomator dump`` node, in the order the dumper writes them.
_DUMP_ORDER = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
               "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
               "selected", "bounds"]
#: Nodes made lately, by their attribute values and depth: most views of a
#: screen are unchanged from the step before, and a Node is immutable. Two
#: generations of at most _RECENT_MAX nodes each (a few screens): a node found
#: in the older one moves to the newer, and when the newer is full the older
#: is dropped. The one cache of 5,000 nodes this replaces kept every distinct
#: view seen until it was full, about 1.4 KB each: over the first 300 episodes
#: of the built-in tasks it held 3,800 nodes, 17 of the 20 KB a worker kept per
#: episode (tracemalloc), then dropped them all at once.
_RECENT: dict[tuple, Node] = {}
_OLDER: dict[tuple, Node] = {}
_RECENT_MAX = 500


def _node(values: list[str] | tuple[str, ...], depth: int) -> Node:
    """A Node from attribute values in ``_DUMP_ORDER``."""
    global _RECENT, _OLDER
    key = (*values, depth)
    node = _RECENT.get(key)
    if node is not None:
        return node
    node = _OLDER.get(key)
    if node is None:
        (_, text, rid, cls, package, desc, checkable, checked, clickable, enabled, _, focused, scrollable,
         long_clickable, _, selected, bounds) = values
        match = _BOUNDS.fullmatch(bounds)
        if match is None and bounds:  # every dumper writes [x1,y1][x2,y2]: anything else is no hierarchy
            raise ValueError(f"a view ({rid or cls or 'no id'}) has bounds {bounds[:40]!r}, not [x1,y1][x2,y2]")
        node = Node(rid, text, desc, cls, package,
                    (int(match[1]), int(match[2]), int(match[3]), int(match[4])) if match else (0, 0, 0, 0),
                    checkable == "true", checked == "true", clickable == "true", long_clickable == "true",
                    enabled == "true", focused == "true", scrollable == "true", selected == "true", depth)
    if len(_RECENT) >= _RECENT_MAX:
        _OLDER, _RECENT = _RECENT, {}
    _RECENT[key] = node
    return node


def parse_hierarchy(xml: str | bytes) -> list[Node]:
    """The views of a ``uiautomator dump`` XML string, in document order.

    Raises ValueError when the text is not a view hierarchy.
    """
    # Nodes are made as expat reports each start tag: no element tree is
    # built and walked (it cost half of a step's parse). Namespaces are
    # resolved as ElementTree does, so only an unqualified <node> counts.
    nodes: list[Node] = []
    append = nodes.append
    # Per open element: whether it and all its ancestors below the root are
    # <node>s (a view nested in something else is not one).
    inside: list[bool] = []
    root: list[str] = []

    def start(tag: str, attributes: list[str]) -> None:  # [name, value, name, value, ...]
        if not inside:
            root.append(tag)
            inside.append(True)
            return
        is_view = inside[-1] and tag == "node"
        inside.append(is_view)
        if not is_view:
            return
        if attributes[::2] == _DUMP_ORDER:  # as every dumper writes them
            append(_node(attributes[1::2], len(inside) - 2))
            return
        a = dict(zip(attributes[::2], attributes[1::2]))
        values = tuple(a.get(name, "") for name in _DUMP_ORDER)
        if "enabled" not in a:
            values = (*values[:9], "true", *values[10:])  # a node that does not say is enabled
        append(_node(values, len(inside) - 2))

    def end(tag: str) -> None:
        inside.pop()

    parser = expat.ParserCreate(namespace_separator="}")
    parser.ordered_attributes = True
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(xml.strip().encode("utf-8") if isinstance(xml, str) else xml, True)
    except expat.ExpatError as exc:
        raise ValueError(f"the view hierarchy is not XML: {exc}") from None
    tag = root[0] if root else ""
    if tag != "hierarchy":
        tag = "{" + tag if "}" in tag else tag  # ElementTree's spelling of a qualified name
        raise ValueError(f"the view hierarchy's root is <{tag}>, not <hierarchy>")
    return nodes


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def full_id(resource_id: str, package: str) -> str:
    """``save`` -> ``<package>:id/save``; ids with a package stay as they are."""
    if ":" in resource_id or not package:
        return resource_id
    return f"{package}:id/{resource_id}"


class Lookups:
    """What a judge looked for, and what the episode showed: a judge's typo says what it is.

    A query for an id the app does not have finds nothing, as a query for a view
    the agent never brought up does; only the first is the task author's
    mistake. :meth:`hints` tells them apart for a judge that failed: an id of the
    task's app that is none of the ids its release declares (:mod:`.app_ids`)
    and that no screen of the episode showed, or (for ids of other apps, texts
    and descriptions, which no list holds) a value no screen showed that is
    close to one a screen did show.
    """

    #: How alike a value and one the screens showed must be to count as a near miss (difflib's ratio).
    NEAR_MISS = 0.8
    MAX_HINTS = 3

    def __init__(self, package: str = ""):
        self.package = package
        self.asked: dict[tuple[str, str], str] = {}  # (selector, value) -> who was asked: "screen" or "events"
        # The screens' views, read only when a judge failed: a step pays for one append.
        self._screens: list[list[Node]] = []

    def ask(self, where: str, selector: str, value: str) -> None:
        self.asked.setdefault((selector, value), where)

    def show(self, nodes: list[Node]) -> None:
        if not self._screens or self._screens[-1] is not nodes:
            self._screens.append(nodes)

    def shown(self) -> dict[str, set[str]]:
        """The ids, texts and descriptions the screens showed."""
        views = {node for nodes in self._screens for node in nodes}
        return {"id": {n.id for n in views}, "text": {n.text for n in views}, "desc": {n.desc for n in views}}

    def hints(self) -> list[str]:
        """One sentence per value the judge asked for that looks like a mistake (at most MAX_HINTS)."""
        out = []
        everything = self.shown()
        for (selector, value), where in self.asked.items():
            shown = everything[selector]
            if value in shown:
                continue
            if selector == "id":
                package, sep, short = value.rpartition(":id/")
                known = known_ids(package)
                if known:  # the app's own list decides: an id it has is only absent from these screens
                    if short not in known:
                        near = nearest(short, known)
                        out.append(f"the judge asked the {where} for id {short!r}, which {package} never shows "
                                   f"(its release declares no such id)"
                                   + (f"; the nearest real id: {near!r}" if near else ""))
                    continue
                if sep:  # near misses among the shown ids of the same package
                    value, shown = short, {i[len(package) + 4:] for i in shown if i.startswith(package + ":id/")}
            close = nearest(value, shown, self.NEAR_MISS)
            if close is not None:
                out.append(f"the judge asked the {where} for {selector} {value!r}, which no screen of this "
                           f"episode showed; the nearest shown: {close!r}")
        return out[:self.MAX_HINTS]


class Screen:
    """The current screen of the device, as the task body sees it.

    Query methods take the same selectors: ``id`` (short or full resource-id),
    ``text`` (exact), ``text_contains``, ``desc`` and ``cls`` (full or simple
    class name); all given selectors must match.
    """

    def __init__(self, package: str = "", current_app: Callable[[], tuple[str, str]] | None = None,
                 lookups: Lookups | None = None):
        self.app_package = package
        self.xml = ""
        self._nodes: list[Node] = []
        self._current_app = current_app
        self._current: tuple[str, str] | None = None
        self.lookups = lookups if lookups is not None else Lookups(package)

    def update(self, xml: str, nodes: list[Node] | None = None) -> None:
        """Replace the hierarchy (called by the harness once per observation)."""
        self.xml = xml
        self._nodes = parse_hierarchy(xml) if nodes is None else nodes
        self._current = None
        self.lookups.show(self._nodes)

    # -- foreground app ---------------------------------------------------
    def _foreground(self) -> tuple[str, str]:
        # Asked lazily: most judges never look at the activity, and it costs a shell call.
        if self._current is None:
            if self._current_app is not None:
                self._current = self._current_app()
            else:
                self._current = (self._nodes[0].package if self._nodes else "", "")
        return self._current

    @property
    def package(self) -> str:
        """The package in the foreground."""
        return self._foreground()[0]

    @property
    def activity(self) -> str:
        """The foreground activity's class name (``com.x.activities.AboutActivity``)."""
        return self._foreground()[1]

    # -- queries ------------------------------------------------------------
    @property
    def nodes(self) -> list[Node]:
        return list(self._nodes)

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        """The bounds of the root view (the screen, or the top window)."""
        return self._nodes[0].bounds if self._nodes else (0, 0, 0, 0)

    def find(
        self,
        *,
        id: str | None = None,
        text: str | None = None,
        text_contains: str | None = None,
        desc: str | None = None,
        cls: str | None = None,
        within: Node | None = None,
    ) -> list[Node]:
        """Every view matching all the given selectors, in document order.

        ``within`` keeps the views drawn inside that view's bounds (its descendants, in effect).
        """
        wanted_id = full_id(id, self.app_package) if id is not None else None
        self._note(wanted_id, text, desc)
        matches = []
        for node in self._nodes:
            if within is not None and (node is within or not _inside(node.bounds, within.bounds)):
                continue
            if wanted_id is not None and node.id != wanted_id:
                continue
            if text is not None and node.text != text:
                continue
            if text_contains is not None and text_contains not in node.text:
                continue
            if desc is not None and node.desc != desc:
                continue
            if cls is not None and node.cls != cls and node.cls.rpartition(".")[2] != cls:
                continue
            matches.append(node)
        return matches

    def _note(self, wanted_id: str | None, text: str | None, desc: str | None) -> None:
        for selector, value in (("id", wanted_id), ("text", text), ("desc", desc)):
            if value is not None:
                self.lookups.ask("screen", selector, value)

    def get(self, **selectors: Any) -> Node | None:
        """The first view matching the selectors, or None."""
        found = self.find(**selectors)
        return found[0] if found else None

    def exists(self, **selectors: Any) -> bool:
        return bool(self.find(**selectors))

    def count(self, **selectors: Any) -> int:
        return len(self.find(**selectors))

    def text(self, **selectors: Any) -> str | None:
        """Text of the first matching view, or None when there is none."""
        node = self.get(**selectors)
        return node.text if node is not None else None

    def texts(self, **selectors: Any) -> list[str]:
        """Texts of every matching view, top to bottom (list items in order)."""
        return [node.text for node in self.find(**selectors)]

    def checked(self, **selectors: Any) -> bool:
        """The first matching view is checked (False when there is none)."""
        node = self.get(**selectors)
        return node is not None and node.checked

    def selected(self, **selectors: Any) -> bool:
        node = self.get(**selectors)
        return node is not None and node.selected

    def in_order(self, *texts: str, **selectors: Any) -> bool:
        """The texts appear in this order among the matching views (others may sit between)."""
        remaining = iter(self.texts(**selectors))
        return all(any(t == seen for seen in remaining) for t in texts)

    def __repr__(self) -> str:
        return f"<Screen {len(self._nodes)} views>"


def _event_text_matches(event: Any, text: str) -> bool:
    items = [t.strip() for t in event.text]
    return text in items or " ".join(items) == text


class Progress:
    """Milestones of the episode: ``progress.reach(name, condition)`` latches once true.

    Each milestone remembers the step at which it was first reached and how
    many events had been seen then, so :class:`Events` can answer "clicked
    *after* the form was filled".
    """

    def __init__(self) -> None:
        self.step = 0  # set by the harness before each judge run
        self.events_seen = 0
        self.declared: list[str] = []
        self.reached_at: dict[str, int] = {}  # name -> step
        self._watermark: dict[str, int] = {}  # name -> number of events seen at the latch
        self.new: list[str] = []  # latched during the current judge run

    def reach(self, name: str, condition: Any) -> bool:
        """Latch ``name`` if ``condition`` holds; True if it is (now or before) reached."""
        if name not in self.declared:
            self.declared.append(name)
        if name in self.reached_at:
            return True
        if condition:
            self.reached_at[name] = self.step
            self._watermark[name] = self.events_seen
            self.new.append(name)
            return True
        return False

    def reached(self, name: str) -> bool:
        return name in self.reached_at

    @property
    def reached_in_order(self) -> list[str]:
        return sorted(self.reached_at, key=lambda n: (self.reached_at[n], self.declared.index(n)))

    def watermark(self, name: str) -> int | None:
        """Events seen when ``name`` latched; None when not reached yet."""
        if name not in self.declared:
            raise TaskDefinitionError(
                f"unknown milestone {name!r}: call progress.reach({name!r}, ...) before using since={name!r}"
            )
        return self._watermark.get(name)

    def __repr__(self) -> str:
        return f"<Progress reached={self.reached_in_order}>"


class Events:
    """The app events of the current episode (those caused by setup are left out).

    Filters default to events from the task's app; pass ``package=None`` for all.
    ``since="milestone"`` keeps the events after that milestone latched (none
    when it has not latched yet).
    """

    _APP = object()

    #: Most events one episode keeps: a flood (a buggy or hostile sender) must
    #: not grow the worker and the results file without bound. Real episodes
    #: see tens to hundreds.
    MAX_EVENTS = 10_000

    def __init__(self, package: str = "", progress: Progress | None = None, lookups: Lookups | None = None):
        self.app_package = package
        self.progress = progress or Progress()
        self.lookups = lookups if lookups is not None else Lookups(package)
        self._events: list[Any] = []
        # Arrival number of each kept event: milestones mark an arrival count, so
        # ``since=`` stays right when the cap drops events from the middle.
        self._arrivals: list[int] = []
        self._arrived = 0
        self.dropped = 0  # events beyond MAX_EVENTS, counted in the task's record

    def extend(self, events: Iterable[Any]) -> None:
        """Append newly drained events (called by the harness).

        Beyond :attr:`MAX_EVENTS` the app's own events are kept first: a flood
        from other packages (or from the same user through another app) cannot
        push out the events the judge reads. Foreign events make room for the
        app's, the oldest foreign ones kept; what does not fit (the newest
        surplus) is only counted, in :attr:`dropped`.
        """
        events = list(events)
        first = self._arrived
        self._arrived += len(events)
        if len(self._events) + len(events) <= self.MAX_EVENTS:
            self._events.extend(events)
            self._arrivals.extend(range(first, self._arrived))
        else:
            pairs = list(zip(self._arrivals, self._events)) + list(zip(range(first, self._arrived), events))
            own = [pair for pair in pairs if self._is_own(pair[1])][:self.MAX_EVENTS]
            room = self.MAX_EVENTS - len(own)
            foreign = [pair for pair in pairs if not self._is_own(pair[1])][:room]
            kept = sorted(own + foreign, key=lambda pair: pair[0])
            self.dropped += len(pairs) - len(kept)
            self._arrivals = [arrival for arrival, _ in kept]
            self._events = [event for _, event in kept]
        self.progress.events_seen = self._arrived

    def _is_own(self, event: Any) -> bool:
        return not self.app_package or getattr(event, "package", None) == self.app_package

    def clear(self) -> None:
        """Forget every event (the harness drops those caused by setup)."""
        self._events.clear()
        self._arrivals.clear()
        self._arrived = 0
        self.dropped = 0
        self.progress.events_seen = 0

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._events))

    def __len__(self) -> int:
        return len(self._events)

    def filter(
        self,
        type: str | Sequence[str] | None = None,
        *,
        id: str | None = None,
        text: str | None = None,
        desc: str | None = None,
        package: Any = _APP,
        since: str | None = None,
    ) -> list[Any]:
        """Events matching every given criterion, oldest first."""
        start = 0
        if since is not None:
            mark = self.progress.watermark(since)
            if mark is None:
                return []
            start = mark
        types = (type,) if isinstance(type, str) else tuple(type) if type is not None else None
        pkg = self.app_package if package is Events._APP else package
        wanted_id = full_id(id, pkg or self.app_package) if id is not None else None
        for selector, value in (("id", wanted_id), ("text", text), ("desc", desc)):
            if value is not None:
                self.lookups.ask("events", selector, value)
        out = []
        # The first kept event that arrived at or after the mark (the cap may have dropped some).
        first = bisect.bisect_left(self._arrivals, start) if start else 0
        for event in self._events[first:]:
            if types is not None and event.type not in types:
                continue
            if pkg and event.package != pkg:
                continue
            if wanted_id is not None and event.id != wanted_id:
                continue
            if text is not None and not _event_text_matches(event, text):
                continue
            if desc is not None and event.desc != desc:
                continue
            out.append(event)
        return out

    def clicks(self, **criteria: Any) -> list[Any]:
        return self.filter("click", **criteria)

    def clicked(self, **criteria: Any) -> bool:
        """A click on a matching view happened (``since=`` a milestone, optionally)."""
        return bool(self.clicks(**criteria))

    def long_clicked(self, **criteria: Any) -> bool:
        return bool(self.filter("long_click", **criteria))

    def last_click(self, **criteria: Any) -> Any | None:
        found = self.clicks(**criteria)
        return found[-1] if found else None

    def window_changes(self, **criteria: Any) -> list[Any]:
        return self.filter("window_state", **criteria)

    def __repr__(self) -> str:
        return f"<Events {len(self._events)} events>"


class LLMVerdictNeeded(Exception):
    """Raised by :meth:`Answer.judged_by_llm` for a question its judge has not decided yet.

    The harness asks the LLM judge outside the judge's clock (a model takes seconds, a task body
    milliseconds), keeps the verdict on the :class:`Answer` and runs the body again.
    """

    def __init__(self, question: "LLMQuestion"):
        super().__init__(f"the LLM judge has not decided {question}")
        self.question = question


@dataclass(frozen=True, slots=True)
class LLMQuestion:
    """What the LLM judge is asked: does ``answer`` say ``expected`` (under ``criteria``)?"""

    prompt: str
    answer: str
    expected: str
    criteria: str = ""


class Answer:
    """The agent's final answer (query tasks); ``text`` is None until it finishes with one.

    The comparisons read the answer as a person would (:mod:`pytest_mobileagent.answers`): case,
    whitespace, quotes and a framing phrase ("The album is ...") do not matter; numbers may carry
    units, dates and times may be written in any of the phone's formats. An answer that states two
    different values of what is asked has none: "3 or 4" is neither 3 nor 4.

    ``answer.number() == 3``, ``answer.matches_size("3 MB")``, ``answer.matches_date("2026-03-05")``,
    ``answer.matches_time("14:30")``, ``answer.matches_duration("0:07")``,
    ``answer.matches_phone("123456789")``, ``answer.matches("Abbey Road")``,
    ``answer.matches_list(["milk", "eggs"], ordered=False)``, ``answer.is_yes()``; free-form
    answers: ``answer.judged_by_llm(expected=..., criteria=...)`` (the task needs ``llm_judge=True``).
    """

    def __init__(self, prompt: str = "", year: int | None = None) -> None:
        self.text: str | None = None
        self.prompt = prompt
        #: the year of a date the answer gives without one, for :meth:`date` (:meth:`matches_date` takes
        #: the expected date's); the host's current year unless given
        self.year = year if year is not None else _dt.date.today().year
        #: the LLM judge's verdicts so far: question -> (verdict, reason); the harness fills it
        self.verdicts: dict[LLMQuestion, tuple[bool, str]] = {}
        #: whether an LLM judge is configured (``--llm-judge-url``); the harness sets it
        self.llm_judge_available = False

    @property
    def given(self) -> bool:
        return self.text is not None

    def contains(self, expected: str) -> bool:
        return self.text is not None and expected.casefold() in self.text.casefold()

    # -- numbers and quantities --------------------------------------------
    def numbers(self) -> list[float | int]:
        """Every number the answer states, in order ("64 x 48" -> [64, 48])."""
        return [_plain(v) for v in answers.numbers(self.text or "")]

    def number(self, unit: str | None = None) -> float | int | None:
        """The one number the answer states; with ``unit`` (``"MB"``, ``"seconds"``) the one quantity
        of that unit's kind, in that unit ("3,145,728 bytes" is 3 in ``"MB"``). None when the answer
        states none, or several different ones."""
        if self.text is None:
            return None
        if unit is None:
            values = answers.distinct(answers.numbers(self.text))
        else:
            dimension, factor = _unit(unit)
            values = answers.distinct(v / factor for v, d, _ in self._quantities() if d == dimension)
        return _plain(values[0]) if len(values) == 1 else None

    def _quantities(self) -> list:
        """The answer's quantities, none when it also states a number without a unit ("3 or 4 MB")."""
        found = answers.quantities(self.text or "")
        return found if len(answers.numbers(self.text or "")) == len(found) else []

    def count(self) -> int | None:
        """The one whole number the answer states ("three photos", "3"), else None."""
        value = self.number()
        return value if isinstance(value, int) else None

    def matches_size(self, expected: str | int) -> bool:
        """The answer states the size the phone shows as ``expected`` ("3 MB", or a byte count).

        Sizes are compared at the precision the apps print (commons ``formatSize``: one decimal of
        the expected's unit), so "3.0 MB", "3 megabytes" and "3,145,728 bytes" all say "3 MB",
        and "3.4 MB" or "3 kB" do not.
        """
        if isinstance(expected, int):
            value, unit, places = Decimal(expected), "B", 0
        else:
            found = answers.quantities(expected)
            if len(found) != 1 or found[0][1] != "bytes":
                raise TaskDefinitionError(f"matches_size({expected!r}): give a size such as '3 MB' or a byte count")
            value, unit = found[0][0], found[0][2]
            # As precise as the apps print (one decimal), or as the expected value is written.
            exponent = int(answers.numbers(expected)[0].as_tuple().exponent)
            places = max(1, -exponent)
            value = value / _unit(unit)[1]
        if self.text is None:
            return False
        factor = _unit(unit)[1]
        given = answers.distinct(v for v, d, _ in self._quantities() if d == "bytes")
        if len(given) != 1:
            return False
        step = Decimal(1).scaleb(-places)
        return (given[0] / factor).quantize(step, ROUND_HALF_EVEN) == Decimal(value).quantize(step, ROUND_HALF_EVEN)

    def duration(self) -> _dt.timedelta | None:
        """The one length of time the answer states ("0:07", "7 seconds", "1 min 5 s"), else None."""
        if self.text is None:
            return None
        found = answers.distinct(answers.durations(self.text))
        return _dt.timedelta(seconds=float(found[0])) if len(found) == 1 else None

    def matches_duration(self, expected: str | int | float | _dt.timedelta) -> bool:
        """The answer states ``expected`` ("0:07" as the apps print it, a timedelta, or seconds), to the second."""
        if isinstance(expected, _dt.timedelta):
            seconds = expected.total_seconds()
        elif isinstance(expected, (int, float)):
            seconds = float(expected)
        else:
            found = answers.durations(expected)
            if len(found) != 1:
                raise TaskDefinitionError(f"matches_duration({expected!r}): give a length such as '0:07'")
            seconds = float(found[0])
        given = self.duration()
        return given is not None and round(given.total_seconds()) == round(seconds)

    # -- dates and times -----------------------------------------------------
    def date(self, year: int | None = None) -> _dt.date | None:
        """The one calendar date the answer states (a year left out: ``year``, else :attr:`year`)."""
        if self.text is None:
            return None
        found = answers.distinct(answers.dates(self.text, year or self.year))
        return found[0] if len(found) == 1 else None

    def matches_date(self, expected: str | _dt.date) -> bool:
        """The answer states the date ``expected`` (a date, or ISO ``"2026-03-05"``); a year left out
        of the answer is the expected's."""
        day = _dt.date.fromisoformat(expected) if isinstance(expected, str) else expected
        return self.date(day.year) == day

    def time(self) -> _dt.time | None:
        """The one time of day the answer states ("2:30 PM", "14:30", "2.30pm"), else None."""
        if self.text is None:
            return None
        found = answers.distinct(answers.times(self.text))
        return found[0] if len(found) == 1 else None

    def matches_time(self, expected: str | _dt.time) -> bool:
        """The answer states the time ``expected`` (a time, or ``"14:30"``)."""
        wanted = _dt.time.fromisoformat(expected) if isinstance(expected, str) else expected
        return self.time() == wanted.replace(second=0, microsecond=0)

    # -- phone numbers, names, lists, yes/no --------------------------------
    def matches_phone(self, expected: str) -> bool:
        """The answer states one phone number, and it is ``expected`` however grouped ("123 456 789")."""
        if self.text is None:
            return False
        wanted = answers.phone_digits(expected)
        given = answers.distinct(answers.phone_digits(self.text))
        return len(wanted) == 1 and given == wanted

    def matches(self, expected: str) -> bool:
        """The answer is ``expected`` with case, whitespace, quotes and a framing phrase folded away:
        "Abbey Road", "abbey  road", "The album is 'Abbey Road'." all match "Abbey Road";
        "Abbey Road 2" does not."""
        return self.text is not None and answers.fold(expected) in answers.framings(self.text)

    def mentions(self, expected: str, *, excluding: Sequence[str] = ()) -> bool:
        """The answer names ``expected`` (a whole phrase, case and whitespace folded) and none of
        ``excluding`` (the other values it could have named): "The song is on the album Grid." mentions
        "Grid" excluding "Dusk"; "Grid or Dusk" does not."""
        if self.text is None:
            return False
        text = answers.fold(self.text)
        return _has_phrase(text, expected) and not any(_has_phrase(text, other) for other in excluding)

    def items(self) -> list[str]:
        """The items the answer lists, folded ("Milk, eggs and bread" -> ["milk", "eggs", "bread"]),
        after a framing phrase ("The apps are: ...")."""
        if self.text is None:
            return []
        return answers.list_items(answers.framings(self.text, folded=False)[-1])

    names = items

    def matches_list(self, expected: Sequence[str], *, ordered: bool = True) -> bool:
        """The answer lists exactly ``expected`` (in that order when ``ordered``), names folded."""
        if self.text is None:
            return False
        wanted = [answers.fold(item) for item in expected]
        return any(answers.same_items(answers.list_items(text), wanted, ordered)
                   for text in answers.framings(self.text, folded=False))

    def is_yes(self) -> bool:
        """The answer is a plain yes ("Yes", "yes, it is", "The answer is yes")."""
        return self._yes_no() is True

    def is_no(self) -> bool:
        """The answer is a plain no ("No", "nope", "No, it isn't")."""
        return self._yes_no() is False

    def _yes_no(self) -> bool | None:
        if self.text is None:
            return None
        verdicts = {answers.yes_no(text) for text in answers.framings(self.text, folded=False)} - {None}
        return verdicts.pop() if len(verdicts) == 1 else None

    # -- the LLM judge -----------------------------------------------------
    def judged_by_llm(self, expected: str, criteria: str = "") -> bool:
        """The LLM judge (``--llm-judge-url``) decides whether the answer says ``expected``.

        For free-form answers the comparisons above cannot read. The task must say it needs the
        judge (``@task(..., llm_judge=True)``): without an endpoint it is skipped. The verdict and
        its reason go into the task's record.
        """
        if self.text is None:
            return False
        if not self.llm_judge_available:
            raise TaskDefinitionError(
                "answer.judged_by_llm() needs an LLM judge: mark the task @task(..., llm_judge=True), "
                "so that it is skipped when no --llm-judge-url is given")
        question = LLMQuestion(self.prompt, self.text, expected, criteria)
        if question not in self.verdicts:
            raise LLMVerdictNeeded(question)
        return self.verdicts[question][0]

    def __repr__(self) -> str:
        return f"<Answer {self.text!r}>"


def _unit(unit: str) -> tuple[str, Decimal]:
    try:
        return answers.UNITS[unit.strip().casefold()]
    except KeyError:
        raise TaskDefinitionError(f"unknown unit {unit!r} (known: {', '.join(sorted(answers.UNITS))})") from None


def _has_phrase(folded_text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(answers.fold(phrase))}(?!\w)", folded_text) is not None


def _plain(value: Decimal) -> float | int:
    return int(value) if value == value.to_integral_value() else float(value)

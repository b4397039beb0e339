"""Toolkit additions made for Calendar and App Launcher, tested on their own.

- `AndroidSystem.clock_ms()`: the phone's "now" that apps read;
- horizontal swipes turn pages: the deepest view under the finger with an
  `on_swipe` attribute gets +1 (finger to the left: next page) or -1;
- the "forward" icon;
- the commons About screen opens FAQ and Contributors screens for every app.
"""

from __future__ import annotations

from PIL import ImageOps
from uitools import find, tap

from pytest_mobileagent.virtual_phone.apps.commons.commons_app import CommonsApp
from pytest_mobileagent.virtual_phone.framework.app import Activity
from pytest_mobileagent.virtual_phone.apps.system.launcher import Launcher
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock
from pytest_mobileagent.virtual_phone.framework.ui import render
from pytest_mobileagent.virtual_phone.framework.ui.views import MATCH, Column, FrameLayout, ScrollView, TextView, dp

NOW = 1_714_554_000_000


class _Pages(Activity):
    name = "com.example.pages.MainActivity"

    def on_create(self) -> None:
        self.page = 0

    def turn(self, step: int) -> None:
        self.page += step

    def build(self):
        pager = FrameLayout(TextView(f"page {self.page}", "page"), id="pager", height=dp(400))
        pager.on_swipe = self.turn
        rows = ScrollView(Column(*[TextView(f"row {i}", key=str(i), height=dp(80)) for i in range(40)]),
                          id="rows", height=MATCH)
        return Column(pager, Column(rows, weight=1, height=MATCH), height=MATCH)


class _PagesApp(CommonsApp):
    package = "com.example.pages"
    label = "Pages"
    activities = (_Pages,)
    faq = (("Is this a test?", "Yes."),)


def _system(events: list | None = None) -> AndroidSystem:
    sink = events.append if events is not None else None
    system = AndroidSystem(clock=PhoneClock(NOW), emit_event=sink, apps=[Launcher, _PagesApp])
    system.start_activity(_PagesApp.package)
    return system


def _page(system) -> str:
    return find(system.dump_xml(), id="page")["text"]


def test_clock_ms_is_the_phones_clock():
    assert _system().clock_ms() == NOW


def test_horizontal_swipes_turn_the_pager_and_vertical_ones_scroll():
    events: list[dict] = []
    system = _system(events)
    system.swipe(900, 500, 200, 500)
    assert _page(system) == "page 1"
    system.swipe(200, 500, 900, 520)
    system.swipe(200, 500, 900, 520)
    assert _page(system) == "page -1"
    assert [e["id"] for e in events if e["type"] == "scroll"] == ["com.example.pages:id/pager"] * 3
    # Outside any pager a horizontal swipe does nothing; a vertical one still scrolls the list.
    before = system.dump_xml()
    system.swipe(900, 1800, 200, 1800)
    assert system.dump_xml() == before
    system.swipe(540, 2000, 540, 1200)
    assert "row 0" not in system.dump_xml()


def test_forward_icon_points_the_other_way_from_back():
    def icon(name: str):
        return render.paint([("fill", (255, 255, 255)), ("icon", name, (0, 0, 120, 120), (0, 0, 0))], 120, 120)

    forward, back = icon("forward"), icon("back")
    assert forward.tobytes() != back.tobytes() and forward.tobytes() != icon("dot").tobytes()
    mirrored = ImageOps.mirror(forward).tobytes()
    same = sum(a == b for a, b in zip(mirrored, back.tobytes()))
    assert same > 0.97 * len(mirrored)


def test_about_opens_faq_with_the_apps_questions_and_contributors():
    events: list[dict] = []
    system = AndroidSystem(clock=PhoneClock(NOW), emit_event=events.append, apps=[Launcher, _PagesApp])
    system.start_activity(_PagesApp.package, "com.simplemobiletools.commons.activities.AboutActivity")
    tap(system, text="Frequently asked questions")
    assert system.focused_window()[1] == "com.simplemobiletools.commons.activities.FAQActivity"
    assert find(system.dump_xml(), text="Is this a test?")["resource-id"] == ""   # Compose: no ids
    system.key("BACK")
    tap(system, text="Contributors")
    assert system.focused_window()[1] == "com.simplemobiletools.commons.activities.ContributorsActivity"
    titles = [e["text"] for e in events if e["type"] == "window_state"]
    assert titles[-3:] == [["Frequently asked questions"], ["About"], ["Contributors"]]


class _CountingText(TextView):
    calls = 0

    def measure(self, *args, **kw):
        _CountingText.calls += 1
        return super().measure(*args, **kw)


def _nested_frames(depth: int):
    from pytest_mobileagent.virtual_phone.framework.ui.views import RelativeLayout

    rows = [RelativeLayout(_CountingText(f"row {i}"), padding=dp(4)) for i in range(5)]
    view = Column(*rows)
    for _ in range(depth):
        view = FrameLayout(view, padding=(0, dp(2)))
    return view


def test_nested_wrap_frames_measure_in_linear_time_with_the_same_layout(monkeypatch):
    from pytest_mobileagent.virtual_phone.framework.ui.views import FrameLayout as Frame

    def laid_out(root):
        root.measure(1000, 2000, exact_w=1000)
        root.place(0, 0, (0, 0, 1000, 2000))
        return [v.rect for v in root.walk()]

    _CountingText.calls = 0
    fast = laid_out(_nested_frames(10))
    fast_calls = _CountingText.calls
    # The same tree without the repeat check: every frame measures its children twice.
    monkeypatch.setattr(Frame, "_measured_for", property(lambda self: None, lambda self, value: None))
    _CountingText.calls = 0
    slow = laid_out(_nested_frames(10))
    assert fast == slow
    assert _CountingText.calls >= 2 ** 10 and fast_calls <= 5 * 2 * 12

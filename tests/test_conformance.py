"""The virtual phone against recordings of the real apps (see tests/conformance.py).

Each app's recorded sessions are replayed on a phone of their own through the
real adb server.  The share of recorded actions that lead to the recorded next
screen may not fall below the app's floor in ``floors.json``: the figures the
phone reached when the floor was last raised (``benchmarks/bench_conformance.py``
prints them).  A change that makes the phone more like the real apps raises a
figure; raise the floor with it, so that it cannot fall back unnoticed.  The
fidelity issue's target is 90% of all actions and 95% of those whose start
screen was reached.
"""

from __future__ import annotations

import json

import pytest
from conformance import APPS, FACTS, Rates, Replayer, class_differences, load_facts

# Each recorded app's sessions replay for half a minute or more.
pytestmark = pytest.mark.slow

FLOORS = json.loads((FACTS / "floors.json").read_text())


def test_every_app_has_facts_and_a_floor():
    assert sorted(FLOORS) == sorted(APPS)
    for app in APPS:
        facts = load_facts(app)
        assert facts["sessions"] and facts["screens"], app
        # Every step names screens that the facts describe (or none: the app was left).
        for session in facts["sessions"]:
            for step in session["steps"]:
                for key in (step["before"], step["after"]):
                    assert key is None or key in facts["screens"]


def test_jaccard_bar_separates_screens():
    from conformance import Screen, jaccard

    main = Screen("pkg/pkg.Main", {"a", "b", "c", "d", "e"})
    assert main.same_as(Screen("pkg/pkg.Main", {"a", "b", "c", "d"}))  # 4/5 = 0.8
    assert not main.same_as(Screen("pkg/pkg.Main", {"a", "b", "x", "y"}))  # 2/7
    assert not main.same_as(Screen("pkg/pkg.Other", set(main.ids)))
    assert jaccard(set(), set()) == 1.0


def test_class_differences_pass_only_with_the_cited_change():
    from conformance import CLASS_CHANGES

    recorded = {"track_frame": ["android.view.ViewGroup"], "track_title": ["android.widget.TextView"]}
    seen = {"track_frame": {"android.widget.LinearLayout"}, "track_title": {"android.widget.TextView"},
            "not_recorded": {"android.widget.Button"}}
    [(rid, name, _, reason)] = class_differences("musicplayer", seen, recorded)
    assert (rid, name, reason) == ("track_frame", "android.widget.LinearLayout",
                                   CLASS_CHANGES[("musicplayer", "track_frame")][1])
    # the same difference in another app, or another class than the change names, has no reason
    assert class_differences("notes", seen, recorded)[0][3] is None
    seen["track_frame"] = {"android.widget.FrameLayout"}
    assert class_differences("musicplayer", seen, recorded)[0][3] is None


#: Each app's replay, done once per test process and read by the tests below.
_REPLAYS: dict[str, tuple[Replayer, list]] = {}


@pytest.fixture
def replay(app, phone_factory, adb_server_port) -> tuple[Replayer, list]:
    """The app's recorded sessions replayed on a phone of its own: the replayer and its outcomes."""
    import adbutils

    if app not in _REPLAYS:
        running = phone_factory(1)[0]
        replayer = Replayer(adbutils.AdbClient(port=adb_server_port).device(running.serial), load_facts(app))
        _REPLAYS[app] = (replayer, replayer.run())
    return _REPLAYS[app]


@pytest.mark.parametrize("app", APPS)
def test_recorded_sessions_replay_at_or_above_the_floor(app, replay):
    rates = Rates()
    outcomes = replay[1]
    for outcome in outcomes:
        rates.add(outcome)
    floor = FLOORS[app]
    misses = [f"s{o.session}#{o.step} {o.action}: {o.detail}" for o in outcomes
              if not o.matched and o.start_reached and not o.expected_change and not o.outside]
    summary = (f"{app}: {rates.matched}/{rates.total} matched ({rates.match_rate:.1%}), "
               f"{rates.matched_when_reached}/{rates.reached} of those reached "
               f"({rates.reached_match_rate:.1%}); floors {floor}")
    print(summary)
    assert rates.matched >= floor["matched"], summary + "\nmisses where the start was reached:\n" + \
        "\n".join(misses)
    assert rates.matched_when_reached >= floor["matched_when_reached"], summary


@pytest.mark.parametrize("app", APPS)
def test_dumps_give_every_id_the_class_the_recordings_show(app, replay):
    """A view's ``class`` in the phone's dumps is the one the real app's dumps gave that resource-id.

    uiautomator writes ``AccessibilityNodeInfo.getClassName()``, which is the view's
    ``getAccessibilityClassName()`` or what its accessibility delegate sets (View.java
    onInitializeAccessibilityNodeInfoInternal; the toolkit's rule is in
    framework/ui/accessibility_class.py).  Every id the replay showed is compared with the classes
    the recordings report for it (the facts' ``classes``); a difference passes only with a cited
    change of the pinned final release (``conformance.CLASS_CHANGES``).
    """
    replayer = replay[0]
    differences = class_differences(app, replayer.classes_seen, load_facts(app)["classes"])
    compared = len(set(replayer.classes_seen) & set(load_facts(app)["classes"]))
    explained = [f"{rid}: {name} (recorded {recorded}): {reason}" for rid, name, recorded, reason in differences
                 if reason]
    print(f"{app}: {compared} ids compared; {len(explained)} cited changes" + "".join(f"\n  {e}" for e in explained))
    unexplained = [f"{rid}: {name}, recorded {recorded}" for rid, name, recorded, reason in differences
                   if not reason]
    assert compared, f"{app}: the replay showed none of the recorded ids"
    assert not unexplained, f"{app}: classes the recordings never show:\n" + "\n".join(unexplained)

"""The virtual phone against recordings of the real apps (see tests/conformance.py).

Each app's recorded sessions are replayed on a phone of their own through the
real adb server.  Two rates may not fall below the app's floors in
``floors.json``: matched / compared and matched-when-reached / reached, each
set at what the phone measured when the floor was last set (rounded down at 3
decimals; ``python tools/conformance_report.py --write-floors`` sets them and
refuses to lower one without ``--lower``).  A widened exception or a new
"other app differs" takes actions out of "compared" and so moves a rate: raise
the floors with every change that makes the phone more like the real apps.
The fidelity issue's target is 90% of all actions and 95% of those whose start
screen was reached.  ``-s`` prints each app's row of the report's table.
"""

from __future__ import annotations

import json

import pytest
from conformance import APPS, FACTS, HEADER, Rates, Replayer, class_differences, load_facts

# Each recorded app's sessions replay for half a minute or more.
pytestmark = pytest.mark.slow

FLOORS = json.loads((FACTS / "floors.json").read_text())


def test_every_app_has_facts_and_a_floor():
    assert sorted(FLOORS) == sorted(APPS)
    for app in APPS:
        assert set(FLOORS[app]) == {"match_rate", "reached_match_rate"}, app
        assert all(0 <= rate <= 1 for rate in FLOORS[app].values()), app
        facts = load_facts(app)
        assert facts["sessions"] and facts["screens"], app
        # Every step names screens that the facts describe (or none: the app was left, for a landing
        # screen the facts describe).
        for session in facts["sessions"]:
            for step in session["steps"]:
                for key in (step["before"], step["after"]):
                    assert key is None or key in facts["screens"]
                if step.get("landing"):
                    assert step["before"] and not step["after"] and step["landing"] in facts["landings"]


def test_jaccard_bar_separates_screens():
    from conformance import Screen, jaccard

    main = Screen("pkg/pkg.Main", {"a", "b", "c", "d", "e"})
    assert main.same_as(Screen("pkg/pkg.Main", {"a", "b", "c", "d"}))  # 4/5 = 0.8
    assert not main.same_as(Screen("pkg/pkg.Main", {"a", "b", "x", "y"}))  # 2/7
    assert not main.same_as(Screen("pkg/pkg.Other", set(main.ids)))
    assert jaccard(set(), set()) == 1.0


def test_every_action_falls_in_one_column():
    """An action that left the app for another screen is counted apart, never as a match."""
    from conformance import Outcome

    def outcome(**kw):
        return Outcome("app", 0, 0, "click", kw.pop("reached", True), kw.pop("matched", False), "", **kw)

    rates = Rates.of([outcome(matched=True), outcome(), outcome(other_app=True), outcome(outside=True),
                      outcome(expected_change="release"), outcome(environment="sd card", expected_change=None),
                      outcome(matched=True, reached=False)])
    assert rates.counts() == {"compared": 3, "reached": 2, "matched": 2, "matched_when_reached": 1,
                              "expected_change": 1, "other_app": 1, "environment": 1, "outside": 1}
    assert (rates.mismatch, rates.match_rate, rates.reached_match_rate) == (1, 2 / 3, 0.5)


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


#: The apps, each in an xdist group of its own: the floor test and the class test of an app read the
#: same replay (``replay``), so under -n they run on one worker, which replays the app once.
REPLAYED_APPS = [pytest.param(app, marks=pytest.mark.xdist_group(f"conformance_{app}")) for app in APPS]

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


@pytest.mark.parametrize("app", REPLAYED_APPS)
def test_recorded_sessions_replay_at_or_above_the_floor(app, replay):
    replayer, outcomes = replay
    rates = Rates.of(outcomes)
    floor = FLOORS[app]
    misses = [f"s{o.session}#{o.step} {o.action}: {o.detail}" for o in outcomes
              if not o.matched and o.start_reached and not (o.expected_change or o.environment or o.outside)]
    summary = "\n".join([HEADER, rates.row(app), f"floors {floor}", *replayer.seed_problems])
    print(summary)
    assert rates.match_rate >= floor["match_rate"], summary + "\nmisses where the start was reached:\n" + \
        "\n".join(misses)
    assert rates.reached_match_rate >= floor["reached_match_rate"], summary


def test_theme_seed_and_landings_through_adb(phone_factory, adb_server_port):
    """The recorded "Dark" theme is seeded through the app's UI, so the colour rows the recording taps are
    there (Commons' CustomizationActivity.updateAutoThemeFields hides them under "System default (Material
    You)", Android 12+'s default); and a launch of another app that lands elsewhere than the recording's
    landing screen is "other app differs", not a match."""
    import adbutils
    from conformance import _label, recorded_theme

    running = phone_factory(1)[0]
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    facts = load_facts("applauncher")
    replayer = Replayer(device, facts)
    replayer.prepare()
    session = facts["sessions"][12]  # More options > Settings > Customize colors > Text color ...
    assert recorded_theme(facts, session) == "Dark"
    replayer.set_theme(session["start"], "Dark")
    assert replayer.seed_problems == []
    device.shell(f"am start -n {session['start']}")
    outcomes = [replayer.replay_step(12, number, step) for number, step in enumerate(session["steps"][:3])]
    assert [o.matched for o in outcomes] == [True, True, True], [o.detail for o in outcomes]
    screen = replayer.screen()
    assert _label(screen, "customization_theme") == "Dark"
    assert {"customization_text_color_holder", "customization_background_color_holder",
            "customization_primary_color_holder"} <= screen.ids

    # session 0 taps "Clock": the recording landed on Simple Clock, this phone's Clock is another app
    launch = facts["sessions"][0]
    device.shell(f"am force-stop {replayer.package}")
    device.shell(f"am start -n {launch['start']}")
    outcome = replayer.replay_step(0, 0, launch["steps"][0])
    landing = facts["landings"][launch["steps"][0]["landing"]]["activity"]
    assert landing.startswith("com.simplemobiletools.clock/")
    assert (outcome.matched, outcome.other_app) == (False, True), outcome.detail
    assert Rates.of([outcome]).counts()["other_app"] == 1


def test_the_floors_tool_refuses_to_lower_a_floor_unless_told(tmp_path, monkeypatch, capsys):
    """tools/conformance_report.py --write-floors: raises freely, refuses to lower without --lower (exit 1,
    nothing written), prints what it lowered with it."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "tools" / "conformance_report.py"
    spec = importlib.util.spec_from_file_location("conformance_report", path)
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"notes": {"match_rate": 0.9, "reached_match_rate": 0.95}}))
    monkeypatch.setattr(report, "FLOORS", floors)
    run = tmp_path / "run.json"

    def measured(matched: int) -> Path:
        counts = Rates(compared=100, reached=90, matched=matched, matched_when_reached=88).counts()
        run.write_text(json.dumps({"notes": counts}))
        return run

    assert report.main(["--from", str(measured(93)), "--write-floors"]) == 0  # 0.93 and 88/90 = 0.977...
    assert json.loads(floors.read_text())["notes"] == {"match_rate": 0.93, "reached_match_rate": 0.977}
    assert report.main(["--from", str(measured(92)), "--write-floors"]) == 1
    assert "would lower notes match_rate (matched / compared): 0.93 -> 0.92" in capsys.readouterr().out
    assert json.loads(floors.read_text())["notes"]["match_rate"] == 0.93
    assert report.main(["--from", str(measured(92)), "--write-floors", "--lower"]) == 0
    assert "lowered notes match_rate (matched / compared): 0.93 -> 0.92" in capsys.readouterr().out
    assert json.loads(floors.read_text())["notes"]["match_rate"] == 0.92


@pytest.mark.parametrize("app", REPLAYED_APPS)
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

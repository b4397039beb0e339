"""Derive the conformance facts from the DroidTask recordings of the real apps.

The recordings (DroidBot traces of nine Simple Mobile Tools apps, July 2023) are
reference data that must not enter the repository.  This script keeps only
facts: for every recorded session of an app (a launch followed by actions), the
actions (what was tapped, by resource-id / text / content-desc and bounds; the
text set; the key pressed) and, before and after each action, the screen as
facts (foreground activity, the resource-ids and the label texts of the app's
window); where an action left the app, the screen it landed on (``landing``: the
foreground activity and the resource-ids of that activity's own package); and for every
resource-id of the app's windows, the class names the recordings report for it (the views'
``getAccessibilityClassName()``), which ``tests/test_conformance.py`` compares with the phone's
dumps.  ``tests/test_conformance.py`` and ``benchmarks/bench_conformance.py``
replay those sessions on a virtual phone and compare its screens with them.

Usage::

    tar xzf ../shared/data/droidtask_states_9apps.tgz -C /tmp/droidtask
    python tools/conformance_facts.py /tmp/droidtask tests/data/conformance

Calendar is left out: it was recorded on the old non-Pro app
(``com.simplemobiletools.calendar``), not the Pro app the benchmark uses.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from menu_facts import PACKAGES

#: the apps DroidTask recorded, by key (their packages: menu_facts.PACKAGES)
APPS = {key: PACKAGES[key] for key in
        ("applauncher", "contacts", "filemanager", "gallery", "messenger", "musicplayer", "notes", "voicerecorder")}

#: Decor-view children whose presence depends on the system bars of the recording
#: device (an API 30 emulator with gesture navigation), not on the app.
SYSTEM_BAR_IDS = {"android:id/navigationBarBackground", "android:id/statusBarBackground"}
#: Label texts longer than this are cut: the facts need recognisable labels, not content.
MAX_LABEL = 60


def load_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (ValueError, OSError):
        return None  # two event files of the recordings are empty


def screen_facts(state: dict, package: str) -> dict:
    """The facts of one recorded screen: activity, resource-ids and labels of the app's window."""
    ids, labels = set(), set()
    views = state["views"]
    for view in views:
        # Views of other windows (status bar, launcher) are not the app's screen.
        if view["package"] != package or not shown(view, views):
            continue
        rid = view.get("resource_id")
        if rid and rid not in SYSTEM_BAR_IDS:
            ids.add(rid.replace(package + ":id/", ""))
        for label in (view.get("text"), view.get("content_description")):
            if label and label.strip():
                labels.add(label.strip()[:MAX_LABEL])
    activity = state.get("foreground_activity") or ""
    return {"activity": expand_activity(activity), "ids": sorted(ids), "labels": sorted(labels)}


def shown(view: dict, views: list[dict]) -> bool:
    """Whether ``uiautomator dump`` would list the view: it and its ancestors are visible to the user.

    DroidBot records every node of the window with ``visible`` = ``isVisibleToUser()``, off-screen
    ViewPager pages included; uiautomator's AccessibilityNodeInfoDumper.dumpNodeRec skips a child
    that is not visible to the user, and its subtree with it.
    """
    while view is not None:
        if view.get("visible") is False:
            return False
        parent = view.get("parent")
        view = views[parent] if isinstance(parent, int) and 0 <= parent < len(views) else None
    return True


def id_classes(states: dict, package: str) -> dict[str, list[str]]:
    """Every resource-id shown in the app's windows, with the class names recorded for it."""
    classes: dict[str, set[str]] = {}
    for state in states.values():
        if not (state.get("foreground_activity") or "").startswith(package + "/"):
            continue
        views = state["views"]
        for view in views:
            rid = view.get("resource_id")
            if view["package"] != package or not rid or rid in SYSTEM_BAR_IDS or not shown(view, views):
                continue
            classes.setdefault(rid.replace(package + ":id/", ""), set()).add(view.get("class") or "")
    return {rid: sorted(names) for rid, names in sorted(classes.items())}


def expand_activity(component: str) -> str:
    """``pkg/.a.B`` -> ``pkg/pkg.a.B``: the form `dumpsys` and adbutils report."""
    if "/" not in component:
        return component
    package, cls = component.split("/", 1)
    return f"{package}/{package}{cls}" if cls.startswith(".") else component


def target_facts(view: dict, package: str) -> dict:
    """How the recorded action named its target."""
    (left, top), (right, bottom) = view["bounds"]
    rid = view.get("resource_id") or ""
    return {
        "id": rid.replace(package + ":id/", ""),
        "text": (view.get("text") or "")[:MAX_LABEL],
        "desc": (view.get("content_description") or "")[:MAX_LABEL],
        "class": view.get("class") or "",
        "bounds": [left, top, right, bottom],
    }


def derive(root: Path, app: str, package: str) -> dict:
    states = {}
    for path in (root / app / "states").glob("*.json"):
        state = load_json(path)
        if state:
            states[state["state_str"]] = state
    events = [e for e in (load_json(p) for p in sorted((root / app / "events").glob("*.json"))) if e]
    screens: dict[str, dict] = {}
    landings: dict[str, dict] = {}

    def screen_key(state_str: str) -> str | None:
        state = states.get(state_str)
        if state is None or not (state.get("foreground_activity") or "").startswith(package + "/"):
            return None
        key = state_str[:12]
        screens.setdefault(key, screen_facts(state, package))
        return key

    def landing_key(state_str: str) -> str | None:
        """Where an action that left the app landed: the foreground activity and its own package's views."""
        state = states.get(state_str)
        activity = (state or {}).get("foreground_activity") or ""
        if not activity or activity.startswith(package + "/"):
            return None
        key = state_str[:12]
        landings.setdefault(key, screen_facts(state, activity.split("/", 1)[0]))
        return key

    sessions: list[dict] = []
    for event in events:
        kind = event["event"]["event_type"]
        if kind == "intent":
            # Every session starts the app through its launcher alias (`am start pkg/...Splash...`).
            sessions.append({"start": event["event"]["intent"].split()[-1],
                             "first_screen": screen_key(event["stop_state"]), "steps": []})
            continue
        if kind not in ("click", "set_text", "key") or not sessions:
            continue
        step = {"action": kind, "before": screen_key(event["start_state"]),
                "after": screen_key(event["stop_state"])}
        if step["before"] and not step["after"]:
            # the app was left: the screen it left to, so that the replay can tell where it landed
            step["landing"] = landing_key(event["stop_state"])
        if kind == "key":
            step["key"] = event["event"]["name"]
        else:
            step["target"] = target_facts(event["event"]["view"], package)
            if kind == "set_text":
                step["text"] = event["event"]["text"]
        sessions[-1]["steps"].append(step)
    return {"app": app, "package": package,
            "source": "DroidTask recordings (DroidBot, July 2023, 1080x2280 screen)",
            "screen_size": [1080, 2280],
            "sessions": [s for s in sessions if s["steps"]], "screens": screens,
            "landings": landings, "classes": id_classes(states, package)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recordings", type=Path, help="the unpacked droidtask_states_9apps.tgz")
    parser.add_argument("out", type=Path, help="folder for one <app>.json facts file per app")
    parser.add_argument("--app", action="append", choices=sorted(APPS),
                        help="derive only this app's facts (repeatable); all apps by default")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for app, package in APPS.items():
        if args.app and app not in args.app:
            continue
        facts = derive(args.recordings, app, package)
        path = args.out / f"{app}.json"
        path.write_text(json.dumps(facts, separators=(",", ":"), sort_keys=True) + "\n")
        steps = sum(len(s["steps"]) for s in facts["sessions"])
        print(f"{app:14} {len(facts['sessions']):3} sessions {steps:4} steps "
              f"{len(facts['screens']):4} screens  {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

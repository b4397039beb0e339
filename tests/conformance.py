"""Replay recorded real-app sessions on a phone and compare the screens.

The facts in ``tests/data/conformance/<app>.json`` come from the DroidTask
recordings of the real apps (``tools/conformance_facts.py``).  Each recorded
session starts the app through its launcher alias and then acts: a tap on a view
named by resource-id / text / content-desc, text set into a field, or a key.
The replay does the same through adb only (``am start``, ``input``,
``uiautomator dump``, ``dumpsys``), as an agent would, and for every action
judges two things:

- *start reached*: before the action, the phone shows the recorded start screen;
- *match*: after the action, the phone shows the recorded next screen.

Actions the recording took in another app's window (the recording phone had
Simple Dialer, Simple Clock and Simple Camera; a stock emulator has none of
them) are not transitions of the app under test: they are carried out when
possible and counted apart ("outside").  An action that left the app matches
only when the phone lands where the recording did (the landing screen's
activity and the Jaccard index of its own package's resource-ids, the same rule
as in the app); one that left the app for another screen is counted apart
("other app differs"), never as a match.

Two screens are the same when their foreground activity is the same and the
Jaccard index of their resource-id sets is at least ``JACCARD`` (the bar the
fidelity issue sets).  A recorded action whose target is not on the phone's
screen is not carried out and counts as a mismatch; the session goes on.

Exceptions (``EXPECTED_CHANGES``) are differences the pinned final releases on
Android 14 make on purpose (each with its source): an action whose next screen
differs in such a way is reported with the reason and counted apart from the
rate, never silently dropped.  Differences that come from the recording phone
rather than the release (its SD card, its Simple Camera / Clock / Dialer, its
Gmail) are ``ExpectedChange(..., environment=True)`` and have their own column.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Callable
from pathlib import Path

from pytest_mobileagent.device.text import input_text_command

FACTS = Path(__file__).parent / "data" / "conformance"
APPS = ("applauncher", "contacts", "filemanager", "gallery", "messenger", "musicplayer", "notes",
        "voicerecorder")
JACCARD = 0.6
#: Swipes per direction and list when looking for a target below the fold (a settings page is
#: at most a few screens long).
SCROLL_TRIES = 6
#: Same as tools/conformance_facts.py: the recording device's system bars, not the app.
SYSTEM_BAR_IDS = {"android:id/navigationBarBackground", "android:id/statusBarBackground"}
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")

#: The system resolver's buttons (ResolverActivity's resolver_list.xml): the recording phone asked which app.
RESOLVER_BUTTONS = ("android:id/button_once", "android:id/button_always")
CUSTOMIZATION = "com.simplemobiletools.commons.activities.CustomizationActivity"
#: Commons screens the pinned Commons commits draw with Jetpack Compose (compose/screens/*.kt).
COMPOSE_SCREENS = tuple(f"com.simplemobiletools.commons.activities.{name}"
                        for name in ("AboutActivity", "FAQActivity", "ContributorsActivity", "LicenseActivity"))
COMPOSE_REASON = ("the pinned Simple-Commons draws About, FAQ, Contributors and the licences with Compose "
                  "(compose/screens/*.kt): their dumps have no resource-ids; the recorded 2023 release used XML layouts")


@dataclass(frozen=True)
class ExpectedChange:
    """A difference between the recording and the pinned final release on Android 14, with its source."""

    reason: str
    #: (recorded step, recorded screen, our screen) -> whether this change explains the difference
    applies: "Callable[[dict, Screen | None, Screen], bool]"
    #: "next": the next screen differs (called with the recorded next screen and ours after the action);
    #: "target": the recorded target is not on our screen (called with the recorded start screen, or
    #: None when the action started outside the app, and ours before the action)
    on: str = "next"
    #: the difference is the recording phone's, not the release's (its SD card, its other apps)
    environment: bool = False


#: Commons shows the app-icon warning before the theme list only until it was acknowledged once: in the
#: Commons the recorded releases pin (bce3441c67, Music Player 5.16.5) as in the pinned ones (8e7dd4508e),
#: since Commons 1ede5203b (2018): CustomizationActivity, customization_theme_holder's click listener.
ICON_WARNING_SEEN = (
    "the recording phone's app had not acknowledged Commons' app-icon warning yet (CustomizationActivity shows it "
    "until BaseConfig.wasAppIconCustomizationWarningShown, in the recorded Commons bce3441c67 as in the pinned "
    "commits); this phone's had: the theme seed (Replayer.set_theme, which the recording phone's Android 11 did not "
    "need) or an earlier session of an app whose data the replay does not reset acknowledged it")


def _label(screen: "Screen", rid: str) -> str:
    return next((n.get("text", "") for n in screen.nodes if n.get("resource-id", "").endswith(":id/" + rid)), "")


#: Checked, in order, for every action of every app whose next screen does not match; each app's
#: own changes are in ``conformance_apps/<app>.py`` (``CHANGES``), checked after these.
EXPECTED_CHANGES: tuple[ExpectedChange, ...] = (
    ExpectedChange(
        COMPOSE_REASON,
        lambda step, recorded, ours: recorded.activity.endswith(COMPOSE_SCREENS)
        and ours.activity == recorded.activity),
    # -- the recording phone's state and apps (environment=True) --
    ExpectedChange(
        ICON_WARNING_SEEN,
        lambda step, recorded, ours: ours.activity.endswith(CUSTOMIZATION) and "message" in recorded.ids
        and "dialog_radio_group" in ours.ids
        and step.get("target", {}).get("id") in ("customization_theme_label", "customization_theme_holder"),
        environment=True),
    ExpectedChange(
        ICON_WARNING_SEEN,
        lambda step, recorded, ours: recorded is not None and recorded.activity.endswith(CUSTOMIZATION)
        and "message" in recorded.ids and ours.activity.endswith(CUSTOMIZATION) and "message" not in ours.ids,
        on="target", environment=True),
    # -- the recording phone's apps that the Android 14 Google APIs emulator image has not (on="target") --
    ExpectedChange(
        "the recording phone's default dialer was Simple Dialer (com.simplemobiletools.dialer); the Android 14 "
        "emulator image's Phone app is AOSP Dialer (com.android.dialer), whose dialpad and in-call screen have "
        "their own ids (Dialer's dialpad_view.xml, incall_contact_grid.xml)",
        lambda step, recorded, ours: _target_id(step).startswith("com.simplemobiletools.dialer:id/")
        and ours.activity.startswith("com.android.dialer/"), on="target", environment=True),
    ExpectedChange(
        "Gmail (com.google.android.gm) was on the recording phone (a Google Play image); the Google APIs emulator "
        "image has no Gmail, so no app answers its mail intents",
        lambda step, recorded, ours: _target_id(step).startswith("com.google.android.gm:id/"), on="target",
        environment=True),
)


_CONTACT_ITEMS = ("Simple-Commons 35d685c04 (2023-06-30, \"use constraintlayout at contact adapter items\", in the "
                  "Commons both apps pin) made item_contact_with_number.xml's item_contact_frame a ConstraintLayout, "
                  "which reports ViewGroup; the recorded releases built it as a FrameLayout")
_PDF_VIEWER = ("File Manager 089f3528 and d1c68d55 (2023-07-04, in 6.16.0) reverted the PDF viewer to barteksc's "
               "PDFView (extends RelativeLayout) in a RelativeLayout wrapper; the recorded 6.15 release had a "
               "ViewPager2 (recorded as \"androidx.viewpager.widget.ViewPager\") in a ConstraintLayout (ViewGroup)")
#: Class names the pinned final releases report for an id where the recorded 2023 releases reported another
#: (``CLASS_CHANGES[(app, id)] = (class on the phone, reason with its source)``); see
#: ``class_differences``.  Every other id must show one of its recorded classes.
CLASS_CHANGES: dict[tuple[str, str], tuple[str, str]] = {
    ("contacts", "item_contact_frame"): ("android.view.ViewGroup", _CONTACT_ITEMS),
    ("messenger", "item_contact_frame"): ("android.view.ViewGroup", _CONTACT_ITEMS),
    ("musicplayer", "track_frame"): (
        "android.widget.LinearLayout",
        "Music Player db1f6140 (2023-10-14, \"Improve recyclerview performance for large number of items\", first in "
        "5.18.2) made item_track.xml's track_frame a LinearLayout; the recorded release had a ConstraintLayout"),
    ("voicerecorder", "item_holder"): (
        "android.view.ViewGroup",
        "Voice Recorder d7cee12 (2023-06-20, \"use a better centered recordings layout\", first in 5.11.4) made "
        "item_recording.xml's item_holder a ConstraintLayout; the recorded release had a RelativeLayout"),
    ("notes", "dialog_open_note_holder"): (
        "android.view.ViewGroup",
        "Notes 6.16.0 rebuilt the Open note dialog (92f4863b \"Update UI of OpenNoteDialog\"); 835168ef \"Add fab "
        "for OpenNoteDialog\" made dialog_open_note.xml's root, dialog_open_note_holder, a CoordinatorLayout "
        "(ViewGroup), as at the pinned 6.17.0; the recorded release's was a ScrollView"),
    ("filemanager", "pdf_viewer"): ("android.widget.RelativeLayout", _PDF_VIEWER),
    ("filemanager", "pdf_viewer_wrapper"): ("android.widget.RelativeLayout", _PDF_VIEWER),
}


def class_differences(app: str, seen: dict[str, set[str]], recorded: dict[str, list[str]]):
    """The (id, phone's class, recorded classes, reason or None) of every id whose class the recordings never show.

    ``seen`` is what the phone's dumps gave each id during a replay (``Replayer.classes_seen``),
    ``recorded`` the classes the recordings report for it (the facts' ``classes``).  Ids the
    recordings never show are not compared.
    """
    out = []
    for rid in sorted(set(seen) & set(recorded)):
        for name in sorted(seen[rid] - set(recorded[rid])):
            change = CLASS_CHANGES.get((app, rid))
            reason = change[1] if change and change[0] == name else None
            out.append((rid, name, recorded[rid], reason))
    return out


def _target_id(step: dict) -> str:
    return (step.get("target") or {}).get("id") or ""


def load_facts(app: str) -> dict:
    return json.loads((FACTS / f"{app}.json").read_text())


@dataclass
class Screen:
    activity: str
    ids: set[str]
    nodes: list[dict] = field(default_factory=list)

    @classmethod
    def from_facts(cls, facts: dict) -> "Screen":
        return cls(facts["activity"], set(facts["ids"]))

    def same_as(self, other: "Screen") -> bool:
        return self.activity == other.activity and jaccard(self.ids, other.ids) >= JACCARD


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


@dataclass
class Outcome:
    """One replayed action."""

    app: str
    session: int
    step: int
    action: str
    start_reached: bool
    matched: bool
    detail: str
    expected_change: str | None = None
    #: the recorded action started outside the app (in another app the recording device had, such as
    #: Simple Dialer or Simple Clock): not a transition of this app, counted apart
    outside: bool = False
    #: the difference is explained by the recording phone, not the release (ExpectedChange.environment)
    environment: str | None = None
    #: the action left the app, as the recorded one did, but landed on another screen than the recording's
    other_app: bool = False


class Replayer:
    """Replays one app's recorded sessions on one adbutils device."""

    def __init__(self, device, facts: dict) -> None:
        self.device = device
        self.facts = facts
        #: the replay pressed BACK to hide the keyboard after the last action (see act())
        self.keyboard_hidden_early = False
        #: seed steps that could not be done on this phone (set_theme), for the report
        self.seed_problems: list[str] = []
        #: every resource-id of the app's window the phone showed, with the classes its dumps gave it
        self.classes_seen: dict[str, set[str]] = {}
        self.app = facts["app"]
        self.package = facts["package"]
        self.screens = {key: Screen.from_facts(value) for key, value in facts["screens"].items()}
        #: where recorded actions that left the app landed (another app's screen, a system screen)
        self.landings = {key: Screen.from_facts(value) for key, value in facts.get("landings", {}).items()}
        rec_w, rec_h = facts["screen_size"]
        width, height = device.window_size()
        self.scale = (width / rec_w, height / rec_h)

    # -- reading the phone -------------------------------------------------------------
    def screen(self, foreground: bool = False) -> Screen:
        """The phone's screen as facts: the app's views, or (``foreground``) those of the package of the
        foreground activity, as tools/conformance_facts.py takes a landing screen's."""
        xml = self.device.dump_hierarchy()
        nodes = [dict(n.attrib) for n in ET.fromstring(xml.encode("utf-8")).iter("node")]
        current = self.device.app_current()
        activity = f"{current.package}/{current.activity}" if current.package else ""
        if activity and "/" in activity and activity.split("/", 1)[1].startswith("."):
            package, cls = activity.split("/", 1)
            activity = f"{package}/{package}{cls}"
        package = activity.split("/", 1)[0] if foreground and activity else self.package
        ids = set()
        for node in nodes:
            rid = node.get("resource-id", "")
            if node.get("package") != package or not rid or rid in SYSTEM_BAR_IDS:
                continue
            short = rid.replace(package + ":id/", "")
            ids.add(short)
            if package == self.package:  # the app's own views: their classes are compared with the recordings'
                self.classes_seen.setdefault(short, set()).add(node.get("class", ""))
        return Screen(activity, ids, nodes)

    # -- acting ------------------------------------------------------------------------
    def find_target(self, screen: Screen, target: dict) -> dict | None:
        """The phone's node for a recorded target: by id, text, desc; the nearest if several."""
        full_id = ""
        if target["id"]:
            full_id = target["id"] if ":" in target["id"] else f"{self.package}:id/{target['id']}"
        candidates = screen.nodes
        if full_id:
            by_id = [n for n in candidates if n.get("resource-id") == full_id]
            # A screen the pinned release draws with Compose has no resource-ids: its views are
            # named by their text or content-desc only, as a user would find them.
            compose = not by_id and (target["text"] or target["desc"]) and not any(
                n.get("resource-id", "").startswith(self.package + ":id/")
                and n["resource-id"] != self.package + ":id/action_bar_root"  # AppCompat's decor
                for n in candidates)
            full_id = "" if compose else full_id
            candidates = candidates if compose else by_id
        for attribute, value in (("text", target["text"]), ("content-desc", target["desc"])):
            if value:
                narrowed = [n for n in candidates if n.get(attribute, "")[:60] == value]
                if narrowed or not full_id:
                    candidates = narrowed
        if not full_id and not target["text"] and not target["desc"]:
            candidates = [n for n in candidates if n.get("class") == target["class"]]
        if not candidates:
            return None
        left, top, right, bottom = target["bounds"]
        cx, cy = (left + right) / 2 * self.scale[0], (top + bottom) / 2 * self.scale[1]

        def distance(node: dict) -> float:
            x, y = centre(node)
            return (x - cx) ** 2 + (y - cy) ** 2

        return min(candidates, key=distance)

    def act(self, step: dict, screen: Screen) -> str | None:
        """Carry out one recorded action; None when done, else why it could not be."""
        keyboard_hidden_early, self.keyboard_hidden_early = self.keyboard_hidden_early, False
        if step["action"] == "key":
            if step["key"] == "BACK" and keyboard_hidden_early:
                # The recording's input method was up here (the previous action focused a
                # field) and this BACK only hid it, as the first BACK does on Android; the
                # replay already hid ours with a BACK of its own, so the app does not get a
                # second one.
                return None
            self.device.shell(f"input keyevent {step['key']}")
            return None
        problem = self._act_on_target(step, screen)
        self.keyboard_hidden_early = self.hide_keyboard()
        return problem

    def hide_keyboard(self) -> bool:
        """Hide the soft keyboard, which the recording phone never showed.

        DroidBot recorded with its own input method active (``DroidBotIME`` is among
        every recorded state's services), which draws no keyboard; this phone shows
        LatinIME's when a field takes focus, and an ``adjustResize`` window then shows
        fewer views.  The first BACK only hides the keyboard, as on Android.
        """
        if "mInputShown=true" in self.device.shell("dumpsys input_method"):
            self.device.shell("input keyevent BACK")
            return True
        return False

    def scroll_to(self, screen: Screen, target: dict) -> Screen:
        """Scroll our screen's lists as the recording's user did until the target shows.

        DroidTask's recorder logged clicks, text and keys but no scrolls (its events have
        no scroll type), yet its users scrolled: a recorded start screen of a long settings
        page shows only the rows below the fold.  So when the target is not on our screen,
        swipe through each scrollable view (down first, then back up) as that user would,
        and stop at the first screen that shows it.  The screen is left as found otherwise.
        """
        if self.find_target(screen, target) is not None:
            return screen
        for index in range(len([n for n in screen.nodes if n.get("scrollable") == "true"])):
            for direction in (1, -1):
                for _ in range(SCROLL_TRIES):
                    scrollables = [n for n in screen.nodes if n.get("scrollable") == "true"]
                    if index >= len(scrollables):
                        break
                    left, top, right, bottom = (int(v) for v in _BOUNDS.fullmatch(scrollables[index]["bounds"]).groups())
                    x, height = (left + right) // 2, bottom - top
                    start, end = top + height * 3 // 4, top + height // 4
                    if direction < 0:
                        start, end = end, start
                    self.device.shell(f"input swipe {x} {start} {x} {end} 300")
                    moved = self.screen()
                    if self.find_target(moved, target) is not None:
                        return moved
                    if moved.nodes == screen.nodes:
                        screen = moved
                        break  # this list is at its end
                    screen = moved
        return screen

    def _act_on_target(self, step: dict, screen: Screen) -> str | None:
        node = self.find_target(screen, step["target"])
        if node is None:
            return f"target not on screen: {describe(step['target'])}"
        x, y = centre(node)
        self.device.shell(f"input tap {x} {y}")
        if step["action"] == "set_text" and step.get("text"):
            command = input_text_command(step["text"])
            if command:
                self.device.shell(command)
        return None

    # -- the replay --------------------------------------------------------------------
    def prepare(self) -> None:
        """The phone as the recording found it: the app without data, the recording's seed data."""
        self.device.shell(f"am force-stop {self.package}")
        self.device.shell(f"pm clear {self.package}")
        seed = getattr(app_module(self.app), "seed", None)
        if seed:
            seed(self.device)

    def allow_permissions(self) -> None:
        """Answer the runtime-permission dialog as the recording's user had, once, before recording."""
        for _ in range(3):
            allow = [n for n in self.screen().nodes
                     if n.get("resource-id") == "com.android.permissioncontroller:id/permission_allow_button"]
            if not allow:
                return
            x, y = centre(allow[0])
            self.device.shell(f"input tap {x} {y}")

    def run(self) -> list[Outcome]:
        self.prepare()
        outcomes: list[Outcome] = []
        before_session = getattr(app_module(self.app), "before_session", None)
        for index, session in enumerate(self.facts["sessions"]):
            # The recording ended each session with `am force-stop` and began the next with
            # `am start` of the launcher alias: data stays, the task starts afresh.
            self.device.shell(f"am force-stop {self.package}")
            # An app whose recordings show every session starting from the same state resets it here.
            if before_session:
                # a hook with a second parameter also gets the session, to leave the app as its
                # recorded first screen shows it (see conformance_apps/musicplayer.py)
                takes_session = len(inspect.signature(before_session).parameters) > 1
                before_session(self.device, session) if takes_session else before_session(self.device)
            theme = recorded_theme(self.facts, session)
            if theme:
                self.set_theme(session["start"], theme)
            self.device.shell(f"am start -n {session['start']}")
            if index == 0 or before_session:
                self.allow_permissions()  # a reset (pm clear) also takes back the runtime permissions
            self.keyboard_hidden_early = self.hide_keyboard()
            for number, step in enumerate(session["steps"]):
                outcomes.append(self.replay_step(index, number, step))
        return outcomes

    def set_theme(self, start: str, theme: str) -> None:
        """Pick the colour theme the session's recording shows, as its user would: through the app's UI.

        The recording phone ran Android 11, where Commons' BaseConfig.isUsingSystemTheme defaults to
        isSPlus() = false and a fresh app shows the "Dark" theme (its default colours); on Android 14 the
        pinned releases start on "System default (Material You)", which hides the colour rows the
        recorded sessions tap (CustomizationActivity.updateAutoThemeFields).  A real phone accepts this
        only through the app (its shared preferences are private; ``run-as`` needs a debuggable APK):
        overflow > Settings > Customize colors > Theme > (the app-icon warning's OK) > the theme > Save.
        A step that finds nothing to tap is logged in ``seed_problems`` and the session goes on.
        """
        self.device.shell(f"am start -n {start}")
        self.allow_permissions()
        steps = (("Settings", lambda n: "Settings" in (n.get("text"), n.get("content-desc"))),
                 ("Customize colors", lambda n: n.get("resource-id", "").endswith(":id/settings_color_customization_holder")),
                 ("Theme", lambda n: n.get("resource-id", "").endswith(":id/customization_theme_holder")),
                 (theme, lambda n: n.get("text") == theme and n.get("class") == "android.widget.RadioButton"))
        screen = self.screen()
        for name, wanted in steps:
            node = next((n for n in screen.nodes if wanted(n)), None)
            if node is None and name == "Settings":  # behind the overflow
                more = next((n for n in screen.nodes if n.get("content-desc") == "More options"), None)
                if more is not None:
                    self.device.shell("input tap %d %d" % centre(more))
                    screen = self.screen()
                    node = next((n for n in screen.nodes if wanted(n)), None)
            if node is None and name == "Customize colors":
                screen = self.scroll_to(screen, {"id": "settings_color_customization_holder", "text": "",
                                                 "desc": "", "class": "", "bounds": [0, 0, 0, 0]})
                node = next((n for n in screen.nodes if wanted(n)), None)
            if node is None and name == theme:  # Commons' app-icon warning comes first, once
                ok = next((n for n in screen.nodes if n.get("resource-id") == "android:id/button1"), None)
                if ok is not None:
                    self.device.shell("input tap %d %d" % centre(ok))
                    screen = self.screen()
                    node = next((n for n in screen.nodes if wanted(n)), None)
            if node is None:
                if name == theme and _label(screen, "customization_theme") == theme:
                    break
                self.seed_problems.append(f"theme {theme}: no {name!r} on {screen.activity}")
                break
            self.device.shell("input tap %d %d" % centre(node))
            screen = self.screen()
        save = next((n for n in screen.nodes if n.get("resource-id") == f"{self.package}:id/save"), None)
        if save is not None:
            self.device.shell("input tap %d %d" % centre(save))
        self.device.shell(f"am force-stop {self.package}")

    def replay_step(self, session: int, number: int, step: dict) -> Outcome:
        outcome = self._replay_step(session, number, step)
        outcome.outside = step["before"] is None
        return outcome

    def _replay_step(self, session: int, number: int, step: dict) -> Outcome:
        before = self.screen()
        if step["action"] != "key":
            before = self.scroll_to(before, step["target"])
        expected_before = self.screens.get(step["before"]) if step["before"] else None
        reached = bool(expected_before and before.same_as(expected_before))
        problem = self.act(step, before)
        label = step["action"] if step["action"] == "key" and not step.get("key") else \
            f"{step['action']} {step.get('key') or describe(step['target'])}"
        if problem:
            # A recorded target on a Compose screen names an XML id that the final release has not.
            compose = expected_before is not None and expected_before.activity.endswith(COMPOSE_SCREENS)
            change = (COMPOSE_REASON, False) if compose else \
                self.expected_change("target", step, expected_before, before)
            self.return_from_resolved_intent(step)
            return self._outcome(session, number, label, reached, False, problem, change)
        expected = self.screens.get(step["after"]) if step["after"] else None
        if expected is None and step["before"]:
            # The real app left its own window (a system screen, another app): the phone matches when it
            # landed where the recording did (same rule as in the app: activity and Jaccard).
            after = self.screen(foreground=True)
            if after.activity.startswith(self.package + "/"):
                return self._outcome(session, number, label, reached, False, f"stayed in {after.activity}")
            landing = self.landings.get(step.get("landing") or "")
            if landing is not None and after.same_as(landing):
                return self._outcome(session, number, label, reached, True, "left the app as recorded")
            outcome = self._outcome(session, number, label, reached, False,
                                    "left the app for " + differences(after, landing))
            outcome.other_app = True
            return outcome
        if expected is None:
            return self._outcome(session, number, label, reached, False, "")  # outside, counted apart
        after = self.screen()
        matched = after.same_as(expected)
        detail = "" if matched else differences(after, expected)
        change = None if matched else self.expected_change("next", step, expected, after)
        return self._outcome(session, number, label, reached, matched, detail, change)

    def _outcome(self, session: int, number: int, label: str, reached: bool, matched: bool, detail: str,
                 change: "tuple[str, bool] | None" = None) -> Outcome:
        reason, environment = change or (None, False)
        return Outcome(self.app, session, number, label, reached, matched, detail,
                       None if environment else reason, environment=reason if environment else None)

    def return_from_resolved_intent(self, step: dict) -> None:
        """Come back to the app after an intent this phone resolved without asking (REPLAY RULE, for review).

        A recorded tap on the resolver's "Just once" / "Always" that is not on our screen while our phone
        shows another app: the recording phone had several apps for the intent and asked, this phone has
        one and started it (PackageManagerService.chooseBestActivity).  The recording's next screen is the
        app's own (its user came back from the chosen app, which DroidTask's recorder did not log), so the
        replay comes back with BACK, as that user did, instead of replaying the rest of the session in the
        other app.
        """
        after = self.screens.get(step["after"]) if step.get("after") else None
        if (_target_id(step) in RESOLVER_BUTTONS and after is not None
                and after.activity.startswith(self.package + "/")
                and not self.screen().activity.startswith(self.package + "/")):
            self.device.shell("input keyevent BACK")

    def expected_change(self, on: str, step: dict, recorded: "Screen | None", ours: Screen) -> "tuple[str, bool] | None":
        """The first expected change (common ones, then the app's) that explains a miss: (reason, environment)."""
        changes = EXPECTED_CHANGES + tuple(getattr(app_module(self.app), "CHANGES", ()))
        return next(((c.reason, c.environment) for c in changes
                     if c.on == on and c.applies(step, recorded, ours)), None)


# -- seeds: the data the recordings show on their first screens, put there through adb ---------
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONTACTS_URI = "content://com.android.contacts"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"


def add_contact(device, name: str, number: str, email: str = "") -> None:
    """A contact with a mobile number (and a home e-mail address), put there as an app would: the provider."""
    device.shell(f"content insert --uri {CONTACTS_URI}/raw_contacts --bind account_name:n: --bind account_type:n:")
    listing = device.shell(f"content query --uri {CONTACTS_URI}/raw_contacts --projection _id --sort '_id DESC'")
    raw_id = int(re.search(r"_id=(\d+)", listing).group(1))
    for kind, binds in (("name", f"--bind 'data1:s:{name}'"),
                        ("phone_v2", f"--bind 'data1:s:{number}' --bind data2:i:2")):
        device.shell(f"content insert --uri {CONTACTS_URI}/data --bind raw_contact_id:i:{raw_id} "
                     f"--bind mimetype:s:vnd.android.cursor.item/{kind} {binds}")
    if email:  # ContactsContract.CommonDataKinds.Email, TYPE_HOME (1)
        device.shell(f"content insert --uri {CONTACTS_URI}/data --bind raw_contact_id:i:{raw_id} "
                     f"--bind mimetype:s:vnd.android.cursor.item/email_v2 --bind 'data1:s:{email}' --bind data2:i:1")


#: The recording phone's two SMS conversations: Alice (111111) "Hello" and Bob (222222) "Hey" (Messenger's
#: main screen ebe04be39b2a; its Conversation details list the members' numbers 111111 and 222222; the dialer
#: it opens dials 111111; Contacts' page of Alice, opened from Messenger, shows alice@mails.com; Contacts'
#: "Send SMS" lands on the thread with its message).  111111 is a short code: sending to it raised Android's
#: premium-SMS confirmation (com.android.phone's sms_short_code_confirm_message, state 2023-07-02_121339).
CONVERSATIONS = (("Alice", "111111", "alice@mails.com", "Hello"), ("Bob", "222222", "bob@mails.com", "Hey"))


def add_sms(device, number: str, body: str) -> None:
    """A received SMS, put there as the SMS app (the default SMS role holder) would: the provider."""
    device.shell(f"content insert --uri content://sms/inbox --bind address:s:{number} --bind 'body:s:{body}'")


def push_files(device, folder: str, files: dict[str, str]) -> None:
    """Push fixtures under the recording's file names and announce them to the media scanner."""
    for name, fixture in files.items():
        device.sync.push((FIXTURES / fixture).read_bytes(), f"{folder}/{name}")
        device.shell(f"{SCAN}{folder}/{name}")


#: The recording phone's shared storage, one phone for all apps: (folder, name, fixture, modified).
#: File Manager's first screen (d53745f040b2, its Files and Recents pages) lists the two recordings in
#: Music/Recordings, Diary.pdf (a PDF, 6.1 kB) in Download and six pictures and videos in DCIM; its
#: root (state 2023-06-30_194523) and Gallery's "Internal" folder (2 items, 073664fc497d) the two
#: screenshots; Notes' save dialog (DocumentsUI, Downloads) Diary.pdf again.  Nothing else is on it:
#: Documents shows "0 items", Music "1 item" (the Recordings folder).  The recordings are untagged, as Music
#: Player shows them (titles "test1" and "test2" from the file names, album "Recordings", artist "<unknown>").
SHARED_FILES = (
    ("/sdcard/Music/Recordings", "test1.m4a", "audio/recordings/2024_05_02_14_05_10.m4a", "2023-06-30 12:26:00"),
    ("/sdcard/Music/Recordings", "test2.m4a", "audio/recordings/2024_05_01_09_30_00.m4a", "2023-06-30 12:26:00"),
    ("/sdcard/Download", "Diary.pdf", "diary.pdf", "2023-06-30 12:22:00"),
    ("/sdcard/DCIM", "pic1.jpg", "forest.jpg", "2023-06-30 12:16:00"),
    ("/sdcard/DCIM", "pic2.jpg", "sunset.jpg", "2023-06-30 12:16:00"),
    ("/sdcard/DCIM", "video1.mp4", "clip_red.mp4", "2023-06-30 12:16:00"),
    ("/sdcard/DCIM", "video2.mp4", "clip_blue.mp4", "2023-06-30 12:15:00"),
    ("/sdcard/DCIM", "video3.mp4", "clip_red.mp4", "2023-06-30 12:15:00"),
    ("/sdcard/DCIM", "pic3.jpg", "forest.jpg", "2023-06-30 12:15:00"),
    ("/sdcard", "screen_2023-06-30_141247.png", "beach.png", "2023-06-30 14:12:00"),
    ("/sdcard", "screen_2023-06-30_143638.png", "beach.png", "2023-06-30 14:36:00"),
)


def seed_media(device) -> None:
    """The recording phone's shared storage (SHARED_FILES), with the recorded modification times."""
    for folder, name, fixture, modified in SHARED_FILES:
        device.sync.push((FIXTURES / fixture).read_bytes(), f"{folder}/{name}")
        device.shell(f"touch -d '{modified}' {folder}/{name}")
        device.shell(f"{SCAN}{folder}/{name}")


#: Commons' predefined themes a user picks in the theme list (CustomizationActivity.predefinedThemes);
#: "Custom" is not in the list: it is what a changed colour makes of a theme
THEMES = ("Light", "Dark", "Dark red", "White", "Black & White", "Auto light / dark")


def recorded_theme(facts: dict, session: dict) -> str | None:
    """The theme the session's first Customize colors screen shows in its recording, if one from the list."""
    for step in session["steps"]:
        for key in (step["before"], step["after"]):
            screen = facts["screens"].get(key or "")
            if screen and screen["activity"].endswith(CUSTOMIZATION) and "customization_theme" in screen["ids"]:
                found = [label for label in screen["labels"] if label in THEMES]
                return found[0] if len(found) == 1 else None
    return None


def app_module(app: str):
    """``conformance_apps.<app>``: the app's seed (``seed(device)``), expected changes (``CHANGES``) and,
    optionally, ``before_session(device[, session])``, run after each session's force-stop."""
    return importlib.import_module(f"conformance_apps.{app}")


def centre(node: dict) -> tuple[int, int]:
    left, top, right, bottom = (int(v) for v in _BOUNDS.fullmatch(node["bounds"]).groups())
    return (left + right) // 2, (top + bottom) // 2


def differences(ours: Screen, recorded: "Screen | None") -> str:
    if recorded is None:
        return f"activity {ours.activity} (the recording has no screen)"
    return (f"activity {ours.activity} (recorded {recorded.activity}); "
            f"jaccard {jaccard(ours.ids, recorded.ids):.2f}; "
            f"missing {sorted(recorded.ids - ours.ids)[:6]} extra {sorted(ours.ids - recorded.ids)[:6]}")


def describe(target: dict) -> str:
    parts = [f"{key}={target[key]!r}" for key in ("id", "text", "desc") if target[key]]
    return " ".join(parts) or f"class={target['class']!r}"


@dataclass
class Rates:
    """The figures of one app (or all).

    Every replayed action falls in one column: "outside" (it started in another app's window),
    "environment" (a difference the recording phone explains), "expected change" (one the pinned
    release makes on purpose), "other app differs" (it left the app, as recorded, for another
    screen than the recording's), or else "compared", where it either matched or is a mismatch.
    """

    compared: int = 0
    reached: int = 0
    matched: int = 0
    matched_when_reached: int = 0
    expected_change: int = 0
    other_app: int = 0
    environment: int = 0
    outside: int = 0

    def add(self, outcome: Outcome) -> None:
        if outcome.outside:
            self.outside += 1
        elif outcome.environment:
            self.environment += 1
        elif outcome.expected_change:
            self.expected_change += 1
        elif outcome.other_app:
            self.other_app += 1
        else:
            self.compared += 1
            self.reached += outcome.start_reached
            self.matched += outcome.matched
            self.matched_when_reached += outcome.matched and outcome.start_reached

    @classmethod
    def of(cls, outcomes: "list[Outcome]") -> "Rates":
        rates = cls()
        for outcome in outcomes:
            rates.add(outcome)
        return rates

    def __iadd__(self, other: "Rates") -> "Rates":
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    @property
    def mismatch(self) -> int:
        return self.compared - self.matched

    @property
    def match_rate(self) -> float:
        return self.matched / self.compared if self.compared else 0.0

    @property
    def reached_match_rate(self) -> float:
        return self.matched_when_reached / self.reached if self.reached else 0.0

    def counts(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def row(self, name: str) -> str:
        return (f"{name:14} {self.compared:8} {self.reached:7} {self.matched:7} {self.match_rate:6.1%} "
                f"{self.matched_when_reached:7} {self.reached_match_rate:6.1%} {self.expected_change:8} "
                f"{self.other_app:9} {self.environment:11} {self.outside:7} {self.mismatch:8}")


HEADER = (f"{'app':14} {'compared':>8} {'reached':>7} {'matched':>7} {'rate':>6} {'m.when':>7} {'rate':>6} "
          f"{'expected':>8} {'other app':>9} {'environment':>11} {'outside':>7} {'mismatch':>8}\n"
          f"{'':14} {'':8} {'':7} {'':7} {'':6} {'reached':>7} {'':6} {'change':>8} {'differs':>9}")


def table(rows: "dict[str, Rates]") -> str:
    """The per-app table with an overall row (what tools/conformance_report.py prints)."""
    overall = Rates()
    for rates in rows.values():
        overall += rates
    return "\n".join([HEADER, *(rates.row(app) for app, rates in rows.items()), overall.row("overall")])

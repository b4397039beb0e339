"""Each app's screens hold to its pinned release: resource-ids and labels from the release's sources.

``tests/data/release_facts/<app>.json`` (``tools/release_facts.py``) lists what
the release at its tag, with the Simple-Commons commit it pins, declares: its
resource-ids (layouts, menus, ``ids.xml``), its English strings and plurals,
and which views carry a fixed label.  The phone's screens are crawled along the
100 golden paths (every screen the reference agent sees), and:

- every resource-id in the app's namespace that a screen shows must be one the
  release declares, or one of the libraries the app is built with
  (:data:`LIBRARY_IDS`), or on the app's list of reasoned exceptions;
- every label (a text or content description with a letter, in the app's
  windows, that is not data: see ``release_exceptions.DATA``) must be one of
  the release's strings or plurals (format arguments filled in, HTML markup
  rendered, ``textAllCaps`` applied), a text its layouts set literally, or on
  the app's list of reasoned exceptions.

The exception lists (``release_exceptions.py``) may hold at most 1% of an
app's ids and 3% of its labels.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest
import release_exceptions

from pytest_mobileagent.tasks import APPS

ROOT = Path(__file__).resolve().parent.parent

# The module's fixture runs the 100 tasks twice (the reference agent, then a seeded random one):
# one worker runs all of the module instead of each worker paying for the runs.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("release_facts")]

FACTS = Path(__file__).parent / "data" / "release_facts"
#: task files' short app names -> facts file
FACTS_NAME = {"launcher": "applauncher", "music": "musicplayer", "recorder": "voicerecorder"}
#: facts name -> the app's package
PACKAGE = {FACTS_NAME.get(short, short): package for short, package in APPS.items()}

#: Ids that the apps' own sources do not declare because the libraries they are built with do;
#: in a dump they carry the app's package, as every library resource is merged into the app's R.
LIBRARY_IDS = {
    # AndroidX AppCompat, res/layout/abc_screen_toolbar.xml / abc_screen_simple.xml / abc_action_mode_bar.xml
    "action_bar_root": "appcompat abc_screen_simple.xml",
    "action_mode_bar_stub": "appcompat abc_screen_toolbar.xml",
    "action_mode_bar": "appcompat abc_action_mode_bar.xml",
    "action_context_bar": "appcompat abc_screen_toolbar.xml",
    "action_mode_close_button": "appcompat abc_action_mode_close_item_material.xml",
    # AndroidX AppCompat, res/layout/abc_popup_menu_item_layout.xml / abc_list_menu_item_layout.xml
    "title": "appcompat abc_popup_menu_item_layout.xml",
    "content": "appcompat abc_popup_menu_item_layout.xml",
    "submenuarrow": "appcompat abc_popup_menu_item_layout.xml",
    "group_divider": "appcompat abc_popup_menu_item_layout.xml",
    # AndroidX AppCompat, res/layout/abc_alert_dialog_material.xml (AlertDialog of appcompat)
    "parentPanel": "appcompat abc_alert_dialog_material.xml",
    "topPanel": "appcompat abc_alert_dialog_material.xml",
    "title_template": "appcompat abc_alert_dialog_title_material.xml",
    "alertTitle": "appcompat abc_alert_dialog_title_material.xml",
    "contentPanel": "appcompat abc_alert_dialog_material.xml",
    "scrollView": "appcompat abc_alert_dialog_material.xml",
    "customPanel": "appcompat abc_alert_dialog_material.xml",
    "custom": "appcompat abc_alert_dialog_material.xml",
    "buttonPanel": "appcompat abc_alert_dialog_button_bar_material.xml",
    "textSpacerNoButtons": "appcompat abc_alert_dialog_material.xml",
    "textSpacerNoTitle": "appcompat abc_alert_dialog_material.xml",
    "scrollIndicatorUp": "appcompat abc_alert_dialog_material.xml",
    "scrollIndicatorDown": "appcompat abc_alert_dialog_material.xml",
    "spacer": "appcompat abc_alert_dialog_button_bar_material.xml",
    # AndroidX AppCompat SearchView, res/layout/abc_search_view.xml
    "search_bar": "appcompat abc_search_view.xml",
    "search_button": "appcompat abc_search_view.xml",
    "search_edit_frame": "appcompat abc_search_view.xml",
    "search_mag_icon": "appcompat abc_search_view.xml",
    "search_plate": "appcompat abc_search_view.xml",
    "search_src_text": "appcompat abc_search_view.xml",
    "search_close_btn": "appcompat abc_search_view.xml",
    "submit_area": "appcompat abc_search_view.xml",
    "search_go_btn": "appcompat abc_search_view.xml",
    "search_voice_btn": "appcompat abc_search_view.xml",
    # Material Components: BottomSheetDialog (design_bottom_sheet_dialog.xml), Snackbar
    # (design_layout_snackbar_include.xml), TextInputLayout (design_text_input_end_icon.xml etc.)
    "container": "material design_bottom_sheet_dialog.xml",
    "coordinator": "material design_bottom_sheet_dialog.xml",
    "design_bottom_sheet": "material design_bottom_sheet_dialog.xml",
    "touch_outside": "material design_bottom_sheet_dialog.xml",
    "snackbar_text": "material design_layout_snackbar_include.xml",
    "snackbar_action": "material design_layout_snackbar_include.xml",
    "text_input_end_icon": "material design_text_input_end_icon.xml",
    "text_input_start_icon": "material design_text_input_start_icon.xml",
    "textinput_placeholder": "material TextInputLayout (IndicatorViewController)",
    "textinput_helper_text": "material TextInputLayout (IndicatorViewController)",
    "textinput_error": "material TextInputLayout (IndicatorViewController)",
    "textinput_counter": "material TextInputLayout",
    "textinput_prefix_text": "material design_text_input_start_icon.xml",
    "textinput_suffix_text": "material design_text_input_end_icon.xml",
    "navigation_bar_item_icon_view": "material design_bottom_navigation_item.xml",
    "navigation_bar_item_labels_group": "material design_bottom_navigation_item.xml",
    "navigation_bar_item_small_label_view": "material design_bottom_navigation_item.xml",
    "navigation_bar_item_large_label_view": "material design_bottom_navigation_item.xml",
    "navigation_bar_item_icon_container": "material design_bottom_navigation_item.xml",
    "navigation_bar_item_active_indicator_view": "material design_bottom_navigation_item.xml",
}

#: Strings the libraries the apps are built with put in their windows (English values).
LIBRARY_STRINGS = {
    # AndroidX AppCompat res/values/strings.xml
    "Navigate up": "appcompat abc_action_bar_up_description",
    "More options": "appcompat abc_action_menu_overflow_description",
    "Done": "appcompat abc_action_mode_done (the action mode's close button)",
    "Collapse": "appcompat abc_toolbar_collapse_description",
    "Clear query": "appcompat abc_searchview_description_clear",
    "Search": "appcompat abc_searchview_description_search",
    "Submit query": "appcompat abc_searchview_description_submit",
    "Voice search": "appcompat abc_searchview_description_voice",
    "Search…": "appcompat abc_search_hint",
    # the framework's dialogs in the app's window (frameworks/base core/res/res/values/strings.xml)
    "Previous month": "framework date_picker_prev_month_button (DatePickerDialog)",
    "Next month": "framework date_picker_next_month_button (DatePickerDialog)",
    # Material Components res/values/strings.xml
    "Show password": "material password_toggle_content_description",
    "Clear text": "material clear_text_end_icon_content_description",
}

OBSERVING_AGENT = '''
import json, os
from pytest_mobileagent.agents.builtin import RandomAgent, ReplayAgent


def observing(base):
    class Observing(base):
        """A built-in agent, writing down every screen it is shown."""

        def reset(self, task):
            super().reset(task)
            self._task = task.name

        def step(self, observation):
            with open(os.environ["MOBILEAGENT_OBSERVATIONS"], "a") as out:
                out.write(json.dumps({"task": self._task, "xml": observation.hierarchy}) + "\\n")
            return super().step(observation)
    return Observing


def pytest_mobileagent_register_agents(registry):
    registry.register("replay-observing", lambda context: observing(ReplayAgent)(context))
    registry.register("random-observing", lambda context: observing(RandomAgent)(context))
'''


def rendered(value: str) -> str:
    """A string as a view shows it: HTML markup (Html.fromHtml, as the apps' FAQ and dialogs use) dropped."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", value).replace("&amp;", "&")).strip()


class ReleaseStrings:
    """Whether a shown text is one of the release's strings, as a view shows it."""

    def __init__(self, facts: dict) -> None:
        self.texts: set[str] = set(facts["literals"]) | set(LIBRARY_STRINGS)
        #: (pattern, whether its arguments must be release strings themselves)
        self.formats: list[tuple[re.Pattern, bool]] = []
        for raw in [*facts["strings"].values(), *(i for items in facts["plurals"].values() for i in items)]:
            value = rendered(raw)
            if not re.search(r"%(\d+\$)?[sd]", value):
                self.texts.add(value.replace("%%", "%"))
                continue
            pieces = re.split(r"%(?:\d+\$)?[sd]", value)
            pattern = re.compile("(.+?)".join(map(re.escape, pieces)), re.S)
            # "%s (%s)" has no words of its own: it matches a text only when what fills it is the
            # release's too ("Mile (mi)" from unit_name_with_symbol_format and two unit strings)
            self.formats.append((pattern, not re.search("[A-Za-z]", "".join(pieces))))

    def __contains__(self, text: str) -> bool:
        return self._match(re.sub(r"\s+", " ", text).strip(), depth=0)

    def _match(self, text: str, depth: int) -> bool:
        if text in self.texts or (text == text.upper() and any(t.upper() == text for t in self.texts)):
            return True  # verbatim, or capitalised by textAllCaps
        for pattern, strict in self.formats:
            match = pattern.fullmatch(text)
            if match and (not strict or (depth == 0 and all(
                    self._match(arg, depth + 1) or not re.search("[A-Za-z]", arg) for arg in match.groups()))):
                return True
        return False


@pytest.fixture(scope="module")
def screens(phone, tmp_path_factory) -> dict[str, list[dict]]:
    """app facts name -> every node the reference agent saw in that app's windows, over the 100 golden paths."""
    tmp = tmp_path_factory.mktemp("release_facts")
    (tmp / "observing_agent.py").write_text(OBSERVING_AGENT)
    observations = tmp / "observations.jsonl"
    # The reference agent's screens, then those a seeded random agent reaches from each task's start
    # within the task's step budget: the golden-path screens and the ones around them.
    for agent in ("replay-observing", "random-observing"):
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", str(ROOT / "task_tests"), "-p", "observing_agent",
             "--agent", agent, "--agent-seed", "1", "--device", phone.serial, "-q", "-p", "no:cacheprovider",
             "--rootdir", str(ROOT)],
            cwd=tmp, capture_output=True, text=True, timeout=600,
            env={**os.environ, "MOBILEAGENT_OBSERVATIONS": str(observations)},
        )
        assert observations.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
    packages = {package: app for app, package in PACKAGE.items()}
    nodes: dict[str, list[dict]] = defaultdict(list)
    seen: set[tuple] = set()
    for line in observations.read_text().splitlines():
        for node in nodes_with_owner(ET.fromstring(json.loads(line)["xml"].encode())):
            app = packages.get(node.get("package", ""))
            key = (app, node.get("owner"), node.get("text"), node.get("content-desc"), node.get("class"))
            if app and key not in seen:
                seen.add(key)
                nodes[app].append(node)
    return nodes


def nodes_with_owner(root: ET.Element, owner: str = "") -> list[dict]:
    """Every node's attributes, with ``owner``: its own resource-id, else its nearest ancestor's."""
    out = []
    for child in root:
        if child.tag != "node":
            continue
        node = dict(child.attrib)
        node["owner"] = (node.get("resource-id") or owner).split(":id/")[-1]
        out.append(node)
        out.extend(nodes_with_owner(child, node["owner"]))
    return out


def shown_ids(app: str, nodes: list[dict]) -> set[str]:
    prefix = f"{PACKAGE[app]}:id/"
    return {n["resource-id"][len(prefix):] for n in nodes if n.get("resource-id", "").startswith(prefix)}


def shown_labels(app: str, nodes: list[dict]) -> set[str]:
    """Texts and content descriptions with a letter in them, except the app's data."""
    data = release_exceptions.DATA.get(app, {})
    labels = set()
    for node in nodes:
        for value in (node.get("text", ""), node.get("content-desc", "")):
            if re.search("[A-Za-z]", value) and node["owner"] not in data and value not in data:
                labels.add(value)
    return labels


APPS_WITH_FACTS = sorted(p.stem for p in FACTS.glob("*.json"))


def test_release_strings_match_as_views_show_them():
    strings = ReleaseStrings({
        "literals": ["C"], "plurals": {"items": ["%d item", "%d items"]},
        "strings": {"ok": "OK", "faq": "Get <a href=x>our app</a>\n   now", "fmt": "%s (%s)", "mile": "Mile",
                    "mi": "mi", "save": "Save %1$s?"},
    })
    for shown in ("OK", "C", "Get our app now", "3 items", "Mile (mi)", "Save it?", "MILE", "More options"):
        assert shown in strings, shown
    for shown in ("Ok", "Alice", "Alice (mi)", "Mile (Alice)", "3 apples", "Get our app"):
        assert shown not in strings, shown


@pytest.mark.parametrize("app", APPS_WITH_FACTS)
def test_screen_ids_are_the_release_s(app, screens):
    facts = json.loads((FACTS / f"{app}.json").read_text())
    ids = shown_ids(app, screens[app])
    known = set(facts["ids"]) | set(LIBRARY_IDS)
    allowed = release_exceptions.IDS.get(app, {})
    unknown = sorted(ids - known - set(allowed))
    print(f"{app} {facts['release']}: {len(ids & known)}/{len(ids)} ids in the release's sources; "
          f"{len(allowed)} excepted")
    assert not unknown, f"ids the release does not declare: {unknown}"
    assert len(allowed) <= 0.01 * len(ids), f"{len(allowed)} of {len(ids)} ids excepted (at most 1%)"


@pytest.mark.parametrize("app", APPS_WITH_FACTS)
def test_screen_labels_are_the_release_s(app, screens):
    facts = json.loads((FACTS / f"{app}.json").read_text())
    labels = shown_labels(app, screens[app])
    strings = ReleaseStrings(facts)
    allowed = release_exceptions.LABELS.get(app, {})
    unknown = sorted(t for t in labels if t not in strings and t not in allowed)
    found = sum(t in strings for t in labels)
    print(f"{app} {facts['release']}: {found}/{len(labels)} labels are the release's strings; "
          f"{len(allowed)} excepted")
    assert not unknown, f"labels that are none of the release's strings: {unknown}"
    assert len(allowed) <= 0.03 * len(labels), f"{len(allowed)} of {len(labels)} labels excepted (at most 3%)"

"""The music and recorder judges accept other reasonable paths and reject near misses.

Each case replays a scripted path (instead of the golden one) through the
real plugin on a virtual phone and checks the task's verdict.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# task -> (script of golden actions as Python source, expected success)
CASES = {
    # other ways to the goal
    "test_recorder_delete": ('[g.tap(text="Player"), g.tap(id="overflow_menu_icon"), g.tap(text="Delete"), '
                             'g.tap(text="Yes")]', True),
    "test_recorder_theme": ('[g.tap(desc="Settings"), g.tap(id="settings_color_customization_holder"), '
                            'g.tap(id="customization_theme_holder"), g.tap(text="OK"), g.tap(text="Dark red"), '
                            'g.key("BACK"), g.tap(text="Save")]', True),
    "test_music_player_album_sort_by_year": ('[g.tap(text="Albums"), g.tap(desc="Sort by"), g.tap(text="Year"), '
                                             'g.tap(text="Descending"), g.tap(text="OK")]', True),
    # near misses
    "test_recorder_bit_rate": ('[g.tap(desc="Settings"), g.tap(id="settings_bitrate_holder"), '
                               'g.tap(text="64 kbps")]', False),
    "test_recorder_extension": ('[g.tap(desc="Settings"), g.tap(id="settings_extension_holder"), '
                                'g.tap(text="ogg (Opus)")]', False),
    "test_recorder_rename": ('[g.tap(text="Player"), g.long_press(id="recording_title"), g.tap(desc="Rename"), '
                             'g.type("voice2", id="rename_recording_title"), g.tap(text="OK")]', False),
    "test_recorder_delete_all": ('[g.tap(text="Player"), g.long_press(id="recording_title"), '
                                 'g.tap(desc="More options"), g.tap(text="Select all"), g.tap(desc="Delete"), '
                                 'g.tap(text="No")]', False),
    "test_recorder_rename_all": ('[g.tap(text="Player"), g.long_press(id="recording_title"), '
                                 'g.tap(desc="Rename"), g.type("voice1", id="rename_recording_title"), '
                                 'g.tap(text="OK")]', False),
    "test_recorder_theme ": ('[g.tap(desc="Settings"), g.tap(id="settings_color_customization_holder"), '
                             'g.tap(id="customization_theme_holder"), g.tap(text="OK"), g.tap(text="Dark red"), '
                             'g.tap(id="customization_theme_holder"), g.tap(text="White"), g.tap(desc="Save")]',
                             False),
    "test_music_player_album_sort_by_year ": ('[g.tap(text="Albums"), g.tap(desc="Sort by"), '
                                              'g.tap(text="Artist Name"), g.tap(text="OK")]', False),
    "test_music_player_config_equalizer": ('[g.tap(desc="Equalizer"), g.tap(id="equalizer_preset"), '
                                           'g.tap(text="Hip Hop")]', False),
    "test_music_player_create_playlist": ('[g.tap(text="Playlists"), g.tap(desc="More options"), '
                                          'g.tap(text="Create new playlist"), g.type("test2", id="new_playlist_title"), '
                                          'g.tap(text="OK")]', False),
    "test_music_player_playlist_sort_desc": ('[g.tap(desc="Sort by"), g.tap(text="Track Count"), '
                                             'g.tap(text="Descending"), g.tap(text="OK")]', False),
}

AGENT = '''
import json, os
from pytest_mobileagent import golden as g
from pytest_mobileagent.agents.builtin import ReplayAgent


class ScriptedAgent(ReplayAgent):
    """Replays the path scripted for the task (from $SCRIPTS_JSON) instead of the golden one."""

    def reset(self, task):
        scripts = json.load(open(os.environ["SCRIPTS_JSON"]))
        self._actions = eval(scripts[task.name], {"g": g})
        self._package = task.package


def pytest_mobileagent_register_agents(registry):
    registry.register("scripted", lambda context: ScriptedAgent(context))
'''


def run(phone, tmp_path: Path, cases: dict) -> dict:
    (tmp_path / "scripted_agent.py").write_text(AGENT)
    scripts = tmp_path / "scripts.json"
    scripts.write_text(json.dumps({name.strip(): script for name, (script, _ok) in cases.items()}))
    out = tmp_path / "results.json"
    names = " or ".join(sorted({name.strip() for name in cases}))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "task_tests" / "test_recorder.py"),
         str(ROOT / "task_tests" / "test_music.py"), "-k", names, "-p", "scripted_agent", "--agent", "scripted",
         "--device", phone.serial, "--results-json", str(out), "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "SCRIPTS_JSON": str(scripts), "PYTHONPATH": f"{tmp_path}:{ROOT}"})
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
    return {t["task"]: t for t in json.loads(out.read_text())["tasks"]}


@pytest.fixture(scope="module")
def verdicts(phone, tmp_path_factory):
    """Two runs: the names with a trailing space are second cases for the same task."""
    first = {k: v for k, v in CASES.items() if not k.endswith(" ")}
    second = {k: v for k, v in CASES.items() if k.endswith(" ")}
    found = run(phone, tmp_path_factory.mktemp("first"), first)
    again = run(phone, tmp_path_factory.mktemp("second"), second)
    return {**found, **{name + " ": record for name, record in again.items()}}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_judge_gives_the_expected_verdict(verdicts, case):
    record = verdicts[case]
    expected = CASES[case][1]
    assert record["stop_reason"] == "finished", record["error"]
    assert record["success"] is expected, f"{case.strip()}: {CASES[case][0]} -> {record['error']}"

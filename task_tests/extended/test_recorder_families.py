"""Simple Voice Recorder: task families (recording names drawn per instance).

Seeds push the fixture recordings into the recorder's folder under drawn
names with `adb push` and a media-scan broadcast (test_recorder.py's
push_recordings, whose fixtures are files the project made); the judges read
the Player list and the folder on the phone.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_recorder import FIXTURES, FOLDER, RECORDINGS, audio_files, on_settings
from .names import WORDS

pytestmark = pytest.mark.suite("extended")

SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"


def _recordings(rng):
    names = [f"{word}.m4a" for word in rng.sample(WORDS, 3)]
    return {"name": rng.choice(names), "recordings": names}


@pytest.fixture
def named_recordings(params, device):
    """The instance's recordings (the fixtures' audio under drawn names); nothing left after the task."""
    device.shell(f"rm -rf {FOLDER}")
    for name, fixture in zip(params.recordings, RECORDINGS):
        device.push(f"{FOLDER}/{name}", (FIXTURES / fixture).read_bytes())
        device.shell(f"{SCAN}{FOLDER}/{name}")
    yield
    device.shell(f"rm -rf {FOLDER}")


def _rename(rng):
    drawn = _recordings(rng)
    new = rng.choice([w for w in WORDS if f"{w}.m4a" not in drawn["recordings"]])
    return {"old": drawn["name"], "new": f"{new}.m4a", "recordings": drawn["recordings"]}


@task(app="recorder", storage=[FOLDER], prompt="rename the recording '{old}' to '{new}'", params=_rename,
      golden=lambda p: [g.tap(text="Player"), g.long_press(text=p.old), g.tap(desc="Rename"),
                        g.type(p.new, id="rename_recording_title"), g.tap(text="OK")])
def test_recorder_rename_recording(params, named_recordings, screen, device):
    assert params.new in screen.texts(id="recording_title"), "the Player list does not show the new name"
    wanted = sorted(params.new if name == params.old else name for name in params.recordings)
    assert audio_files(device) == wanted


@task(app="recorder", storage=[FOLDER], prompt="delete the recording '{name}'", params=_recordings,
      golden=lambda p: [g.tap(text="Player"), g.long_press(text=p.name), g.tap(desc="Delete"), g.tap(text="Yes")])
def test_recorder_delete_recording(params, named_recordings, screen, device):
    assert params.name not in screen.texts(id="recording_title")
    assert audio_files(device) == sorted(n for n in params.recordings if n != params.name)


BITRATES = ("32 kbps", "64 kbps", "96 kbps", "160 kbps", "192 kbps", "256 kbps")


@task(app="recorder", storage=[FOLDER], prompt="change bitrate to {bitrate}", params={"bitrate": BITRATES},
      golden=lambda p: [g.tap(desc="Settings"), g.tap(id="settings_bitrate_holder"), g.tap(text=p.bitrate)])
def test_recorder_set_bitrate(params, screen):
    assert on_settings(screen)
    assert screen.text(id="settings_bitrate") == params.bitrate

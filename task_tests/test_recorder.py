"""Simple Voice Recorder: the ten recorder_* tasks of MobileAgentBench.

Seed recordings are files pushed into the recorder's folder with `adb push`
and announced with a media-scan broadcast, as on any phone; each seed removes
what it pushed afterwards, since `pm clear` does not touch shared storage.
Judges read the screen, and the files on the phone where the task changes
them (rename, delete, empty the recycle bin).
"""

from __future__ import annotations

import shlex

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.media import media_dir

APP = "com.simplemobiletools.voicerecorder"
FOLDER = "/sdcard/Music/Recordings"
TRASH = f"{FOLDER}/.trash"
FIXTURES = media_dir() / "audio" / "recordings"
RECORDINGS = sorted(p.name for p in FIXTURES.glob("*.m4a"))
THEMES = ("System default (Material You)", "Auto light / dark", "Light", "Dark", "Dark red", "White",
          "Black & White", "Custom")


def audio_files(device, folder: str = FOLDER) -> list[str]:
    """Names of the recordings (visible audio files) in a folder on the phone."""
    listing = device.shell(f"ls -1 {shlex.quote(folder)} 2>/dev/null")
    return sorted(n for n in listing.split() if not n.startswith(".") and n.lower().endswith((".m4a", ".mp3", ".ogg")))


@pytest.fixture
def recordings_folder(device):
    """An empty recorder folder before the task, and nothing left in it after."""
    device.shell(f"rm -rf {FOLDER}")
    yield FOLDER
    device.shell(f"rm -rf {FOLDER}")


def push_recordings(device, names, folder: str = FOLDER) -> None:
    for name in names:
        path = f"{folder}/{name}"
        device.push(path, (FIXTURES / name).read_bytes())
        device.shell(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{path}")


@pytest.fixture
def one_recording(device, recordings_folder):
    push_recordings(device, RECORDINGS[:1])
    return RECORDINGS[0]


@pytest.fixture
def three_recordings(device, recordings_folder):
    push_recordings(device, RECORDINGS)
    return RECORDINGS


@pytest.fixture
def recording_in_recycle_bin(device, recordings_folder):
    push_recordings(device, RECORDINGS[:1], TRASH)
    return RECORDINGS[0]


def on_settings(screen) -> bool:
    return screen.activity.endswith(".SettingsActivity")


@task(app="recorder", storage=[FOLDER], prompt="change bitrate to 32 kbps",
      golden=[g.tap(desc="Settings"), g.tap(id="settings_bitrate_holder"), g.tap(text="32 kbps")])
def test_recorder_bit_rate(screen):
    assert on_settings(screen)
    assert screen.text(id="settings_bitrate") == "32 kbps"


@task(app="recorder", storage=[FOLDER], prompt="delete the last recorded audio", min_steps=4,
      min_steps_reason="the paper counts 5; opening the Player tab, a long press, Delete and Yes do it",
      golden=[g.tap(text="Player"), g.long_press(id="recording_title"), g.tap(desc="Delete"),
              g.tap(text="Yes")])
def test_recorder_delete(one_recording, screen, device):
    assert "No recordings" in (screen.text(id="recordings_placeholder") or "")
    assert audio_files(device) == [], "the recording is still in the recorder's folder"


@task(app="recorder", storage=[FOLDER], prompt="delete all recorded audio", min_steps=6,
      min_steps_reason="the paper deletes the three recordings one by one (13); Select all (under More options: "
                       "Rename, Share and Delete fill the selection bar) does it at once",
      golden=[g.tap(text="Player"), g.long_press(id="recording_title"), g.tap(desc="More options"),
              g.tap(text="Select all"), g.tap(desc="Delete"), g.tap(text="Yes")])
def test_recorder_delete_all(three_recordings, screen, device):
    assert "No recordings" in (screen.text(id="recordings_placeholder") or "")
    assert audio_files(device) == [], "recordings are still in the recorder's folder"


@task(app="recorder", storage=[FOLDER], prompt="go to settings and empty the recycle bin", min_steps=4,
      min_steps_reason="the paper's recycle bin was empty (3 steps, judged on the click); here it holds a "
                       "recording, so emptying it asks for confirmation",
      golden=[g.tap(desc="Settings"), g.swipe("up", id="settings_nested_scrollview"),
              g.tap(id="settings_empty_recycle_bin_holder"), g.tap(text="Yes")])
def test_recorder_empty_trash(recording_in_recycle_bin, screen, device):
    assert on_settings(screen)
    assert screen.text(id="settings_empty_recycle_bin_size") == "0 B"
    assert audio_files(device, TRASH) == [], "the recycle bin still holds a recording"


@task(app="recorder", storage=[FOLDER], prompt="use mp3 as the format for new recordings",
      golden=[g.tap(desc="Settings"), g.tap(id="settings_extension_holder"), g.tap(text="mp3")])
def test_recorder_extension(screen):
    assert on_settings(screen)
    assert screen.text(id="settings_extension") == "mp3"


@task(app="recorder", storage=[FOLDER], prompt="go to recycle bin page", golden=[g.tap(text="Recycle Bin")])
def test_recorder_recycle_bin(screen):
    assert screen.exists(id="trash_holder"), "the Recycle Bin tab is not shown"


@task(app="recorder", storage=[FOLDER], prompt="change settings, so that the deleted items will not go to recycle bin",
      golden=[g.tap(desc="Settings"), g.swipe("up", id="settings_nested_scrollview"),
              g.tap(id="settings_use_recycle_bin_holder")])
def test_recorder_recycle_settings(screen):
    assert on_settings(screen)
    assert screen.exists(id="settings_use_recycle_bin")
    assert not screen.checked(id="settings_use_recycle_bin")


@task(app="recorder", storage=[FOLDER], prompt="rename the first audio to 'voice.m4a'", min_steps=5,
      min_steps_reason="the paper counts 6; the rename dialog takes the new name in one typing action",
      golden=[g.tap(text="Player"), g.long_press(id="recording_title"), g.tap(desc="Rename"),
              g.type("voice.m4a", id="rename_recording_title"), g.tap(text="OK")])
def test_recorder_rename(one_recording, screen, device):
    titles = screen.texts(id="recording_title")
    assert titles and titles[0].lower() == "voice.m4a"
    assert [name.lower() for name in audio_files(device)] == ["voice.m4a"]


def _rename(old: str, new: str) -> list:
    return [g.long_press(text=old), g.tap(desc="Rename"), g.type(new, id="rename_recording_title"),
            g.tap(text="OK")]


@task(app="recorder", storage=[FOLDER], prompt="rename all audio to voice1.m4a, voice2.m4a, and so on",
      golden=[g.tap(text="Player"),
              *[step for i, name in enumerate(RECORDINGS, 1) for step in _rename(name, f"voice{i}.m4a")]])
def test_recorder_rename_all(three_recordings, screen, device):
    wanted = [f"voice{i}.m4a" for i in range(1, len(three_recordings) + 1)]
    assert sorted(t.lower() for t in screen.texts(id="recording_title")) == wanted
    assert sorted(name.lower() for name in audio_files(device)) == wanted


@task(app="recorder", storage=[FOLDER], prompt="change app theme to dark red",
      golden=[g.tap(desc="Settings"), g.tap(id="settings_color_customization_holder"),
              g.tap(id="customization_theme_holder"), g.tap(text="OK"),  # Commons' app-icon warning, once
              g.tap(text="Dark red"), g.tap(desc="Save")])
def test_recorder_theme(screen, events, progress):
    progress.reach("Dark red picked", screen.text(id="customization_theme") == "Dark red")
    clicks = events.clicks()
    # Save is the toolbar button, or the button of the dialog BACK shows over unsaved colours.
    saves = [i for i, click in enumerate(clicks) if click.desc == "Save" or click.text == ("Save",)]
    assert saves, "no colours were saved"
    picked = [click.text[0] for click in clicks[:saves[-1]] if click.text and click.text[0] in THEMES]
    assert picked and picked[-1] == "Dark red", f"the theme saved last was {picked[-1:] or 'unchanged'}"

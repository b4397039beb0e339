"""Simple Music Player: task families (playlist names, songs and presets drawn per instance).

Songs are the project's fixture files pushed to /sdcard/Music with `adb push`
and a media-scan broadcast (test_music.py's fixtures); playlists live in the
app's own database, which only its screens show, so the judges read the
Playlists tab or the playlist opened.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

# music_folder, music_ui, on_albums_tab and songs are fixtures (the seeds of the fixed tasks)
from ..test_music import MUSIC, music_folder, music_ui, on_albums_tab, playlist_created, playlists, songs  # noqa: F401
from .names import WORDS

pytestmark = pytest.mark.suite("extended")

#: The fixtures' track titles (their ID3 TIT2 tags, set by fixtures/make_audio.py)
TITLES = ("Evening Tone", "Last Pulse", "Morning Tone", "Square Dance")
PRESETS = ("Classical", "Dance", "Flat", "Folk", "Heavy Metal", "Hip Hop", "Jazz", "Pop")


def create_playlist(name: str) -> list:
    return [g.tap(desc="More options"), g.tap(text="Create new playlist"), g.type(name, id="new_playlist_title"),
            g.tap(text="OK")]


@task(app="music", storage=[MUSIC], prompt="create a new playlist: {name}", params={"name": WORDS},
      golden=lambda p: [g.tap(text="Playlists"), *create_playlist(p.name)])
def test_music_create_named_playlist(params, on_albums_tab, screen):
    assert playlist_created(screen, params.name), f"no playlist '{params.name}' among {playlists(screen)}"


def _playlist(rng):
    return {"name": rng.choice(WORDS).capitalize(), "songs": sorted(rng.sample(TITLES, rng.randint(2, 3)))}


@task(app="music", storage=[MUSIC], prompt="create a playlist '{name}' with the songs {songs}, and open it",
      params=_playlist,
      golden=lambda p: [g.tap(text="Tracks"), g.long_press(text=p.songs[0]), *[g.tap(text=s) for s in p.songs[1:]],
                        g.tap(desc="More options"), g.tap(text="Add to playlist"), g.tap(text="Create new playlist"),
                        g.type(p.name, id="new_playlist_title"), g.tap(text="OK"), g.tap(text="Playlists"),
                        g.tap(text=p.name)])
def test_music_playlist_with_songs(params, songs, screen):
    assert screen.activity.endswith(".TracksActivity"), "no playlist is open"
    assert screen.exists(text=params.name), f"the playlist open is not '{params.name}'"
    assert sorted(screen.texts(id="track_title")) == params.songs


@task(app="music", storage=[MUSIC], prompt="config equalizer to {preset}", params={"preset": PRESETS},
      golden=lambda p: [g.tap(desc="Equalizer"), g.tap(id="equalizer_preset"), g.tap(text=p.preset)])
def test_music_equalizer_preset(params, screen):
    assert screen.text(id="equalizer_preset") == params.preset

"""Simple Music Player: query tasks (the agent reads the phone and answers).

The songs are the project's tagged MP3s (fixtures/audio/music), pushed to
/sdcard/Music and announced with a media-scan broadcast, as the MobileAgentBench
tasks seed theirs (task_tests/test_music.py). The app opens on its playlists;
the answers take the Tracks or Albums tab.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_music import MUSIC, music_folder, songs  # noqa: F401 - fixtures the tasks use
from .queries import Answers

pytestmark = pytest.mark.suite("extended")

#: the fixtures' albums (their tags)
ALBUMS = ("Dusk", "First Light", "Grid")


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_music_query_album": Answers(
        right=("Grid", "grid", "It is on the album Grid."),
        wrong=("Dusk", "First Light", "Grid or Dusk"),
        shown=("Grid", "Last Pulse")),
    "test_music_query_length": Answers(
        right=("0:02", "00:02", "It lasts 2 seconds."),
        wrong=("0:01", "0:03", "2 minutes"),
        shown=("Last Pulse", "00:02")),
    "test_music_query_album_tracks": Answers(
        right=("Square Dance, Last Pulse", "1. Square Dance\n2. Last Pulse",
               "square dance and last pulse"),
        wrong=("Last Pulse, Square Dance", "Square Dance", "Square Dance, Last Pulse, Dusk"),
        shown=("Square Dance", "Last Pulse")),
}


@task(app="music", storage=[MUSIC], prompt="On which album is the song 'Last Pulse'?",
      golden=[g.tap(text="Albums"), g.tap(text="Grid"), g.finish(answer="Grid")])
def test_music_query_album(songs, answer):  # noqa: F811
    assert answer.mentions("Grid", excluding=[a for a in ALBUMS if a != "Grid"])


@task(app="music", storage=[MUSIC], prompt="How long is the song 'Last Pulse'?",
      golden=[g.tap(text="Tracks"), g.finish(answer="0:02")])
def test_music_query_length(songs, answer):  # noqa: F811
    # The file plays 2.088 s; the app prints whole seconds (commons getFormattedDuration).
    assert answer.matches_duration("0:02")


@task(app="music", storage=[MUSIC], prompt="Which songs are on the album 'Grid', in track order?",
      golden=[g.tap(text="Albums"), g.tap(text="Grid"), g.finish(answer="Square Dance, Last Pulse")])
def test_music_query_album_tracks(songs, answer):  # noqa: F811
    assert answer.matches_list(["Square Dance", "Last Pulse"], ordered=True)

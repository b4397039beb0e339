"""Simple Voice Recorder: query tasks (the agent reads the phone and answers).

The recordings are the project's M4A files (fixtures/audio/recordings), pushed
into the recorder's folder and announced with a media-scan broadcast, as the
MobileAgentBench tasks seed theirs (task_tests/test_recorder.py). The app opens
on its recorder; the answers take the Player tab.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_recorder import FOLDER, recordings_folder, three_recordings  # noqa: F401 - fixtures the tasks use
from .queries import Answers

pytestmark = pytest.mark.suite("extended")

SECOND = "2024_05_02_14_05_10.m4a"
PLAYER = [g.tap(text="Player")]


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_recorder_query_length": Answers(
        right=("0:02", "2 seconds", "The recording is 00:02 long."),
        wrong=("0:01", "0:03", "0:20"),
        shown=(SECOND, "00:02")),
    "test_recorder_query_size": Answers(
        right=("9.1 kB", "9.1 KB", "It takes 9.1 kilobytes."),
        wrong=("5.2 kB", "9.2 kB", "9.1 MB"),
        shown=(SECOND, "9.1 kB")),
    "test_recorder_query_count": Answers(
        right=("3", "three", "There are 3 recordings."),
        wrong=("2", "4", "3 or 4"),
        shown=("2024_05_01_09_30_00.m4a", SECOND, "2024_05_03_18_45_20.m4a")),
}


@task(app="recorder", storage=[FOLDER], prompt=f"How long is the recording '{SECOND}'?",
      golden=[*PLAYER, g.finish(answer="0:02")])
def test_recorder_query_length(three_recordings, answer):  # noqa: F811
    assert answer.matches_duration("0:02")


@task(app="recorder", storage=[FOLDER], prompt=f"How big is the recording '{SECOND}'?",
      golden=[*PLAYER, g.finish(answer="9.1 kB")])
def test_recorder_query_size(three_recordings, answer):  # noqa: F811
    # The file's 9,332 bytes, as commons' formatSize prints them.
    assert answer.matches_size("9.1 kB")


@task(app="recorder", storage=[FOLDER], prompt="How many recordings have I made?",
      golden=[*PLAYER, g.finish(answer="3")])
def test_recorder_query_count(three_recordings, answer):  # noqa: F811
    assert answer.count() == 3

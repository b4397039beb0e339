"""Simple Gallery Pro: query tasks (the agent reads the phone and answers).

The photos are the project's images (fixtures/), pushed with `adb push` into
two folders of a freshly emptied /sdcard/Pictures, dated with `touch -d` (the
app shows the newest first) and scanned, as the MobileAgentBench tasks seed
theirs (task_tests/test_gallery.py). The app opens on its folders, which show
names and counts only; the answers take opening a folder, a photo, or its
properties.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from pytest_mobileagent.media import media_dir

from .queries import Answers

pytestmark = pytest.mark.suite("extended")

PICTURES = "/sdcard/Pictures"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"
FIXTURES = media_dir()


#: (folder/name, fixture, modification time): each folder's newest first
PHOTOS = (("Holidays/sunset.jpg", "sunset.jpg", "2023-08-10 18:00:00"),  # 64 x 48
          ("Holidays/beach.png", "beach.png", "2023-08-09 12:00:00"),  # 40 x 40
          ("Holidays/forest.jpg", "forest.jpg", "2023-08-08 09:00:00"),  # 48 x 64
          ("Pets/dog.jpg", "sunset.jpg", "2023-07-01 19:45:00"),
          ("Pets/cat.png", "beach.png", "2023-06-20 12:00:00"))


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_gallery_query_resolution": Answers(
        right=("64 x 48", "64×48 pixels", "It is 64 by 48."),
        wrong=("48 x 64", "64 x 64", "40 x 40"),
        shown=("64 x 48 (0.0MP)",)),
    "test_gallery_query_date": Answers(
        right=("01.07.2023", "July 1, 2023", "It was last modified on 2023-07-01 at 7:45 PM."),
        wrong=("30.06.2023", "07.01.2023", "June 20, 2023"),
        shown=("01.07.2023, 7:45 PM",)),
    "test_gallery_query_name": Answers(
        right=("dog.jpg", "DOG.JPG", "The newest photo is dog.jpg."),
        wrong=("cat.png", "dog.png", "dog.jpg or cat.png"),
        shown=("dog.jpg",)),
}


@pytest.fixture
def two_albums(device):
    device.shell(f"rm -rf {PICTURES}; mkdir -p {PICTURES}/Holidays {PICTURES}/Pets")
    for name, fixture, when in PHOTOS:
        device.push(f"{PICTURES}/{name}", (FIXTURES / fixture).read_bytes())
        device.shell(f"touch -d '{when}' {PICTURES}/{name}")
    device.shell(SCAN + PICTURES)


def newest_photo_of(album: str) -> list:
    return [g.tap(text=album), g.tap(id="medium_thumbnail")]


@task(app="gallery", storage=[PICTURES], prompt="What is the resolution of the newest photo in my Holidays album?",
      golden=[*newest_photo_of("Holidays"), g.tap(desc="Properties"), g.finish(answer="64 x 48")])
def test_gallery_query_resolution(two_albums, answer):
    assert answer.numbers() == [64, 48]  # width by height, as the properties print them


@task(app="gallery", storage=[PICTURES], prompt="When was the newest photo in my Pets album last modified?",
      golden=[*newest_photo_of("Pets"), g.tap(desc="Properties"), g.finish(answer="01.07.2023")])
def test_gallery_query_date(two_albums, answer):
    assert answer.matches_date("2023-07-01")


@task(app="gallery", storage=[PICTURES], prompt="What is the file name of the newest photo in my Pets album?",
      golden=[*newest_photo_of("Pets"), g.finish(answer="dog.jpg")])
def test_gallery_query_name(two_albums, answer):
    assert answer.mentions("dog.jpg", excluding=["cat.png"])

"""Simple Gallery Pro: task families (files, dates and groupings drawn per instance).

Seeds push the project's fixture images and video into a freshly emptied
`Download` under drawn names, date them with `touch -d` and broadcast a media
scan (as test_gallery.py's download_media does). The judge reads the section
headers the grouped folder shows, which follow from the drawn files alone.
"""

from __future__ import annotations

import datetime as dt

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.media import media_dir

from ..test_gallery import DOWNLOAD, OK, SCAN
from .names import WORDS

pytestmark = pytest.mark.suite("extended")

FIXTURES = media_dir()
CONTENT = {"jpg": "forest.jpg", "png": "beach.png", "mp4": "clip_red.mp4"}
#: The prompt's name of a grouping -> its radio in the Group by dialog (the app's strings)
GROUPINGS = {"file type": "grouping_dialog_radio_file_type", "extension": "grouping_dialog_radio_extension",
             "last modified (monthly)": "grouping_dialog_radio_last_modified_monthly"}


def _media(rng):
    files = [f"{word}.{rng.choice(list(CONTENT))}" for word in rng.sample(WORDS, 4)]
    # Mid-month at noon: the month is the same in every time zone the phone may be in.
    return {"grouping": rng.choice(list(GROUPINGS)), "files": files,
            "months": [rng.randint(1, 12) for _ in files]}


def sections(params) -> set[str]:
    """The section headers of Download grouped as the instance asks (the app's GroupingDialog keys)."""
    extensions = [name.rsplit(".", 1)[1] for name in params.files]
    if params.grouping == "file type":
        return {"Videos" if ext == "mp4" else "Images" for ext in extensions}
    if params.grouping == "extension":
        return set(extensions)
    return {dt.date(2023, month, 15).strftime("%B %Y") for month in params.months}


@pytest.fixture
def dated_media(params, device):
    device.shell(f"rm -rf {DOWNLOAD}; mkdir -p {DOWNLOAD}")
    for name, month in zip(params.files, params.months):
        device.push(f"{DOWNLOAD}/{name}", (FIXTURES / CONTENT[name.rsplit('.', 1)[1]]).read_bytes())
        device.shell(f"touch -d '2023-{month:02d}-15 12:00:00' {DOWNLOAD}/{name}")
    device.shell(SCAN + DOWNLOAD)


@task(app="gallery", storage=[DOWNLOAD], prompt="Go to the downloads folder, group the media by {grouping}",
      params=_media, golden=lambda p: [g.tap(text="Download"), g.tap(desc="More options"), g.tap(text="Group by"),
                                       g.tap(id=GROUPINGS[p.grouping]), g.tap(id=OK)])
def test_gallery_group_download(params, dated_media, screen):
    assert screen.activity.endswith(".MediaActivity") and screen.text(id="top_toolbar_search") == "Search in Download"
    shown = set(screen.texts(id="thumbnail_section"))
    assert shown == sections(params), f"Download shows the sections {sorted(shown)}"

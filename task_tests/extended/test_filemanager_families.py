"""Simple File Manager Pro: task families (file and folder names drawn per instance).

Seeds push fixture files under drawn names with `adb push` into a freshly
emptied folder and broadcast a media scan (test_filemanager.py's
seed_folder). Judges read the list on screen and then the file system through
the `device` fixture: a created folder is a directory, a deleted file is
gone while its neighbours stay, a renamed file exists under its new name only.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_filemanager import DOWNLOAD, in_download, seed_folder
from .names import WORDS

pytestmark = pytest.mark.suite("extended")

#: Folders of the storage's top level that the main list shows without scrolling (DCIM, Movies,
#: Music... follow): a created folder lands in one of them.
PARENTS = ("Alarms", "Audiobooks", "Documents", "Download")
STORAGE = [f"/sdcard/{name}" for name in PARENTS]
#: Fixture files by extension (what a seeded file holds)
CONTENT = {"txt": "notes.txt", "pdf": "diary.pdf", "jpg": "forest.jpg", "mp3": "tone.mp3"}


def is_dir(device, path: str) -> bool:
    """A directory (ls -ld prints its type as the first letter of the mode)."""
    result = device.shell_result(f"ls -ld {path}")
    return result.exit_code == 0 and result.output.startswith("d")


@task(app="filemanager", storage=STORAGE, prompt="Create a new folder named '{name}' in the '{parent}' folder",
      params={"name": WORDS, "parent": PARENTS},
      golden=lambda p: [g.tap(text=p.parent), g.tap(id="items_fab"), g.type(p.name, id="item_title"),
                        g.tap(id="dialog_radio_directory"), g.tap(id="android:id/button1")])
def test_filemanager_create_folder(params, screen, device):
    assert not screen.exists(id="item_title"), "the Create new dialog is still open"
    crumbs = screen.texts(id="breadcrumb_text")
    assert crumbs and crumbs[-1] == f"> {params.parent}", f"not in {params.parent}: {crumbs}"
    assert params.name in screen.texts(id="item_name")
    assert is_dir(device, f"/sdcard/{params.parent}/{params.name}"), f"{params.name} is not a folder (a file?)"


def _three_files(rng):
    stems = rng.sample(WORDS, 3)
    extensions = [rng.choice(list(CONTENT)) for _ in stems]
    files = [f"{stem}.{ext}" for stem, ext in zip(stems, extensions)]
    return {"name": rng.choice(files), "files": files}


@pytest.fixture
def download_files(params, device):
    seed_folder(device, DOWNLOAD, {name: CONTENT[name.rsplit(".", 1)[1]] for name in params.files})


@task(app="filemanager", storage=[DOWNLOAD], prompt="Delete file named '{name}' in the 'Downloads' folder",
      params=_three_files,
      golden=lambda p: [g.tap(text="Download"), g.long_press(text=p.name), g.tap(id="cab_delete"),
                        g.tap(id="android:id/button1")])
def test_filemanager_delete_named_file(params, download_files, screen, device):
    assert in_download(screen) and params.name not in screen.texts(id="item_name")
    assert not device.exists(f"{DOWNLOAD}/{params.name}"), f"{params.name} still exists"
    others = [f for f in params.files if f != params.name]
    assert all(device.exists(f"{DOWNLOAD}/{f}") for f in others), "another file was deleted too"


def _rename(rng):
    drawn = _three_files(rng)
    stem, extension = drawn["name"].rsplit(".", 1)
    new = rng.choice([w for w in WORDS if f"{w}.{extension}" not in drawn["files"]])
    return {"old": drawn["name"], "new": f"{new}.{extension}", "files": drawn["files"]}


@task(app="filemanager", storage=[DOWNLOAD],
      prompt="open the folder 'Downloads' and rename the file '{old}' to '{new}'", params=_rename,
      golden=lambda p: [g.tap(text="Download"), g.long_press(text=p.old), g.tap(id="cab_rename"),
                        g.type(p.new.rsplit(".", 1)[0], id="rename_item_name"), g.tap(id="android:id/button1")])
def test_filemanager_rename_named_file(params, download_files, screen, device):
    assert not screen.exists(id="rename_item_name"), "the Rename dialog is still open"
    assert in_download(screen) and params.new in screen.texts(id="item_name")
    assert device.exists(f"{DOWNLOAD}/{params.new}"), f"no file {params.new}"
    assert not device.exists(f"{DOWNLOAD}/{params.old}"), f"{params.old} still exists"


@task(app="filemanager", storage=[DOWNLOAD], prompt="Search a file named '{name}'", params=_three_files,
      golden=lambda p: [g.tap(id="top_toolbar_search"), g.type(p.name)])
def test_filemanager_search_named_file(params, download_files, screen):
    assert (screen.text(id="top_toolbar_search") or "") == params.name
    shown = screen.texts(id="item_name")  # a search lists matches by path below the storage: "Download/<name>"
    assert any(name.endswith(params.name) for name in shown), f"the search shows no {params.name}: {shown}"
    others = [f for f in params.files if f != params.name and any(name.endswith(f) for name in shown)]
    assert not others, f"the search shows other files too: {others}"

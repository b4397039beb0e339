"""Simple File Manager Pro: query tasks (the agent reads the phone and answers).

The files are the project's fixtures, pushed with `adb push` into a freshly
emptied /sdcard/Documents and scanned, as the MobileAgentBench tasks seed
theirs (task_tests/test_filemanager.py); one file's date is set with `touch -d`.
The app opens on the storage's top folder; the answers take opening Documents.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from pytest_mobileagent.media import media_dir

from .queries import Answers

pytestmark = pytest.mark.suite("extended")

DOCUMENTS = "/sdcard/Documents"
SCAN = "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://"
FIXTURES = media_dir()


#: name in Documents -> the fixture pushed there
FILES = {"diary.pdf": "diary.pdf", "notes.txt": "notes.txt", "Work/plan.txt": "testfile.txt",
         "Work/budget.pdf": "diary.pdf", "Work/tone.mp3": "tone.mp3"}


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_filemanager_query_size": Answers(
        right=("4.6 kB", "4.6 KB", "The file is 4.6 kilobytes."),
        wrong=("4.7 kB", "4.6 MB", "29 B"),
        shown=("diary.pdf", "4.6 kB")),
    "test_filemanager_query_item_count": Answers(
        right=("3", "three", "There are 3 items in Work."),
        wrong=("2", "4", "3 or 4"),
        shown=("Work", "3 items")),
    "test_filemanager_query_modified": Answers(
        right=("15.03.2024", "March 15, 2024", "It was last changed on 2024-03-15 at 10:20."),
        wrong=("16.03.2024", "March 14, 2024", "15.04.2024"),
        shown=("notes.txt", "15.03.2024, 10:20 AM")),
    "test_filemanager_query_listing": Answers(
        right=("budget.pdf, plan.txt, tone.mp3", "tone.mp3, plan.txt and budget.pdf",
               "- plan.txt\n- budget.pdf\n- tone.mp3"),
        wrong=("budget.pdf, plan.txt", "budget.pdf, plan.txt, tone.mp3, diary.pdf",
               "budget.pdf, plan.txt, tone.m4a"),
        shown=("budget.pdf", "plan.txt", "tone.mp3")),
}


@pytest.fixture
def documents(device):
    device.shell(f"rm -rf {DOCUMENTS}; mkdir -p {DOCUMENTS}/Work")
    for name, fixture in FILES.items():
        device.push(f"{DOCUMENTS}/{name}", (FIXTURES / fixture).read_bytes())
    device.shell(f"touch -d '2024-03-15 10:20:00' {DOCUMENTS}/notes.txt")
    device.shell(SCAN + DOCUMENTS)


OPEN_DOCUMENTS = [g.tap(text="Documents")]


@task(app="filemanager", storage=[DOCUMENTS], prompt="How big is the file diary.pdf in my Documents folder?",
      golden=[*OPEN_DOCUMENTS, g.finish(answer="4.6 kB")])
def test_filemanager_query_size(documents, answer):
    # 4,715 bytes, as commons' formatSize prints them.
    assert answer.matches_size("4.6 kB")


@task(app="filemanager", storage=[DOCUMENTS], prompt="How many items are in the folder Documents/Work?",
      golden=[*OPEN_DOCUMENTS, g.finish(answer="3")])
def test_filemanager_query_item_count(documents, answer):
    assert answer.count() == 3


@task(app="filemanager", storage=[DOCUMENTS], prompt="On what date was notes.txt in my Documents folder last changed?",
      golden=[*OPEN_DOCUMENTS, g.finish(answer="15.03.2024")])
def test_filemanager_query_modified(documents, answer):
    assert answer.matches_date("2024-03-15")


@task(app="filemanager", storage=[DOCUMENTS], prompt="Which files are in the folder Documents/Work?",
      golden=[*OPEN_DOCUMENTS, g.tap(text="Work"), g.finish(answer="budget.pdf, plan.txt, tone.mp3")])
def test_filemanager_query_listing(documents, answer):
    assert answer.matches_list(["budget.pdf", "plan.txt", "tone.mp3"], ordered=False)

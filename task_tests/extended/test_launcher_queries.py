"""Simple App Launcher: query tasks (the agent reads the phone and answers).

The grid is filled through the app's own "Add apps" dialog, as the
MobileAgentBench tasks fill it (task_tests/test_launcher.py); the seed then
hides the app names or sets the column count through the app's UI, so the
answers take showing the names again or opening the column count.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_launcher import LauncherSeed
from .queries import Answers

pytestmark = pytest.mark.suite("extended")

APP = "com.simplemobiletools.applauncher"

APPS = ("Calculator", "Camera", "Chrome")


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_launcher_query_apps": Answers(
        right=("Calculator, Camera, Chrome", "Chrome, Camera and Calculator",
               "The apps are: calculator; camera; chrome."),
        wrong=("Calculator, Camera", "Calculator, Camera, Chrome, Clock", "Calendar, Camera, Chrome"),
        shown=APPS),
    "test_launcher_query_columns": Answers(
        right=("4", "four", "The grid has 4 columns."),
        wrong=("5", "3", "4 or 5"),
        shown=("4 columns",)),
}


@pytest.fixture
def three_apps_unnamed(ui_factory):
    """Calculator, Camera and Chrome on the grid, their names hidden."""
    seed = LauncherSeed(ui_factory(APP)).add(*APPS)
    seed.ui.tap(id="toggle_app_name")


@pytest.fixture
def four_columns(ui_factory):
    seed = LauncherSeed(ui_factory(APP)).add(*APPS)
    seed.ui.tap(desc="More options").tap(id="title", text="Column count").tap(text="4 columns")


@task(app="launcher", prompt="Which apps are on the launcher's grid?",
      golden=[g.tap(id="toggle_app_name"), g.finish(answer="Calculator, Camera, Chrome")])
def test_launcher_query_apps(three_apps_unnamed, answer):
    assert answer.matches_list(APPS, ordered=False)


@task(app="launcher", prompt="How many columns does the launcher's grid have?",
      golden=[g.tap(desc="More options"), g.tap(text="Column count"), g.finish(answer="4")])
def test_launcher_query_columns(four_columns, answer):
    assert answer.count() == 4

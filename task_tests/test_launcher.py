"""Simple App Launcher: the ten launcher_* tasks of MobileAgentBench.

Most tasks start from a grid holding Chrome and Camera, added through the
app's own "Add apps" dialog (FAB, tick both, OK).  The judges read the grid
(its item labels, in order), the settings screen or the foreground activity;
only the sort setting, which the grid cannot always show, is read from the
clicks of the "Sort by" dialog.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

APP = "com.simplemobiletools.applauncher"


def rid(short: str) -> str:
    return short if ":" in short else f"{APP}:id/{short}"


def grid(screen) -> list[str]:
    """Labels of the launcher grid, in order; [] when the main grid is not on screen."""
    holder = screen.get(id="launchers_grid")
    return screen.texts(id="launcher_label", within=holder) if holder is not None else []


def on_main_grid(screen) -> bool:
    """The main screen, with no dialog or selection over it."""
    return screen.exists(id="coordinator_layout") and not screen.exists(id="action_mode_bar")


def sorting_confirmed(events) -> dict[str, str] | None:
    """The sort setting after the "Sort by" dialogs confirmed with OK (None: none was).

    Replays the dialogs in order from the app's default (title, ascending):
    each confirmed dialog starts from the setting it showed and applies the
    radios clicked in it; "custom" keeps no order, as in the app.
    """
    log = [e for e in events if e.package == APP and e.type in ("click", "window_state")]
    setting: dict[str, str] | None = None
    shown = {"sorting": "title", "order": "ascending"}
    opened = None
    for i, e in enumerate(log):
        if e.type == "window_state":
            opened = i if list(e.text) == ["Sort by"] else None
        elif opened is not None and e.id == "android:id/button1":
            chosen = dict(shown)
            for click in log[opened:i]:
                for group, names in (("sorting", ("title", "custom")), ("order", ("ascending", "descending"))):
                    for name in names:
                        if click.id == rid(f"sorting_dialog_radio_{name}"):
                            chosen[group] = name
            if chosen["sorting"] == "custom":
                chosen["order"] = "ascending"
            shown = setting = chosen
            opened = None
    return setting


class LauncherSeed:
    """Adds launchers through the app's UI, as a user would."""

    def __init__(self, ui):
        self.ui = ui.launch()

    def add(self, *labels: str) -> "LauncherSeed":
        self.ui.tap(id="fab")
        for label in labels:
            self.ui.tap(id="launcher_checkbox", text=label)
        self.ui.tap(id="android:id/button1")
        return self


@pytest.fixture
def chrome_and_camera(ui_factory) -> LauncherSeed:
    return LauncherSeed(ui_factory(APP)).add("Chrome", "Camera")


@task(app="launcher", prompt="Add Chrome and Camera to launcher",
      golden=[g.tap(id="fab"), g.tap(text="Chrome"), g.tap(text="Camera"), g.tap(id="android:id/button1")])
def test_launcher_add_apps(screen):
    assert on_main_grid(screen)
    assert {"Chrome", "Camera"} <= set(grid(screen))


@task(app="launcher", prompt="Check who is the contributor of the app",
      golden=[g.tap(desc="More options"), g.tap(text="About"), g.tap(text="Contributors")])
def test_launcher_check_contributor(screen):
    assert screen.package == APP
    assert screen.activity.endswith(".ContributorsActivity")


@task(app="launcher", prompt="Hide app name in Launcher", golden=[g.tap(id="toggle_app_name")])
def test_launcher_hide_app_name(chrome_and_camera, screen):
    assert on_main_grid(screen)
    assert screen.count(id="launcher_holder") == 2, "the grid lost its items"
    assert not screen.exists(id="launcher_label"), "app names are still shown"


@task(app="launcher", prompt="Open About page and go Frequently Asked Questions",
      golden=[g.tap(desc="More options"), g.tap(text="About"), g.tap(text="Frequently asked questions")])
def test_launcher_open_about_FAQ(screen):
    assert screen.package == APP
    assert screen.activity.endswith(".FAQActivity")


@task(app="launcher", prompt="Remove Chrome from Launcher",
      golden=[g.long_press(text="Chrome"), g.tap(id="cab_remove"), g.tap(id="android:id/button1")])
def test_launcher_remove_app(chrome_and_camera, screen):
    assert on_main_grid(screen)
    assert grid(screen) == ["Camera"]


@task(app="launcher", prompt="Rename Chrome in Launcher to MyChrome", min_steps=4,
      min_steps_reason="typing into the rename field replaces its text in one action (the paper counts a "
                       "separate clearing step)",
      golden=[g.long_press(text="Chrome"), g.tap(id="cab_edit"), g.type("MyChrome", id="edit_launcher_edittext"),
              g.tap(id="android:id/button1")])
def test_launcher_rename_app(chrome_and_camera, screen):
    assert on_main_grid(screen)
    assert sorted(grid(screen)) == ["Camera", "MyChrome"]


@task(app="launcher", prompt="Search for Chrome in Launcher",
      golden=[g.tap(id="top_toolbar_search"), g.type("Chrome")])
def test_launcher_search_app(chrome_and_camera, screen):
    assert (screen.text(id="top_toolbar_search") or "").strip().lower() == "chrome"
    assert grid(screen) == ["Chrome"]


@task(app="launcher", prompt="Change Setting Close this app at launching a different one to false",
      golden=[g.tap(desc="More options"), g.tap(text="Settings"), g.tap(id="settings_close_app_holder")])
def test_launcher_setting_close_app_when_launching(screen):
    assert screen.exists(id="settings_close_app"), "the setting is not on screen"
    assert not screen.checked(id="settings_close_app")


@task(app="launcher", prompt="Sort apps by custom",
      golden=[g.tap(id="sort"), g.tap(id="sorting_dialog_radio_custom"), g.tap(id="android:id/button1")])
def test_launcher_sort_by_custom(chrome_and_camera, screen, events):
    assert on_main_grid(screen)
    chosen = sorting_confirmed(events)
    assert chosen is not None, "the sort dialog was not confirmed"
    assert chosen["sorting"] == "custom"


@task(app="launcher", prompt="Sort apps by title descending",
      golden=[g.tap(id="sort"), g.tap(id="sorting_dialog_radio_descending"), g.tap(id="android:id/button1")])
def test_launcher_sort_by_title_desc(chrome_and_camera, screen, events):
    assert on_main_grid(screen)
    chosen = sorting_confirmed(events)
    assert chosen is not None, "the sort dialog was not confirmed"
    assert chosen == {"sorting": "title", "order": "descending"}
    assert grid(screen) == ["Chrome", "Camera"]

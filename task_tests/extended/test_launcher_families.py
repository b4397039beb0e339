"""Simple App Launcher: task families (apps, labels and sort orders drawn per instance).

Seeds add launchers through the app's own "Add apps" dialog (test_launcher.py's
LauncherSeed); judges read the grid's labels in order and, for the sort
setting the grid cannot always show, the confirmed "Sort by" dialogs.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from ..test_launcher import APP, LauncherSeed, grid, on_main_grid, sorting_confirmed
from .names import WORDS

pytestmark = pytest.mark.suite("extended")

#: Apps the "Add apps" dialog lists without scrolling (it lists every launchable app by label).
APPS = ("Calculator", "Calendar", "Camera", "Chrome", "Clock", "Contacts")


def _apps(rng):
    apps = rng.sample(APPS, 3)
    return {"app": rng.choice(apps), "apps": apps}


@pytest.fixture
def three_launchers(params, ui_factory) -> LauncherSeed:
    return LauncherSeed(ui_factory(APP)).add(*params.apps)


@task(app="launcher", prompt="Add {apps} to launcher", params={"apps": lambda r: r.sample(APPS, r.randint(1, 3))},
      golden=lambda p: [g.tap(id="fab"), *[g.tap(text=app) for app in p.apps], g.tap(id="android:id/button1")])
def test_launcher_add_named_apps(params, screen):
    assert on_main_grid(screen)
    assert sorted(grid(screen)) == sorted(params.apps)


@task(app="launcher", prompt="Remove {app} from Launcher", params=_apps,
      golden=lambda p: [g.long_press(text=p.app), g.tap(id="cab_remove"), g.tap(id="android:id/button1")])
def test_launcher_remove_named_app(params, three_launchers, screen):
    assert on_main_grid(screen)
    assert sorted(grid(screen)) == sorted(a for a in params.apps if a != params.app)


def _rename(rng):
    drawn = _apps(rng)
    return {**drawn, "new": "My" + rng.choice(WORDS).capitalize()}


@task(app="launcher", prompt="Rename {app} in Launcher to {new}", params=_rename,
      golden=lambda p: [g.long_press(text=p.app), g.tap(id="cab_edit"), g.type(p.new, id="edit_launcher_edittext"),
                        g.tap(id="android:id/button1")])
def test_launcher_rename_named_app(params, three_launchers, screen):
    assert on_main_grid(screen)
    assert sorted(grid(screen)) == sorted(params.new if a == params.app else a for a in params.apps)


#: The sort settings the "Sort by" dialog can confirm, as the prompt names them
SORTS = {"title ascending": ("title", "ascending"), "title descending": ("title", "descending"),
         "custom": ("custom", "ascending")}


def _sorts(rng):
    key, seeded = rng.sample(list(SORTS), 2)
    return {"key": key, "seeded": seeded, "apps": rng.sample(APPS, 3)}


def sort_taps(before: str, after: str) -> list[str]:
    """The radios to tap in the "Sort by" dialog to go from one setting to another (none: no change)."""
    (field, order), (new_field, new_order) = SORTS[before], SORTS[after]
    taps = [] if new_field == field else [f"sorting_dialog_radio_{new_field}"]
    # The dialog shows the order of the setting it opened on (custom keeps ascending).
    if new_field == "title" and new_order != order:
        taps.append(f"sorting_dialog_radio_{new_order}")
    return taps


@pytest.fixture
def sorted_launchers(params, three_launchers):
    """The instance's apps, sorted as the instance's ``seeded`` setting says."""
    ui = three_launchers.ui
    ui.tap(id="sort")
    for radio in sort_taps("title ascending", params.seeded):
        ui.tap(id=radio)
    ui.tap(id="android:id/button1")


@task(app="launcher", prompt="Sort apps by {key}", params=_sorts,
      golden=lambda p: [g.tap(id="sort"), *[g.tap(id=radio) for radio in sort_taps(p.seeded, p.key)],
                        g.tap(id="android:id/button1")])
def test_launcher_sort_by_key(params, sorted_launchers, screen, events):
    assert on_main_grid(screen)
    field, order = SORTS[params.key]
    chosen = sorting_confirmed(events)
    assert chosen == {"sorting": field, "order": order}, f"the sort confirmed is {chosen}"
    if field == "title":
        assert grid(screen) == sorted(params.apps, reverse=order == "descending")

"""`@task(clears=[...])`: the episode reset also clears other packages' data (system providers)."""

from __future__ import annotations

import pytest
from plugin_support import run_on_phone

from pytest_mobileagent import golden as g
from pytest_mobileagent import task
from pytest_mobileagent.errors import TaskDefinitionError

pytest_plugins = ["pytester"]


def _spec(func):
    marker = func.pytestmark[0]
    return marker.args[0]


def test_clears_is_recorded_on_the_spec():
    @task(app="contacts", prompt="p", golden=[g.key("BACK")], clears=["com.android.providers.contacts"])
    def test_ok():
        pass

    assert _spec(test_ok).clears == ("com.android.providers.contacts",) and _spec(test_ok).problems == []


@pytest.mark.parametrize("bad", ["com.android.providers.contacts", [""], [3]])
def test_clears_must_be_a_list_of_package_names(bad):
    @task(app="contacts", prompt="p", golden=[g.key("BACK")], clears=bad)
    def test_bad():
        pass

    with pytest.raises(TaskDefinitionError, match="clears must be a list of package names"):
        _spec(test_bad).check()


TASKS = '''
import pytest
from pytest_mobileagent import task, golden as g

@pytest.fixture
def seeded(device):
    # What the previous task left behind must be gone before this seed runs.
    assert "No result found." in device.shell("content query --uri content://com.android.contacts/contacts")
    device.shell("content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n:")

@task(app="contacts", prompt="open About", clears=["com.android.providers.contacts"],
      permissions=["android.permission.READ_CONTACTS"],
      golden=[g.tap(desc="More options"), g.tap(text="About")])
def test_first(seeded, screen):
    assert screen.activity.endswith(".AboutActivity")

@task(app="contacts", prompt="open About", clears=["com.android.providers.contacts"],
      permissions=["android.permission.READ_CONTACTS"],
      golden=[g.tap(desc="More options"), g.tap(text="About")])
def test_second(seeded, screen):
    assert screen.activity.endswith(".AboutActivity")
'''


def test_the_reset_clears_the_listed_packages(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_tasks=TASKS)
    result, _ = run_on_phone(pytester, phone, "--agent", "replay", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)

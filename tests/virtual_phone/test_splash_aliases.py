"""Every Simple Mobile Tools app starts through its SplashActivity (and the ".Orange"
icon alias), which forwards to the app's first screen at once, as the real apps do."""

from __future__ import annotations

import pytest

from pytest_mobileagent.virtual_phone import VirtualPhone
from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS

SIMPLE_APPS = [app for app in INSTALLED_APPS if app.package.startswith("com.simplemobiletools.")]


def test_all_ten_apps_are_installed():
    assert len(SIMPLE_APPS) == 10


@pytest.mark.parametrize("alias", ["SplashActivity.Orange"])
@pytest.mark.parametrize("app", SIMPLE_APPS, ids=lambda app: app.package.rsplit(".", 2)[-2])
def test_the_splash_alias_lands_on_the_first_screen(app, alias):
    phone = VirtualPhone()
    # the apps' runtime permissions granted, as a task's reset does: Contacts asks for its otherwise
    for permission in ("READ_CONTACTS", "WRITE_CONTACTS"):
        phone.run_shell(f"pm grant {app.package} android.permission.{permission}")
    result = phone.run_shell(f"am start -W -n {app.package}/.activities.{alias}")
    assert result.exit_code == 0, result.stderr
    assert phone.system.focused_window() == (app.package, app.activities[0].name)


@pytest.mark.parametrize("app", SIMPLE_APPS, ids=lambda app: app.package.rsplit(".", 2)[-2])
def test_the_splash_activity_itself_is_not_exported_to_the_shell(app):
    """SplashActivity has no intent filter and no android:exported (its icon aliases have the filter):
    `am start` from the shell is refused as Android 14 refuses it."""
    phone = VirtualPhone()
    result = phone.run_shell(f"am start -n {app.package}/.activities.SplashActivity")
    assert result.exit_code == 255
    assert result.stderr.decode().startswith(
        f"Security exception: Permission Denial: starting Intent {{ flg=0x10000000 cmp={app.package}/"
        ".activities.SplashActivity } from null (pid=")
    assert phone.system.focused_window()[0] != app.package


def test_other_packages_have_no_splash_alias():
    phone = VirtualPhone()
    result = phone.run_shell("am start -n com.android.chrome/.activities.SplashActivity")
    assert result.exit_code != 0 and b"does not exist" in result.stdout + result.stderr

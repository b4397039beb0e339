"""Whole-phone snapshots (what the emulator stand-in's ``avd snapshot save/load`` uses)."""

from __future__ import annotations

import pytest
from uitools import CALC, press_keys, tap, text_of

from pytest_mobileagent.virtual_phone.phone import VirtualPhone
from pytest_mobileagent.virtual_phone.snapshot import load_snapshot, save_snapshot


def _open_calculator(phone: VirtualPhone) -> None:
    tap(phone.system, text="Calculator")
    assert phone.system.focused_window()[0] == CALC


def test_load_brings_back_files_settings_and_app_data_that_pm_clear_does_not_touch():
    phone = VirtualPhone()
    snapshot = save_snapshot(phone)
    assert phone.run_shell("echo pushed > /sdcard/Download/task.txt").exit_code == 0
    phone.run_shell("settings put global airplane_mode_on 1")
    phone.run_shell("pm clear com.simplemobiletools.notes.pro")
    assert phone.run_shell("ls /sdcard/Download").stdout == b"task.txt\n"

    load_snapshot(phone, snapshot)

    listing = phone.run_shell("ls /sdcard/Download/task.txt")
    assert listing.exit_code == 1 and b"No such file" in listing.stderr
    assert phone.run_shell("settings get global airplane_mode_on").stdout == b"0\n"


def test_the_restored_ui_is_live_its_handlers_act_on_the_restored_app():
    phone = VirtualPhone()
    _open_calculator(phone)
    press_keys(phone.system, "7")
    snapshot = save_snapshot(phone)
    press_keys(phone.system, "+2=")
    assert text_of(phone.system, "result") == "9"

    load_snapshot(phone, snapshot)

    assert phone.system.focused_window()[0] == CALC
    assert text_of(phone.system, "result") == "7"
    press_keys(phone.system, "×3=")        # taps land on the restored views and their app
    assert text_of(phone.system, "result") == "21"
    assert phone.run_shell("dumpsys window windows").exit_code == 0


def test_a_snapshot_loads_any_number_of_times_and_events_still_reach_their_sink():
    phone = VirtualPhone()
    events: list[dict] = []
    phone.add_event_sink(events.append)
    _open_calculator(phone)
    snapshot = save_snapshot(phone)
    for digit in "123":
        press_keys(phone.system, digit)
        load_snapshot(phone, snapshot)
        assert text_of(phone.system, "result") == "0"
    events.clear()
    press_keys(phone.system, "5")
    assert any(e["type"] == "click" and e["package"] == CALC for e in events)


def test_a_snapshot_of_another_phone_is_refused():
    snapshot = save_snapshot(VirtualPhone(seed=1))
    with pytest.raises(ValueError, match="another phone"):
        load_snapshot(VirtualPhone(seed=2), snapshot)


def test_every_app_survives_a_save_and_load_on_its_open_screen():
    phone = VirtualPhone()
    packages = phone.run_shell("pm list packages").stdout.decode().split()
    assert len(packages) > 5
    for package in (line.partition(":")[2] for line in packages):
        phone.run_shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        before = phone.system.focused_window(), phone.system.dump_xml()
        load_snapshot(phone, save_snapshot(phone))
        assert (phone.system.focused_window(), phone.system.dump_xml()) == before, package
        assert phone.run_shell("input keyevent KEYCODE_BACK").exit_code == 0


def test_a_snapshot_keeps_the_content_providers_rows():
    phone = VirtualPhone()
    insert = "content insert --uri content://sms/inbox --bind address:s:123456789 --bind 'body:s:i luv u'"
    assert phone.run_shell(insert).exit_code == 0
    snapshot = save_snapshot(phone)
    phone.run_shell("pm clear com.android.providers.telephony")
    assert b"i luv u" not in phone.run_shell("content query --uri content://sms").stdout

    load_snapshot(phone, snapshot)

    assert b"body=i luv u" in phone.run_shell("content query --uri content://sms").stdout
    assert phone.run_shell(insert).exit_code == 0   # the restored database is writable

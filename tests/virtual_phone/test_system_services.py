"""dumpsys battery/power/input, pm list features and ime, as Android 14 prints them (in-process)."""

from __future__ import annotations

import pytest

LATIN = "com.android.inputmethod.latin/.LatinIME"


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def test_dumpsys_battery_and_its_shell(fresh_phone):
    out = run(fresh_phone, "dumpsys battery")[0].splitlines()
    assert out[:3] == ["Current Battery Service state:", "  AC powered: true", "  USB powered: false"]
    assert "  level: 100" in out and "  scale: 100" in out and out[-2:] == ["  Charging state: 1",
                                                                          "  Charging policy: 1"]
    assert run(fresh_phone, "dumpsys battery set level 42; dumpsys battery unplug") == ("", "", 0)
    out = run(fresh_phone, "dumpsys battery")[0]
    assert "(UPDATES STOPPED -- use 'reset' to restart)" in out and "  level: 42\n" in out
    assert "  AC powered: false\n" in out
    power = run(fresh_phone, "dumpsys power")[0]
    assert "  mIsPowered=false\n" in power and "  mBatteryLevel=42\n" in power
    run(fresh_phone, "dumpsys battery reset")
    assert "  level: 100\n" in run(fresh_phone, "dumpsys battery")[0]
    assert run(fresh_phone, "dumpsys battery set level x")[1:] == ("Bad value: x\n", 255)


def test_dumpsys_power_and_input(fresh_phone):
    power = run(fresh_phone, "dumpsys power")[0]
    assert power.startswith("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n")
    for line in ("  mWakefulness=Awake", "  mHoldingDisplaySuspendBlocker=true", "Display Power: state=ON",
                 "  mStayOnWhilePluggedInSetting=7", "  mStayOn=true"):
        assert line + "\n" in power
    dump = run(fresh_phone, "dumpsys input")[0]
    assert dump.startswith("INPUT MANAGER (dumpsys input)\n")
    # Android 14 words the rotation InputDeviceOrientation (SurfaceOrientation is Android 12's)
    assert "      InputDeviceOrientation: 0\n" in dump and "SurfaceOrientation" not in dump
    assert "deviceSize=[1080, 2340]" in dump
    pkg, act = fresh_phone.system.focused_window()
    assert f" {pkg}/{act}'\n" in dump.split("FocusedWindows:")[1]


def test_pm_list_features(fresh_phone):
    out = run(fresh_phone, "pm list features")[0].splitlines()
    assert out[0] == "feature:reqGlEsVersion=0x30002"
    names = [line.split(":", 1)[1].split("=")[0] for line in out[1:]]
    assert names == sorted(names) and "android.hardware.touchscreen" in names
    assert "feature:android.hardware.vulkan.level=1" in out
    assert run(fresh_phone, "cmd package list features")[0].splitlines() == out


def test_ime_list_enable_disable_set(fresh_phone):
    assert run(fresh_phone, "ime list -s") == (LATIN + "\n", "", 0)
    full = run(fresh_phone, "ime list")[0]
    assert full.startswith(f"{LATIN}:\n  mId={LATIN} mSettingsActivityName=")
    assert "      permission=android.permission.BIND_INPUT_METHOD\n" in full
    assert run(fresh_phone, f"ime disable {LATIN}")[0] == f"Input method {LATIN}: now disabled for user #0\n"
    assert run(fresh_phone, "ime list -s")[0] == ""
    assert run(fresh_phone, "ime list -a -s")[0] == LATIN + "\n"
    assert run(fresh_phone, f"ime enable {LATIN}")[0] == f"Input method {LATIN}: now enabled for user #0\n"
    assert run(fresh_phone, f"ime enable {LATIN}")[0] == f"Input method {LATIN}: already enabled for user #0\n"
    assert run(fresh_phone, f"ime set {LATIN}")[0] == f"Input method {LATIN} selected for user #0\n"
    assert run(fresh_phone, "settings get secure default_input_method")[0] == LATIN + "\n"


@pytest.mark.parametrize("line, err", [
    ("ime enable com.x/.Nope", "Unknown input method com.x/.Nope cannot be enabled for user #0\n"),
    ("ime set com.x/.Nope", "Unknown input method com.x/.Nope cannot be selected for user #0\n"),
])
def test_ime_unknown_ids_fail_as_android(fresh_phone, line, err):
    assert run(fresh_phone, line) == ("", err, 255)


def test_ime_registry_counts_installed_apps_only(fresh_phone, monkeypatch):
    """An app's IME (DroidBot's, for one) is listed while its package is installed."""
    from pytest_mobileagent.virtual_phone.framework import input_methods

    helper = input_methods.InputMethod("io.example.keyboard", "io.example.keyboard.KeyboardService")
    monkeypatch.setattr(input_methods, "INPUT_METHODS", input_methods.INPUT_METHODS + [helper])
    assert run(fresh_phone, "ime list -a -s")[0] == LATIN + "\n"
    monkeypatch.setattr(fresh_phone.packages, "is_installed", lambda package: package == "io.example.keyboard")
    assert run(fresh_phone, "ime list -a -s")[0] == f"{LATIN}\nio.example.keyboard/.KeyboardService\n"
    assert run(fresh_phone, "ime enable io.example.keyboard/.KeyboardService")[2] == 0


def test_dumpsys_meminfo_of_a_process(fresh_phone):
    run(fresh_phone, "monkey -p com.simplemobiletools.notes.pro -c android.intent.category.LAUNCHER 1")
    pid = run(fresh_phone, "pidof com.simplemobiletools.notes.pro")[0].strip()
    out = run(fresh_phone, f"dumpsys meminfo {pid}")[0].splitlines()
    assert out[0] == "Applications Memory Usage (in Kilobytes):"
    assert out[3] == f"** MEMINFO in pid {pid} [com.simplemobiletools.notes.pro] **"
    assert out[4].split() == ["Pss", "Private", "Private", "SwapPss", "Rss", "Heap", "Heap", "Heap"]
    rows = {line[:13].strip(): line[13:].split() for line in out[7:] if line[:13].strip()}
    # the TOTAL row adds up the rows above it (Pss column)
    assert int(rows["TOTAL"][0]) == sum(int(v[0]) for k, v in rows.items() if k not in ("TOTAL",)
                                        and k in dict.fromkeys(list(rows)[:list(rows).index("TOTAL")]))
    assert run(fresh_phone, "dumpsys meminfo no.such.app") == ("No process found for: no.such.app\n", "", 0)

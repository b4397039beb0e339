"""A Mobly test of the virtual phone, run by tests/test_mobly_client.py as Mobly runs any test:
`python mobly_phone.py -c CONFIG`. Nothing here knows the phone is virtual.

Mobly's android_device controller registers the phone: it reads the build's properties
(`adb shell getprop`), runs `adb root` on a debuggable build and waits for the device to come
back (AndroidDevice.root_adb), and starts its logcat service (`adb logcat -v threadtime -T 1`).
"""

from __future__ import annotations

import os
import time
import zipfile

from mobly import asserts, base_test, test_runner
from mobly.controllers import android_device

CALCULATOR = "com.simplemobiletools.calculator"
#: bound on waiting for the logcat service's subprocess to write a line to its file
LOGCAT_WAIT_S = 60


class VirtualPhoneTest(base_test.BaseTestClass):

    def setup_class(self):
        self.ads = self.register_controller(android_device)
        self.dut = self.ads[0]

    def test_registered_as_a_userdebug_phone_running_adbd_as_root(self):
        info = self.dut.build_info
        asserts.assert_equal(info["build_type"], "userdebug")
        asserts.assert_equal(info["debuggable"], "1")
        asserts.assert_true(self.dut.is_rootable, "a debuggable build is rootable")
        # register_controller ran `adb root`: adbd restarted as root
        asserts.assert_equal(self.dut.adb.shell(["id", "-u"]).decode().strip(), "0")
        asserts.assert_true(self.dut.is_boot_completed(), "sys.boot_completed is 1")

    def test_shell_commands(self):
        asserts.assert_equal(self.dut.adb.shell("echo hello").decode(), "hello\n")
        self.dut.adb.shell(["am", "start", "-W", "-n", f"{CALCULATOR}/.activities.SplashActivity.Orange"])
        pid = self.dut.adb.shell(["pidof", CALCULATOR]).decode().strip()
        asserts.assert_true(pid.isdigit(), f"pidof printed {pid!r}")
        asserts.assert_equal(self.dut.adb.getprop("ro.build.version.sdk"), "34")
        with asserts.assert_raises(android_device.adb.AdbError):
            self.dut.adb.shell("exit 3")

    def test_logcat_across_pause_and_resume(self):
        logcat = self.dut.services.logcat
        self.dut.adb.shell("log -t MoblyTest before_pause")
        self._wait_for_line("before_pause")
        logcat.pause()
        self.dut.adb.shell("log -t MoblyTest while_paused")
        logcat.resume()
        self.dut.adb.shell("log -t MoblyTest after_resume")
        text = self._wait_for_line("after_resume")
        # the resumed logcat starts at the device time of the pause (-T 'YYYY-MM-DD hh:mm:ss.mmm',
        # read by `date` after before_pause was logged): the line logged while paused is not lost,
        # and the one before the pause, logged earlier than that time, is not printed again.
        lines = [line.split("MoblyTest: ", 1)[1] for line in text.splitlines() if "MoblyTest: " in line]
        asserts.assert_equal(lines, ["before_pause", "while_paused", "after_resume"],
                             "each line once, in order, across the pause")

    def test_bug_report(self):
        path = self.dut.take_bug_report(test_name="virtual_phone", destination=self.log_path)
        asserts.assert_true(path.endswith(".zip"), f"bugreportz made {path}")
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            main = archive.read("main_entry.txt").decode().strip()
            asserts.assert_true(main in names, f"main_entry.txt names {main!r}, not in {names}")

    def _wait_for_line(self, word: str) -> str:
        path = self.dut.adb_logcat_file_path
        deadline = time.monotonic() + LOGCAT_WAIT_S
        while True:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if f"MoblyTest: {word}" in text:
                return text
            asserts.assert_true(time.monotonic() < deadline, f"{word} never reached {path}")
            time.sleep(0.05)  # the `adb logcat` subprocess writes the file: polled, bounded by the deadline


if __name__ == "__main__":
    test_runner.main()

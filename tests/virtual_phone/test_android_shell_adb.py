"""The Android shell commands clients call, through the real adb server: output and exit
codes as Android 14 gives them (adbutils shell2 with shell protocol v2, exec-out)."""

from __future__ import annotations

import hashlib

import pytest


@pytest.mark.parametrize("line, code, stdout, stderr", [
    ("frobnicate", 127, "", "/system/bin/sh: frobnicate: inaccessible or not found\n"),
    ("toybox frobnicate", 127, "", 'toybox: Unknown command frobnicate (see "toybox --help")\n'),
    ("ps -p 99999 -o PID=", 1, "", ""),
    ("ime enable no.such/.Ime", 255, "", "Unknown input method no.such/.Ime cannot be enabled for user #0\n"),
    ("wm density | cut -d ' ' -f 3", 0, "440\n", ""),
    ("pm list features | head -1", 0, "feature:reqGlEsVersion=0x30002\n", ""),
    ("dumpsys battery | grep -c level", 0, "1\n", ""),
    ("ls /proc/stat /proc/meminfo /proc/cpuinfo", 0, "/proc/cpuinfo\n/proc/meminfo\n/proc/stat\n", ""),
    ("echo b a c | xargs -n1 | sort | uniq -c | wc -l", 0, "3\n", ""),
])
def test_exit_codes_and_output_through_shell_v2(adb_device, line, code, stdout, stderr):
    result = adb_device.shell2(line, v2=True)
    assert (result.returncode, result.stdout, result.stderr) == (code, stdout, stderr)


def test_exec_out_is_raw_and_runs_the_shell(adb_server, phone):
    """exec: (adb exec-out) runs through sh -c as adbd does, bytes unchanged."""
    digest = hashlib.md5(b"\x00\x01\xff").hexdigest()
    adb_server.run("shell", "rm -f /data/local/tmp/bin.dat", serial=phone.serial)
    pushed = adb_server.run("exec-out", "printf '\\000\\001\\377' > /data/local/tmp/bin.dat && "
                            "toybox md5sum /data/local/tmp/bin.dat", serial=phone.serial)
    assert pushed.returncode == 0
    assert pushed.stdout == f"{digest}  /data/local/tmp/bin.dat\n".encode()
    out = adb_server.run("exec-out", "cat /proc/stat", serial=phone.serial).stdout
    assert out.startswith(b"cpu  ") and b"\r" not in out  # the kernel's format, bytes as they are

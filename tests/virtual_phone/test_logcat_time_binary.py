"""logcat's -B binary records and -t/-T with a time, through the real adb server (adbutils).

Sources followed: system/logging/logcat/logcat.cpp (Logcat::Run: -t/-T parsing, parseTime's three
formats, "-t '...' not in time format.", "time truncated" warning, -B writing log_msg as read),
system/logging/liblog/include/log/log_read.h (struct logger_entry v4), liblog log_time.cpp
(log_time::strptime: %q takes up to nine fraction digits; the year defaults to the current one),
and toybox date.c puts_time (%3N).
"""

from __future__ import annotations

import struct

import pytest

LOGGER_ENTRY = struct.Struct("<HHiIIIII")  # len, hdr_size, pid, tid, sec, nsec, lid, uid


@pytest.fixture
def device(phone_factory, adb_server_port):
    """A phone of its own whose log holds three lines, a second apart (`sleep` moves the virtual clock)."""
    import adbutils

    running = phone_factory(1, prepare=False)[0]
    dev = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    dev.shell("logcat -c")
    for word in ("one", "two", "three"):
        dev.shell(f"log -t TimeTest -p w {word}; sleep 1")
    return dev


def _lines(text: str) -> list[str]:
    return [line.rsplit(": ", 1)[1] for line in text.splitlines() if "TimeTest" in line]


def test_tail_takes_a_count_or_each_of_the_three_time_forms(device):
    second = device.shell("logcat -d -v epoch -s TimeTest").splitlines()[2]  # after the divider, "one"
    epoch = second.split()[0]  # "sssss.mmm" of the line "two"
    stamp = " ".join(device.shell("logcat -d -v year -s TimeTest").splitlines()[2].split()[:2])
    assert _lines(device.shell("logcat -v threadtime -s TimeTest -t 2")) == ["two", "three"]
    for since in (stamp[5:], stamp, epoch):  # 'MM-DD hh:mm:ss.mmm', 'YYYY-MM-DD ...', 'sec.nsec'
        assert _lines(device.shell(f"logcat -s TimeTest -t '{since}'")) == ["two", "three"], since
    # up to nine fraction digits; what is left over is reported and ignored
    out = device.shell2(f"logcat -s TimeTest -t '{epoch}0000001234'", v2=True)
    assert _lines(out.stdout) == ["two", "three"]
    assert out.stderr == f"WARNING: -t '{epoch}000000' '1234' time truncated\n"
    bad = device.shell2("logcat -t 'yesterday'", v2=True)
    assert (bad.returncode, bad.stderr) == (1, "logcat: -t 'yesterday' not in time format.\n")
    zero = device.shell2("logcat -s TimeTest -t 0", v2=True)
    assert (_lines(zero.stdout), zero.stderr) == (["three"], "WARNING: -t 0 invalid, setting to 1\n")


def test_big_t_with_a_time_prints_from_then_and_follows(device):
    epoch = device.shell("logcat -d -v epoch -s TimeTest").splitlines()[-1].split()[0]  # "three"
    with device.shell(f"logcat -v brief -s TimeTest -T {epoch}", stream=True) as follow:
        device.shell("log -t TimeTest -p w four")
        seen = b""
        while b"four" not in seen:
            chunk = follow.conn.recv(4096)
            assert chunk, seen
            seen += chunk
    assert _lines(seen.decode()) == ["three", "four"]


def test_mobly_pause_resume_time_format_round_trips(device):
    # Mobly's logcat service reads the device time with this `date` and resumes with -T that time.
    now = device.shell(r"date +%Y-%m-%d\ %H:%M:%S.%3N")
    assert len(now) == len("2024-05-01 09:00:13.000") and now[10] == " "
    device.shell("log -t TimeTest -p w after")
    assert _lines(device.shell(f"logcat -d -s TimeTest -T '{now}'")) == ["after"]


def test_binary_records_are_logger_entries_as_logd_hands_them_out(device):
    data = device.shell("logcat -B -d -b main -s Nothing", encoding=None)  # filterspecs do not apply to -B
    records, offset = [], 0
    while offset < len(data):
        length, hdr_size, pid, tid, sec, nsec, lid, uid = LOGGER_ENTRY.unpack_from(data, offset)
        assert hdr_size == 28
        payload = data[offset + hdr_size:offset + hdr_size + length]
        records.append((pid, tid, sec, nsec, lid, uid, payload))
        offset += hdr_size + length
    assert offset == len(data)
    texts = device.shell("logcat -d -b main -v epoch -s TimeTest").splitlines()  # one buffer: no divider
    assert [r[6] for r in records] == [b"\x05TimeTest\0one\0", b"\x05TimeTest\0two\0", b"\x05TimeTest\0three\0"]
    assert len(texts) == 3
    for (pid, tid, sec, nsec, lid, uid, _), text in zip(records, texts):
        assert (lid, uid) == (0, 2000)  # LOG_ID_MAIN; written by the shell's `log`
        assert text.split()[:3] == [f"{sec}.{nsec // 1_000_000:03d}", str(pid), str(tid)]
    # no dividers in binary mode, even with several buffers
    assert b"beginning of" not in device.shell("logcat -B -d", encoding=None)

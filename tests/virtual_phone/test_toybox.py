"""toybox as a multiplexer and the text applets clients pipe through (in-process)."""

from __future__ import annotations

import hashlib

import pytest


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


@pytest.fixture
def phone(fresh_phone):
    fresh_phone.run_shell("printf 'hello\\n' > /data/local/tmp/f")
    return fresh_phone


def test_toybox_multiplexer(phone):
    md5 = hashlib.md5(b"hello\n").hexdigest()
    assert run(phone, "toybox md5sum /data/local/tmp/f") == (f"{md5}  /data/local/tmp/f\n", "", 0)
    assert run(phone, "toybox nope") == ("", 'toybox: Unknown command nope (see "toybox --help")\n', 127)
    listing = run(phone, "toybox")[0]
    assert {"md5sum", "cut", "ps", "xargs"} <= set(listing.split())
    assert all(len(line) < 80 for line in listing.splitlines())
    # only toybox applets: `toybox am` is not one on Android
    assert run(phone, "toybox am")[2] == 127


@pytest.mark.parametrize("line, out", [
    ("wm density | cut -d ' ' -f 3", "440\n"),
    ("echo a:b:c | cut -d : -f 2-", "b:c\n"),
    ("echo abcdef | cut -c 2,4-5", "bde\n"),
    ("echo nodelim | cut -d : -f 2", "nodelim\n"),
    ("echo nodelim | cut -s -d : -f 2", ""),
    ("echo hello | sha1sum", hashlib.sha1(b"hello\n").hexdigest() + "  -\n"),
    ("md5sum -b /data/local/tmp/f", hashlib.md5(b"hello\n").hexdigest() + "\n"),
    ("printf '3\\n10\\n2\\n' | sort -n", "2\n3\n10\n"),
    ("printf '3\\n10\\n2\\n' | sort", "10\n2\n3\n"),
    ("printf 'b\\na\\nb\\n' | sort -ru", "b\na\n"),
    ("printf 'x 2\\ny 1\\n' | sort -k 2 -n", "y 1\nx 2\n"),
    ("printf 'a\\na\\nb\\n' | uniq -c", "      2 a\n      1 b\n"),
    ("printf 'a\\na\\nb\\n' | uniq -d", "a\n"),
    ("echo 1 2 3 | xargs -n 2 echo x", "x 1 2\nx 3\n"),
    ("echo /data/local/tmp/f | xargs cat", "hello\n"),
    ("printf 'a\\nb\\n' | xargs -I {} echo '<{}>'", "<a>\n<b>\n"),
    ("find /data/local/tmp -type f -name 'f*'", "/data/local/tmp/f\n"),
    ("find /sdcard/ -maxdepth 1 -name 'Do*'", "/sdcard/Documents\n/sdcard/Download\n"),
    ("stat -c '%s %a %U %F' /data/local/tmp/f", "6 660 shell regular file\n"),
    ("printf '%s=%03d %x|%-3s|\\n' a 7 255 b", "a=007 ff|b  |\n"),
    ("printf '%s\\n' a b c", "a\nb\nc\n"),
    ("echo Hello | tr a-z A-Z", "HELLO\n"),
    ("echo hello | tr -d l", "heo\n"),
    ("seq 2 4", "2\n3\n4\n"),
    ("basename /a/b.txt .txt; dirname /a/b/c", "b\n/a/b\n"),
    ("[ -f /data/local/tmp/f ] && [ ! -d /data/local/tmp/f ] && echo file", "file\n"),
    ("test 3 -gt 2 -a x = x && echo yes", "yes\n"),
    ("echo x | tee /data/local/tmp/t >/dev/null; cat /data/local/tmp/t", "x\n"),
    ("nproc", "4\n"),
    ("realpath /sdcard", "/storage/emulated/0\n"),
    ("seq 10 | grep -e 3 -e 8", "3\n8\n"),
    ("chmod 755 /data/local/tmp/f && stat -c %A /data/local/tmp/f", "-rwxr-xr-x\n"),
    ("chmod 600 /data/local/tmp/f && chmod g+r,o+r /data/local/tmp/f && stat -c %a /data/local/tmp/f", "644\n"),
])
def test_applets(phone, line, out):
    assert run(phone, line) == (out, "", 0)


@pytest.mark.parametrize("line, err, code", [
    ("md5sum /nope", "md5sum: /nope: No such file or directory\n", 1),
    ("cut /data/local/tmp/f", "cut: Needs -bcf\n", 1),
    ("find /nope", "find: /nope: No such file or directory\n", 1),
    ("stat /nope", "stat: /nope: No such file or directory\n", 1),
    ("echo x | xargs nosuchcmd", "/system/bin/sh: nosuchcmd: inaccessible or not found\n", 127),
    ("[ 1 -lt x ]", "[: not integer 'x'\n", 2),
    ("chmod 755 /system/bin/sh", "chmod: /system/bin/sh: Read-only file system\n", 1),
    ("chmod 755 /nope", "chmod: /nope: No such file or directory\n", 1),
])
def test_applet_errors(phone, line, err, code):
    assert run(phone, line)[1:] == (err, code)

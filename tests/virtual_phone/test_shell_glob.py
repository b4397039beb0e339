"""Pathname expansion as mksh does it, in-process and through the real adb server."""

from __future__ import annotations

import pytest


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


@pytest.fixture
def folder(fresh_phone):
    fresh_phone.run_shell("mkdir -p /sdcard/G/sub /sdcard/G/.dot; "
                          "touch /sdcard/G/a.txt /sdcard/G/b.jpg /sdcard/G/c1.txt /sdcard/G/.hidden "
                          "/sdcard/G/sub/x.txt '/sdcard/G/sp ace.txt'")
    return fresh_phone


@pytest.mark.parametrize("line, out", [
    ("echo /sdcard/G/*", "/sdcard/G/a.txt /sdcard/G/b.jpg /sdcard/G/c1.txt /sdcard/G/sp ace.txt /sdcard/G/sub\n"),
    ("echo /sdcard/G/?.txt", "/sdcard/G/a.txt\n"),
    ("echo /sdcard/G/[ab].*", "/sdcard/G/a.txt /sdcard/G/b.jpg\n"),
    ("echo /sdcard/G/[!a-b]*.txt", "/sdcard/G/c1.txt /sdcard/G/sp ace.txt\n"),
    ("echo /sdcard/G/.*", "/sdcard/G/.dot /sdcard/G/.hidden\n"),   # never . or ..
    ("echo /sdcard/G/*/*.txt", "/sdcard/G/sub/x.txt\n"),
    ("echo /sdcard/G/*/", "/sdcard/G/sub/\n"),
    ("cd /sdcard/G && echo *.jpg s*/x*", "b.jpg sub/x.txt\n"),
    # quoted or escaped characters are literal
    ("echo '/sdcard/G/*' \"/sdcard/G/*\" /sdcard/G/\\*", "/sdcard/G/* /sdcard/G/* /sdcard/G/*\n"),
    ("echo /sdcard/G/'a'*", "/sdcard/G/a.txt\n"),
    # no match: the word stays as written
    ("echo /sdcard/G/*.png /nowhere/* x[ab", "/sdcard/G/*.png /nowhere/* x[ab\n"),
    # an unquoted variable's value is split and globbed; a quoted one is not
    ("P='/sdcard/G/*.jpg'; echo $P \"$P\"", "/sdcard/G/b.jpg /sdcard/G/*.jpg\n"),
    ("E=; echo a $E b", "a b\n"),
    # assignments are not globbed
    ("P=/sdcard/G/*.jpg; echo \"$P\"", "/sdcard/G/*.jpg\n"),
])
def test_glob_expansion(folder, line, out):
    assert run(folder, line) == (out, "", 0)


def test_glob_in_every_command_position(folder):
    # the command name itself, a pipeline stage, a subshell, after && and ||
    assert run(folder, "/system/bin/ech* hi")[0] == "hi\n"
    assert run(folder, "echo x | ls /sdcard/G/*.jpg")[0] == "/sdcard/G/b.jpg\n"
    assert run(folder, "(ls /sdcard/G/?.jpg)")[0] == "/sdcard/G/b.jpg\n"
    assert run(folder, "false || ls -d /sdcard/G/s?b && echo ok")[0] == "/sdcard/G/sub\nok\n"


def test_unmatched_pattern_reaches_the_command_literally(folder):
    assert run(folder, "rm /sdcard/G/*.png") == (
        "", "rm: /sdcard/G/*.png: No such file or directory\n", 1)


def test_rm_rf_star_empties_a_folder_but_keeps_hidden_files(folder):
    assert run(folder, "rm -rf /sdcard/G/*") == ("", "", 0)
    assert run(folder, "ls -A /sdcard/G")[0] == ".dot\n.hidden\n"


def test_through_adb(adb_device, phone):
    """The issue's case, through the real adb server (adbutils shell)."""
    adb_device.shell("mkdir -p /sdcard/Download/globtest && touch /sdcard/Download/g1.txt /sdcard/Download/g2.jpg")
    listing = adb_device.shell("ls /sdcard/D*")
    assert "/sdcard/Download:" in listing and "g1.txt" in listing and "/sdcard/DCIM:" in listing
    result = adb_device.shell2("rm -rf /sdcard/Download/*")
    assert result.returncode == 0
    assert adb_device.shell("ls /sdcard/Download") == ""
    assert not phone.phone.fs.exists("/sdcard/Download/g1.txt")


@pytest.mark.parametrize("line, out", [
    ("echo a{b,c}d x{1,2}{3,4}", "abd acd x13 x14 x23 x24\n"),
    ("echo {a,{b,c}}d {,x}y", "ad bd cd y xy\n"),
    # no comma, unmatched, or quoted: the braces are ordinary characters
    ("echo {a} {a,b '{a,b}' \"{a,b}\" a{'b,c'}", "{a} {a,b {a,b} {a,b} a{b,c}\n"),
    ("X=q; echo {$X,z} {'x y',z}", "q z x y z\n"),
    # each alternative is then globbed
    ("echo /sdcard/G/{a,b}.*", "/sdcard/G/a.txt /sdcard/G/b.jpg\n"),
])
def test_brace_expansion(folder, line, out):
    assert run(folder, line) == (out, "", 0)


def test_tilde_is_home(fresh_phone):
    assert run(fresh_phone, "echo ~ ~/x '~' a~ ~root")[0] == "/ //x ~ a~ ~root\n"

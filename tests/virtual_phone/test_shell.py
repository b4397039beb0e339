"""The phone's sh subset and its commands, run in-process (no adb)."""

from __future__ import annotations

import re

import pytest


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


@pytest.mark.parametrize("line, out, code", [
    ("echo hi", "hi\n", 0),
    ("echo 'a  b' \"c  d\" e\\ f", "a  b c  d e f\n", 0),
    ("echo -n x; echo y", "xy\n", 0),
    ("true && echo yes || echo no", "yes\n", 0),
    ("false && echo yes || echo no", "no\n", 0),
    ("false; echo $?", "1\n", 0),
    ("exit 3; echo unreachable", "", 3),
    ("nope; echo $?", "127\n", 0),
    ("echo a | cat | cat", "a\n", 0),
    ("printf_not_here 2>/dev/null || echo fallback", "fallback\n", 0),
    ("X=1; echo $X ${X}y", "1 1y\n", 0),
    ("echo \"$HOME\" '$HOME'", "/ $HOME\n", 0),
    ("echo a#b # comment", "a#b\n", 0),
    ("! false && echo negated", "negated\n", 0),
])
def test_sh_semantics(fresh_phone, line, out, code):
    assert run(fresh_phone, line)[0] == out
    assert run(fresh_phone, line)[2] == code


@pytest.mark.parametrize("line, out", [
    # mksh runs the substitutions the command line itself writes (lex.c COMSUB, exec.c comsub)...
    ("echo $(touch /sdcard/pwned; echo ran)", "ran\n"),
    ("echo `touch /sdcard/pwned; echo ran`", "ran\n"),
    ("echo \"$(touch /sdcard/pwned)\" \"`echo ran`\"", " ran\n"),
])
def test_command_substitution_runs_what_the_line_writes(fresh_phone, line, out):
    assert run(fresh_phone, line) == (out, "", 0)
    assert fresh_phone.fs.exists("/sdcard/pwned")


@pytest.mark.parametrize("line", [
    # ... but never what an expansion produced: quoted text, a variable's value, a
    # substitution's output are only text
    "echo '$(touch /sdcard/pwned)'",
    "X='$(touch /sdcard/pwned)'; echo $X \"$X\"",
    "echo $(echo '$(touch /sdcard/pwned)') \"$(echo '`touch /sdcard/pwned`')\"",
])
def test_expanded_text_is_never_executed(fresh_phone, line):
    out, _err, code = run(fresh_phone, line)
    assert code == 0
    assert "touch /sdcard/pwned" in out
    assert not fresh_phone.fs.exists("/sdcard/pwned")


def test_unknown_command_is_127_with_android_message(fresh_phone):
    assert run(fresh_phone, "frobnicate -x") == ("", "/system/bin/sh: frobnicate: inaccessible or not found\n", 127)


def test_syntax_errors_are_reported_not_raised(fresh_phone):
    for line in ("echo 'open", "echo \"open", "| cat", "echo a &&", "echo >"):
        out, err, code = run(fresh_phone, line)
        assert code != 0 and err.startswith("/system/bin/sh: ")


def test_redirections(fresh_phone):
    run(fresh_phone, "echo one > /sdcard/f; echo two >> /sdcard/f")
    assert run(fresh_phone, "cat /sdcard/f") == ("one\ntwo\n", "", 0)
    assert run(fresh_phone, "cat /sdcard/missing 2>&1") == (
        "cat: /sdcard/missing: No such file or directory\n", "", 1)
    assert run(fresh_phone, "cat /sdcard/missing 2>/dev/null") == ("", "", 1)
    assert run(fresh_phone, "cat /sdcard/missing 2>/sdcard/err; cat /sdcard/err")[0].startswith("cat:")
    assert run(fresh_phone, "wc -l < /sdcard/f") == ("2\n", "", 0)
    _out, err, code = run(fresh_phone, "echo x > /proc/nope")
    assert code == 1 and "Read-only file system" in err


def test_file_commands(fresh_phone):
    p = fresh_phone
    assert run(p, "mkdir -p /sdcard/a/b && touch /sdcard/a/b/f && ls /sdcard/a/b") == ("f\n", "", 0)
    assert run(p, "cp /sdcard/a/b/f /sdcard/g && mv /sdcard/g /sdcard/h && ls /sdcard/h")[0] == "/sdcard/h\n"
    assert run(p, "rm /sdcard/a")[2] == 1
    assert run(p, "rm -r /sdcard/a && ls /sdcard/a")[2] == 1
    assert run(p, "rm -f /sdcard/none")[2] == 0
    run(p, "echo 'alpha\nbeta\ngamma' > /sdcard/t")
    assert run(p, "grep -n a /sdcard/t")[0] == "1:alpha\n2:beta\n3:gamma\n"
    assert run(p, "grep -c mm /sdcard/t")[0] == "1\n"
    assert run(p, "grep -q zzz /sdcard/t")[2] == 1
    assert run(p, "head -n 1 /sdcard/t; tail -1 /sdcard/t")[0] == "alpha\ngamma\n"
    assert run(p, "cat /sdcard/t | wc -l")[0] == "3\n"
    long = run(p, "ls -l /sdcard/t")[0]
    assert re.fullmatch(r"-rw-rw---- 1 \S+ +\S+ +17 2024-05-01 09:00 /sdcard/t\n", long), long
    assert "sdcard -> /storage/self/primary" in run(p, "ls -l /")[0]
    assert run(p, "ls -a /sdcard/Music")[0] == ".\n..\n"


def test_props_and_identity(fresh_phone):
    p = fresh_phone
    assert run(p, "getprop ro.build.version.sdk")[0] == "34\n"
    assert run(p, "getprop ro.build.version.release")[0] == "14\n"
    assert run(p, "getprop ro.sf.lcd_density")[0] == "440\n"
    assert run(p, "getprop no.such.prop")[0] == "\n"
    assert "[ro.secure]: [1]" in run(p, "getprop")[0]
    assert run(p, "setprop debug.x 5; getprop debug.x")[0] == "5\n"
    assert run(p, "setprop ro.build.version.sdk 99")[2] == 1
    assert run(p, "whoami")[0] == "shell\n"
    assert run(p, "id")[0].startswith("uid=2000(shell) gid=2000(shell)")
    assert run(p, "which ls input nope")[0] == "/system/bin/ls\n/system/bin/input\n"


def test_clock_is_virtual_and_moves_by_programs_and_sleep(fresh_phone):
    """kernel/clock.py: each program a shell starts takes PROGRAM_MS, `sleep` its length, a
    builtin nothing; never the host's time."""
    from pytest_mobileagent.virtual_phone.kernel.clock import PROGRAM_MS

    p = fresh_phone
    assert run(p, "date")[0] == "Wed May  1 09:00:00 UTC 2024\n"
    assert run(p, "date +%s")[0] == "1714554000\n"
    assert run(p, "sleep 90; date +%H:%M:%S")[0] == "09:01:30\n"
    assert run(p, "sleep 0.5; echo builtin")[2] == 0
    assert p.clock_ms() == 1714554000000 + 3 * PROGRAM_MS + 90_500


def test_clock_start_is_configurable():
    from pytest_mobileagent.virtual_phone import VirtualPhone

    phone = VirtualPhone(start_time="2030-01-02T03:04:05Z")
    assert phone.run_shell("date +%Y-%m-%dT%H:%M:%S").stdout == b"2030-01-02T03:04:05\n"


def test_seeded_state_is_deterministic():
    from pytest_mobileagent.virtual_phone import VirtualPhone

    a, b, c = VirtualPhone(seed=3), VirtualPhone(seed=3), VirtualPhone(seed=4)
    get = "settings get secure android_id"
    assert a.run_shell(get).stdout == b.run_shell(get).stdout != c.run_shell(get).stdout
    assert a.rng.random() == b.rng.random()


def test_display_commands_match_client_regexes(fresh_phone):
    """The formats adbutils and AndroidViewClient parse (regexes from their source)."""
    p = fresh_phone
    assert run(p, "wm size")[0] == "Physical size: 1080x2340\n"
    assert run(p, "wm density")[0] == "Physical density: 440\n"
    display = run(p, "dumpsys display")[0]
    m = re.search(r".*DisplayViewport\{.*valid=true, .*orientation=(?P<orientation>\d+), "
                  r".*deviceWidth=(?P<width>\d+), deviceHeight=(?P<height>\d+).*", display)
    assert m and m.group("width", "height", "orientation") == ("1080", "2340", "0")
    first_orientation = next(line for line in display.splitlines() if "orientation=" in line)
    assert "orientation=0" in first_orientation
    assert re.search(r"mPredictedRotation=(\d)", run(p, "dumpsys window displays")[0])


def test_focus_and_activity_dumps_match_adbutils_regexes(fresh_phone):
    p = fresh_phone
    package, activity = p.system.focused_window()
    windows = run(p, "dumpsys window windows")[0]
    m = re.search(r"mCurrentFocus=Window{.*\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\}", windows)
    assert m and m.group("package", "activity") == (package, activity)
    top = run(p, "dumpsys activity top")[0]
    m = re.search(r"ACTIVITY (?P<package>[^\s]+)/(?P<activity>[^/\s]+) \w+ pid=(?P<pid>\d+)", top)
    assert m and m.group("package") == package
    assert re.search(r"\s*ACTIVITY ([A-Za-z0-9_.]+)/([A-Za-z0-9_.\$]+) \w+ pid=(\d+)", top)
    activities = run(p, "dumpsys activity activities")[0]
    assert re.search(r"mResumedActivity: ActivityRecord\{.*?\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\s.*?\}",
                     activities)


def test_launching_apps(fresh_phone):
    p = fresh_phone
    third_party = run(p, "pm list packages -3")[0].split()
    assert third_party and all(line.startswith("package:") for line in third_party)
    package = third_party[0][len("package:"):]
    activity = p.system.launcher_activity(package)
    out, err, code = run(p, f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    assert code == 0 and "Events injected: 1" in out
    assert p.system.focused_window() == (package, activity)
    run(p, "input keyevent HOME")
    assert p.system.focused_window()[0] != package
    # the launcher entry (an exported icon alias); the activity class itself is not exported to the shell
    out, _, code = run(p, f"am start -W -n {package}/.activities.SplashActivity.Orange")
    assert code == 0 and out.startswith("Starting: Intent { cmp=") and "Status: ok" in out
    assert p.system.focused_window() == (package, activity)
    assert run(p, f"pidof {package}")[2] == 0
    run(p, f"am force-stop {package}")
    assert p.system.focused_window()[0] != package
    assert run(p, f"pidof {package}")[2] == 1
    out, err, code = run(p, f"am start -n {package}/.NoSuchActivity")
    assert code != 0 and "Error: Activity class" in err and "does not exist." in err
    assert run(p, f"pm path {package}")[0].startswith("package:/data/app/")
    assert run(p, "pm path no.such.pkg")[2] == 1


def test_pm_grants_and_clear(fresh_phone):
    p = fresh_phone
    package = p.system.installed_packages()[0]
    assert run(p, f"pm grant {package} android.permission.READ_CONTACTS")[2] == 0
    assert p.permissions[package] == {"android.permission.READ_CONTACTS"}
    assert run(p, f"pm revoke {package} android.permission.READ_CONTACTS")[2] == 0
    assert p.permissions[package] == set()
    _out, err, code = run(p, "pm grant no.such.pkg android.permission.CAMERA")
    assert code == 255 and "Unknown package: no.such.pkg" in err
    assert run(p, f"pm clear {package}")[0] == "Success\n"
    assert run(p, f"pm disable-user {package}")[0] == f"Package {package} new state: disabled-user\n"
    assert f"package:{package}\n" in run(p, "pm list packages -d")[0]
    assert run(p, f"pm enable {package}")[0] == f"Package {package} new state: enabled\n"


def test_settings(fresh_phone):
    p = fresh_phone
    assert run(p, "settings get global adb_enabled")[0] == "1\n"
    assert run(p, "settings get system nope")[0] == "null\n"
    assert run(p, "settings put system font_scale 1.3 && settings get system font_scale")[0] == "1.3\n"
    assert "font_scale=1.3\n" in run(p, "settings list system")[0]
    assert run(p, "settings get bogus x")[2] == 1


def test_input_commands_reach_the_system(fresh_phone):
    p = fresh_phone
    before = p.system.version
    for line in ("input tap 540 1200", "input touchscreen swipe 540 1800 540 600 300",
                 "input keyevent KEYCODE_BACK", "input keyevent 3", "input swipe 10 10 10 10 600"):
        assert run(p, line) == ("", "", 0), line
    assert run(p, "input tap x y")[2] != 0
    assert run(p, "input bogus") == ("Unknown command: bogus\n", "", 0)  # as Android 14 answers
    assert p.system.version >= before


def test_uiautomator_and_screencap(fresh_phone):
    p = fresh_phone
    out, _err, code = run(p, "uiautomator dump")
    assert (out, code) == ("UI hierchary dumped to: /sdcard/window_dump.xml\n", 0)
    xml = p.fs.read_file("/sdcard/window_dump.xml")
    assert xml.startswith(b"<?xml") and b"<hierarchy" in xml
    out = p.run_shell("uiautomator dump --compressed /dev/tty").stdout
    assert out.startswith(b"<?xml") and out.endswith(b"UI hierchary dumped to: /dev/tty\n")
    png = p.run_shell("screencap -p").stdout
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert run(p, "screencap /sdcard/s.png && ls /sdcard/s.png")[2] == 0
    assert p.fs.read_file("/sdcard/s.png").startswith(b"\x89PNG")
    raw = p.run_shell("screencap").stdout
    import struct
    assert struct.unpack("<4I", raw[:16]) == (1080, 2340, 1, 1)
    assert len(raw) == 16 + 1080 * 2340 * 4


def test_each_pipelines_output_is_passed_on_as_it_finishes(fresh_phone):
    # As a real shell's output leaves while the rest of its line runs: the
    # host can read a dump before the screencap after it has taken the screen.
    passed = []

    def ready(data: bytes) -> None:
        passed.append((data, fresh_phone.fs.exists("/sdcard/later")))

    result = fresh_phone.run_shell("echo first && touch /sdcard/later && echo second; echo third >&2",
                                   stdout_ready=ready)
    assert passed == [(b"first\n", False), (b"second\n", True)]
    assert (result.stdout, result.stderr, result.exit_code) == (b"", b"third\n", 0)


# mksh R59c syn.c syntaxerr(): "syntax error: unexpected 'TOKEN'", or at the end of the input
# "syntax error: unmatched 'OPENING'" (the format since mksh R55, bcde17a8 "streamline some error messages")
@pytest.mark.parametrize("line, message", [
    ("echo x(y)", "syntax error: unexpected '('"),
    ("echo x)", "syntax error: unexpected ')'"),
    ("echo (y)", "syntax error: unexpected 'y'"),  # `name (` starts a function definition
    ("x(y)", "syntax error: unexpected 'y'"),
    ("(echo a", "syntax error: unmatched '('"),
    ("(echo a) b", "syntax error: unexpected 'b'"),
    ("echo a; )", "syntax error: unexpected ')'"),
    ("| cat", "syntax error: unexpected '|'"),
])
def test_unquoted_parentheses_are_syntax_errors_as_mksh_words_them(fresh_phone, line, message):
    assert run(fresh_phone, line + "; touch /sdcard/ran") == ("", f"/system/bin/sh: {message}\n", 1)
    assert not fresh_phone.fs.exists("/sdcard/ran")  # nothing of a bad line runs


def test_quoted_parentheses_and_subshells(fresh_phone):
    assert run(fresh_phone, "echo 'x(y)' \"a(b)\" a\\(b\\)") == ("x(y) a(b) a(b)\n", "", 0)
    out, _err, code = run(fresh_phone, "X=1; (echo in; X=2; cd /sdcard; exit 3); echo $? $X; pwd")
    assert (out, code) == ("in\n3 1\n/\n", 0)  # the subshell's state and exit stay inside
    assert run(fresh_phone, "(echo a; echo b) > /sdcard/f; cat /sdcard/f")[0] == "a\nb\n"


@pytest.mark.parametrize("line, message", [
    ('echo "$("', "no closing quote"),                 # lex.c: the substitution's `"` opens a quote
    ("echo $(touch /sdcard/x", "syntax error: unmatched '('"),
])
def test_unclosed_substitutions_are_syntax_errors_and_nothing_runs(fresh_phone, line, message):
    assert run(fresh_phone, line + "; touch /sdcard/x") == ("", f"/system/bin/sh: {message}\n", 1)
    assert not fresh_phone.fs.exists("/sdcard/x")


@pytest.mark.parametrize("line, out, err, code", [
    # toybox does not follow a symlink named on the command line, unless it ends in "/"
    ("find /sdcard", "/sdcard\n", "", 0),
    ("mkdir -p /sdcard/Download/a; touch /sdcard/Download/a/x.txt; find /sdcard/Download",
     "/sdcard/Download\n/sdcard/Download/a\n/sdcard/Download/a/x.txt\n", "", 0),
    ("find /sdcard/Download -type f", "/sdcard/Download/a/x.txt\n", "", 0),
    ("find /sdcard/Download -mindepth 1 -maxdepth 1", "/sdcard/Download/a\n", "", 0),
    ("find /sdcard/Download -name a -prune -o -print", "/sdcard/Download\n", "", 0),
    ("find /sdcard/Download ! -type d -o -name a", "/sdcard/Download/a\n/sdcard/Download/a/x.txt\n", "", 0),
    ("find /sdcard/Download \\( -name 'x*' -o -name a \\) -print", "/sdcard/Download/a\n/sdcard/Download/a/x.txt\n",
     "", 0),
    ("find /nope", "", "find: /nope: No such file or directory\n", 1),
    ("find /sdcard/ -bogus", "", "find: bad arg '-bogus'\n", 1),
    ("find /sdcard/ -name", "", "find: 'name' needs 1 arg\n", 1),
    ("find /sdcard/ -type q", "", "find: bad -type 'q'\n", 1),
])
def test_find_as_toybox_runs_it(fresh_phone, line, out, err, code):
    if "x.txt" not in line and "Download" in line:
        run(fresh_phone, "mkdir -p /sdcard/Download/a; touch /sdcard/Download/a/x.txt")
    assert run(fresh_phone, line) == (out, err, code)

"""`input` failures as Android 14's InputShellCommand prints them (it runs as `cmd input`).

A missing argument or a bad number throws: "Exception occurred while
executing '<first argument>':", the exception, exit status 255.  Text the
virtual keyboard's key map cannot type makes KeyCharacterMap.getEvents()
return null and sendText throw a NullPointerException.  Nothing is typed or
touched by a failing command.
"""

from __future__ import annotations

import pytest


def _exception(verb: str, message: str) -> str:
    return f"Exception occurred while executing '{verb}':\n{message}\n"


@pytest.mark.parametrize("line, stderr", [
    ("input text", _exception("text", 'java.lang.IllegalArgumentException: Argument expected after "text"')),
    ("input text é", _exception("text", "java.lang.NullPointerException: Attempt to get length of null array")),
    ("input text 'abc日本'", _exception("text", "java.lang.NullPointerException: Attempt to get length of null array")),
    ("input keyboard text ü", _exception("keyboard",
                                         "java.lang.NullPointerException: Attempt to get length of null array")),
    ("input tap 5", _exception("tap", 'java.lang.IllegalArgumentException: Argument expected after "5"')),
    ("input tap x 5", _exception("tap", "java.lang.IllegalArgumentException: Error: Invalid arguments for command: tap")),
    ("input swipe 1 2 3", _exception("swipe", 'java.lang.IllegalArgumentException: Argument expected after "3"')),
    ("input swipe 1 2 3 4 soon", _exception(
        "swipe", "java.lang.IllegalArgumentException: Error: Invalid arguments for command: swipe")),
    ("input keyevent", _exception("keyevent", 'java.lang.IllegalArgumentException: Argument expected after "keyevent"')),
    ("input -d", _exception("-d", 'java.lang.IllegalArgumentException: Argument expected after "-d"')),
])
def test_input_failures(fresh_phone, line, stderr):
    version = fresh_phone.system.version
    result = fresh_phone.run_shell(line)
    assert (result.stdout, result.stderr.decode(), result.exit_code) == (b"", stderr, 255)
    assert fresh_phone.system.version == version  # nothing changed on screen


@pytest.mark.parametrize("line, stdout", [
    ("input frobnicate", "Unknown command: frobnicate\n"),
    ("input", None),  # the usage
])
def test_input_unknown_commands_print_to_stdout_and_exit_0(fresh_phone, line, stdout):
    result = fresh_phone.run_shell(line)
    assert (result.stderr, result.exit_code) == (b"", 0)
    if stdout is None:
        assert result.stdout.decode().startswith("Usage: input [<source>] [-d DISPLAY_ID] <command>")
    else:
        assert result.stdout.decode() == stdout


def test_the_virtual_keyboard_types_printable_ascii_newline_and_tab(fresh_phone):
    from pytest_mobileagent.virtual_phone.shell.android import VIRTUAL_KEYBOARD_CHARS

    assert {chr(c) for c in range(0x20, 0x7F)} <= VIRTUAL_KEYBOARD_CHARS
    assert not any(ord(c) > 0x7E for c in VIRTUAL_KEYBOARD_CHARS - {"\n", "\t"})

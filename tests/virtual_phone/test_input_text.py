"""Typed text lands exactly in the focused field, and is never executed.

Android's `input text ARG` types ARG with one transformation: each "%s"
becomes a space (InputShellCommand.sendText). So:
- adbutils `send_keys(text)` sends `input text <shlex-quoted text>`: the field
  receives `android_input_text(text)` -- a literal "%s" lands as a space;
- AndroidViewClient `type(text)` turns "%s" into "\\%s" and spaces into "%s"
  inside double quotes: a space lands as a space, a literal "%s" lands as
  "\\ " (backslash, space), exactly as on a real phone.
Text the virtual keyboard has no keys for (non-ASCII) fails as on Android 14:
an exception, exit status 255, nothing typed (see test_input_errors.py).
An empty field shows its hint in dumps (as on Android 8+), so texts are non-empty.
AVC's double quoting cannot carry `"`, `\\` or `$NAME` (sh would interpret
them on a real phone too), so its strategy leaves those out.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uihelpers import focus_editor, focused_text

#: Fragments that would do something if a shell ever executed typed text.
DANGEROUS = ["$(touch /sdcard/pwned1)", "`touch /sdcard/pwned2`", "; touch /sdcard/pwned3",
             "&& touch /sdcard/pwned4", "| touch /sdcard/pwned5", "' ; touch /sdcard/pwned6 '",
             "%s", "%%s", "\\%s", "'", "''", ";", "&", "|", ">", "<", "*", "~", "#", "(", ")",
             "{", "}", "!", "  ", " "]
#: What the virtual keyboard (a US key map) cannot type.
NON_ASCII = ["é", "日本語", "😀", "ß", "\u00a0"]
PWNED = [f"/sdcard/pwned{i}" for i in range(1, 7)]

_PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)  # what `input text` can type


def reference_input_text(arg: str) -> str:
    """Android's InputShellCommand.sendText escaping, written independently of the phone."""
    out = []
    i = 0
    while i < len(arg):
        if arg[i] == "%" and i + 1 < len(arg) and arg[i + 1] == "s":
            out.append(" ")
            i += 2
        else:
            out.append(arg[i])
            i += 1
    return "".join(out)


def avc_encode(text: str) -> str:
    """What AdbClient.type() puts between the double quotes (adbclient.py)."""
    return text.replace("%s", "\\%s").replace(" ", "%s")


texts_any = st.lists(st.one_of(st.sampled_from(DANGEROUS + ['"', "\\", "$HOME", "${X}"]),
                               st.text(_PRINTABLE, max_size=8)), max_size=6).map("".join).filter(bool)
# AdbClient.type() puts the text in double quotes, where mksh expands `$...` and backquotes
# (lex.c): on a real phone such text runs as a command substitution, so it is left out here.
texts_avc = texts_any.filter(lambda t: not any(c in t for c in '"\\$`'))


def test_reference_matches_the_documented_cases():
    assert reference_input_text("hi%sthere") == "hi there"
    assert reference_input_text("%%s") == "% "
    assert reference_input_text("\\%s") == "\\ "
    assert reference_input_text("100%") == "100%"


@pytest.fixture
def editor(adb_device):
    def reset() -> None:
        focus_editor(adb_device.shell, adb_device.dump_hierarchy)
        adb_device.shell("rm -f " + " ".join(PWNED))
    return reset


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts_any)
def test_adbutils_send_keys_lands_exactly(adb_device, phone, editor, text):
    editor()
    adb_device.send_keys(text)
    assert focused_text(adb_device.dump_hierarchy()) == reference_input_text(text)
    assert not any(phone.phone.fs.exists(path) for path in PWNED)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts_avc)
def test_avc_type_lands_exactly(adb_device, phone, editor, adb_server_port, text):
    from com.dtmilano.android.adb.adbclient import AdbClient

    editor()
    client = AdbClient(serialno=phone.serial, port=adb_server_port)
    try:
        client.type(text)
    finally:
        client.close()
    assert focused_text(adb_device.dump_hierarchy()) == reference_input_text(avc_encode(text))
    assert not any(phone.phone.fs.exists(path) for path in PWNED)


@given(text=texts_any)
@settings(max_examples=200, deadline=None)
def test_shell_parses_quoted_text_back_exactly(text):
    """The sh layer alone: shlex-quoted text is one argument, verbatim (no UI needed)."""
    import shlex

    from pytest_mobileagent.virtual_phone.shell.parser import parse

    script = parse("input text " + shlex.quote(text))
    assert len(script) == 1
    words = script[0].first.commands[0].words
    assert len(words) == 3
    assert "".join(value for _kind, value in words[2].parts) == text


@pytest.mark.parametrize("text", NON_ASCII + ["abc" + NON_ASCII[0]])
def test_text_the_virtual_keyboard_cannot_type_fails_and_types_nothing(adb_device, editor, text):
    editor()
    before = focused_text(adb_device.dump_hierarchy())
    result = adb_device.shell2(["input", "text", text], v2=True)
    assert result.returncode == 255
    assert result.stderr == ("Exception occurred while executing 'text':\n"
                             "java.lang.NullPointerException: Attempt to get length of null array\n")
    assert focused_text(adb_device.dump_hierarchy()) == before

"""Quoting for ``input text``: a real POSIX shell and Android's own %s rule decide."""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_mobileagent.device.text import input_text_command, input_text_pieces
# Android's %s rule as the virtual phone implements it (one copy, shared with the phone).
from pytest_mobileagent.virtual_phone.shell import android_input_text

# A stand-in `input` for /bin/sh: prints each `input text` argument NUL-terminated.
_FAKE_INPUT = 'input() { [ "$1" = text ] || exit 99; printf "%s\\0" "$2"; }\n'


def typed_by_shell(text: str) -> str:
    """Run the command through /bin/sh with a fake ``input``; apply Android's %s rule."""
    cmd = input_text_command(text)
    out = subprocess.run(["/bin/sh", "-c", _FAKE_INPUT + cmd], capture_output=True, check=True).stdout
    args = out.decode("utf-8", "surrogateescape").split("\0")[:-1]
    return "".join(android_input_text(a) for a in args)


def test_android_rule_matches_the_java_loop():
    assert android_input_text("hi%sthere") == "hi there"
    assert android_input_text("100%") == "100%"
    assert android_input_text("a%%sb") == "a% b"
    assert android_input_text("%s%s") == "  "
    assert android_input_text("%x") == "%x"


@pytest.mark.parametrize("text", [
    "hello world", "it's", 'say "hi"', "a;reboot", "$(reboot)", "`id`", "$HOME", "a\\b", "100%sure",
    "%s", "%%s", "50% off", "a && b || c | d > e < f", "*", "~", "-x", "héllo", "tab\there",
    "new\nline", "'", "''", "%", " leading and trailing ",
])
def test_examples_land_exactly(text):
    assert typed_by_shell(text) == text


def test_spaces_use_percent_s_and_dangerous_text_is_single_quoted():
    assert input_text_command("hi there") == "input text hi%sthere"
    assert input_text_command("$(reboot)") == "input text '$(reboot)'"
    assert input_text_command("100%sure") == "input text 100% && input text sure"
    assert input_text_command("") == ""


def test_nul_is_rejected():
    with pytest.raises(ValueError):
        input_text_pieces("a\x00b")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")))
def test_any_text_lands_exactly_through_sh(text):
    assert typed_by_shell(text) == text


@given(st.text(alphabet=st.sampled_from("%s s'\"$`\\;")))
def test_pieces_never_contain_a_percent_s_that_is_not_a_space(text):
    pieces = input_text_pieces(text)
    assert "".join(android_input_text(p) for p in pieces) == text


def test_the_harness_and_the_phone_agree_on_what_input_text_types():
    from pytest_mobileagent.device.text import TYPABLE, check_typable
    from pytest_mobileagent.virtual_phone.shell.android import VIRTUAL_KEYBOARD_CHARS

    assert TYPABLE == VIRTUAL_KEYBOARD_CHARS
    check_typable("plain ASCII, tab\t and newline\n")
    with pytest.raises(ValueError, match="'é'"):
        check_typable("héllo")

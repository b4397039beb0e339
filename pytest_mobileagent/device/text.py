"""Quoting text for Android's ``input text`` so it lands exactly and never runs.

Two layers interpret the text. The device shell (mksh) would run ``;``,
``$(...)``, backticks and so on: every argument is single-quoted, where nothing
is special except the quote itself (written ``'\\''``). Then ``input text``
itself rewrites ``%s`` to a space -- the conventional way to type spaces, since
older ``input`` builds and ``adb shell`` joining dropped everything after the first
space. Its loop (``InputShellCommand.sendText``) has no escape for a literal
``%s``: a ``%`` followed by ``s`` always becomes a space. So text containing
``%s`` is cut between the ``%`` and the ``s`` and typed with several ``input
text`` calls joined by ``&&``; a trailing ``%`` is kept as is by that loop.

What else is known to break elsewhere: AndroidViewClient's ``type()`` wraps the
text in double quotes, so ``$``, backticks, ``"`` and ``\\`` are interpreted by
the shell (``$(reboot)`` runs); adbutils' ``send_keys`` single-quotes correctly
but leaves ``%s`` to become a space.

Non-ASCII text: ``input text`` maps characters through the virtual keyboard's
key map (a US layout) and cannot type anything else: on Android 14 the whole
command throws and types nothing, on the virtual phone too. So the harness
refuses such text before touching the device (:func:`check_typable`, a
ValueError the episode reports as the agent's error); the quoting functions
themselves pass any text through. Newline and tab are typable (Android maps
them to ENTER/TAB key presses). NUL cannot be passed in a command line: ValueError.
"""

from __future__ import annotations

import shlex

__all__ = ["TYPABLE", "check_typable", "input_text_command", "input_text_pieces"]

#: What ``input text`` can type: printable ASCII, newline and tab (the keys of
#: KeyCharacterMap.VIRTUAL_KEYBOARD).
TYPABLE = frozenset(chr(c) for c in range(0x20, 0x7F)) | {"\n", "\t"}


def check_typable(text: str) -> None:
    """Raise ValueError naming the characters ``input text`` cannot type, if any."""
    bad = sorted(set(text) - TYPABLE)
    if bad:
        shown = ", ".join(repr(c) for c in bad[:10]) + (" ..." if len(bad) > 10 else "")
        raise ValueError(f"cannot type {shown}: Android's `input text` types only printable ASCII, "
                         "newline and tab (the virtual keyboard's keys) and fails on anything else")


def input_text_pieces(text: str) -> list[str]:
    """The ``input text`` arguments (already %s-encoded) that together type ``text``."""
    if "\x00" in text:
        raise ValueError("text to type must not contain NUL characters")
    parts = text.split("%s")
    pieces = []
    for i, part in enumerate(parts):
        piece = ("s" if i else "") + part + ("%" if i < len(parts) - 1 else "")
        if piece:
            pieces.append(piece.replace(" ", "%s"))
    return pieces


def input_text_command(text: str) -> str:
    """One shell command line typing ``text`` exactly ("" for empty text)."""
    return " && ".join("input text " + shlex.quote(p) for p in input_text_pieces(text))


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

Non-ASCII text: real ``input text`` maps characters through the virtual
keyboard's key map and cannot type characters it lacks (most non-ASCII), failing
or dropping them; this quoting passes them through unchanged and the virtual
phone types them. Newline and tab are passed through (Android maps them to
ENTER/TAB key presses). NUL cannot be passed in a command line: ValueError.
"""

from __future__ import annotations

import shlex

__all__ = ["input_text_command", "input_text_pieces"]


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


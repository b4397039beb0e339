"""The resource-ids each benchmark app can show, for telling a judge's typo from an agent's failure.

``app_ids.json`` (written by ``tools/app_ids.py``) holds, per app, the ids its
pinned release declares in its sources (layouts, menus, ``ids.xml``, those of
Simple-Commons at the commit it pins) and the ids of the libraries it is built
with that land in its namespace. It is data the plugin ships, read on the
plugin's side of adb: the same facts ``tests/test_release_facts.py`` holds the
virtual phone's screens to, and true of a real device running that release.
An id outside them is none the app can ever show.
"""

from __future__ import annotations

import difflib
import functools
import json
from pathlib import Path

__all__ = ["known_ids", "nearest"]

_FILE = Path(__file__).with_name("app_ids.json")


@functools.cache
def _document() -> dict:
    return json.loads(_FILE.read_text(encoding="utf-8"))


@functools.cache
def known_ids(package: str) -> frozenset[str]:
    """The short ids (``result``) the app of ``package`` declares; empty for an app the plugin has no list of."""
    document = _document()
    own = document["apps"].get(package)
    return frozenset() if own is None else frozenset(own) | frozenset(document["shared"])


def nearest(word: str, candidates: "set[str] | frozenset[str]", cutoff: float = 0.6) -> str | None:
    """The candidate most like ``word`` (difflib's ratio, at least ``cutoff``), or None."""
    close = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=cutoff)
    return close[0] if close else None

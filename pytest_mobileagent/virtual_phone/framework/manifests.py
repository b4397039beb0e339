"""The ten apps' manifest facts: activities (exported or not), intent filters, permissions, locales.

Generated from the apps' sources at their release tags, merged with the
Simple-Commons manifest each pins, by ``tools/manifest_facts.py`` into
``apps/data/manifest_facts.json``.  PackageManager's answers that depend on
the manifest read it: ``dumpsys package`` (requested permissions), ``am start``
(an activity that is not exported is refused to the shell), Settings' per-app
language picker (the app's ``android:localeConfig``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

__all__ = ["PHONE_SDK", "Activity", "activity", "launcher_entries", "locales", "requested_permissions"]

_FACTS = Path(__file__).parent.parent / "apps" / "data" / "manifest_facts.json"
#: the phone's API level (Android 14)
PHONE_SDK = 34


class Activity(NamedTuple):
    name: str
    exported: bool
    #: android:enabled (Simple-Commons apps enable one SplashActivity.<colour> icon alias, .Orange)
    enabled: bool = True

_MAIN = "android.intent.action.MAIN"
_LAUNCHER = "android.intent.category.LAUNCHER"


@lru_cache(maxsize=1)
def _facts() -> dict:
    return json.loads(_FACTS.read_text(encoding="utf-8"))


def has_facts(package: str) -> bool:
    return package in _facts()


def activity(package: str, class_name: str) -> Activity | None:
    """The manifest's <activity> or <activity-alias> of that class; None when the manifest has none
    (or the package is not one of the ten apps)."""
    for entry in _facts().get(package, {}).get("activities", ()):
        if entry["name"] == class_name:
            return Activity(entry["name"], entry["exported"], entry.get("enabled", True))
    return None


def launcher_entries(package: str) -> list[Activity]:
    """The manifest's activities and aliases with a MAIN / LAUNCHER intent filter, enabled or not,
    in the manifest's order; [] when the package is not one of the ten apps."""
    return [Activity(entry["name"], entry["exported"], entry.get("enabled", True))
            for entry in _facts().get(package, {}).get("activities", ())
            if any(_MAIN in f["actions"] and _LAUNCHER in f["categories"] for f in entry["filters"])]


def requested_permissions(package: str) -> list[str]:
    """The permissions the app requests on this phone, in the manifest's order.

    A ``<uses-permission android:maxSdkVersion>`` below the phone's API level is not requested:
    ParsingPackageUtils.parseUsesPermission skips it ("Ignoring permission ... max SDK").
    """
    return [p["name"] for p in _facts().get(package, {}).get("permissions", ())
            if p.get("max_sdk", PHONE_SDK) >= PHONE_SDK]


def locales(package: str) -> list[dict]:
    """The app's localeConfig entries as the language picker lists them: tag, own name, English name."""
    return list(_facts().get(package, {}).get("locales", ()))

"""Extract each app's manifest facts: activities, intent filters, permissions, locales.

For every app at its release tag, and Simple-Commons at the commit that
release pins, it reads ``app/src/main/AndroidManifest.xml`` merged with
Commons' ``commons/src/main/AndroidManifest.xml`` as the manifest merger
does for these two (the app's manifest has priority; ``tools:node="remove"``
on either drops that element; ``${applicationId}`` is the package):

- every ``<activity>`` and ``<activity-alias>`` with its full class name, whether
  it is exported (``android:exported``, else whether it has an intent filter:
  PackageParser's default), whether it is enabled (``android:enabled``) and its
  intent filters (actions, categories, ``<data>`` schemes and MIME types);
- the permissions the app requests (``<uses-permission>``), with their
  ``android:maxSdkVersion``: on Android 14 (API 34) ParsingPackageUtils'
  parseUsesPermission ignores one whose maxSdkVersion is below 34, so the
  phone does not list it;
- the locales of the app's ``android:localeConfig`` (``res/xml/locale_config.xml``,
  the app's or Commons'), and their names in their own language, as Android's
  LocaleHelper.getDisplayName(locale, locale, sentenceCase=true) shows them in
  Settings' per-app language picker (names from CLDR through Babel, which only
  this script needs).

Libraries other than Commons (AndroidX, ...) are not merged: their manifests
are not in the apps' repositories.  The result,
``pytest_mobileagent/virtual_phone/apps/data/manifest_facts.json``, holds facts only.

Usage (git directories as for ``tools/menu_facts.py``)::

    python tools/manifest_facts.py --repos /path/to/mirrors [--out FILE]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from menu_facts import ANDROID, COMMONS, PACKAGES, RELEASES, commons_commit, git, git_dir, repos_arguments

OUT = Path(__file__).resolve().parent.parent / "pytest_mobileagent/virtual_phone/apps/data/manifest_facts.json"
TOOLS = "{http://schemas.android.com/tools}"
PHONE_SDK = 34


def attr(node: ET.Element, name: str, default: str | None = None) -> str | None:
    return node.get(ANDROID + name, default)


def removed(node: ET.Element) -> bool:
    return node.get(TOOLS + "node") == "remove"


def full_class(package: str, name: str) -> str:
    return package + name if name.startswith(".") else name


def manifest(repo: Path, rev: str, path: str, package: str) -> ET.Element:
    return ET.fromstring(git(repo, "show", f"{rev}:{path}").replace("${applicationId}", package))


def filters(node: ET.Element) -> list[dict]:
    out = []
    for f in node.findall("intent-filter"):
        data = f.findall("data")
        out.append({
            "actions": [attr(a, "name") for a in f.findall("action")],
            "categories": [attr(c, "name") for c in f.findall("category")],
            "schemes": [attr(d, "scheme") for d in data if attr(d, "scheme")],
            "mime_types": [attr(d, "mimeType") for d in data if attr(d, "mimeType")],
        })
    return out


def components(root: ET.Element, package: str) -> list[dict]:
    out = []
    application = root.find("application")
    if application is None:
        return out
    for node in application:
        if node.tag not in ("activity", "activity-alias") or removed(node):
            continue
        declared = filters(node)
        exported = attr(node, "exported")
        entry = {"name": full_class(package, attr(node, "name")),
                 # PackageParser: without android:exported, a component is exported when it has a filter
                 "exported": exported == "true" if exported is not None else bool(declared),
                 "filters": declared,
                 # android:enabled, true unless the manifest says "false" (ComponentInfo.enabled's default);
                 # Simple-Commons apps enable one SplashActivity.<colour> icon alias, .Orange
                 "enabled": attr(node, "enabled") != "false"}
        if node.tag == "activity-alias":
            entry["target"] = full_class(package, attr(node, "targetActivity"))
        out.append(entry)
    return out


def permissions(app_root: ET.Element, commons_root: ET.Element) -> list[dict]:
    """<uses-permission> of the merged manifest, the app's first; ``tools:node="remove"`` drops one."""
    dropped = {attr(p, "name") for root in (app_root, commons_root)
               for p in root.findall("uses-permission") if removed(p)}
    out, seen = [], set()
    for root in (app_root, commons_root):
        for p in root.findall("uses-permission"):
            name = attr(p, "name")
            if removed(p) or name in dropped or name in seen:
                continue
            seen.add(name)
            entry = {"name": name}
            if attr(p, "maxSdkVersion"):
                entry["max_sdk"] = int(attr(p, "maxSdkVersion"))
            out.append(entry)
    return out


def locale_tags(repo: Path, tag: str, commons: Path, commit: str, app_root: ET.Element) -> list[str]:
    """The tags of ``android:localeConfig`` (``@xml/NAME``), from the app's resources or Commons'."""
    ref = attr(app_root.find("application"), "localeConfig")
    if not ref:
        return []
    name = ref.split("/", 1)[1]
    for where, rev, path in ((repo, tag, f"app/src/main/res/xml/{name}.xml"),
                             (commons, commit, f"commons/src/main/res/xml/{name}.xml")):
        try:
            root = ET.fromstring(git(where, "show", f"{rev}:{path}"))
        except subprocess.CalledProcessError:
            continue
        return [attr(node, "name") for node in root.iter("locale")]
    return []


def language_tag(tag: str) -> str:
    """What java.util.Locale.forLanguageTag makes of a localeConfig entry (LocaleConfig reads them with
    LocaleList.forLanguageTags): parsing stops at the first ill-formed subtag, so a resource-style
    ``pt-rBR`` is the language ``pt`` alone."""
    parts = tag.split("-")
    kept = [parts[0]]
    for part in parts[1:]:
        if re.fullmatch(r"[A-Za-z]{2}|[0-9]{3}|[A-Za-z]{4}|[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}", part):
            kept.append(part)
        else:
            break
    return "-".join(kept)


def display_name(tag: str, in_english: bool = False) -> str:
    """The locale's name in its own language (or in English, the phone's language), first letter
    upper-cased (LocaleHelper.getDisplayName with sentenceCase).  ``in`` and ``iw`` are java.util.Locale's old codes of ``id`` and ``he``; a code CLDR
    does not know shows as itself, as ICU's display name does."""
    from babel import Locale, UnknownLocaleError

    language, _, rest = tag.partition("-")
    code = {"in": "id", "iw": "he"}.get(language, language) + ("_" + rest.replace("-", "_") if rest else "")
    try:
        locale = Locale.parse(code)
        name = locale.get_display_name("en" if in_english else locale) or tag
    except (UnknownLocaleError, ValueError):
        name = tag
    return name[:1].upper() + name[1:]


def main() -> None:
    args = repos_arguments(__doc__.splitlines()[0], OUT, None)
    commons = git_dir(args.repos, COMMONS)
    facts = {}
    for key, (repo_name, tag) in sorted(RELEASES.items()):
        repo = git_dir(args.repos, repo_name)
        commit = commons_commit(repo, tag)
        package = PACKAGES[key]
        app_root = manifest(repo, tag, "app/src/main/AndroidManifest.xml", package)
        commons_root = manifest(commons, commit, "commons/src/main/AndroidManifest.xml", package)
        tags = locale_tags(repo, tag, commons, commit, app_root)
        facts[package] = {
            "tag": tag,
            "commons": commit[:10],
            "activities": components(app_root, package) + components(commons_root, package),
            "permissions": permissions(app_root, commons_root),
            "locale_config": tags,
            # the per-app language picker's entries: one per distinct locale, in the file's order
            "locales": [{"tag": t, "name": display_name(t), "english": display_name(t, in_english=True)}
                        for t in dict.fromkeys(language_tag(tag) for tag in tags)],
        }
    args.out.write_text(json.dumps(facts, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"manifest_facts: {len(facts)} apps -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

"""Extract the menu facts of the ten apps from their sources at the pinned release tags.

Reads every ``res/menu/*.xml`` of each app at its release tag, and of
Simple-Commons at the commit that release pins, and resolves the titles
through the English ``strings.xml`` (the app's first, then Commons').  The
result, ``pytest_mobileagent/virtual_phone/apps/data/menus.json``, holds facts
only: per menu, its items in declaration order with id, title, icon, both
``showAsAction`` attributes (``android:`` is what the framework MenuInflater
reads, ``app:`` what AppCompat's SupportMenuInflater reads), ``visible``,
``orderInCategory`` and the group id.

Usage (git directories from ``git clone --mirror`` or any clone that has the tags)::

    python tools/menu_facts.py --repos /path/to/mirrors [--out FILE]

where ``/path/to/mirrors/<Repo-Name>`` (or ``<Owner>+<Repo-Name>/repo``) is a git
directory of each SimpleMobileTools repository.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

#: app key -> (repository, release tag); the project's pinned releases.
RELEASES = {
    "applauncher": ("Simple-App-Launcher", "5.11.4"),
    "calculator": ("Simple-Calculator", "5.12.0"),
    "calendar": ("Simple-Calendar", "6.23.1"),
    "contacts": ("Simple-Contacts", "6.22.7"),
    "filemanager": ("Simple-File-Manager", "6.16.1"),
    "gallery": ("Simple-Gallery", "6.28.1"),
    "messenger": ("Simple-SMS-Messenger", "5.19.3"),
    "musicplayer": ("Simple-Music-Player", "5.18.3"),
    "notes": ("Simple-Notes", "6.17.0"),
    "voicerecorder": ("Simple-Voice-Recorder", "5.12.3"),
}
#: app key -> package (each build's applicationId, gradle/libs.versions.toml or app/build.gradle)
PACKAGES = {
    "applauncher": "com.simplemobiletools.applauncher",
    "calculator": "com.simplemobiletools.calculator",
    "calendar": "com.simplemobiletools.calendar.pro",
    "contacts": "com.simplemobiletools.contacts.pro",
    "filemanager": "com.simplemobiletools.filemanager.pro",
    "gallery": "com.simplemobiletools.gallery.pro",
    "messenger": "com.simplemobiletools.smsmessenger",
    "musicplayer": "com.simplemobiletools.musicplayer",
    "notes": "com.simplemobiletools.notes.pro",
    "voicerecorder": "com.simplemobiletools.voicerecorder",
}
COMMONS = "Simple-Commons"
ANDROID = "{http://schemas.android.com/apk/res/android}"
APP = "{http://schemas.android.com/apk/res-auto}"
OUT = Path(__file__).resolve().parent.parent / "pytest_mobileagent/virtual_phone/apps/data/menus.json"


def git_dir(root: Path, repo: str) -> Path:
    for candidate in (root / repo, root / f"SimpleMobileTools+{repo}" / "repo"):
        if candidate.is_dir():
            return candidate
    sys.exit(f"menu_facts: no git directory for {repo} under {root}")


def repos_arguments(description: str, out: Path, argv: list[str] | None) -> argparse.Namespace:
    """The facts tools' command line: --repos (the repositories' git dirs) and --out."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repos", type=Path, required=True, help="folder holding the repositories' git dirs")
    parser.add_argument("--out", type=Path, default=out)
    return parser.parse_args(argv)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def commons_commit(repo: Path, tag: str) -> str:
    """The Simple-Commons commit the release's build pins (version catalog or build.gradle)."""
    for path, pattern in (("gradle/libs.versions.toml", r'simple-commons\s*=\s*"([0-9a-f]+)"'),
                          ("app/build.gradle", r"Simple-Commons:([0-9a-f]+)")):
        try:
            match = re.search(pattern, git(repo, "show", f"{tag}:{path}"))
        except subprocess.CalledProcessError:
            continue
        if match:
            return match.group(1)
    sys.exit(f"menu_facts: no Simple-Commons pin in {repo} at {tag}")


def strings(repo: Path, rev: str, path: str) -> dict[str, str]:
    root = ET.fromstring(git(repo, "show", f"{rev}:{path}"))
    out = {}
    for node in root.iter("string"):
        text = "".join(node.itertext())
        # Android resource string unescaping (\' \" \n) and surrounding quotes.
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = text[1:-1]
        out[node.get("name")] = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)
    return out


def resolve(value: str | None, names: list[dict[str, str]]) -> str:
    if value and value.startswith("@string/"):
        key = value[len("@string/"):]
        for table in names:
            if key in table:
                return table[key]
        raise KeyError(value)
    return value or ""


def menus(repo: Path, rev: str, folder: str, names: list[dict[str, str]]) -> dict[str, list[dict]]:
    out = {}
    for path in git(repo, "ls-tree", "--name-only", f"{rev}:{folder}").split():
        root = ET.fromstring(git(repo, "show", f"{rev}:{folder}/{path}"))
        items = []
        for group_index, group in enumerate([root, *root.iter("group")]):
            for item in group.findall("item"):
                items.append((item, group_index, group.get(f"{ANDROID}id", "")))
        items.sort(key=lambda entry: _position(root, entry[0]))
        out[path.removesuffix(".xml")] = [_item(item, group_id, names) for item, _g, group_id in items]
    return out


def _position(root: ET.Element, target: ET.Element) -> int:
    for index, node in enumerate(root.iter()):
        if node is target:
            return index
    return -1


def _item(item: ET.Element, group_id: str, names: list[dict[str, str]]) -> dict:
    fact = {
        "id": item.get(f"{ANDROID}id", "").split("/")[-1],
        "title": resolve(item.get(f"{ANDROID}title"), names),
        "icon": (item.get(f"{ANDROID}icon") or "").split("/")[-1],
        "android_show": item.get(f"{ANDROID}showAsAction", ""),
        "app_show": item.get(f"{APP}showAsAction", ""),
    }
    if item.get(f"{ANDROID}visible") == "false":
        fact["visible"] = False
    if item.get(f"{ANDROID}orderInCategory"):
        fact["order"] = int(item.get(f"{ANDROID}orderInCategory"))
    if group_id:
        fact["group"] = group_id.split("/")[-1]
    if item.get(f"{APP}actionViewClass"):
        fact["action_view"] = item.get(f"{APP}actionViewClass")
    return fact


def main(argv: list[str] | None = None) -> None:
    args = repos_arguments(__doc__.splitlines()[0], OUT, argv)
    commons = git_dir(args.repos, COMMONS)
    facts: dict = {}
    for app, (name, tag) in sorted(RELEASES.items()):
        repo = git_dir(args.repos, name)
        pin = commons_commit(repo, tag)
        names = [strings(repo, tag, "app/src/main/res/values/strings.xml"),
                 strings(commons, pin, "commons/src/main/res/values/strings.xml")]
        facts[app] = {
            "release": tag,
            "commons": pin,
            "menus": menus(repo, tag, "app/src/main/res/menu", names),
            "commons_menus": menus(commons, pin, "commons/src/main/res/menu", names),
        }
    args.out.write_text(json.dumps(facts, indent=1, ensure_ascii=False) + "\n")
    count = sum(len(m) for f in facts.values() for m in (f["menus"], f["commons_menus"]))
    print(f"menu_facts: {count} menus of {len(facts)} apps -> {args.out}")


if __name__ == "__main__":
    main()

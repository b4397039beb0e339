"""Extract each app's release facts: the resource-ids and English strings of its pinned release.

For every app at its release tag, and Simple-Commons at the commit that
release pins, it reads:

- every resource-id the release declares: ``android:id="@+id/..."`` in
  ``res/layout*/*.xml`` and ``res/menu/*.xml``, and ``<item type="id">`` in
  ``res/values*/*.xml`` (all source sets under ``app/src/`` and ``commons/src/``);
- the English strings and plurals (``res/values/*.xml``), the app's first,
  then Commons';
- the texts layouts set literally (``android:text="C"``) rather than from a
  string resource.

The result, ``tests/data/release_facts/<app>.json``, holds facts only; the
test ``tests/test_release_facts.py`` holds the phone's screens to it.

Usage (git directories as for ``tools/menu_facts.py``)::

    python tools/release_facts.py --repos /path/to/mirrors [--out DIR]
"""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from menu_facts import ANDROID, COMMONS, RELEASES, commons_commit, git, git_dir, repos_arguments

OUT = Path(__file__).resolve().parent.parent / "tests/data/release_facts"
_ID = re.compile(r"@\+?id/([A-Za-z0-9_]+)")


def res_files(repo: Path, rev: str, root: str) -> list[str]:
    """Paths of the resource XML files under every source set below ``root`` (``app/src``)."""
    listing = git(repo, "ls-tree", "-r", "--name-only", rev, "--", root).split()
    return [p for p in listing if "/res/" in p and p.endswith(".xml")]


def string_tables(repo: Path, rev: str, paths: list[str]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """English strings (name -> text) and plurals (name -> its quantity texts) of the default locale."""
    strings: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for path in paths:
        if not re.search(r"/res/values/[^/]+\.xml$", path):
            continue
        root = ET.fromstring(git(repo, "show", f"{rev}:{path}"))
        for node in root.iter("string"):
            strings.setdefault(node.get("name"), unescape("".join(node.itertext())))
        for node in root.iter("plurals"):
            plurals.setdefault(node.get("name"), [unescape("".join(i.itertext())) for i in node.iter("item")])
    return strings, plurals


def unescape(text: str) -> str:
    """A resource string as ``getString`` returns it: whitespace runs collapsed to one space unless the
    string is quoted (aapt2's ResourceUtils::StringBuilder), then ``\\'``, ``\\"``, ``\\n``, ``\\t``."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    else:
        text = re.sub(r"\s+", " ", text)
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def layout_facts(repo: Path, rev: str, paths: list[str]) -> tuple[set[str], set[str]]:
    """Declared ids, and the texts layouts give literally (``android:text="C"``), not as a string resource."""
    ids: set[str] = set()
    literals: set[str] = set()
    for path in paths:
        folder = path.split("/res/")[1].split("/")[0]
        if not (folder.startswith(("layout", "menu")) or folder.startswith("values")):
            continue
        text = git(repo, "show", f"{rev}:{path}")
        if folder.startswith("values"):
            root = ET.fromstring(text)
            ids.update(item.get("name") for item in root.iter("item") if item.get("type") == "id")
            continue
        root = ET.fromstring(text)
        for node in root.iter():
            for attribute in ("text", "hint", "contentDescription", "title"):
                value = node.get(f"{ANDROID}{attribute}", "")
                if value and not value.startswith(("@", "?")):
                    literals.add(unescape(value))
            declared = node.get(f"{ANDROID}id", "")
            match = _ID.fullmatch(declared) if declared.startswith("@+id/") or declared.startswith("@id/") else None
            if not match:
                continue
            ids.add(match.group(1))
    return ids, literals


def app_facts(repo: Path, commons: Path, tag: str) -> dict:
    pin = commons_commit(repo, tag)
    app_paths = res_files(repo, tag, "app/src")
    commons_paths = res_files(commons, pin, "commons/src")
    app_strings, app_plurals = string_tables(repo, tag, app_paths)
    commons_strings, commons_plurals = string_tables(commons, pin, commons_paths)
    app_ids, app_literals = layout_facts(repo, tag, app_paths)
    commons_ids, commons_literals = layout_facts(commons, pin, commons_paths)
    return {
        "release": tag,
        "commons": pin,
        "ids": sorted(app_ids | commons_ids),
        "strings": {**commons_strings, **app_strings},
        "plurals": {**commons_plurals, **app_plurals},
        "literals": sorted(app_literals | commons_literals),
    }


def main(argv: list[str] | None = None) -> None:
    args = repos_arguments(__doc__.splitlines()[0], OUT, argv)
    commons = git_dir(args.repos, COMMONS)
    args.out.mkdir(parents=True, exist_ok=True)
    for app, (name, tag) in sorted(RELEASES.items()):
        facts = app_facts(git_dir(args.repos, name), commons, tag)
        (args.out / f"{app}.json").write_text(json.dumps(facts, indent=0, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"release_facts: {app} {tag}: {len(facts['ids'])} ids, {len(facts['strings'])} strings, "
              f"{len(facts['literals'])} literal texts")


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:  # a tag or commit missing from a mirror
        raise SystemExit(f"release_facts: {' '.join(error.cmd)}: {error.stderr.strip()}") from None

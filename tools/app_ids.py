"""Write the resource-ids of the ten benchmark apps that the plugin ships (``pytest_mobileagent/app_ids.json``).

Per app: the ids its pinned release declares (``tests/data/release_facts/<app>.json``, written by
``tools/release_facts.py`` from the release's sources), the ids of the libraries it is built with
that land in its namespace (``LIBRARY_IDS`` of ``tests/test_release_facts.py``) and its reasoned
exceptions (``tests/release_exceptions.py``). ``tests/test_release_facts.py`` holds the phone's
screens to that same union, and ``tests/test_authoring_errors.py`` holds this file to it.

The ids common to all ten apps (Simple-Commons' and the libraries') are written once, under
``"shared"``; each app lists its own under ``"apps"``.

Usage::

    python tools/app_ids.py [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "pytest_mobileagent" / "app_ids.json"


def app_ids() -> dict[str, set[str]]:
    """Every id each app's screens may show, by package (the test's own sources of truth)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import release_exceptions
    from test_release_facts import FACTS, LIBRARY_IDS, PACKAGE

    out = {}
    for path in sorted(FACTS.glob("*.json")):
        ids = set(json.loads(path.read_text())["ids"]) | set(LIBRARY_IDS)
        out[PACKAGE[path.stem]] = ids | set(release_exceptions.IDS.get(path.stem, {}))
    return out


def document(ids: dict[str, set[str]]) -> dict:
    shared = set.intersection(*ids.values())
    return {
        "about": "resource-ids of the benchmark apps' pinned releases (tools/app_ids.py writes this file)",
        "shared": sorted(shared),
        "apps": {package: sorted(own - shared) for package, own in sorted(ids.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.write_text(json.dumps(document(app_ids()), indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

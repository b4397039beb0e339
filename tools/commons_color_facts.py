"""Extract Simple-Commons' colour palettes for LineColorPickerDialog (Primary and App icon colour).

LineColorPickerDialog shows ``R.array.md_primary_colors`` (or ``md_app_icon_colors``) as the first
line and, for the primary colour, the shades of the picked family as the second
(``getColorsForIndex``: md_reds ... md_greys, in that order).  This reads ``res/values/arrays.xml`` and
the ``@color/`` values they name from every ``res/values/*.xml`` of Simple-Commons at the commit each
release pins, checks that the pinned commits agree, and writes the palettes as 0xRRGGBB integers.

Usage::

    python tools/commons_color_facts.py --repos /path/to/mirrors [--out FILE]
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from menu_facts import COMMONS, RELEASES, commons_commit, git, git_dir, repos_arguments  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "pytest_mobileagent/virtual_phone/apps/data/commons_colors.json"
#: LineColorPickerDialog.getColorsForIndex, index 0..18
FAMILIES = ("md_reds", "md_pinks", "md_purples", "md_deep_purples", "md_indigos", "md_blues", "md_light_blues",
            "md_cyans", "md_teals", "md_greens", "md_light_greens", "md_limes", "md_yellows", "md_ambers",
            "md_oranges", "md_deep_oranges", "md_browns", "md_blue_greys", "md_greys")
LINES = ("md_primary_colors", "md_app_icon_colors")


def palettes(commons: Path, rev: str) -> dict:
    folder = "commons/src/main/res/values"
    colors: dict[str, str] = {}
    arrays: dict[str, list[str]] = {}
    for name in git(commons, "ls-tree", "--name-only", f"{rev}:{folder}").split():
        if not name.endswith(".xml"):
            continue
        root = ET.fromstring(git(commons, "show", f"{rev}:{folder}/{name}"))
        for node in root.iter("color"):
            colors[node.get("name")] = (node.text or "").strip()
        for node in root.iter("array"):
            arrays[node.get("name")] = [(item.text or "").strip() for item in node.iter("item")]

    def value(ref: str) -> int:
        seen = 0
        while ref.startswith("@color/"):
            ref = colors[ref[len("@color/"):]]
            seen += 1
            if seen > 10:
                sys.exit(f"commons_color_facts: a loop of colour references at {ref}")
        return int(ref.lstrip("#")[-6:], 16)  # #AARRGGBB or #RRGGBB; the pickers compare RGB

    return {"lines": {name: [value(v) for v in arrays[name]] for name in LINES},
            "families": [[value(v) for v in arrays[name]] for name in FAMILIES]}


def main(argv: list[str] | None = None) -> None:
    args = repos_arguments(__doc__.splitlines()[0], OUT, argv)
    commons = git_dir(args.repos, COMMONS)
    pins = sorted({commons_commit(git_dir(args.repos, name), tag) for name, tag in RELEASES.values()})
    found = {pin: palettes(commons, pin) for pin in pins}
    first = found[pins[0]]
    if any(p != first for p in found.values()):
        sys.exit("commons_color_facts: the pinned Simple-Commons commits have different palettes")
    args.out.write_text(json.dumps({"commons": pins, **first}, indent=1) + "\n")
    print(f"commons_color_facts: {len(first['families'])} families from {len(pins)} commits -> {args.out}")


if __name__ == "__main__":
    main()

"""Replay the recorded real-app sessions on a virtual phone and print the conformance table.

Per app: the recorded actions compared, the start screens reached, the matches, the matches
among the reached ones, and the actions counted apart: expected changes of the pinned
releases, actions that left the app for another screen than the recording's ("other app
differs"), differences of the recording phone ("environment"), actions taken in other apps
("outside"); and the mismatches (tests/conformance.py says what each column holds).

    python tools/conformance_report.py                       # all apps, the table
    python tools/conformance_report.py --app notes --show-misses
    python tools/conformance_report.py --save run.json       # keep the measured counts
    python tools/conformance_report.py --from run.json --write-floors [--lower]

``--write-floors`` sets tests/data/conformance/floors.json to the measured rates (matched /
compared and matched-when-reached / reached, per app, rounded down at 3 decimals), which
tests/test_conformance.py holds the phone to.  It refuses to lower a floor unless given
``--lower``, and prints every floor it changes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from conformance import APPS, FACTS, Rates, Replayer, load_facts, table  # noqa: E402

FLOORS = FACTS / "floors.json"
#: the rates a floor holds, by the Rates property that measures each
RATES = {"match_rate": "matched / compared", "reached_match_rate": "matched when reached / reached"}


def floor3(rate: float) -> float:
    """A rate rounded down at 3 decimals (a floor the measured run itself meets)."""
    return math.floor(round(rate * 1000, 6)) / 1000


def measure(apps: list[str], show_misses: bool) -> tuple[dict[str, Rates], list[str]]:
    import adbutils
    from _phones import served_phones

    rows: dict[str, Rates] = {}
    notes: list[str] = []
    with served_phones(1) as (serials, adb_port):
        device = adbutils.AdbClient(port=adb_port).device(serials[0])
        for app in apps:
            started = time.perf_counter()
            replayer = Replayer(device, load_facts(app))
            outcomes = replayer.run()
            rows[app] = Rates.of(outcomes)
            notes += [f"{app}: seed: {problem}" for problem in replayer.seed_problems]
            print(f"{app}: replayed in {time.perf_counter() - started:.1f}s", file=sys.stderr)
            if show_misses:
                for o in outcomes:
                    column = ("outside" if o.outside else "environment" if o.environment
                              else "expected change" if o.expected_change else "other app differs" if o.other_app
                              else None if o.matched else "mismatch")
                    if column:
                        why = o.environment or o.expected_change or o.detail
                        print(f"  {app} s{o.session} #{o.step} {o.action}: {column}"
                              f"{'' if o.start_reached else ' (start not reached)'}: {why[:400]}")
    return rows, notes


def write_floors(rows: dict[str, Rates], lower: bool) -> int:
    """Set each measured app's floors to its rates; 1 (and nothing written) if one would fall without --lower."""
    floors = json.loads(FLOORS.read_text()) if FLOORS.exists() else {}
    changed, refused = [], []
    for app, rates in rows.items():
        new = {name: floor3(getattr(rates, name)) for name in RATES}
        old = floors.get(app, {})
        for name, value in new.items():
            before = old.get(name)
            if before is None or value > before:
                changed.append(f"raised {app} {name} ({RATES[name]}): {before} -> {value}")
            elif value < before:
                (changed if lower else refused).append(f"{'lowered' if lower else 'would lower'} {app} {name} "
                                                       f"({RATES[name]}): {before} -> {value}")
        floors[app] = new
    print("\n".join(changed + refused) or "floors unchanged")
    if refused:
        print("refused: a floor would fall; rerun with --lower if that is meant (say why in the commit)")
        return 1
    FLOORS.write_text(json.dumps(dict(sorted(floors.items())), indent=1) + "\n")
    print(f"floors written to {FLOORS}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="append", choices=APPS, help="only these apps (repeatable)")
    parser.add_argument("--show-misses", action="store_true", help="list every action not matched and why")
    parser.add_argument("--save", type=Path, help="write the measured counts to this JSON file")
    parser.add_argument("--from", dest="source", type=Path,
                        help="read the counts of a saved run (--save) instead of replaying")
    parser.add_argument("--write-floors", action="store_true", help=f"set {FLOORS.name} to the measured rates")
    parser.add_argument("--lower", action="store_true", help="with --write-floors: allow a floor to fall")
    args = parser.parse_args(argv)
    if args.lower and not args.write_floors:
        parser.error("--lower only goes with --write-floors")
    notes: list[str] = []
    if args.source:
        saved = json.loads(args.source.read_text())
        unknown = sorted(set(saved) - set(APPS))
        if unknown:
            parser.error(f"{args.source}: not conformance apps: {', '.join(unknown)}")
        fields = set(Rates.__dataclass_fields__)
        bad = [app for app, counts in saved.items() if not isinstance(counts, dict) or set(counts) != fields]
        if bad:
            parser.error(f"{args.source}: the counts of {', '.join(bad)} are not {sorted(fields)}")
        rows = {app: Rates(**saved[app]) for app in APPS if app in saved and (not args.app or app in args.app)}
    else:
        rows, notes = measure(args.app or list(APPS), args.show_misses)
    print(table(rows))
    for note in notes:
        print(note)
    if args.save:
        args.save.write_text(json.dumps({app: rates.counts() for app, rates in rows.items()}, indent=1) + "\n")
        print(f"counts saved to {args.save}")
    if args.write_floors:
        return write_floors(rows, args.lower)
    return 0


if __name__ == "__main__":
    sys.exit(main())

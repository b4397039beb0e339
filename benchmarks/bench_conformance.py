"""Print how often the virtual phone's screens match recordings of the real apps.

Replays every recorded session of ``tests/data/conformance/`` (derived from the
DroidTask recordings by ``tools/conformance_facts.py``) on a virtual phone
through the real adb server, and prints per app: the recorded actions, how
many led to the recorded next screen (same activity, resource-id Jaccard >=
0.6), and the same among the actions whose start screen was reached.

    python benchmarks/bench_conformance.py [--app notes] [--show-misses] [--write-floors]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _phones import served_phones

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from conformance import APPS, FACTS, HEADER, Rates, Replayer, load_facts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="append", choices=APPS, help="only these apps (repeatable)")
    parser.add_argument("--show-misses", action="store_true", help="list every mismatch")
    parser.add_argument("--write-floors", action="store_true",
                        help="record this run's counts as the floors tests/test_conformance.py holds the phone to")
    args = parser.parse_args()
    import adbutils

    with served_phones(1) as (serials, adb_port):
        device = adbutils.AdbClient(port=adb_port).device(serials[0])
        overall = Rates()
        rows = []
        floors = {}
        for app in args.app or APPS:
            started = time.perf_counter()
            outcomes = Replayer(device, load_facts(app)).run()
            rates = Rates()
            for outcome in outcomes:
                rates.add(outcome)
                overall.add(outcome)
                if args.show_misses and outcome.expected_change:
                    print(f"  {app} s{outcome.session} #{outcome.step} {outcome.action}: expected change: "
                          f"{outcome.expected_change[:90]}")
                elif args.show_misses and not outcome.matched:
                    print(f"  {app} s{outcome.session} #{outcome.step} {outcome.action}: "
                          f"{'reached' if outcome.start_reached else 'not reached'}; {outcome.detail}")
            floors[app] = {"matched": rates.matched, "matched_when_reached": rates.matched_when_reached}
            rows.append(rates.row(app) + f"   {time.perf_counter() - started:5.1f}s")
        print(HEADER)
        print("\n".join(rows))
        print(overall.row("overall"))
        if args.write_floors:
            path = FACTS / "floors.json"
            recorded = json.loads(path.read_text()) if path.exists() else {}
            recorded.update(floors)
            path.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
            print(f"floors written to {path}")


if __name__ == "__main__":
    main()

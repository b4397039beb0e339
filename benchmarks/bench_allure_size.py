"""How big a run's Allure output is: the results directory and the single-file report.

Runs ``pytest task_tests --agent replay -n 2 --alluredir DIR`` as the README
does (phones booted by the run), then prints the results directory's size
and file count, split into screenshots (thumbnails, full-size PNGs) and the
rest, and, when the Allure command line is found, the size of the
single-file report ``allure generate --single-file`` makes of it (issue 38:
56.7 MB and 42 MB in 1,200 files before screenshots became thumbnails).

``--before DIR`` measures another checkout the same way (pytest starts in its
directory, so it runs its own code), e.g. a worktree of main. ``--thumbnails``
also prints the CPU time one thumbnail costs, from the full-size PNGs of a
``--before`` run whose screenshots were all PNGs: each screen cold (its
bands never seen) and in the run's order with the band cache (what a worker
pays).

The CLI is ``$MOBILEAGENT_ALLURE``, else ``node_modules/.bin/allure`` in this
checkout or in ``--before``'s, else ``allure`` on PATH (``npm install
allure-commandline`` at the repository root installs it; it needs Java).

Usage: python benchmarks/bench_allure_size.py [--workers 2] [--tasks task_tests] [--before DIR] [--thumbnails]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREEN_TYPES = {".png": "full-size PNG", ".jpg": "thumbnail", ".webp": "thumbnail"}


def allure_cli(*roots: Path) -> str | None:
    candidates = [os.environ.get("MOBILEAGENT_ALLURE")] + [str(r / "node_modules" / ".bin" / "allure") for r in roots]
    for candidate in [*candidates, shutil.which("allure")]:
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def run(checkout: Path, results: Path, args) -> float:
    cmd = [sys.executable, "-m", "pytest", args.tasks, "--agent", "replay", "-q", "-p", "no:cacheprovider",
           "-p", "no:hypothesispytest", "--alluredir", str(results)]
    if args.workers > 1:
        cmd += ["-n", str(args.workers)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        raise SystemExit(f"pytest exited with {proc.returncode}: {' '.join(cmd)}")
    return time.perf_counter() - start


def run_summary_files(results: Path) -> set[str]:
    """The run summary's attachments (its charts are PNGs too, but no screenshots)."""
    import json

    return {a["source"] for path in results.glob("*-container.json")
            for before in json.loads(path.read_text()).get("befores", []) for a in before.get("attachments", [])}


def sizes(results: Path) -> dict[str, tuple[int, int]]:
    """(files, bytes) by kind: every file, the screenshots by format, the rest."""
    charts = run_summary_files(results)
    kinds: dict[str, list[int]] = {}
    for path in results.iterdir():
        size = path.stat().st_size
        kind = SCREEN_TYPES.get(path.suffix) if path.name.endswith("-attachment" + path.suffix) else None
        if path.name in charts:
            kind = None
        for key in ("all", kind or "the rest"):
            kinds.setdefault(key, []).append(size)
    return {k: (len(v), sum(v)) for k, v in kinds.items()}


def report_size(cli: str, results: Path, out: Path) -> int:
    proc = subprocess.run([cli, "generate", "--single-file", str(results), "-o", str(out), "--clean"],
                          env={**os.environ, "ALLURE_NO_ANALYTICS": "true"}, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"allure generate failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
    return (out / "index.html").stat().st_size


def thumbnail_cost(pngs: list[bytes]) -> None:
    import statistics

    from pytest_mobileagent.reporting.thumbnails import Thumbnailer

    cold, warm = [], []
    for png in pngs:
        fresh = Thumbnailer()
        start = time.process_time()
        fresh(png)
        cold.append(time.process_time() - start)
    shared = Thumbnailer()
    for png in pngs:
        start = time.process_time()
        shared(png)
        warm.append(time.process_time() - start)
    print(f"thumbnail CPU per screen ({len(pngs)} screens): cold median {statistics.median(cold) * 1000:.2f} ms "
          f"(max {max(cold) * 1000:.2f}); with the band cache, in the order the run saved them, median "
          f"{statistics.median(warm) * 1000:.2f} ms, total {sum(warm):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", default="task_tests")
    parser.add_argument("--before", metavar="DIR", help="another checkout, measured the same way")
    parser.add_argument("--thumbnails", action="store_true",
                        help="also time the thumbnails of --before's full-size screenshots")
    args = parser.parse_args()
    if args.thumbnails and not args.before:
        parser.error("--thumbnails needs --before (a run whose screenshots are all PNGs)")
    checkouts = [("this checkout", ROOT)] + ([("before", Path(args.before).resolve())] if args.before else [])
    cli = allure_cli(*(root for _, root in checkouts))
    with tempfile.TemporaryDirectory(prefix=".bench-allure-size-", dir=ROOT) as tmp:
        print(f"{args.tasks} with the replay agent at -n {args.workers}; Allure CLI: {cli or 'not found'}")
        for label, checkout in checkouts:
            results = Path(tmp) / f"results-{label.replace(' ', '-')}"
            wall = run(checkout, results, args)
            found = sizes(results)
            files, size = found["all"]
            parts = ", ".join(f"{kind} {n} files {b / 1e6:.1f} MB" for kind, (n, b) in sorted(found.items())
                              if kind != "all")
            line = f"{label}: results {files} files, {size / 1e6:.1f} MB ({parts}); run {wall:.1f} s"
            if cli is not None:
                line += f"; single-file report {report_size(cli, results, Path(tmp) / 'report') / 1e6:.1f} MB"
            print(line, flush=True)
            if args.thumbnails and label == "before":
                charts = run_summary_files(results)
                shots = sorted((p for p in results.glob("*-attachment.png") if p.name not in charts),
                               key=lambda p: p.stat().st_mtime_ns)
                thumbnail_cost([p.read_bytes() for p in shots])


if __name__ == "__main__":
    main()

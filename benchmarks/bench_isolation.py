"""Figures for issue 13: a worker's memory under an event flood, and two concurrent runs.

    python benchmarks/bench_isolation.py flood [--code DIR] [--repeat 3]
    python benchmarks/bench_isolation.py concurrent [--code DIR] [--repeat 1]

``flood``: one calculator task whose agent, before its first action, floods
its own worker's event server from another process (``--malformed`` lines of
garbage, then ``--valid`` well-formed events); prints the peak RSS of the
pytest process (no xdist, so it is the worker), the results file's size and the
lines of terminal output, next to the same task without a flood.

``concurrent``: two ``pytest task_tests --agent replay -n 2`` runs against one
adb server with no phone attached, the second started as soon as the first
one's phones show up (``--together``: at the same moment); prints each run's SR
(the replay agent scores 100% when it has a device to itself) and whether the
runs shared a device.

``--code DIR`` puts another copy of ``pytest_mobileagent`` first on the runs'
``PYTHONPATH`` (e.g. an older commit exported with ``git archive``), to measure
before and after. As root with ``unshare`` the script re-runs itself in a
private network namespace, so the adb server there lists only the phones this
script boots (never another user's), and keeps device claims in a private
directory.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"
"""

AGENT = """
import os, subprocess, sys
from pytest_mobileagent.agents.builtin import ReplayAgent
from pytest_mobileagent.plugin import RUNTIME_KEY

class Flooder(ReplayAgent):
    def __init__(self, context):
        super().__init__(context)
        self.config = context.config
    def step(self, observation):
        if observation.step == 0 and int(os.environ["FLOOD_MALFORMED"]) + int(os.environ["FLOOD_VALID"]):
            server = self.config.stash[RUNTIME_KEY].events
            address = getattr(server, "unix_path", None) or str(server.port)
            subprocess.run([sys.executable, os.environ["FLOOD_SCRIPT"], address, os.environ["FLOOD_MALFORMED"],
                            os.environ["FLOOD_VALID"]], check=True, timeout=600)
        return super().step(observation)

def pytest_mobileagent_register_agents(registry):
    registry.register("flooder", Flooder)
"""

FLOOD = """
import json, os, socket, sys
address, malformed, valid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
event = json.dumps({"v": 1, "type": "text_changed", "package": "com.flood", "id": "com.flood:id/x",
                    "text": ["flood"], "time_ms": 1}).encode() + b"\\n"
if address.isdigit():
    sock = socket.create_connection(("127.0.0.1", int(address)), timeout=600)
else:
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(address)
with sock:
    sock.sendall(b"{not json\\n" * malformed + event * valid)
open(os.environ["FLOOD_SENT"], "w").close()
"""


def _env(code: str | None) -> dict[str, str]:
    env = dict(os.environ)
    paths = [code] if code else []
    paths.append(str(ROOT))
    env["PYTHONPATH"] = os.pathsep.join(paths + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _run_measured(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, float, str]:
    """Run ``cmd``; its exit status, peak RSS in MB and output."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return proc.returncode, usage.ru_maxrss / 1024, out.read().decode("utf-8", "replace")


def flood(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(HERE))
    from _phones import served_phones

    with tempfile.TemporaryDirectory() as tmp, served_phones(1) as (serials, _):
        project = Path(tmp)
        (project / "test_calc.py").write_text(TASK)
        (project / "conftest.py").write_text(AGENT)
        (project / "flood.py").write_text(FLOOD)
        env = _env(args.code)
        env["FLOOD_SCRIPT"] = str(project / "flood.py")
        sent = project / "flood.sent"  # written by the flood once everything is sent
        env["FLOOD_SENT"] = str(sent)
        cases = {"no flood": (0, 0), f"{args.malformed} malformed lines": (args.malformed, 0),
                 f"{args.valid} valid events": (0, args.valid)}
        print(f"code: {args.code or ROOT}")
        print(f"{'case':28} {'peak RSS MB (median, min-max)':32} {'results KB':>10} {'output lines':>12}")
        for name, (malformed, valid) in cases.items():
            env["FLOOD_MALFORMED"], env["FLOOD_VALID"] = str(malformed), str(valid)
            rss, sizes, lines = [], [], []
            for _ in range(args.repeat):
                results = project / "r.json"
                sent.unlink(missing_ok=True)
                code, peak, output = _run_measured(
                    [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--device", serials[0],
                     "--agent", "flooder", "--results-json", str(results), "-rA",
                     # The worker dials its listener and listens for pushed events only with
                     # --mab-listener (88ce37c); the flood needs that socket. The ini form, so that
                     # older code (--code), which always listened, takes it for an unknown option.
                     "-o", "mab_listener=true"], project, env)
                if code not in (0, 1):
                    print(output[-3000:])
                    raise SystemExit(f"pytest exited {code}")
                if (malformed or valid) and not sent.exists():  # else the figures are of no flood
                    print(output[-3000:])
                    raise SystemExit(f"{name}: the flood did not reach the worker's event server")
                rss.append(peak)
                sizes.append(results.stat().st_size / 1024 if results.exists() else 0)
                lines.append(output.count("\n"))
            print(f"{name:28} {statistics.median(rss):8.0f} ({min(rss):.0f}-{max(rss):.0f})"
                  f"{'':17} {statistics.median(sizes):10.0f} {statistics.median(lines):12.0f}")


def concurrent(args: argparse.Namespace) -> None:
    import adbutils

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        shutil.copytree(ROOT / "task_tests", project / "task_tests")
        shutil.copy(ROOT / "conftest.py", project / "conftest.py")
        env = _env(args.code)
        adb_port = "5037"
        env["ANDROID_ADB_SERVER_PORT"] = adb_port
        print(f"code: {args.code or ROOT}")
        for round_ in range(args.repeat):
            subprocess.run([adbutils.adb_path(), "-P", adb_port, "start-server"], check=True, capture_output=True)
            started = time.monotonic()
            procs = []
            for i in range(args.runs):
                if i and not args.together:
                    # The next run starts once the first one's phones show up (adb blocks until then).
                    subprocess.run([adbutils.adb_path(), "-P", adb_port, "wait-for-any-device"], env=env,
                                   capture_output=True, timeout=600)
                out = project / f"run{i}.json"
                out.unlink(missing_ok=True)
                procs.append((out, subprocess.Popen(
                    [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "task_tests", "--agent", "replay",
                     "-n", str(args.workers), "-q", "--results-json", str(out)],
                    cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
            devices = []
            for i, (out, proc) in enumerate(procs):
                output, _ = proc.communicate(timeout=1800)
                data = json.loads(out.read_text()) if out.exists() else {}
                agg = data.get("aggregate") or {}
                devices.append(set(data.get("devices") or []))
                sr = agg.get("sr")
                print(f"round {round_ + 1} run {i + 1}: exit {proc.returncode}, records {len(data.get('tasks', []))}, "
                      f"judged {agg.get('tasks')}, errors {agg.get('errors')}, "
                      f"SR {'-' if sr is None else f'{sr:.1%}'}, devices {sorted(devices[-1])}")
                if proc.returncode not in (0, 1):
                    print(output[-2000:])
            shared = set.intersection(*devices) if devices else set()
            print(f"round {round_ + 1}: {time.monotonic() - started:.0f} s, shared devices: {sorted(shared) or 'none'}")
            subprocess.run([adbutils.adb_path(), "-P", adb_port, "kill-server"], capture_output=True)


def _in_private_namespace() -> None:
    """Re-run this script in a private network namespace (root + unshare), once."""
    if os.environ.get("BENCH_ISOLATION_NETNS") or "--no-netns" in sys.argv:
        return
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ip"):
        print("(not root or no unshare: running in the shared network namespace)")
        return
    env = {**os.environ, "BENCH_ISOLATION_NETNS": "1", "XDG_RUNTIME_DIR": tempfile.mkdtemp(prefix="bench-claims-")}
    script = ("import os, subprocess, sys; subprocess.run(['ip', 'link', 'set', 'lo', 'up'], check=True); "
              "os.execv(sys.executable, [sys.executable] + sys.argv[1:])")
    raise SystemExit(subprocess.run(["unshare", "--net", sys.executable, "-c", script, *sys.argv], env=env).returncode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["flood", "concurrent"])
    parser.add_argument("--code", help="directory holding the pytest_mobileagent package to measure")
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--malformed", type=int, default=40_000, help="lines of garbage (10 bytes each)")
    parser.add_argument("--valid", type=int, default=200_000, help="well-formed events")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--together", action="store_true",
                        help="start the runs at the same moment (default: each once the adb server lists a phone)")
    parser.add_argument("--no-netns", action="store_true")
    args = parser.parse_args()
    _in_private_namespace()
    if args.what == "flood":
        args.repeat = args.repeat or 3
        flood(args)
    else:
        args.repeat = args.repeat or 1
        concurrent(args)


if __name__ == "__main__":
    main()

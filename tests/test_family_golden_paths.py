"""Every task family of the extended suite, 20 instances each, on a virtual phone: every instance's
golden path passes, ``noop`` fails, and the golden path without its last action fails.

The instances are those of task seed 0 (a plain run's); ``MOBILEAGENT_FAMILY_SEED=random`` draws
fresh ones, as AndroidWorld checks its templates: every seed must give solvable instances. A failure names the
seed and the instance's id, which reruns it alone (``pytest "task_tests/...::test_x[<seed>.<i>-...]"``).
The fixed tasks' own checks are tests/test_golden_paths.py.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from plugin_support import run_on_phone

ROOT = Path(__file__).resolve().parent.parent
EXTENDED = ROOT / "task_tests" / "extended"
INSTANCES = 20

# The module's fixture runs the extended suite three times (20 instances of every family): one
# worker runs all of the module (`--dist loadgroup`, set by tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("family_golden_paths")]

TRUNCATED_AGENT = '''
from pytest_mobileagent.agents.builtin import ReplayAgent

def pytest_mobileagent_register_agents(registry):
    registry.register("replay-truncated", lambda context: ReplayAgent(context, drop_last=True))
'''


def family_names(path: Path) -> list[str]:
    """Names of the @task(params=...) functions defined in one task file."""
    return [
        node.name for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Call) and getattr(d.func, "id", None) == "task"
            and any(k.arg == "params" for k in d.keywords) for d in node.decorator_list)
    ]


FAMILY_FILES = sorted(EXTENDED.glob("test_*_families.py"))
FAMILIES = sorted(name for path in FAMILY_FILES for name in family_names(path))


@pytest.fixture(scope="module")
def outcomes(phone, tmp_path_factory) -> tuple[int, dict[str, dict[str, list[dict]]]]:
    """(task seed, agent -> family -> its instances' records), from one run of the suite per agent."""
    tmp = tmp_path_factory.mktemp("families")
    (tmp / "truncated_agent.py").write_text(TRUNCATED_AGENT)
    # CI checks the instances a plain run draws (seed 0, --task-seed's default) the same way every time;
    # MOBILEAGENT_FAMILY_SEED=random (or a number) checks other draws, as AndroidWorld checks its templates.
    seed = os.environ.get("MOBILEAGENT_FAMILY_SEED", "0")
    results: dict[str, dict[str, list[dict]]] = {}
    for agent in ("replay", "noop", "replay-truncated"):
        out = tmp / f"{agent}.json"
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", *map(str, FAMILY_FILES), "-p", "truncated_agent", "--agent", agent,
             "--suite", "extended", "--task-seed", str(seed), "--task-instances", str(INSTANCES),
             "--device", phone.serial, "--results-json", str(out), "-q", "-p", "no:cacheprovider",
             "--rootdir", str(ROOT)],
            cwd=tmp, capture_output=True, text=True, timeout=1200,
        )
        assert out.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
        tasks = json.loads(out.read_text())["tasks"]
        seed = tasks[0]["task_seed"]  # the replay run drew it; the other two runs draw the same instances
        results[agent] = {}
        for record in tasks:
            results[agent].setdefault(record["task"], []).append(record)
    return seed, results


def _instances(outcomes, agent: str, name: str) -> tuple[int, list[dict]]:
    seed, results = outcomes
    records = results[agent].get(name, [])
    assert len(records) == INSTANCES, f"seed {seed}: {len(records)} instances of {name} ran with {agent}"
    return seed, records


def test_every_family_is_checked():
    assert len(FAMILIES) >= 25 and len(set(FAMILIES)) == len(FAMILIES)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_instance_s_golden_path_passes(outcomes, name):
    seed, records = _instances(outcomes, "replay", name)
    bad = [f"{r['nodeid']}: {r['error']}" for r in records
           if not (r["success"] and r["success_step"] == r["steps_taken"] == r["min_steps"])]
    assert not bad, f"task seed {seed}:\n" + "\n".join(bad)


@pytest.mark.parametrize("name", FAMILIES)
def test_noop_fails_every_instance(outcomes, name):
    seed, records = _instances(outcomes, "noop", name)
    bad = [f"{r['nodeid']}: {r['error']}" for r in records
           if r["success"] or r["stop_reason"] != "finished" or r["steps_taken"] != 0
           or "never shows" in (r["error"] or "")]  # every id the judge asks for is one its app has
    assert not bad, f"task seed {seed}:\n" + "\n".join(bad)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_golden_path_without_its_last_action_fails(outcomes, name):
    seed, records = _instances(outcomes, "replay-truncated", name)
    bad = [f"{r['nodeid']}: {r['error']}" for r in records
           if r["success"] or r["stop_reason"] != "finished" or r["steps_taken"] != r["min_steps"] - 1
           or "never shows" in (r["error"] or "")]
    assert not bad, f"task seed {seed}:\n" + "\n".join(bad)


@pytest.mark.parametrize("agent, passed", [("replay", True), ("noop", False)])
def test_the_extended_suite_under_xdist(pytester, phone, phone_factory, agent, passed):
    """`pytest task_tests --suite extended --agent replay -n 2` passes every family; noop passes none.

    The suite's query tasks run beside them (tests/test_query_tasks.py judges those).
    """
    (second,) = phone_factory(1)
    result, data = run_on_phone(pytester, phone, str(ROOT / "task_tests"), "--rootdir", str(ROOT),
                                "--device", second.serial, "-n", "2", "--suite", "extended", "--agent", agent)
    assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED), result.stdout.str()[-3000:]
    assert {t["suite"] for t in data["tasks"]} == {"extended"}
    families = {t["task"]: t for t in data["tasks"] if t["task"] in FAMILIES}
    assert sorted(families) == FAMILIES
    wrong = [f"{name}: {t['error']}" for name, t in families.items() if t["success"] is not passed]
    assert not wrong, "\n".join(wrong)
    assert not [t for t in data["tasks"] if t["stop_reason"] == "infra_error"]
    assert {t["device"] for t in data["tasks"]} == {phone.serial, second.serial}

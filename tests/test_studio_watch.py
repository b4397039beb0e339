"""``pytest --mobileagent-watch``: the run's live view in headless Chromium, under ``-n 2``.

The agent of the run taps "7", reports an LLM output, then waits on a socket
the test holds: while both workers wait, the page must show both phones, the
step count, the last action, the LLM output and the milestone. Then the test
lets the agents finish and the run must pass.

A second run puts both its tasks on one worker (``--dist loadfile``): the
idle worker's card shows from the start, and the page's progress (done of
collected, success rate) follows the tasks' real verdicts, one passed and one
failed, held at the run's end until the test has read them.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile

import pytest

from studio_support import LineReader, chromium_page, require_browser, wait_version_above

CONFTEST = """
import os
import socket

from pytest_mobileagent import Action
from pytest_mobileagent.judge import parse_hierarchy


class TapSevenThenWait:
    '''Taps 7, then waits until the test lets it finish (a socket that stays silent until then).'''

    def __init__(self, context):
        self.model = "gated"

    def step(self, observation):
        if observation.step == 0:
            seven = next(n for n in parse_hierarchy(observation.hierarchy) if n.id.endswith(":id/btn_7"))
            self.last_usage = {"llm_output": "I press 7 first", "tokens_in": 10, "tokens_out": 4}
            return Action.tap(*seven.center)
        with socket.socket(socket.AF_UNIX) as gate:
            gate.connect(os.environ["WATCH_GATE"])
            gate.recv(1)  # blocks until the test has seen the page
        self.last_usage = {}
        return Action.finish()


def pytest_mobileagent_register_agents(registry):
    registry.register("tap7", TapSevenThenWait)
"""

TASKS = """
from pytest_mobileagent import golden as g, task


@task(app="calculator", prompt="Type 7 (first worker)", golden=[g.tap(id="btn_7")])
def test_seven_a(screen, progress):
    assert progress.reach("typed 7", screen.text(id="result") == "7")


@task(app="calculator", prompt="Type 7 (second worker)", golden=[g.tap(id="btn_7")])
def test_seven_b(screen, progress):
    assert progress.reach("typed 7", screen.text(id="result") == "7")
"""

WATCH_LINE = re.compile(r"mobileagent watch: (http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)")


def test_watch_shows_both_workers_phones_live_during_a_two_worker_run(pytester, phone_factory):
    require_browser()
    first, second = phone_factory(2)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_watch_tasks=TASKS)
    gate_dir = tempfile.mkdtemp(prefix="mobileagent-gate-")
    gate_path = os.path.join(gate_dir, "gate.sock")
    gate = socket.socket(socket.AF_UNIX)
    gate.bind(gate_path)
    gate.listen(4)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-n", "2", "--agent", "tap7", "--mobileagent-watch", "-p", "no:cacheprovider",
         "--device", first.serial, "--device", second.serial],
        cwd=pytester.path, env={**os.environ, "WATCH_GATE": gate_path},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
    )
    output = LineReader(proc.stdout)
    try:
        url = WATCH_LINE.search(output.wait_for(WATCH_LINE)).group(1)
        with chromium_page() as page:
            page.goto(url)
            for worker in ("gw0", "gw1"):
                card = f".worker[data-worker='{worker}']"
                page.locator(card).wait_for()
                # Step 1 is the tap: its screenshot shows the 7, and the card its details.
                page.locator(f"{card} .step", has_text="step 1 of 2").wait_for()
                wait_version_above(page, f"{card} .screen", 0)
                assert page.evaluate(f"() => document.querySelector(\"{card} .screen\").naturalWidth") > 0
                assert '"type":"tap"' in page.locator(f"{card} .action").inner_text()
                assert page.locator(f"{card} .llm").inner_text() == "I press 7 first"
                assert page.locator(f"{card} .milestones").inner_text().strip() == "✓ typed 7"
                assert page.locator(f"{card} .task").inner_text().startswith("test_seven_")
            tasks = {page.locator(f".worker[data-worker='{w}'] .task").inner_text().split()[0] for w in ("gw0", "gw1")}
            assert tasks == {"test_seven_a", "test_seven_b"}
            # Let both agents finish; the page then shows each verdict.
            for _ in range(2):
                conn, _ = gate.accept()
                conn.sendall(b"x")
                conn.close()
            for worker in ("gw0", "gw1"):
                page.locator(f".worker[data-worker='{worker}'] .verdict", has_text="passed").wait_for()
        assert proc.wait(timeout=120) == 0, output.seen[-40:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        gate.close()
        os.unlink(gate_path)
        os.rmdir(gate_dir)


def test_watch_is_off_by_default_and_the_option_has_an_ini_key(pytester):
    config = pytester.parseconfigure()
    from pytest_mobileagent.runtime import RUNTIME_KEY

    assert config.stash[RUNTIME_KEY].options.watch is False
    assert not config.pluginmanager.has_plugin("mobileagent-watch")
    pytester.makeini("[pytest]\nmobileagent_watch = true\n")
    config = pytester.parseconfigure()
    assert config.stash[RUNTIME_KEY].options.watch is True
    assert config.pluginmanager.has_plugin("mobileagent-watch")


PROGRESS_CONFTEST = CONFTEST + """

def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput"):  # the controller, once every worker is done
        with socket.socket(socket.AF_UNIX) as gate:
            gate.connect(os.environ["WATCH_END_GATE"])
            gate.recv(1)  # until the test has read the final figures on the page
"""

PROGRESS_TASKS = """
from pytest_mobileagent import golden as g, task


@task(app="calculator", prompt="Type 7", golden=[g.tap(id="btn_7")])
def test_type_seven(screen):
    assert screen.text(id="result") == "7"


@task(app="calculator", prompt="Type 8", golden=[g.tap(id="btn_8")])
def test_type_eight(screen):
    assert screen.text(id="result") == "8"  # the agent types 7: fails
"""


def _gate(directory: str, name: str) -> tuple[socket.socket, str]:
    path = os.path.join(directory, name)
    gate = socket.socket(socket.AF_UNIX)
    gate.bind(path)
    gate.listen(4)
    gate.settimeout(300)
    return gate, path


def _release(gate: socket.socket) -> None:
    conn, _ = gate.accept()
    conn.sendall(b"x")
    conn.close()


def _progress(page) -> tuple[str, ...]:
    return tuple(page.get_attribute("#progress", name) for name in ("data-done", "data-total", "data-passed"))


def test_watch_shows_every_worker_from_the_start_and_the_runs_progress(pytester, phone_factory):
    require_browser()
    first, second = phone_factory(2)
    pytester.makeconftest(PROGRESS_CONFTEST)
    pytester.makepyfile(test_progress_tasks=PROGRESS_TASKS)
    gate_dir = tempfile.mkdtemp(prefix="mobileagent-gate-")
    step_gate, step_path = _gate(gate_dir, "step.sock")
    end_gate, end_path = _gate(gate_dir, "end.sock")
    # --dist loadfile: both tasks (one file) go to one worker, so the other never gets a task.
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadfile", "--agent", "tap7", "--mobileagent-watch",
         "-p", "no:cacheprovider", "--device", first.serial, "--device", second.serial],
        cwd=pytester.path, env={**os.environ, "WATCH_GATE": step_path, "WATCH_END_GATE": end_path},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
    )
    output = LineReader(proc.stdout)
    try:
        url = WATCH_LINE.search(output.wait_for(WATCH_LINE)).group(1)
        with chromium_page() as page:
            page.goto(url)
            page.locator(".worker .step", has_text="step 1 of 2").wait_for()  # the first task waits at its gate
            # Both workers have a card, the idle one too; nothing is done yet.
            page.locator(".worker[data-worker='gw0']").wait_for()
            page.locator(".worker[data-worker='gw1']").wait_for()
            busy = page.locator(".worker", has_text="step 1 of 2").get_attribute("data-worker")
            idle = ({"gw0", "gw1"} - {busy}).pop()
            assert page.locator(f".worker[data-worker='{idle}'] .task").inner_text() == "no task yet"
            assert _progress(page) == ("0", "2", "0")
            _release(step_gate)  # the 7 task finishes and passes
            page.wait_for_function("() => document.getElementById('progress').dataset.done === '1'")
            assert _progress(page) == ("1", "2", "1")
            assert "1 / 2 tasks done · SR 100.0% (1 passed)" in page.locator("#progress").inner_text()
            _release(step_gate)  # the 8 task finishes and fails
            end, _ = end_gate.accept()  # every worker is done: the run's final figures
            page.wait_for_function("() => document.getElementById('progress').dataset.done === '2'")
            assert _progress(page) == ("2", "2", "1")
            assert "2 / 2 tasks done · SR 50.0% (1 passed)" in page.locator("#progress").inner_text()
            assert page.locator(f".worker[data-worker='{idle}'] .task").inner_text() == "no task yet"
            end.sendall(b"x")
            end.close()
        output.wait_for(re.compile(r"\b1 failed, 1 passed\b"))  # the figures the page showed are the run's
        assert proc.wait(timeout=120) == 1, output.seen[-40:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for gate, path in ((step_gate, step_path), (end_gate, end_path)):
            gate.close()
            os.unlink(path)
        os.rmdir(gate_dir)

"""Devices on another machine, with no way back to the controller but their adb server.

The "other machine" is a network namespace (``unshare -n``) holding an adb
server and two virtual phones (tests/netns/device_machine.py). Only its own
loopback exists in it: nothing there can open a connection to the
controller, so an ``adb reverse`` would lead nowhere. The controller reaches
that adb server through a relay, as it would reach a device machine's
``adb -a`` port. Ten tasks at ``-n 2``, six of them judged on click events,
must pass: the events came through the adb server, dialled by the workers.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from netns.relay import Relay

ROOT = Path(__file__).resolve().parent.parent
GALLERY_TASKS = str(ROOT / "task_tests" / "test_gallery.py")
RUN_TIMEOUT = 300

pytestmark = pytest.mark.slow


def _namespaces_or_skip() -> None:
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    if probe.returncode == 0:
        return
    reason = f"network namespaces need root (CAP_SYS_ADMIN): `unshare -n` said {probe.stderr.strip()!r}"
    if os.environ.get("MOBILEAGENT_REQUIRE_NETNS"):
        pytest.fail(reason + " (MOBILEAGENT_REQUIRE_NETNS is set: CI must run this test)")
    pytest.skip(reason)


@pytest.fixture
def device_machine():
    """(the controller's port for the device machine's adb server, its serials, isolated?)."""
    _namespaces_or_skip()
    private = tempfile.mkdtemp(prefix="mobileagent-netns-")
    relay_path = os.path.join(private, "adb.sock")
    controller = socket.socket()
    controller.bind(("127.0.0.1", 0))
    controller.listen(64)
    port = controller.getsockname()[1]

    def to_device_machine() -> socket.socket:
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(relay_path)
        return sock

    relay = Relay(controller, to_device_machine)
    proc = subprocess.Popen(["unshare", "-n", sys.executable, "-m", "netns.device_machine", relay_path, str(port)],
                            cwd=ROOT / "tests", stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready = proc.stdout.readline().split()  # EOF (an empty line) if it died
        assert ready[:1] == ["READY"], f"the device machine did not start (exit {proc.poll()})"
        *serials, isolated = ready[1:]
        yield port, serials, isolated == "isolated=yes"
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        relay.close()
        if os.path.exists(relay_path):
            os.unlink(relay_path)
        os.rmdir(private)


def test_ten_tasks_judged_on_events_from_a_device_machine_without_a_route_back(device_machine, tmp_path):
    port, serials, isolated = device_machine
    assert isolated, "the device machine could reach the controller: the test would prove nothing"
    out = tmp_path / "results.json"
    # This machine's own adb server: none on that port, so both devices are the other machine's.
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(unused.getsockname()[1]))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", GALLERY_TASKS, "-n", "2", "--adb-server", f"127.0.0.1:{port}",
         "--results-json", str(out), "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
         "--basetemp", str(tmp_path / "basetemp")],
        cwd=tmp_path, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)

    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "mab-listener" not in proc.stdout  # no reverse was asked for
    tasks = json.loads(out.read_text())["tasks"]
    assert len(tasks) == 10 and all(t["success"] for t in tasks)
    assert {t["device"] for t in tasks} == {f"{s}@127.0.0.1:{port}" for s in serials}
    # The gallery tasks that check clicks passed on events that came through the adb server.
    source = Path(GALLERY_TASKS).read_text()
    judged_on_events = [t for t in tasks if "events" in _body_of(source, t["task"])]
    assert len(judged_on_events) >= 5
    assert all(any(e["type"] == "click" for e in t["event_log"]) for t in judged_on_events)


def _body_of(source: str, name: str) -> str:
    """The source of task ``name``'s function, up to the next task."""
    start = source.index(f"def {name}(")
    end = source.find("\n@task", start)
    return source[start:end if end >= 0 else None]

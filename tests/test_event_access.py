"""Only the run's own device feeds its judges (issue 13, point 5: events).

The worker dials the device's listener (listener protocol 2) and listens on
nothing. With ``--mab-listener`` it also listens, on a Unix socket in a
private directory that the device reaches through ``adb reverse tcp:8888
localfilesystem:PATH``; there is no loopback port for another local process
to post forged events to. The forger here is a real process running as
another user (``nobody``), tried in both set-ups.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from pytest_mobileagent.events import EventServer

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Press the equals key", golden=[g.tap(id="btn_equals")])
def test_equals(events):
    assert events.clicked(id="btn_equals")
"""

# An agent that never acts: it has another user's process forge the click the
# judge looks for, over every way into the worker's event server it can find.
AGENT = """
import os, subprocess
from pytest_mobileagent.agents import Action
from pytest_mobileagent.plugin import RUNTIME_KEY

class Forger:
    def __init__(self, context):
        self.config = context.config
    def step(self, observation):
        server = self.config.stash[RUNTIME_KEY].events
        out = subprocess.run(["/usr/bin/python3", "-c", os.environ["FORGE_SCRIPT"], str(server.port),
                              getattr(server, "unix_path", None) or ""],
                             user=65534, group=65534, cwd="/", capture_output=True, text=True, timeout=60)
        with open(os.environ["FORGE_LOG"], "a") as log:
            log.write(out.stdout + out.stderr)
        return Action.finish()

def pytest_mobileagent_register_agents(registry):
    registry.register("forger", Forger)
"""

FORGE = """
import json, socket, sys
port, path = int(sys.argv[1]), sys.argv[2]
click = json.dumps({"v": 1, "type": "click", "package": "com.simplemobiletools.calculator",
                    "id": "com.simplemobiletools.calculator:id/btn_equals", "text": ["="]}).encode() + b"\\n"
targets = ([("tcp", (socket.AF_INET, ("127.0.0.1", port)))] if port else []) + \\
          ([("unix", (socket.AF_UNIX, path))] if path else [])
for name, (family, address) in targets:
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(10)
            sock.connect(address)
            sock.sendall(click)
        print("FORGED via", name)
    except OSError as exc:
        print("REFUSED via", name, exc)
"""


@pytest.mark.skipif(os.geteuid() != 0 or not os.path.exists("/usr/bin/python3"),
                    reason="needs root to run the forger as another user, and a system python for it")
@pytest.mark.parametrize("mab_listener", [False, True], ids=["dialled", "with-mab-listener"])
def test_another_user_cannot_forge_the_events_a_judge_reads(pytester: pytest.Pytester, phone, monkeypatch,
                                                            mab_listener):
    pytester.makepyfile(test_calc=TASK)
    pytester.makeconftest(AGENT)
    forge_log = pytester.path / "forge.log"
    monkeypatch.setenv("FORGE_SCRIPT", FORGE)
    monkeypatch.setenv("FORGE_LOG", str(forge_log))
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "forger", "--results-json", str(out),
                                           *(["--mab-listener"] if mab_listener else []), timeout=300)
    log = forge_log.read_text()
    assert "FORGED" not in log, log
    if mab_listener:
        assert "REFUSED via unix" in log and "Permission denied" in log, log
    else:
        assert log == ""  # no socket at all to try
    result.assert_outcomes(failed=1)
    (record,) = json.loads(out.read_text())["tasks"]
    assert not any(e["id"].endswith("btn_equals") for e in record["event_log"])


def test_the_event_socket_is_private(tmp_path):
    from pytest_mobileagent.events.server import private_socket_path

    path = private_socket_path()
    with EventServer(unix_path=path) as server:
        assert server.port == 0
        assert stat.S_IMODE(os.stat(Path(path).parent).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not os.path.exists(path)
    os.rmdir(Path(path).parent)

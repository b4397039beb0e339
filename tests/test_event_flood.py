"""Memory stays bounded under an event flood (issue 13, point 4).

A real flooding client (a separate process) sends malformed lines and far more
valid events than an episode keeps: the server logs the malformed input once
per connection with its count, keeps a bounded number of events, and the task
record counts what was dropped.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest

from pytest_mobileagent.events import EventServer
from pytest_mobileagent.judge import Events

WAIT = 120.0

FLOOD = """
import json, socket, sys
address, malformed, valid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
event = json.dumps({"v": 1, "type": "text_changed", "package": "com.flood", "id": "com.flood:id/x",
                    "text": ["flood"], "time_ms": 1}).encode() + b"\\n"
if address.isdigit():
    sock = socket.create_connection(("127.0.0.1", int(address)), timeout=60)
else:  # the worker's event server listens on a Unix socket
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(address)
with sock:
    sock.sendall(b"{not json\\n" * malformed + event * valid)
    sock.sendall(json.dumps({"v": 1, "type": "click", "package": "com.flood", "id": "com.flood:id/end"}).encode() + b"\\n")
"""


def flood(port: int, malformed: int, valid: int) -> None:
    subprocess.run([sys.executable, "-c", FLOOD, str(port), str(malformed), str(valid)], check=True, timeout=WAIT)


def test_malformed_input_is_logged_once_per_connection_with_its_count(caplog):
    caplog.set_level(logging.WARNING, logger="pytest_mobileagent.events")
    server = EventServer().start()
    try:
        flood(server.port, malformed=5000, valid=0)
        # The client's last line is a valid click: once it is here, every line before it was handled.
        assert server.wait(WAIT)
        (event,) = server.drain()
        assert event.short_id == "end"
    finally:
        server.stop()
    assert server.malformed == 5000
    warnings = [r.getMessage() for r in caplog.records if "malformed" in r.getMessage()]
    assert len(warnings) == 2, warnings[:5]
    assert "5000 malformed inputs from 127.0.0.1:" in warnings[1]


def test_undrained_events_are_capped_and_counted():
    from pytest_mobileagent.events.model import parse_event_line
    from pytest_mobileagent.events.server import MAX_PENDING

    server = EventServer()  # not started: the lines are fed as the receiving thread would
    line = b'{"v": 1, "type": "click", "package": "com.flood", "id": "x"}'
    for _ in range(MAX_PENDING + 500):
        server._accept_event(None, line, parse_event_line)
    assert len(server._pending) == MAX_PENDING and server.dropped == 500
    assert len(server.drain()) == MAX_PENDING
    server._accept_event(None, line, parse_event_line)  # room again after a drain
    assert len(server.drain()) == 1 and server.dropped == 500


def test_an_episode_keeps_at_most_max_events_and_counts_the_rest():
    events = Events("com.flood")
    events.extend(range(Events.MAX_EVENTS - 1))
    events.extend(range(5))
    assert len(events) == Events.MAX_EVENTS and events.dropped == 4
    events.clear()  # setup's events are forgotten, and so is their count
    assert len(events) == 0 and events.dropped == 0


def test_the_cap_keeps_the_apps_own_events_first():
    """A flood from another package fills the cap first; the app's later events still get in,
    displacing the newest foreign ones, and ``since=`` still means after the milestone."""
    from pytest_mobileagent.events.model import parse_event_line

    def event(package: str, view: str, seq: int):
        line = json.dumps({"v": 1, "type": "click", "package": package, "id": view}).encode()
        return parse_event_line(line, seq=seq)

    app = "com.simplemobiletools.calculator"
    events = Events(app)
    events.extend(event(app, f"{app}:id/btn_1", 0) for _ in range(3))
    events.extend(event("com.flood", "com.flood:id/x", 0) for _ in range(Events.MAX_EVENTS))
    events.progress.reach("typed", True)
    events.extend(event(app, f"{app}:id/btn_equals", 0) for _ in range(2))
    assert len(events) == Events.MAX_EVENTS and events.dropped == 5
    assert len(events.filter(package=app)) == 5
    assert len(events.filter(package="com.flood")) == Events.MAX_EVENTS - 5
    assert [e.id for e in events.clicks(since="typed")] == [f"{app}:id/btn_equals"] * 2
    # The app's own surplus beyond the cap is what goes then.
    events.extend(event(app, f"{app}:id/btn_2", 0) for _ in range(Events.MAX_EVENTS))
    assert len(events) == Events.MAX_EVENTS and all(e.package == app for e in events)
    assert [e.id for e in events][:5] == [f"{app}:id/btn_1"] * 3 + [f"{app}:id/btn_equals"] * 2


TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"
"""

# Replays the golden path; before its first action it floods its own worker's
# event server from another process, and waits for that process to end.
AGENT = """
import os, subprocess, sys
from pytest_mobileagent.agents.builtin import ReplayAgent
from pytest_mobileagent.plugin import RUNTIME_KEY

class Flooder(ReplayAgent):
    def __init__(self, context):
        super().__init__(context)
        self.config = context.config
    def step(self, observation):
        if observation.step == 0:
            server = self.config.stash[RUNTIME_KEY].events
            address = getattr(server, "unix_path", None) or str(server.port)
            subprocess.run([sys.executable, os.environ["FLOOD_SCRIPT"], address,
                            os.environ["FLOOD_MALFORMED"], os.environ["FLOOD_VALID"]], check=True, timeout=120)
        return super().step(observation)

def pytest_mobileagent_register_agents(registry):
    registry.register("flooder", Flooder)
"""


# Floods like FLOOD, then keeps its connection open until its stdin closes (its agent's run
# ends), as a sender that stays connected does.
HOLDING_FLOOD = FLOOD.replace("with sock:", "if True:") + """
print("sent", flush=True)
sys.stdin.read()
sock.close()
"""

# Replays the golden path; before its first action it starts a holding flood of its own
# worker's event server and waits until everything is sent.
HOLDING_AGENT = """
import os, subprocess, sys
from pytest_mobileagent.agents.builtin import ReplayAgent
from pytest_mobileagent.plugin import RUNTIME_KEY

class HoldingFlooder(ReplayAgent):
    def __init__(self, context):
        super().__init__(context)
        self.config = context.config
        self.flood = None
    def step(self, observation):
        if self.flood is None:
            server = self.config.stash[RUNTIME_KEY].events
            address = getattr(server, "unix_path", None) or str(server.port)
            self.flood = subprocess.Popen([sys.executable, os.environ["FLOOD_SCRIPT"], address, "0", "2000"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert self.flood.stdout.readline().strip() == "sent"
        return super().step(observation)

def pytest_mobileagent_register_agents(registry):
    registry.register("holding-flooder", HoldingFlooder)
"""


def test_a_sender_that_stays_connected_is_not_asked_for_the_listeners_hierarchy(pytester: pytest.Pytester, phone,
                                                                                  monkeypatch):
    """Issue 37, item 6: a flood from a connection that stays open after the listener's
    neither errors the task nor is taken for the listener: the hierarchy requests go
    to the connection that has answered them."""
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(HOLDING_AGENT)
    script = pytester.path / "flood.py"
    script.write_text(HOLDING_FLOOD)
    monkeypatch.setenv("FLOOD_SCRIPT", str(script))
    out = pytester.path / "results.json"
    # --mab-listener: the worker listens for pushed events, as the flood needs a socket to reach.
    result = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "holding-flooder", "--mab-listener",
                                           "--results-json", str(out), timeout=300)
    (record,) = json.loads(out.read_text())["tasks"]
    assert record["success"] and record["error"] is None, record["error"]
    assert [step["observed_via"] for step in record["steps"]] == ["listener"] * 4
    result.assert_outcomes(passed=1)


def test_a_flooded_task_has_a_bounded_record_and_log(pytester: pytest.Pytester, phone, monkeypatch):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(AGENT)
    script = pytester.path / "flood.py"
    script.write_text(FLOOD)
    # More valid events than any buffer between the client and the server holds,
    # so that well over the cap have arrived when the client has sent them all.
    monkeypatch.setenv("FLOOD_SCRIPT", str(script))
    monkeypatch.setenv("FLOOD_MALFORMED", "4000")
    monkeypatch.setenv("FLOOD_VALID", "150000")
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess(
        "--device", phone.serial, "--agent", "flooder", "--mab-listener", "--results-json", str(out),
        "--log-file", str(pytester.path / "run.log"), "--log-file-level", "WARNING", timeout=300)
    result.assert_outcomes(passed=1)
    (record,) = json.loads(out.read_text())["tasks"]
    assert len(record["event_log"]) == Events.MAX_EVENTS
    assert record["events_dropped"] > 0
    assert out.stat().st_size < 20 * 1024 * 1024
    result.stdout.fnmatch_lines(["*warning: 1 task(s) received more app events than an episode keeps*"])
    log = (pytester.path / "run.log").read_text()
    assert log.count("malformed") <= 2, log[:2000]

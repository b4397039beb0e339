"""Only the run's own workers get its devices (issue 13, point 5: the device broker).

Real clients in another process: one that asks without the run's secret, and
one that opens many connections and sends nothing.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from pytest_mobileagent import allocation
from pytest_mobileagent.allocation import DeviceBroker, request_device

WAIT = 60.0

ASK = """
import socket, sys
host, port = sys.argv[1].rsplit(":", 1)
with socket.create_connection((host, int(port)), timeout=30) as conn:
    conn.sendall(sys.argv[2].encode() + b"\\n")
    print(conn.makefile("r").readline().strip())
"""

IDLE = """
import select, socket, sys, time
host, port = sys.argv[1].rsplit(":", 1)
conns = [socket.create_connection((host, int(port)), timeout=30) for _ in range(int(sys.argv[2]))]
print("opened", flush=True)
sys.stdin.readline()  # the test has looked at the controller's threads
closed, deadline = 0, time.monotonic() + float(sys.argv[3])
pending = list(conns)
while pending and time.monotonic() < deadline:
    readable, _, _ = select.select(pending, [], [], deadline - time.monotonic())
    for conn in readable:
        if conn.recv(100) == b"":
            closed += 1
        pending.remove(conn)
print("closed", closed, flush=True)
"""


@pytest.fixture
def broker(phone, adb_server_port):
    from pytest_mobileagent.device import DevicePool

    pools = []

    def pool():
        pools.append(DevicePool([phone.serial]))
        return pools[-1]

    broker = DeviceBroker((phone.serial,), workers=1, pool_factory=pool)
    broker.address = broker.start()
    yield broker
    broker.close()


def test_a_request_without_the_run_secret_gets_no_device(broker, phone):
    foreign = subprocess.run([sys.executable, "-c", ASK, broker.address, "evil"],
                             capture_output=True, text=True, timeout=WAIT)
    assert foreign.stdout.strip() == "ERR not a worker of this run"
    forged = subprocess.run([sys.executable, "-c", ASK, broker.address, "0" * 32 + " gw0"],
                            capture_output=True, text=True, timeout=WAIT)
    assert forged.stdout.strip().startswith("ERR")
    assert broker.refused == 2
    # The run's own worker still gets the device nobody else could take.
    assert request_device(broker.address, "gw0", broker.secret, timeout=WAIT) == phone.serial


def test_idle_connections_are_bounded_and_timed_out(broker, monkeypatch):
    monkeypatch.setattr(allocation, "IDLE_TIMEOUT", 0.5, raising=False)
    before = threading.active_count()
    idle = subprocess.Popen([sys.executable, "-c", IDLE, broker.address, "100", "30"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert idle.stdout.readline().strip() == "opened"
        assert threading.active_count() <= before + getattr(allocation, "MAX_CONNECTIONS", 32)
        idle.stdin.write("go\n")
        idle.stdin.flush()
        assert idle.stdout.readline().split() == ["closed", "100"]
    finally:
        idle.kill()
        idle.wait(timeout=WAIT)

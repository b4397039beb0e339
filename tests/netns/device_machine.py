"""A device machine in a network namespace of its own: an adb server and two virtual phones.

Run from tests/ as ``unshare -n python -m netns.device_machine RELAY_PATH CONTROLLER_PORT``.
The namespace has only its own loopback: nothing in it can open a
connection to the controller. The one way in is the relay on the Unix
socket ``RELAY_PATH`` (the file system is shared), which pipes to this
namespace's adb server, as a device machine exposes its adb server's port
(``adb -a nodaemon server``) and nothing else.

It prints ``READY serial serial isolated=yes|no`` and serves until its stdin closes.
``isolated``: whether connecting from here to the controller's loopback
``CONTROLLER_PORT`` (the relay's other end, which does listen there) fails.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from pytest_mobileagent.device.fast_adb import host_request
from pytest_mobileagent.errors import InfrastructureError
from pytest_mobileagent.virtual_phone import start_phones
from pytest_mobileagent.virtual_phone.server import bundled_adb_path

from .relay import Relay

ADB_PORT = 5037


def _adb_server() -> subprocess.Popen:
    # ADB_EMU=0: phones register themselves; nothing is scanned.
    proc = subprocess.Popen([bundled_adb_path(), "-P", str(ADB_PORT), "nodaemon", "server"],
                            env=dict(os.environ, ADB_EMU="0"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            host_request("host:version", addr=("127.0.0.1", ADB_PORT), timeout=2)
            return proc
        except InfrastructureError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise
            time.sleep(0.05)  # the server is starting: nothing to wait on but its port


def _reaches(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return False
    return True


def main(relay_path: str, controller_port: int) -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    server = _adb_server()
    try:
        with start_phones(2, adb_server_port=ADB_PORT, seed=0) as phones:
            listening = socket.socket(socket.AF_UNIX)
            listening.bind(relay_path)
            listening.listen(64)
            relay = Relay(listening, lambda: socket.create_connection(("127.0.0.1", ADB_PORT)))
            isolated = "no" if _reaches(controller_port) else "yes"
            print("READY", *(p.serial for p in phones), f"isolated={isolated}", flush=True)
            sys.stdin.read()  # until the test closes our stdin
            relay.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

"""Device-side sockets: adb's tcp:/localabstract:/localreserved:/localfilesystem: services.

A program on the phone listens in the phone's socket table (sockets.py); the
host reaches it through the real adb server, with adbutils' create_connection
and with `adb forward`. With nobody listening adbd answers CLSE, which the adb
server reports as "closed".
"""

from __future__ import annotations

import errno
import socket
import subprocess
import threading
import time

import adbutils
import pytest

from pytest_mobileagent.virtual_phone.programs import SIGHUP_STATUS, Program
from pytest_mobileagent.virtual_phone.shell.interpreter import COMMANDS
from pytest_mobileagent.virtual_phone.server import bundled_adb_path


async def _upper_echo(conn):
    """A tiny phone program: answers every chunk in upper case until the host hangs up."""
    while data := await conn.read():
        await conn.write(data.upper())


def _recv_exactly(sock, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


@pytest.fixture
def listen(phone):
    """listen(address, handler) on the session phone; closed when the test ends."""
    listeners = []

    def start(address, handler=_upper_echo):
        listener = phone.phone.sockets.listen(address, handler)
        listeners.append(listener)
        return listener

    yield start
    for listener in listeners:
        listener.close()


@pytest.mark.parametrize("network, name, address", [
    (adbutils.Network.TCP, 7101, "tcp:7101"),
    (adbutils.Network.LOCAL_ABSTRACT, "u2test", "localabstract:u2test"),
    (adbutils.Network.LOCAL_RESERVED, "u2test", "localreserved:u2test"),
    (adbutils.Network.LOCAL_FILESYSTEM, "/data/local/tmp/u2test.sock", "localfilesystem:/data/local/tmp/u2test.sock"),
])
def test_create_connection_reaches_a_phone_listener(adb_device, listen, network, name, address):
    listen(address)
    with adb_device.create_connection(network, name) as conn:
        conn.sendall(b"hello phone")
        assert _recv_exactly(conn, 11) == b"HELLO PHONE"


@pytest.mark.parametrize("network, name", [
    (adbutils.Network.TCP, 7102),
    (adbutils.Network.LOCAL_ABSTRACT, "nobody"),
    (adbutils.Network.LOCAL_RESERVED, "nobody"),
])
def test_nobody_listening_is_refused_as_adbd_does(adb_device, network, name):
    with pytest.raises(adbutils.AdbError, match="closed"):
        adb_device.create_connection(network, name)
    assert adb_device.shell("echo still") == "still"


def test_namespaces_are_separate_and_local_means_reserved(adb_device, listen):
    listen("localreserved:shared")
    with pytest.raises(adbutils.AdbError, match="closed"):
        adb_device.create_connection(adbutils.Network.LOCAL_ABSTRACT, "shared")
    with adb_device.create_connection(adbutils.Network.LOCAL, "shared") as conn:  # "local:" on a device
        conn.sendall(b"r")
        assert conn.recv(1) == b"R"


def _open_service(device, service: str) -> socket.socket:
    """OPEN an arbitrary service through the adb server (create_connection takes only ints for tcp)."""
    conn = device.open_transport()
    try:
        conn.send_command(service)
        conn.check_okay()
    except BaseException:
        conn.close()
        raise
    return conn.conn


def test_tcp_to_loopback_by_name_but_not_to_other_hosts(adb_device, listen):
    listen("tcp:7103")
    with _open_service(adb_device, "tcp:localhost:7103") as conn:
        conn.sendall(b"x")
        assert conn.recv(1) == b"X"
    # adbd: "adbd does not support arbitrary tcp connections" (socket_spec.cpp)
    with pytest.raises(adbutils.AdbError, match="closed"):
        _open_service(adb_device, "tcp:10.0.2.2:7103")


def test_adb_forward_reaches_the_listener_and_nobody_is_a_hangup(adb_server_port, phone, listen):
    adb = [bundled_adb_path(), "-P", str(adb_server_port), "-s", phone.serial]
    listen("tcp:7104")
    try:
        listening = int(subprocess.run(adb + ["forward", "tcp:0", "tcp:7104"], capture_output=True,
                                       check=True, timeout=30).stdout)
        closed = int(subprocess.run(adb + ["forward", "tcp:0", "tcp:7105"], capture_output=True,
                                    check=True, timeout=30).stdout)
        with socket.create_connection(("127.0.0.1", listening), timeout=10) as sock:
            sock.sendall(b"through forward")
            assert _recv_exactly(sock, 15) == b"THROUGH FORWARD"
        with socket.create_connection(("127.0.0.1", closed), timeout=10) as sock:
            assert sock.recv(10) == b""
    finally:
        subprocess.run(adb + ["forward", "--remove-all"], capture_output=True, timeout=30)


def test_closing_the_listener_hangs_up_and_refuses(adb_device, phone, listen):
    listener = listen("tcp:7106")
    conn = adb_device.create_connection(adbutils.Network.TCP, 7106)
    conn.settimeout(10)
    conn.sendall(b"a")
    assert conn.recv(1) == b"A"
    listener.close()
    assert conn.recv(10) == b""
    conn.close()
    with pytest.raises(adbutils.AdbError, match="closed"):
        adb_device.create_connection(adbutils.Network.TCP, 7106)


def test_an_address_in_use_is_refused_like_bind(phone, listen):
    listen("tcp:7107")
    with pytest.raises(OSError) as excinfo:
        phone.phone.sockets.listen("tcp:localhost:7107", _upper_echo)
    assert excinfo.value.errno == errno.EADDRINUSE
    with pytest.raises(ValueError):
        phone.phone.sockets.listen("tcp:99999", _upper_echo)


# -- a program held in the foreground of its adb shell -------------------------------------
@pytest.fixture
def echo_program_command(monkeypatch):
    """A shell command `echoprog PORT` that runs an upper-echo server in the foreground."""
    started = []

    def echoprog(inv):
        program = Program(inv.phone, "echoprog")
        program.listen(f"tcp:{inv.args[0]}", _upper_echo)
        program.print(f"listening on {inv.args[0]} as {inv.env.get('GREETING', '-')}\n")
        inv.session.hold(program)
        started.append(program)
        return 0

    monkeypatch.setitem(COMMANDS, "echoprog", echoprog)
    return started


def test_held_program_serves_until_its_shell_is_closed(adb_device, echo_program_command):
    shell = adb_device.shell("GREETING=hi echoprog 7108; echo never", stream=True)
    shell.conn.settimeout(20)  # a missing banner fails the test instead of hanging the run
    try:
        banner = b""
        while not banner.endswith(b"\n"):
            banner += shell.conn.recv(100)
        assert banner == b"listening on 7108 as hi\n"
        with adb_device.create_connection(adbutils.Network.TCP, 7108) as conn:
            conn.sendall(b"ok")
            assert _recv_exactly(conn, 2) == b"OK"
    finally:
        shell.close()
    program = echo_program_command[0]
    _wait(lambda: not program.running)
    assert program.exit_code == SIGHUP_STATUS
    with pytest.raises(adbutils.AdbError, match="closed"):
        adb_device.create_connection(adbutils.Network.TCP, 7108)


def test_held_program_exit_ends_the_shell_with_its_status(adb_device, echo_program_command):
    def stop_when_started():
        _wait(lambda: echo_program_command)
        echo_program_command[0].exit(3)

    threading.Thread(target=stop_when_started, daemon=True).start()
    result = adb_device.shell2("echoprog 7109", v2=True, timeout=20)
    assert result.returncode == 3
    assert result.output == "listening on 7109 as -\n"


def _wait(condition, timeout: float = 10.0) -> None:
    """Poll a condition set by the phone's thread (no event to wait on from here)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.01)


"""Who may use the studio's phone, and what a studio leaves behind (issue 37, points 7-11).

Each test reproduces a fault through the real parts: a studio process serving
real HTTP on a virtual phone, raw sockets and ``http.client`` for the
requests a browser or another local user could make, a second process that
waits for the device's claim, a browser command that reports its own command
line, and a studio killed with SIGKILL.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from pytest_mobileagent.device.device import connect
from pytest_mobileagent.judge import parse_hierarchy
from pytest_mobileagent.reporting.redact import Redactor
from pytest_mobileagent.studio import web
from pytest_mobileagent.studio.watch import WatchApp
from studio_support import URL_RE, LineReader, studio_process

CALCULATOR = "com.simplemobiletools.calculator"
WAIT = 120.0
IDLE_CLIENTS = 300


@pytest.fixture(scope="module")
def own_phone(adb_server_port):
    """A phone of this module's own (the studios here claim it in turn)."""
    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(1, adb_server_port=adb_server_port) as phones:
        yield phones[0]


@pytest.fixture
def studio(own_phone, tmp_path):
    """(process, url, tasks directory) of a studio on the module's phone."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    with studio_process("--no-browser", "--device", own_phone.serial, "--tasks-dir", str(tasks),
                        cwd=tmp_path) as (proc, url, _):
        yield proc, url, tasks


def _request(url: str, method: str = "GET", body: bytes | None = None, headers: dict | None = None,
             path: str = "") -> tuple[int, bytes]:
    """A request as any client may send it: every header as given (``Host`` included)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT)
    try:
        conn.putrequest(method, parts.path + path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": parts.netloc, **(headers or {})}
        if body is not None:
            sent["Content-Length"] = str(len(body))
        for name, value in sent.items():
            if value is not None:
                conn.putheader(name, value)
        conn.endheaders(body)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def _post_json(url: str, path: str, value) -> tuple[int, dict]:
    status, body = _request(url, "POST", json.dumps(value).encode(), {"Content-Type": "application/json"}, path)
    return status, json.loads(body or b"{}")


def _threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(next(line for line in status if line.startswith("Threads:")).split()[1])


def _open_idle(port: int, count: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=WAIT) for _ in range(count)]


def _wait_all_closed(conns: list[socket.socket]) -> int:
    """How many of ``conns`` the server closed (each read until end of file; ``WAIT`` at most)."""
    closed, pending, deadline = 0, list(conns), time.monotonic() + WAIT
    while pending and time.monotonic() < deadline:
        readable, _, _ = select.select(pending, [], [], deadline - time.monotonic())
        for conn in readable:
            try:
                data = conn.recv(4096)
            except ConnectionResetError:
                data = b""
            if data == b"":
                closed += 1
                pending.remove(conn)
    for conn in conns:
        conn.close()
    return closed


# -- point 9: idle and slow clients ----------------------------------------------------


def test_idle_connections_to_the_studio_are_bounded_and_closed(studio):
    proc, url, _ = studio
    port = urlsplit(url).port
    before = _threads(proc.pid)
    conns = _open_idle(port, IDLE_CLIENTS)
    # The server takes connections in order: once one opened after the idle ones has its answer, or is
    # refused (every slot taken), each idle one has its thread or was closed on arrival.
    try:
        _request(url, path="apps")
    except (ConnectionError, http.client.RemoteDisconnected):
        pass
    assert _threads(proc.pid) <= before + web.MAX_CONNECTIONS
    assert _wait_all_closed(conns) == IDLE_CLIENTS  # the idle ones time out, nothing holds a thread forever
    status, _ = _request(url, path="apps")
    assert status == 200


def test_a_request_body_that_trickles_in_is_cut_off(studio):
    proc, url, _ = studio
    parts = urlsplit(url)
    body = json.dumps({"type": "key", "key": "HOME"}).encode()
    trickle = b" " * 60 + body  # JSON allows leading blanks: a body that is valid once it is whole
    with socket.create_connection((parts.hostname, parts.port), timeout=WAIT) as conn:
        conn.sendall(f"POST {parts.path}action HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(trickle)}\r\n\r\n".encode())
        sent = 0
        closed = False
        while sent < len(trickle) and not closed:
            try:
                conn.sendall(trickle[sent:sent + 1])
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            sent += 1
            # One byte a second, each well inside a per-read timeout; the whole takes over a minute.
            readable, _, _ = select.select([conn], [], [], 1.0)
            if readable:
                closed = conn.recv(4096) == b""
        assert closed, "the studio still waited for the body after every byte of it"
        assert sent < len(trickle)


def test_idle_connections_to_the_watch_server_are_bounded(monkeypatch):
    # The controller's watch page server (--mobileagent-watch), as register_watch starts it.
    monkeypatch.setattr(web, "REQUEST_TIMEOUT", 1.0)
    app = WatchApp(Redactor.from_environ)
    server = web.TokenServer(app, redact=Redactor.from_environ().text).start()
    try:
        before = threading.active_count()
        conns = _open_idle(server.port, IDLE_CLIENTS)
        try:  # as above: the connections before this one are served or closed
            _request(server.url)
        except (ConnectionError, http.client.RemoteDisconnected):
            pass
        assert threading.active_count() <= before + web.MAX_CONNECTIONS
        assert server.connections.refused > 0
        assert _wait_all_closed(conns) == IDLE_CLIENTS
        status, _ = _request(server.url)
        assert status == 200
    finally:
        app.updates.close()
        server.stop()


# -- point 10: other sites' pages, names, paths, symlinks, deep JSON -----------------------


def test_requests_another_site_could_make_are_refused_and_reach_no_phone(studio, own_phone):
    _, url, _ = studio
    device = connect(own_phone.serial)
    device.launch(CALCULATOR)
    before = device.dump_hierarchy()
    home = json.dumps({"type": "key", "key": "HOME"}).encode()
    origin = f"http://{urlsplit(url).netloc}"
    # A form or text/plain fetch from any page is a "simple" request: no preflight, so the server must refuse it.
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        status, _ = _request(url, "POST", home, {"Content-Type": content_type, "Origin": "http://evil.example"},
                             "action")
        assert status in (403, 415), content_type
        status, _ = _request(url, "POST", home, {"Content-Type": content_type}, "action")
        assert status == 415, content_type
    # JSON from another origin, and any request naming another host (DNS rebinding).
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "http://127.0.0.1:1"}, {"Host": "evil.example"},
                    {"Host": f"evil.example:{urlsplit(url).port}"}, {"Host": None}):
        status, _ = _request(url, "POST", home, {"Content-Type": "application/json", **headers}, "action")
        assert status == 403, headers
        status, _ = _request(url, "GET", None, headers, "apps")
        assert status == 403, headers
    assert device.dump_hierarchy() == before  # nothing reached the phone
    # The studio's own page: its origin, under either name of the address.
    for host in (urlsplit(url).netloc, f"localhost:{urlsplit(url).port}"):
        status, _ = _request(url, "GET", None, {"Host": host}, "apps")
        assert status == 200, host
    status, _ = _request(url, "POST", home, {"Content-Type": "application/json; charset=utf-8", "Origin": origin},
                         "action")
    assert status == 200


def _record(url: str, name: str) -> tuple[int, dict]:
    """Record tapping 7 on the Calculator as task ``name``."""
    status, reply = _post_json(url, "record/start", {"package": "calculator"})
    assert status == 200, reply
    return _post_json(url, "record/stop", {"prompt": "Type 7", "name": name})


def test_names_paths_symlinks_and_deep_json_get_a_clear_400(studio, tmp_path):
    _, url, tasks = studio
    outside = tmp_path / "outside"
    outside.mkdir()
    # A dangling link in the tasks directory: the recording must not be written through it.
    (tasks / "test_dangling.py").symlink_to(outside / "planted.py")
    status, reply = _record(url, "dangling")
    assert status == 400 and "exists already" in reply["error"], reply
    assert not (outside / "planted.py").exists()
    status, reply = _record(url, "n" * 300)
    assert status == 400 and "1 to 100 letters" in reply["error"], reply
    assert sorted(p.name for p in tasks.iterdir()) == ["test_dangling.py"]
    # Replay runs only task modules under the tasks directory.
    marker = outside / "ran"
    evil = outside / "test_evil.py"
    evil.write_text(f"open({str(marker)!r}, 'w').close()\n")
    for path in (str(evil), "../outside/test_evil.py", "x" * 5000, "/"):
        status, reply = _post_json(url, "replay", {"path": path, "agents": ["noop"]})
        assert status == 400, (path[:50], reply)
    assert not marker.exists()
    # JSON nested past what the parser (or any page) uses.
    for depth in (200, 100_000):
        status, body = _request(url, "POST", b"[" * depth + b"]" * depth, {"Content-Type": "application/json"},
                                "action")
        assert status == 400 and b"nested deeper" in body, depth


# -- point 7: the claim during a replay -------------------------------------------------

WAITER = """
import sys
from pytest_mobileagent.device.claims import DeviceClaim
print("waiting", flush=True)
claim = DeviceClaim.claim(sys.argv[1], wait=3600)
print("claimed", flush=True)
sys.stdin.readline()
"""


def test_a_run_waiting_for_the_device_does_not_get_it_during_a_replay(studio, own_phone):
    from pytest_mobileagent.device.claims import DeviceClaim

    proc, url, tasks = studio
    status, reply = _post_json(url, "record/start", {"package": "calculator"})
    assert status == 200, reply
    device = connect(own_phone.serial)
    seven = next(n for n in parse_hierarchy(device.dump_hierarchy()) if n.short_id == "btn_7")
    status, reply = _post_json(url, "action", {"type": "tap", "x": seven.center[0], "y": seven.center[1]})
    assert status == 200 and reply["recorded"]["code"] == 'g.tap(id="btn_7")', reply
    status, reply = _post_json(url, "record/stop", {"prompt": "Type 7", "name": "type_seven"})
    assert status == 200, reply
    waiter = subprocess.Popen([sys.executable, "-c", WAITER, own_phone.serial], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    lines = LineReader(waiter.stdout)
    try:
        lines.wait_for(re.compile("^waiting$"))
        status, reply = _post_json(url, "replay", {"agents": ["replay", "noop"]})
        assert status == 200, reply
        verdicts = {r["agent"]: (r["passed"], r["exit_code"]) for r in reply["results"]}
        assert verdicts == {"replay": (True, 0), "noop": (False, 1)}, reply["results"]
        # The studio still holds the phone: neither the waiting run nor anyone else has it.
        assert DeviceClaim.try_claim(own_phone.serial) is None
        assert lines.lines.empty() and waiter.poll() is None, lines.seen
        status, _ = _post_json(url, "action", {"type": "key", "key": "HOME"})
        assert status == 200
        # Once the studio stops, the waiting run gets the phone.
        proc.terminate()
        assert proc.wait(timeout=WAIT) == 0
        lines.wait_for(re.compile("^claimed$"))
    finally:
        waiter.kill()
        waiter.wait(timeout=WAIT)


# -- point 8: the browser's command line --------------------------------------------------

BROWSER = """#!{python}
import json, os, socket, sys
with socket.socket(socket.AF_UNIX) as report:
    report.connect({socket_path!r})
    cmdline = open("/proc/self/cmdline", "rb").read().decode().split("\\0")
    report.sendall(json.dumps({{"argv": sys.argv, "cmdline": cmdline}}).encode())
"""


def test_the_browser_is_not_given_the_token_on_its_command_line(own_phone, tmp_path):
    report_dir = tempfile.mkdtemp(prefix="mobileagent-browser-")
    report_path = os.path.join(report_dir, "report.sock")
    browser = tmp_path / "browser"
    browser.write_text(BROWSER.format(python=sys.executable, socket_path=report_path))
    browser.chmod(0o700)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(report_path)
    listener.listen(1)
    listener.settimeout(WAIT)
    env = {**os.environ, "BROWSER": str(browser)}
    try:
        with studio_process("--device", own_phone.serial, cwd=tmp_path, env=env) as (proc, url, _):
            conn, _ = listener.accept()
            with conn:
                conn.settimeout(WAIT)
                chunks = []
                while chunk := conn.recv(65536):
                    chunks.append(chunk)
            seen = json.loads(b"".join(chunks))
            token = urlsplit(url).path.strip("/")
            assert token not in " ".join(seen["argv"] + seen["cmdline"])
            (opened,) = seen["argv"][1:]
            page = Path(urlsplit(opened).path)
            assert opened.startswith("file://")
            # Only this user can read the page, which sends the browser on to the studio.
            assert stat.S_IMODE(page.stat().st_mode) == 0o600
            assert stat.S_IMODE(page.parent.stat().st_mode) == 0o700
            target = re.search(r'http-equiv="refresh" content="0;url=([^"]+)"', page.read_text()).group(1)
            assert target == url
            status, _ = _request(target)
            assert status == 200
        assert not page.exists()  # removed with the studio
    finally:
        listener.close()
        os.unlink(report_path)
        os.rmdir(report_dir)


# -- point 11: a studio killed with SIGKILL ------------------------------------------------


def _listener_hello(serial: str, adb_server_port: int) -> dict:
    """Dial the phone's listener as a client would; its hello, or ValueError with its refusal."""
    import adbutils

    from pytest_mobileagent.listener import SOCKET_NAME, handshake

    device = adbutils.AdbClient(host="127.0.0.1", port=adb_server_port).device(serial)
    with device.create_connection(adbutils.Network.LOCAL_ABSTRACT, SOCKET_NAME) as sock:
        return handshake(sock)


def test_a_killed_studio_leaves_nothing_the_next_one_trips_on(own_phone, tmp_path, adb_server_port):
    import adbutils

    device = adbutils.AdbClient(host="127.0.0.1", port=adb_server_port).device(own_phone.serial)
    with studio_process("--no-browser", "--device", own_phone.serial, cwd=tmp_path) as (proc, _, _):
        # The studio holds the listener's one client slot (once its event thread has dialled)...
        deadline = time.monotonic() + WAIT
        while True:
            try:
                _listener_hello(own_phone.serial, adb_server_port)
            except ValueError as exc:
                assert "another client is connected" in str(exc)
                break
            assert time.monotonic() < deadline, "the studio never took the listener"
        proc.kill()
        proc.wait(timeout=WAIT)
    # ...and SIGKILL gave it back: the kernel closed the studio's adb connection. No reverse was ever set.
    assert _listener_hello(own_phone.serial, adb_server_port)["protocol"] == 2
    assert device.reverse_list() == []
    with studio_process("--no-browser", "--device", own_phone.serial, cwd=tmp_path) as (proc, url, _):
        status, _ = _request(url, path="apps")
        assert status == 200

"""The event server over real loopback sockets: both wire formats, bad input, concurrency."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mobileagent.errors import MalformedEventError
from pytest_mobileagent.events import Event, EventServer, parse_event_line, parse_mab_post
from pytest_mobileagent.events.model import MAX_LINE_BYTES

WAIT = 5.0  # upper bound for anything to arrive; tests never sleep


@pytest.fixture
def server():
    with EventServer() as srv:
        yield srv


def line(**fields) -> bytes:
    return json.dumps({"v": 1, "type": "click", **fields}).encode() + b"\n"


def connect(srv: EventServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=WAIT)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def collect(srv: EventServer, n: int) -> list[Event]:
    """Drain until ``n`` events arrived (bounded by WAIT per event)."""
    got: list[Event] = []
    while len(got) < n:
        assert srv.wait(WAIT), f"only {len(got)} of {n} events arrived"
        got += srv.drain()
    return got


def sync(srv: EventServer, sock: socket.socket, marker: str) -> list[Event]:
    """Send a marker event on ``sock`` and drain up to it: everything sent before
    on this connection has then been processed (the server keeps per-connection order)."""
    sock.sendall(line(id=marker))
    got: list[Event] = []
    while not any(e.id == marker for e in got):
        assert srv.wait(WAIT), "marker event never arrived"
        got += srv.drain()
    return [e for e in got if e.id != marker]


def close_and_wait(sock: socket.socket) -> None:
    """Half-close and wait until the server closed its end (it has processed our bytes)."""
    sock.shutdown(socket.SHUT_WR)
    while sock.recv(4096):
        pass
    sock.close()


# --- model ------------------------------------------------------------------

def test_parse_event_line_fields():
    ev = parse_event_line(
        b'{"v":1,"type":"click","package":"com.x","id":"com.x:id/new_note",'
        b'"text":["A","B"],"desc":"d","class":"android.widget.Button","time_ms":12,"extra":1}',
        seq=4,
        received_at=1.5,
    )
    assert ev == Event(4, "click", "com.x", "com.x:id/new_note", ("A", "B"), "d",
                       "android.widget.Button", 12, 1.5)
    assert ev.short_id == "new_note"
    assert ev.to_dict()["text"] == ["A", "B"]
    assert json.loads(json.dumps(ev.to_dict()))["cls"] == "android.widget.Button"


def test_parse_defaults_and_plain_ids():
    ev = parse_event_line('{"type":"window_state","package":null}')
    assert (ev.package, ev.id, ev.text, ev.desc, ev.cls, ev.time_ms) == ("", "", (), "", "", 0)
    assert parse_event_line('{"type":"click","id":"plain"}').short_id == "plain"


@pytest.mark.parametrize("bad", [
    b"", b"not json", b"[1,2]", b'"str"', b'{"v":1}', b'{"type":""}', b'{"type":3}',
    b'{"type":"click","v":2}', b'{"type":"click","package":5}', b'{"type":"click","text":[1]}',
    b'{"type":"click","text":{"a":1}}', b'{"type":"click","time_ms":"12"}',
    b'{"type":"click","time_ms":true}', b'{"type":"click","time_ms":NaN}',
    b'{"type":"click","id":"\xff\xfe"}', b"[" * 100000,
])
def test_parse_event_line_rejects(bad):
    with pytest.raises(MalformedEventError):
        parse_event_line(bad)


def test_parse_mab_post():
    click = parse_mab_post(b'{"eventType":0,"packageStr":"com.p","idStr":"com.p:id/save",'
                           b'"text":"[Save]","contentDescription":"Save"}')
    assert (click.type, click.package, click.short_id, click.text, click.desc) == (
        "click", "com.p", "save", ("[Save]",), "Save")
    assert parse_mab_post('{"eventType":"1","packageStr":"com.p"}').type == "window_state"
    assert parse_mab_post('{"eventType":7}').type == "mab_7"
    for bad in (b'{"packageStr":"x"}', b'{"eventType":"click"}', b'{"eventType":0.5}', b"{"):
        with pytest.raises(MalformedEventError):
            parse_mab_post(bad)


# --- JSON lines ----------------------------------------------------------------

def test_line_split_across_writes_byte_by_byte(server):
    payload = line(package="com.x", id="com.x:id/a", text=["héllo wörld"]) + line(id="b")
    with connect(server) as sock:
        for i in range(len(payload)):
            sock.sendall(payload[i:i + 1])
        events = collect(server, 2)
    assert [e.id for e in events] == ["com.x:id/a", "b"]
    assert events[0].text == ("héllo wörld",)
    assert [e.seq for e in events] == [1, 2]
    assert server.malformed == 0


def test_many_lines_one_write_crlf_blank_lines_and_unterminated_last(server):
    sock = connect(server)
    sock.sendall(b"".join(line(id=f"n{i}") for i in range(100)) + b"\r\n\n" +
                 line(id="crlf").replace(b"\n", b"\r\n") + json.dumps({"type": "x", "id": "last"}).encode())
    close_and_wait(sock)
    events = collect(server, 102)
    assert [e.id for e in events] == [f"n{i}" for i in range(100)] + ["crlf", "last"]
    assert server.malformed == 0


def test_several_clients_at_once(server):
    clients, per_client = 8, 50
    barrier = threading.Barrier(clients)

    def client(k: int) -> None:
        with connect(server) as sock:
            barrier.wait()
            for i in range(per_client):
                sock.sendall(line(package=f"c{k}", id=str(i)))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = collect(server, clients * per_client)
    assert sorted(e.seq for e in events) == list(range(1, clients * per_client + 1))
    for k in range(clients):
        assert [e.id for e in events if e.package == f"c{k}"] == [str(i) for i in range(per_client)]


def test_wait_and_drain(server):
    assert server.wait(0.05) is False
    assert server.drain() == []
    with connect(server) as sock:
        threading.Thread(target=sock.sendall, args=(line(id="late"),)).start()
        assert server.wait(WAIT) is True
        assert server.wait(0) is True  # not drained yet
        assert [e.id for e in server.drain()] == ["late"]
        assert server.drain() == []


def test_drain_includes_what_already_reached_the_socket(server):
    # The device sends an action's events ahead of its reply, so when the reply
    # is in, the events are in this host's socket: drain must not depend on the
    # receiving thread having had its turn. Each line is drained right after
    # sendall() returns on loopback, with no wait in between.
    with connect(server) as sock:
        sync(server, sock, "connected")  # the connection is accepted
        for i in range(50):
            sock.sendall(line(id=f"tap-{i}"))
            assert [e.id for e in server.drain()] == [f"tap-{i}"]
    with connect(server) as sock:  # a connection not yet accepted is polled too
        sock.sendall(line(id="first"))
        assert [e.id for e in server.drain()] == ["first"]


# --- malformed input -----------------------------------------------------------

def test_malformed_lines_are_counted_dropped_and_the_connection_carries_on(server, caplog):
    garbage = [
        b"not json", b"[1]", b'{"v":1}', b'{"type":"click","text":5}', b'{"type":"click","package":1}',
        b'{"type":"click","id":"\xc3\x28"}', b"\xff\xfe\xfd", b'{"type":"click"', b'"just a string"',
    ]
    with caplog.at_level(logging.WARNING, logger="pytest_mobileagent.events"):
        with connect(server) as sock:
            for g in garbage:
                sock.sendall(g + b"\n" + line(id="ok-" + str(len(g))))
            got = sync(server, sock, "marker")
        server.stop()  # the connection's count is logged when it ends, at the latest here
    assert [e.id for e in got] == ["ok-" + str(len(g)) for g in garbage]
    assert server.malformed == len(garbage)
    # Logged once per connection (a flood must not become a flood of log records), then counted.
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    assert "not JSON" in warnings[0]
    assert f"{len(garbage)} malformed inputs from" in warnings[1]


def test_oversized_line_is_dropped_and_the_next_line_arrives(server):
    big = line(id="x" * (MAX_LINE_BYTES + 10))
    exact = json.dumps({"type": "click", "id": ""}).encode()
    exact = exact.replace(b'"id": ""', b'"id": "' + b"y" * (MAX_LINE_BYTES - len(exact)) + b'"')
    assert len(exact) == MAX_LINE_BYTES
    with connect(server) as sock:
        # Sent in pieces so the limit is hit while the line is still open.
        for i in range(0, len(big), 7000):
            sock.sendall(big[i:i + 7000])
        sock.sendall(line(id="after") + exact + b"\n")
        got = sync(server, sock, "marker")
    assert [e.id[:5] for e in got] == ["after", "yyyyy"]
    assert server.malformed == 1


def test_garbage_connection_closed_mid_line(server):
    sock = connect(server)
    sock.sendall(b'{"type": "click", "id": "unfini')
    close_and_wait(sock)
    assert server.malformed == 1
    with connect(server) as other:
        assert [e.id for e in sync(server, other, "m")] == []


# --- HTTP POST (original MobileAgentBench listener) -------------------------------

def post(body: bytes, extra: str = "") -> bytes:
    return (f"POST /event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"{extra}Content-Length: {len(body)}\r\n\r\n").encode() + body


def read_response(sock: socket.socket) -> tuple[str, bytes]:
    """Read one HTTP response; keeps unread bytes for the next call on this socket."""
    rfile = _readers.setdefault(sock.fileno(), sock.makefile("rb"))
    status = rfile.readline().decode().rstrip("\r\n")
    assert status, "server closed before answering"
    length = 0
    while (header := rfile.readline()) not in (b"\r\n", b""):
        name, _, value = header.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, rfile.read(length)


_readers: dict[int, object] = {}


@pytest.fixture(autouse=True)
def _forget_readers():
    yield
    _readers.clear()


def test_http_post_with_http_client_keep_alive(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT)
    for kind, ident in ((0, "com.p:id/save"), (1, "")):
        conn.request("POST", "/", body=json.dumps(
            {"eventType": kind, "packageStr": "com.p", "idStr": ident, "text": "[Save]",
             "contentDescription": "desc"}), headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        assert resp.status == 200 and resp.read()
    conn.close()
    events = collect(server, 2)
    assert [(e.type, e.short_id, e.package, e.desc) for e in events] == [
        ("click", "save", "com.p", "desc"), ("window_state", "", "com.p", "desc")]


def test_http_post_split_and_pipelined(server):
    data = post(b'{"eventType":0,"idStr":"a"}') + post(b'{"eventType":0,"idStr":"b"}')
    with connect(server) as sock:
        for i in range(len(data)):
            sock.sendall(data[i:i + 1])
        assert read_response(sock)[0] == "HTTP/1.1 200 OK"
        assert read_response(sock)[0] == "HTTP/1.1 200 OK"
    assert [e.id for e in collect(server, 2)] == ["a", "b"]


def test_http_bad_body_gets_400_and_the_connection_carries_on(server):
    with connect(server) as sock:
        sock.sendall(post(b"{nope"))
        assert read_response(sock)[0] == "HTTP/1.1 400 Bad Request"
        sock.sendall(post(b'{"eventType":"x"}') + post(b"\xff") + post(b'{"eventType":0,"idStr":"good"}'))
        assert [read_response(sock)[0][9:12] for _ in range(3)] == ["400", "400", "200"]
    assert [e.id for e in collect(server, 1)] == ["good"]
    assert server.malformed == 3


@pytest.mark.parametrize("request_bytes", [
    b"POST / HTTP/1.1\r\nContent-Length: nope\r\n\r\n{}",
    b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n{}",
    b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    b"POST /\r\n\r\n",
    b"POST / HTTP/1.1\r\nno colon here\r\n\r\n",
    b"POST / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 20000,
])
def test_http_broken_framing_is_answered_and_closed(server, request_bytes):
    with connect(server) as sock:
        sock.sendall(request_bytes)
        status, _ = read_response(sock)
        assert status.split(" ")[1] in ("400", "411")
        while sock.recv(4096):  # the server closes: the framing is lost
            pass
    assert server.malformed == 1
    with connect(server) as sock:  # and the server is still fine
        assert sync(server, sock, "m") == []


def test_connection_close_header_closes(server):
    with connect(server) as sock:
        sock.sendall(post(b'{"eventType":0}', extra="Connection: close\r\n"))
        assert read_response(sock)[0].endswith("200 OK")
        assert sock.recv(10) == b""


# --- lifecycle -------------------------------------------------------------------

def test_start_stop_idempotent_and_port_reuse():
    srv = EventServer().start()
    port = srv.port
    assert port > 0 and srv.start() is srv
    srv.stop()
    srv.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    with pytest.raises(OSError):  # a busy port is an error, not a silent other port
        with EventServer() as a, EventServer(port=a.port):
            pass


# --- properties --------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared_server():
    with EventServer() as srv:
        yield srv


def _not_json(b: bytes) -> bool:
    try:
        json.loads(b)
    except ValueError:
        return True
    return False


garbage_lines = st.binary(max_size=200).map(lambda b: b.replace(b"\n", b"")).filter(_not_json)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chunks=st.lists(st.tuples(garbage_lines, st.booleans()), max_size=12),
       cuts=st.lists(st.integers(min_value=1, max_value=50), max_size=8),
       texts=st.lists(st.text(max_size=30), min_size=1, max_size=12))
def test_valid_events_interleaved_with_garbage_all_arrive(shared_server, chunks, cuts, texts):
    shared_server.drain()
    before = shared_server.malformed
    # Start with a valid line so the connection is in JSON-lines mode whatever the garbage is.
    stream = bytearray(line(id="v-first"))
    expected_ids, expected_malformed = ["v-first"], 0
    for i, text in enumerate(texts):
        if i < len(chunks):
            g, _ = chunks[i]
            stream += g + b"\n"
            expected_malformed += bool(g.rstrip(b"\r").strip())
        stream += line(id=f"v{i}", text=[text])
        expected_ids.append(f"v{i}")
    with connect(shared_server) as sock:
        pos = 0
        for c in cuts:  # arbitrary TCP write boundaries
            sock.sendall(stream[pos:pos + c])
            pos += c
        sock.sendall(stream[pos:])
        got = sync(shared_server, sock, "marker")
    assert [e.id for e in got] == expected_ids
    assert [e.text for e in got[1:]] == [(t,) for t in texts]
    assert shared_server.malformed - before == expected_malformed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(
    st.binary(max_size=3000),
    st.binary(max_size=500).map(lambda b: b"POST " + b),
    st.binary(max_size=500).map(lambda b: b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n" + b),
))
def test_arbitrary_bytes_never_break_the_server(shared_server, data):
    sock = connect(shared_server)
    try:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(4096):  # the server answers or closes; either way it must finish
            pass
    except ConnectionResetError:
        pass  # closing with unread input resets; that is an answer too
    finally:
        sock.close()
    shared_server.drain()
    with connect(shared_server) as other:
        assert [e.id for e in sync(shared_server, other, "alive")] == []

"""A small HTTP server for the studio and the watch view: loopback only, a secret in every URL.

Built on the standard library's ``ThreadingHTTPServer`` (one thread per
connection, which suits a handful of browser tabs and Server-Sent Event
streams). Every path starts with a random token (``/<token>/...``); a request
without it gets 403 and learns nothing else, so another user's process on the
machine, or a web page the user visits that guesses the port, cannot drive the
phone. The server binds 127.0.0.1 and nothing else.

A web page the user visits is another way in, token or not: it can post
``text/plain`` forms to any port, and point a name of its own at 127.0.0.1 (DNS
rebinding). So a request must name this server in ``Host`` (``127.0.0.1:PORT``
or ``localhost:PORT``), an ``Origin``, when the browser sends one, must be this
server's own, and a POST must be ``application/json`` (which a foreign page
cannot send without a CORS preflight this server never grants).

Before a client has shown the token it costs the server a thread, so at most
:data:`MAX_CONNECTIONS` connections are served at once (the rest are closed on
arrival, as the device broker does) and a request must arrive whole, head and
body, within :data:`REQUEST_TIMEOUT` of the connection (or of the previous
answer on it).

Every text the server sends (pages, JSON answers, event-stream messages) goes
through its ``redact`` function last, so no secret of the environment leaves
the process whatever the application put in it; images are sent as they are.
"""

from __future__ import annotations

import hmac
import io
import json
import logging
import secrets
import socket
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs, urlsplit

from ..connlimit import ConnectionLimit

__all__ = ["Broadcast", "Request", "Response", "TokenServer", "asset"]

log = logging.getLogger("pytest_mobileagent.studio")

HOST = "127.0.0.1"
MAX_BODY = 8 * 1024 * 1024  # a screenshot, base64-encoded, fits with room to spare
SSE_KEEPALIVE = 15.0  # seconds between comments on an idle stream (proxies and browsers keep it open)
MAX_CONNECTIONS = 32  # served at once: a few tabs (a browser opens at most 6 per server) and the workers' posts
REQUEST_TIMEOUT = 10.0  # seconds for a whole request (head and body) to arrive, idle time before it included
SEND_TIMEOUT = 30.0  # seconds a client may leave an answer (an event stream) unread before it is dropped
MAX_JSON_DEPTH = 64  # nesting of a request's JSON: the pages send two levels

_CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                  ".css": "text/css; charset=utf-8", ".png": "image/png"}


def asset(name: str) -> tuple[bytes, str]:
    """A page asset shipped in ``pytest_mobileagent/studio/static`` and its content type."""
    if "/" in name or "\\" in name or name.startswith("."):
        raise FileNotFoundError(name)
    data = resources.files("pytest_mobileagent.studio").joinpath("static", name).read_bytes()
    suffix = name[name.rfind("."):]
    return data, _CONTENT_TYPES.get(suffix, "application/octet-stream")


class Request:
    """One request, as the application sees it: the path below the token, the query and the body."""

    def __init__(self, method: str, path: str, query: dict[str, list[str]], body: bytes):
        self.method, self.path, self.query, self.body = method, path, query, body

    def json(self) -> Any:
        """The body as JSON; ValueError (a 400) when it is not."""
        try:
            value = json.loads(self.body or b"{}")
        except ValueError as exc:
            raise ValueError(f"the request body is not JSON: {exc}") from None
        except RecursionError:  # nested deeper than the parser goes
            raise ValueError(f"the request body's JSON is nested deeper than {MAX_JSON_DEPTH} levels") from None
        if _depth(value) > MAX_JSON_DEPTH:
            raise ValueError(f"the request body's JSON is nested deeper than {MAX_JSON_DEPTH} levels")
        return value


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (iterative: a deep value must not overflow the stack)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            pending.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return deepest


class Response:
    """What the application answers: a body, or an event stream (an iterator of SSE messages)."""

    def __init__(self, body: bytes | str = b"", content_type: str = "text/plain; charset=utf-8",
                 status: int = 200, stream: Iterator[str] | None = None):
        self.body = body.encode("utf-8") if isinstance(body, str) else body
        self.content_type, self.status, self.stream = content_type, status, stream

    @classmethod
    def json(cls, value: Any, status: int = 200) -> "Response":
        return cls(json.dumps(value), "application/json", status)


class Broadcast:
    """A value that changes now and then, and the threads waiting to see it change.

    ``publish`` replaces the value and wakes every waiter; a waiter that
    missed several versions sees only the latest (a live view needs no history).
    """

    def __init__(self, value: Any = None):
        self._cond = threading.Condition()
        self.version = 0
        self.value = value
        self.closed = False

    def publish(self, value: Any) -> int:
        with self._cond:
            self.version += 1
            self.value = value
            self._cond.notify_all()
            return self.version

    def wait_newer(self, version: int, timeout: float) -> tuple[int, Any] | None:
        """The (version, value) once newer than ``version``; None after ``timeout`` or on close."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > version or self.closed, timeout)
            if self.closed or self.version <= version:
                return None
            return self.version, self.value

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def stream(self, event: str, encode: Callable[[Any], str]) -> Iterator[str]:
        """Server-Sent Event messages: the current value at once, then every change."""
        version = -1
        while not self.closed:
            got = self.wait_newer(version, SSE_KEEPALIVE)
            if got is None:
                yield ": keep-alive\n\n"
                continue
            version, value = got
            if value is None:
                continue  # nothing published yet
            data = encode(value).replace("\n", "\ndata: ")
            yield f"event: {event}\nid: {version}\ndata: {data}\n\n"


class _DeadlineReader(io.RawIOBase):
    """The connection's bytes, each read bounded by the time left until ``deadline`` (monotonic).

    A per-read socket timeout alone would let a client that sends a byte now
    and then hold its thread forever; this one bounds the whole request.
    """

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.deadline = time.monotonic() + REQUEST_TIMEOUT

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the request did not arrive whole within {REQUEST_TIMEOUT:g} s")
        self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


class _Handler(BaseHTTPRequestHandler):
    server: "TokenServer"
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.rfile.close()
        self._reader = _DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self._reader)

    def handle_one_request(self) -> None:
        # The stdlib's loop: a TimeoutError while reading ends the connection (logged, nothing sent).
        self._reader.deadline = time.monotonic() + REQUEST_TIMEOUT
        super().handle_one_request()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        log.debug("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        self._body_read = False
        refused = self._foreign(method)
        if refused is not None:
            self._send(refused)
            return
        parts = urlsplit(self.path)
        prefix = f"/{self.server.token}"
        path = parts.path
        # Constant-time comparison: the token is the only thing guarding the phone.
        head, sep, rest = path[1:].partition("/")
        if not hmac.compare_digest(("/" + head).encode(), prefix.encode()):
            self._send(Response("forbidden: this URL needs the studio's token\n", status=403))
            return
        if not sep:  # "/<token>": the page's relative URLs need the trailing slash
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", prefix + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0:
            self._send(Response("bad Content-Length\n", status=400))
            return
        if length > MAX_BODY:
            self._send(Response("request body too large\n", status=413))
            return
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            return  # the client closed the connection inside its body: nobody to answer
        self._body_read = True
        self.connection.settimeout(SEND_TIMEOUT)  # the answer (or a stream) may take its time; the client may not
        request = Request(method, "/" + rest, parse_qs(parts.query), body)
        try:
            response = self.server.app(request)
        except ValueError as exc:  # bad input: say what is wrong, change nothing
            response = Response.json({"error": str(exc)}, status=400)
        except Exception as exc:  # a device fault, reported to the page rather than dropping the connection
            log.exception("studio request %s %s failed", method, request.path)
            response = Response.json({"error": f"{type(exc).__name__}: {exc}"}, status=500)
        self._send(response)

    def _foreign(self, method: str) -> "Response | None":
        """A refusal for a request another site's page could have made, else None (see the module docstring)."""
        hosts = self.server.hosts
        if self.headers.get("Host", "").lower() not in hosts:
            return Response(f"forbidden: the Host header must be one of {', '.join(sorted(hosts))}\n", status=403)
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{host}" for host in hosts}:
            return Response("forbidden: a request from another site's page\n", status=403)
        if method == "POST":
            media_type = self.headers.get("Content-Type", "").partition(";")[0].strip().lower()
            if media_type != "application/json":
                return Response("a POST's body must be application/json\n", status=415)
        return None

    def _send(self, response: Response) -> None:
        if response.stream is not None:
            self._send_stream(response)
            return
        body = response.body
        if not response.content_type.startswith("image/"):
            # The last gate: whatever the app put in a text, no secret leaves the process.
            body = self.server.redact(body.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")  # the token must not leak to other sites
        if not self._body_read:
            # The request's body was left unread: the connection cannot carry another request.
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def _send_stream(self, response: Response) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            for message in response.stream:  # type: ignore[union-attr]
                self.wfile.write(self.server.redact(message).encode("utf-8"))
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away


class TokenServer(ThreadingHTTPServer):
    """Serves ``app(Request) -> Response`` on 127.0.0.1 under ``/<token>/``.

    ``redact`` is applied to every text sent (the run's or the studio's
    :class:`~pytest_mobileagent.reporting.redact.Redactor`'s ``text``).
    """

    daemon_threads = True
    allow_reuse_address = False
    request_queue_size = 64  # the listen backlog: a burst of clients is accepted (and refused) in order

    def __init__(self, app: Callable[[Request], Response], port: int = 0, token: str | None = None, *,
                 redact: Callable[[str], str]):
        self.app = app
        self.redact = redact
        self.token = token or secrets.token_urlsafe(18)
        self.connections = ConnectionLimit(MAX_CONNECTIONS)
        super().__init__((HOST, port), _Handler)
        # What a page of this server names it (what its own browser tab sends as Host).
        self.hosts = frozenset({f"{HOST}:{self.port}", f"localhost:{self.port}"})
        self._thread: threading.Thread | None = None

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.connections.admit(request):
            return  # closed: as many connections as the pages and workers ever need are served already
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.connections.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.connections.release()

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/{self.token}/"

    def start(self) -> "TokenServer":
        self._thread = threading.Thread(target=self.serve_forever, name="mobileagent-studio-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

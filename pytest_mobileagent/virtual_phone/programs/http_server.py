"""HTTP/1.1 serving for the phone's programs, over one accepted phone socket.

Servers on the phone (Appium's UiAutomator2 server...) answer HTTP on a
device port that the host reaches through ``adb forward``. h11 does the
protocol (keep-alive, chunked bodies, errors); the program supplies one
function from a request to a response.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable

import h11

if TYPE_CHECKING:
    from ..kernel.sockets import SocketConnection

__all__ = ["Responder", "serve_http"]

log = logging.getLogger(__name__)

#: (method, target, body) -> (status, content type, body)
Responder = Callable[[str, str, bytes], "tuple[int, str, bytes]"]
#: Largest request body accepted (a screenshot-sized upload at most)
MAX_BODY = 64 * 1024 * 1024


async def serve_http(conn: "SocketConnection", respond: Responder,
                     after_response: Callable[[], None] | None = None) -> None:
    """Serve requests on ``conn`` until the client closes it or asks to.

    ``after_response`` runs after every response went out (a server that
    stops itself once its reply is delivered checks its flag there).
    """
    http = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_BODY)
    while True:
        try:
            request, body = await _read_request(conn, http)
        except h11.RemoteProtocolError as exc:
            await _send_error(conn, http, exc.error_status_hint)
            return
        if request is None:
            return
        status, content_type, payload = respond(request.method.decode(), request.target.decode(), body)
        keep_alive = http.their_state is not h11.MUST_CLOSE
        headers = [("Content-Type", content_type), ("Content-Length", str(len(payload))),
                   ("Connection", "keep-alive" if keep_alive else "close")]
        await conn.write(http.send(h11.Response(status_code=status, headers=headers))
                         + http.send(h11.Data(data=payload)) + http.send(h11.EndOfMessage()))
        if after_response is not None:
            after_response()
        if http.our_state is h11.MUST_CLOSE or conn.closed:
            await conn.close()
            return
        http.start_next_cycle()


async def _read_request(conn: "SocketConnection", http: h11.Connection):
    request, body = None, bytearray()
    while True:
        event = http.next_event()
        if event is h11.NEED_DATA:
            data = await conn.read()
            http.receive_data(data)  # b"" marks the end of the stream
            continue
        if isinstance(event, h11.Request):
            request = event
        elif isinstance(event, h11.Data):
            body += event.data
            if len(body) > MAX_BODY:
                raise h11.RemoteProtocolError("request body too large", error_status_hint=413)
        elif isinstance(event, h11.EndOfMessage):
            return request, bytes(body)
        elif isinstance(event, (h11.ConnectionClosed, h11.PAUSED)):
            return None, b""


async def _send_error(conn: "SocketConnection", http: h11.Connection, status: int) -> None:
    try:
        await conn.write(http.send(h11.Response(status_code=status, headers=[("Content-Length", "0"),
                                                                              ("Connection", "close")]))
                         + http.send(h11.EndOfMessage()))
    except h11.LocalProtocolError:
        pass
    await conn.close()

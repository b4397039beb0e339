"""A local HTTP server that speaks the OpenAI chat-completions protocol.

Tests point LLM agents at it instead of a hosted model. What it answers is
decided by a ``respond(messages) -> str`` callable, so a test can script a
model (or write a small rule-based one) while every byte still travels over
real HTTP through the real client library.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Respond = Callable[[list[dict[str, Any]]], str]


class OpenAICompatibleServer:
    """Serve ``/v1/chat/completions`` and ``/v1/models`` on a free loopback port.

    ``requests`` keeps every request body and its headers (names lowercased), so tests can check
    what an agent sent. ``fail_next`` makes the next N requests answer with an
    HTTP error; ``hang`` holds each further request unanswered until the
    ``released`` event is set (the server sets it as it stops), to test an
    agent's timeout handling. ``report_usage = False`` leaves ``usage`` out of
    the answers, as some endpoints do.

    The server's own account of what it served, to hold an agent's figures to:
    ``served`` (requests answered with a completion), ``replies`` (their
    texts, in order) and ``tokens_reported`` (the prompt and completion
    tokens their ``usage`` reported). Requests answered with an error, or held
    until the client gave up, are in ``requests`` only.
    """

    def __init__(self, respond: Respond, *, model: str = "local-test-model") -> None:
        self.respond = respond
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.fail_next = 0
        self.fail_status = 500
        self.hang = False
        self.report_usage = True
        self.served = 0
        self.replies: list[str] = []
        self.tokens_reported = 0
        self.released = threading.Event()
        self._count = threading.Lock()  # handler threads update the account
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> "OpenAICompatibleServer":
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.released.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

            def _send_json(self, status: int, payload: dict[str, Any]) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send_json(200, {"object": "list", "data": [{"id": server.model, "object": "model"}]})
                else:
                    self._send_json(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                    return
                if server.hang:
                    server.released.wait()
                    return
                if server.fail_next > 0:
                    server.fail_next -= 1
                    self._send_json(server.fail_status, {"error": {"message": "injected failure", "type": "server_error"}})
                    return
                messages = body.get("messages", [])
                text = server.respond(messages)
                prompt_chars = sum(len(_text_of(m)) for m in messages)
                usage = {
                    "prompt_tokens": max(1, prompt_chars // 4),
                    "completion_tokens": max(1, len(text) // 4),
                }
                usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
                answer = {
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", server.model),
                    "choices": [{
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }],
                }
                if server.report_usage:
                    answer["usage"] = usage
                # Counted before it is sent: once the client has it, the agent may report it.
                with server._count:
                    server.served += 1
                    server.replies.append(text)
                    if server.report_usage:
                        server.tokens_reported += usage["total_tokens"]
                self._send_json(200, answer)

        return Handler


def _text_of(message: dict[str, Any]) -> str:
    """The text parts of a chat message (content may be a string or a part list)."""
    content = message.get("content", "")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))

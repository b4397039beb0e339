"""No secret of the environment leaves through the live pages (``--mobileagent-watch``, the studio).

A key in ``PLANTED_API_KEY`` is echoed by the agent into its typed text and
LLM output and sits in the task's prompt; the test reads the watch page's
event stream over HTTP for the whole run and every other text the page
serves, and the studio's stream and answers while the key is on the phone's
screen, and finds the key nowhere (only its ``[REDACTED:...]`` mark).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

from studio_support import LineReader, studio_process

SECRET = "sk-planted-9c8b7a6f5e4d3c2b1a00"
MARK = "[REDACTED:PLANTED_API_KEY]"
WATCH_LINE = re.compile(r"mobileagent watch: (http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)")

CONFTEST = """
import os
import socket

from pytest_mobileagent import Action
from pytest_mobileagent.judge import parse_hierarchy


class EchoTheKey:
    '''Types its key into the note and says it in its LLM output, then waits for the test.'''

    def __init__(self, context):
        self.model = "leaky"

    def step(self, observation):
        key = os.environ["PLANTED_API_KEY"]
        if observation.step == 0:
            field = next(n for n in parse_hierarchy(observation.hierarchy) if n.id.endswith(":id/text_note_view"))
            self.last_usage = {"llm_output": "my key is " + key, "tokens_in": 10, "tokens_out": 4}
            return Action.type("key " + key, x=field.center[0], y=field.center[1])
        with socket.socket(socket.AF_UNIX) as gate:
            gate.connect(os.environ["WATCH_GATE"])
            gate.recv(1)  # until the test has read the page at this step
        self.last_usage = {"llm_output": "done with " + key}
        return Action.finish()


def pytest_mobileagent_register_agents(registry):
    registry.register("leaky", EchoTheKey)
"""

TASKS = """
import os

from pytest_mobileagent import task


@task(app="notes", prompt="Write down the key " + os.environ["PLANTED_API_KEY"], golden=[], min_steps=1)
def test_note_the_key(screen):
    assert screen.text(id="text_note_view") == "never"
"""


class StreamReader:
    """Reads an event stream to its end on a thread, keeping every byte."""

    def __init__(self, url: str):
        self.data = bytearray()
        self.changed = threading.Condition()
        self.ended = False
        self.response = urllib.request.urlopen(url, timeout=300)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while chunk := self.response.read1(65536):
                with self.changed:
                    self.data += chunk
                    self.changed.notify_all()
        finally:
            with self.changed:
                self.ended = True
                self.changed.notify_all()

    def wait_for(self, *needles: bytes, timeout: float = 120) -> None:
        """Until one of ``needles`` has arrived."""
        def arrived() -> bool:
            return any(needle in self.data for needle in needles)

        with self.changed:
            assert self.changed.wait_for(lambda: arrived() or self.ended, timeout), "stream stalled"
            assert arrived(), bytes(self.data[-2000:])

    def wait_end(self, timeout: float = 120) -> bytes:
        with self.changed:
            assert self.changed.wait_for(lambda: self.ended, timeout), "stream did not end with the run"
            return bytes(self.data)


def _get(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.read()
    except urllib.error.HTTPError as exc:
        return exc.read()


def _post(url: str, body: dict) -> bytes:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read()
    except urllib.error.HTTPError as exc:
        return exc.read()


def test_the_watch_page_sends_no_secret_under_xdist(pytester, phone_factory):
    (phone,) = phone_factory(1)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_leaky_tasks=TASKS)
    gate_dir = tempfile.mkdtemp(prefix="mobileagent-gate-")
    gate_path = os.path.join(gate_dir, "gate.sock")
    gate = socket.socket(socket.AF_UNIX)
    gate.bind(gate_path)
    gate.listen(1)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-n", "1", "--agent", "leaky", "--mobileagent-watch", "-p", "no:cacheprovider",
         "--device", phone.serial],
        cwd=pytester.path, env={**os.environ, "WATCH_GATE": gate_path, "PLANTED_API_KEY": SECRET},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
    )
    output = LineReader(proc.stdout)
    try:
        url = WATCH_LINE.search(output.wait_for(WATCH_LINE)).group(1)
        stream = StreamReader(url + "stream")
        # The agent now waits at its second turn: the page holds its first step (typed key, LLM output).
        stream.wait_for(b'"step": 1')
        sent = [_get(url), _get(url + "static/watch.js"), _get(url + "static/studio.css")]
        conn, _ = gate.accept()
        conn.sendall(b"x")
        conn.close()
        sent.append(stream.wait_end())  # the run ended: its last update (the verdict) is in the stream
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        gate.close()
        os.unlink(gate_path)
        os.rmdir(gate_dir)
    everything = b"".join(sent)
    assert SECRET.encode() not in everything
    assert "screenshots are not" in sent[0].decode()  # the one thing not redacted, said on the page
    streamed = sent[-1].decode()
    assert f"my key is {MARK}" in streamed and f"key {MARK}" in streamed and f"Write down the key {MARK}" in streamed
    assert '"done": true' in streamed


def test_the_studio_sends_no_secret_while_the_key_is_on_screen(phone_factory, tmp_path):
    (phone,) = phone_factory(1)
    env = {**os.environ, "PLANTED_API_KEY": SECRET}
    with studio_process("--no-browser", "--device", phone.serial, "--tasks-dir", str(tmp_path),
                        cwd=tmp_path, env=env) as (proc, url, _):
        stream = StreamReader(url + "stream")
        sent = [_get(url), _post(url + "record/start", {"package": "notes"})]
        stream.wait_for(b"text_note_view")
        from pytest_mobileagent.device.device import connect
        from pytest_mobileagent.judge import parse_hierarchy

        device = connect(phone.serial)
        field = next(n for n in parse_hierarchy(device.dump_hierarchy()) if n.id.endswith(":id/text_note_view"))
        sent.append(_post(url + "action", {"type": "tap", "x": field.center[0], "y": field.center[1]}))
        sent.append(_post(url + "action", {"type": "type", "text": SECRET}))  # recorded as g.type(...)
        sent.append(_post(url + "action", {"type": "key", "key": SECRET}))  # an error that quotes its input
        # The hierarchy with the key in the note reached the page (redacted, or not).
        stream.wait_for(MARK.encode(), SECRET.encode())
        sent.append(_post(url + "record/stop", {"prompt": "Note " + SECRET, "name": "note_the_key"}))
        sent.append(_get(url + "record"))
        proc.terminate()
        sent.append(stream.wait_end())
        device.close()
    everything = b"".join(sent)
    assert SECRET.encode() not in everything
    assert MARK.encode() in sent[3] and MARK.encode() in sent[4]  # the recorded step and the error

"""The studio's application: the page's requests, turned into adb calls on one device.

Everything reaches the phone through the plugin's :class:`~pytest_mobileagent.device.Device`
(adb), so a real phone, an emulator and the virtual phone behave alike. The
app's events come the way the plugin gets them: an
:class:`~pytest_mobileagent.events.EventServer` dials the device's listener
(``localabstract:mobileagent-listener``) through the adb server.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..device.text import check_typable
from ..episode import _document
from ..events.server import EventServer
from ..listener import SOCKET_NAME as LISTENER_SOCKET
from ..tasks import APPS
from .live import LiveScreen
from .recorder import Recorder, render_task, task_filename, write_task
from .replay import run_task_file
from .web import Request, Response, asset

if TYPE_CHECKING:
    from ..device import Device

__all__ = ["Studio"]

log = logging.getLogger("pytest_mobileagent.studio")

LONG_PRESS_MS = 1000
LISTENER_TIMEOUT = 0.5  # seconds to wait for the listener's hierarchy before dumping instead
LISTENER_RETRY = 10.0  # seconds of dumps after the listener did not answer
_NAME_RE = re.compile(r"^[A-Za-z0-9_]{1,100}$")  # test_<name>.py stays well inside a file name's 255 bytes
_KEYS = ("BACK", "HOME", "APP_SWITCH", "ENTER", "DEL", "TAB", "MENU")
_PACKAGE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$")  # "android" has no dot
_RESOLVE_BATCH = 20  # packages per shell: about 2.2 kB, inside the 4 kB MAX_PAYLOAD_V1 of adb.h (older adbd)
_MARK = "mobileagent-package:"


class Studio:
    """Serves the page, drives the device, records and replays tasks.

    ``lend_device`` is a context manager factory that lends the device's claim
    to a replay's pytest run (yielding what the run needs to adopt it) while
    the studio keeps holding it.
    """

    def __init__(self, device: "Device", tasks_dir: Path, *,
                 lend_device: Callable[[], Any] | None = None):
        self.device = device
        self.tasks_dir = tasks_dir
        self.live = LiveScreen(device, hierarchy=self._read_hierarchy)
        self._listener_off_until = 0.0
        self.recorder: Recorder | None = None
        self.last_task: Path | None = None
        self._lend_device = lend_device
        self._act_lock = threading.Lock()  # one action (or replay) on the phone at a time
        self._events: "EventServer | None" = None
        self._stop = threading.Event()
        self._pump: threading.Thread | None = None

    # -- lifetime -----------------------------------------------------------------------
    def start(self) -> "Studio":
        self._start_events()
        self.live.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self.live.stop()
        self._stop_events()

    def _start_events(self) -> None:
        # The studio dials the device's listener as a run's worker does (listener protocol 2).
        self._events = EventServer(dial=functools.partial(
            self.device.open_stream, f"localabstract:{LISTENER_SOCKET}")).start()
        self._pump = threading.Thread(target=self._pump_events, name="mobileagent-studio-events", daemon=True)
        self._pump.start()

    def _stop_events(self) -> None:
        if self._events is None:
            return
        self._events.stop()

    def _read_hierarchy(self) -> str:
        """The hierarchy from the listener app when it answers (no uiautomator wait), else a dump."""
        server = self._events
        if server is not None and time.monotonic() >= self._listener_off_until and server.listener_connected:
            xml = _document(server.request_hierarchy(LISTENER_TIMEOUT))
            if xml is not None:
                return xml
            # A listener that stopped answering (its stream went to a replay's run): dumps for a while.
            self._listener_off_until = time.monotonic() + LISTENER_RETRY
        return self.device.dump_hierarchy()

    def _pump_events(self) -> None:
        """An app event means the screen is changing: look now, and keep the event for the recording."""
        server = self._events
        assert server is not None
        while not self._stop.is_set():
            if not server.wait(1.0):
                continue
            events = server.drain()
            recorder = self.recorder
            if recorder is not None:
                recorder.add_events(events)
            self.live.nudge()

    # -- routing --------------------------------------------------------------------------
    def __call__(self, request: Request) -> Response:
        route = (request.method, request.path)
        if route == ("GET", "/"):
            return Response(*asset("studio.html"))
        if request.method == "GET" and request.path.startswith("/static/"):
            try:
                return Response(*asset(request.path.removeprefix("/static/")))
            except (FileNotFoundError, IsADirectoryError):
                return Response("no such asset\n", status=404)
        handlers = {
            ("GET", "/stream"): lambda: Response(stream=self.live.updates.stream("screen", str)),
            ("GET", "/screen.png"): self._screen_png,
            ("GET", "/apps"): self._apps,
            ("GET", "/record"): self._record_state,
            ("POST", "/action"): lambda: self._action(request.json()),
            ("POST", "/record/start"): lambda: self._record_start(request.json()),
            ("POST", "/record/stop"): lambda: self._record_stop(request.json()),
            ("POST", "/replay"): lambda: self._replay(request.json()),
        }
        handler = handlers.get(route)
        if handler is None:
            return Response("not found\n", status=404)
        return handler()

    def _screen_png(self) -> Response:
        snapshot = self.live.snapshot
        if snapshot is None:
            return Response("no screen yet\n", status=503)
        return Response(snapshot.png, "image/png")

    def _apps(self) -> Response:
        listing = self.device.shell("pm list packages")
        installed = {line.split(":", 1)[1].strip() for line in listing.splitlines() if line.startswith("package:")}
        launchable = self._launchable(sorted(p for p in installed if _PACKAGE_RE.match(p)))
        apps = [{"name": short, "package": package} for short, package in APPS.items() if package in launchable]
        apps += [{"name": package, "package": package} for package in sorted(launchable - set(APPS.values()))]
        return Response.json({"apps": apps, "serial": self.device.serial})

    def _launchable(self, packages: list[str]) -> set[str]:
        """The packages Launch can start: those with an activity answering MAIN / LAUNCHER.

        That is the intent ``Device.launch`` sends (``monkey -p PKG -c
        android.intent.category.LAUNCHER``). ``cmd package resolve-activity
        --components`` prints the activity it resolves to, or "No activity
        found" (PackageManagerShellCommand.runResolveActivity, frameworks/base
        services/core/java/com/android/server/pm); a bare last argument is the
        intent's package (Intent.parseCommandArgs). Batched: one shell per
        :data:`_RESOLVE_BATCH` packages, each answer after an ``echo`` of its package.
        """
        found: set[str] = set()
        for start in range(0, len(packages), _RESOLVE_BATCH):
            batch = packages[start:start + _RESOLVE_BATCH]
            script = "; ".join(f"echo {_MARK}{p}; cmd package resolve-activity --components "
                               f"-a android.intent.action.MAIN -c android.intent.category.LAUNCHER {p}"
                               for p in batch)
            current = None
            for line in self.device.shell(script).splitlines():
                line = line.strip()
                if line.startswith(_MARK):
                    current = line.removeprefix(_MARK)
                elif current in batch and "/" in line:  # PACKAGE/ACTIVITY (or the chooser, for several)
                    found.add(current)
        return found

    # -- acting -------------------------------------------------------------------------
    def _action(self, body: Any) -> Response:
        if not isinstance(body, dict):
            raise ValueError("an action is a JSON object")
        kind = body.get("type")
        with self._act_lock:
            recorder = self.recorder
            # The screen the person acted on: fresh, so the recorded target is the one under the finger.
            nodes = self.live.refresh().nodes if recorder is not None else []
            if kind in ("tap", "long_press"):
                x, y = _point(body, "x", "y", self.device)
                if kind == "tap":
                    self.device.tap(x, y)
                else:
                    self.device.long_press(x, y, int(body.get("duration_ms") or LONG_PRESS_MS))
                step = recorder.tap(x, y, nodes, long=kind == "long_press") if recorder else None
            elif kind == "swipe":
                x1, y1 = _point(body, "x", "y", self.device)
                x2, y2 = _point(body, "x2", "y2", self.device)
                self.device.swipe(x1, y1, x2, y2, max(50, min(int(body.get("duration_ms") or 300), 5000)))
                step = recorder.swipe(x1, y1, x2, y2, nodes) if recorder else None
            elif kind == "type":
                text = body.get("text")
                if not isinstance(text, str) or not text:
                    raise ValueError("type needs a non-empty 'text'")
                check_typable(text)  # refuses what `input text` cannot type, before anything is sent
                self.device.type_text(text)
                step = recorder.type(text, nodes) if recorder else None
            elif kind == "key":
                name = str(body.get("key", "")).upper().removeprefix("KEYCODE_")
                if name not in _KEYS:
                    raise ValueError(f"key must be one of {', '.join(_KEYS)}, not {body.get('key')!r}")
                self.device.key(name)
                step = recorder.key(name) if recorder else None
            elif kind == "launch":
                package = _package(body.get("package"))
                self.device.launch(package)
                step = recorder.launch(package) if recorder else None
            else:
                raise ValueError(f"unknown action type {kind!r} (tap, long_press, swipe, type, key, launch)")
        self.live.nudge()
        return Response.json({"ok": True, "recorded": _step_json(step), "recording": self._recording_json()})

    # -- recording ------------------------------------------------------------------------
    def _record_start(self, body: Any) -> Response:
        package = _package(body.get("package") if isinstance(body, dict) else None)
        with self._act_lock:
            # The plugin's reset (episode.py): the recording starts where a task run starts.
            self.device.force_stop(package)
            self.device.clear_app(package)
            self.device.launch(package)
            if self._events is not None:
                self._events.drain()  # the launch's events are setup's, not the task's
            self.live.selector_package = package
            snapshot = self.live.refresh(force=True)
            self.recorder = Recorder(package, snapshot.nodes)
        return Response.json({"recording": self._recording_json()})

    def _record_state(self) -> Response:
        return Response.json({"recording": self._recording_json(), "last_task": str(self.last_task or "")})

    def _recording_json(self) -> dict | None:
        recorder = self.recorder
        if recorder is None:
            return None
        return {"package": recorder.package, "steps": [_step_json(s) for s in recorder.steps]}

    def _record_stop(self, body: Any) -> Response:
        if not isinstance(body, dict):
            raise ValueError("stopping a recording needs a JSON object with 'prompt' and 'name'")
        recorder = self.recorder
        if recorder is None:
            raise ValueError("not recording: press Record first")
        prompt = str(body.get("prompt") or "").strip()
        if not prompt:
            raise ValueError("give the task a prompt (the instruction the agent gets)")
        name = str(body.get("name") or "").strip()
        if not _NAME_RE.match(name):
            raise ValueError(f"the task name must be 1 to 100 letters, digits and underscores, not {name[:120]!r}")
        with self._act_lock:
            if self._events is not None:
                recorder.add_events(self._events.drain())
            final = self.live.refresh().nodes
        source = render_task(recorder, prompt=prompt, name=name, final=final)
        path = write_task(self.tasks_dir / task_filename(name), source)
        self.recorder = None
        self.live.selector_package = ""
        self.live.republish()
        self.last_task = path
        return Response.json({"path": str(path), "source": source})

    def _replay(self, body: Any) -> Response:
        if not isinstance(body, dict):
            raise ValueError("a replay needs a JSON object: {\"path\": ..., \"agents\": [...]}")
        path = self._task_module(str(body.get("path") or self.last_task or ""))
        agents = body.get("agents") or ["replay"]
        if not isinstance(agents, list) or not set(agents) <= {"replay", "noop"}:
            raise ValueError("agents must be a list of 'replay' and 'noop'")
        with self._act_lock:
            results = []
            if self._events is not None:
                # The listener serves one client: the run's worker takes the studio's place.
                self._events.pause_listener()
            try:
                lend = self._lend_device() if self._lend_device else contextlib.nullcontext()
                with lend as claim, self.live.paused():
                    for agent in agents:
                        results.append(run_task_file(path, self.device.serial, agent, claim=claim))
            finally:
                if self._events is not None:
                    self._events.resume_listener()
                self.live.refresh(force=True)
        return Response.json({"path": str(path), "results": results})

    def _task_module(self, given: str) -> Path:
        """The task module ``given`` names, which must be a ``.py`` file under the tasks directory.

        A replay runs the file's code: the page may only run what the studio's
        own directory holds, never any module elsewhere on the disk.
        """
        if not given or len(given) > 4096 or "\0" in given:
            raise ValueError(f"no task module to replay at {given[:200]!r}")
        tasks = self.tasks_dir.resolve()
        path = (tasks / given).resolve()  # an absolute path stays as it is; links are followed
        if not path.is_relative_to(tasks):
            raise ValueError(f"{given[:200]!r} is not under the tasks directory {tasks}: the studio replays only those")
        try:
            ok = path.suffix == ".py" and path.is_file()
        except OSError as exc:  # a name too long for the file system, say
            raise ValueError(f"no task module to replay at {given[:200]!r}: {exc.strerror}") from None
        if not ok:
            raise ValueError(f"no task module to replay at {given[:200]!r}")
        return path


def _point(body: dict, kx: str, ky: str, device: "Device") -> tuple[int, int]:
    try:
        x, y = int(body[kx]), int(body[ky])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{kx} and {ky} must be integers (screen pixels)") from None
    if not (0 <= x < device.width and 0 <= y < device.height):
        raise ValueError(f"({x}, {y}) is off the {device.width}x{device.height} screen")
    return x, y


def _package(value: Any) -> str:
    package = APPS.get(str(value or ""), str(value or ""))
    if not re.match(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$", package):
        raise ValueError(f"not an app name or package: {value!r}")
    return package


def _step_json(step: Any) -> dict | None:
    if step is None:
        return None
    return {"code": step.code, "note": step.note}

"""``pytest --mobileagent-watch``: a live view of the run in the browser.

The process that starts the run (the xdist controller, or the sole process)
serves a page on 127.0.0.1 under a secret token and prints its URL. Every
process that runs tasks has a :class:`WatchPublisher`: on each
``pytest_mobileagent_step`` it takes a screenshot of its phone and posts it,
with the task, the step count, the agent's last action and LLM output and
the judge's milestones, to that server (the URL reaches xdist workers through
``workerinput``). The posts leave from a background thread, latest first, so
a slow page never slows the run; the screenshot itself (about a millisecond
on the virtual phone) is the only cost a step pays.

The page also shows the run's progress: tasks done of the tasks collected,
and the success rate so far, counted from the records of finished tasks
(``pytest_mobileagent_task_record``, each posted once by the process that ran
it); and a card for every worker from the moment xdist sets it up, before its
first task.

No secret leaves a process: a publisher redacts its update (task, prompt,
action, LLM output, errors) with the run's redactor before posting it, the
server redacts what it keeps again, and its HTTP layer redacts every text it
sends. Screenshots are not redacted; the page says so.
"""

from __future__ import annotations

import base64
import json
import logging
import queue
import threading
import urllib.request
from typing import TYPE_CHECKING, Any, Callable

import pytest

from ..reporting.redact import Redactor, run_redactor
from ..tasks import task_spec
from .web import Broadcast, Request, Response, TokenServer, asset

if TYPE_CHECKING:
    from ..device import Device
    from ..judge import Progress
    from ..metrics import StepRecord, TaskRecord
    from ..tasks import TaskSpec

__all__ = ["WATCH_URL_KEY", "WatchApp", "WatchPublisher", "register_watch"]

log = logging.getLogger("pytest_mobileagent.studio")

WATCH_URL_KEY = "mobileagent_watch_url"  # workerinput: where workers post their updates
POST_TIMEOUT = 5.0
MAX_LLM_TEXT = 4000  # characters of the LLM output shown (a page, not a log)


def register_watch(config: pytest.Config) -> None:
    """Serve the page (controller) and publish this process's tasks to it (wherever tasks run)."""
    if config.option.help or config.option.collectonly:
        return  # nothing will run: no page to serve
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        url = workerinput.get(WATCH_URL_KEY)
        if url:
            config.pluginmanager.register(WatchPublisher(url, workerinput.get("workerid", "gw?"), config),
                                          "mobileagent-watch-publisher")
        return
    # Looked up when used: the reporting plugin, which owns the run's redactor, registers after us.
    app = WatchApp(lambda: run_redactor(config))
    server = TokenServer(app, redact=lambda text: app.redactor().text(text)).start()
    config.pluginmanager.register(WatchController(server), "mobileagent-watch")
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistWatch(server.url, app), "mobileagent-watch-xdist")
    # Tasks run here too without workers (no xdist, or -n 0).
    config.pluginmanager.register(WatchPublisher(server.url, "main", config), "mobileagent-watch-publisher")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    line = f"mobileagent watch: {server.url}"
    if reporter is not None:
        reporter.write_line(line)
        reporter.flush()
    else:
        print(line, flush=True)


class WatchController:
    """Owns the watch server on the controller; stops it when the run ends."""

    def __init__(self, server: TokenServer):
        self.server = server

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.server.app.updates.close()  # ends the page's event streams
        self.server.stop()


class _XdistWatch:
    """Hands the server's URL to each worker (registered only with xdist)."""

    def __init__(self, url: str, app: "WatchApp"):
        self.url = url
        self.app = app

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[WATCH_URL_KEY] = self.url
        self.app.add_worker(node.gateway.id)  # its card shows from now, before its first task


class WatchApp:
    """The watch page and the workers' updates: the latest state of each worker."""

    def __init__(self, redactor: "Callable[[], Redactor]") -> None:
        self.redactor = redactor
        self.workers: dict[str, dict[str, Any]] = {}
        self.screens: dict[str, bytes] = {}
        # total: tasks collected (each worker collects them all); done, passed: finished task records.
        self.progress = {"total": 0, "done": 0, "passed": 0}
        self.updates = Broadcast(self._view())
        self._lock = threading.Lock()

    def __call__(self, request: Request) -> Response:
        if (request.method, request.path) == ("GET", "/"):
            return Response(*asset("watch.html"))
        if request.method == "GET" and request.path.startswith("/static/"):
            try:
                return Response(*asset(request.path.removeprefix("/static/")))
            except (FileNotFoundError, IsADirectoryError):
                return Response("no such asset\n", status=404)
        if (request.method, request.path) == ("GET", "/stream"):
            return Response(stream=self.updates.stream("run", json.dumps))
        if request.method == "GET" and request.path.startswith("/screen/"):
            png = self.screens.get(request.path.removeprefix("/screen/").removesuffix(".png"))
            return Response(png, "image/png") if png else Response("no screen\n", status=404)
        if (request.method, request.path) == ("POST", "/publish"):
            self.publish(request.json())
            return Response.json({"ok": True})
        return Response("not found\n", status=404)

    def add_worker(self, worker: str) -> None:
        """Show ``worker``'s card before it posts anything."""
        with self._lock:
            self.workers.setdefault(worker, {"worker": worker})
            self.updates.publish(self._view())

    def publish(self, update: Any) -> None:
        if not isinstance(update, dict) or not isinstance(update.get("worker"), str):
            raise ValueError("an update is a JSON object with a 'worker'")
        collected, result = update.pop("collected", None), update.pop("result", None)
        if collected is not None and (not isinstance(collected, int) or isinstance(collected, bool) or collected < 0):
            raise ValueError("'collected' is the number of tasks a worker collected")
        if result is not None and not isinstance(result, bool):
            raise ValueError("'result' is a finished task's success, true or false")
        png = update.pop("png", None)
        update = self.redactor().data(update)  # what workers send is redacted already; this is the page's own guard
        worker = update["worker"]
        with self._lock:
            state = dict(self.workers.get(worker, {}))
            state.update(update)
            if png:
                self.screens[worker] = base64.b64decode(png)
                state["screen_version"] = state.get("screen_version", 0) + 1
            self.workers[worker] = state
            if collected is not None:  # every worker collects the whole run (xdist checks they agree)
                self.progress["total"] = max(self.progress["total"], collected)
            if result is not None:
                self.progress["done"] += 1
                self.progress["passed"] += result
            self.updates.publish(self._view())

    def _view(self) -> dict[str, Any]:
        return {"progress": dict(self.progress), "workers": {w: dict(s) for w, s in sorted(self.workers.items())}}


class WatchPublisher:
    """Sends this process's task progress to the watch server (see the module docstring)."""

    def __init__(self, url: str, worker: str, config: pytest.Config):
        self.url = url + "publish"
        self.worker = worker
        self.config = config
        self._queue: "queue.Queue[dict[str, Any] | None]" = queue.Queue()
        self._warned = False
        self._thread = threading.Thread(target=self._send_loop, name="mobileagent-watch", daemon=True)
        self._thread.start()

    def pytest_mobileagent_step(self, task: "TaskSpec", record: "TaskRecord", step: "StepRecord | None",
                                progress: "Progress", device: "Device") -> None:
        update: dict[str, Any] = {
            "worker": self.worker, "task": task.name, "prompt": task.prompt, "device": device.label,
            "step": record.steps_taken, "max_steps": record.max_steps, "success": record.success,
            "done": False, "milestones": list(progress.declared), "reached": progress.reached_in_order,
        }
        if step is None:
            update.update(action=None, llm_output=None)
        else:
            update.update(action=step.action, llm_output=(step.llm_output or "")[:MAX_LLM_TEXT] or None)
        try:
            # The screen the judge just saw: taken now, before the agent's next action.
            update["png"] = base64.b64encode(device.screenshot_png()).decode("ascii")
        except Exception as exc:  # the live view must never fail a task
            update["screen_error"] = f"{type(exc).__name__}: {exc}"
        self._put(update)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # Only where tasks run: an xdist controller collects nothing, and then shows no card of its own.
        self._put({"worker": self.worker, "collected": sum(task_spec(item) is not None for item in session.items)})

    def pytest_mobileagent_task_record(self, record: "TaskRecord", item: pytest.Item) -> None:
        # Once per task (and repeat): the run's progress counts these "result"s.
        self._put({"worker": self.worker, "task": record.task, "done": True, "success": record.success,
                   "result": bool(record.success), "stop_reason": str(record.stop_reason),
                   "step": record.steps_taken})

    def _put(self, update: dict[str, Any]) -> None:
        """Queue ``update`` for posting, its texts redacted: it leaves this process."""
        png = update.pop("png", None)
        update = run_redactor(self.config).data(update)
        if png is not None:
            update["png"] = png
        self._queue.put(update)

    @pytest.hookimpl(tryfirst=True)  # before the controller stops the server: the last posts arrive
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._queue.put(None)
        self._thread.join(timeout=POST_TIMEOUT)

    def _send_loop(self) -> None:
        while True:
            update = self._queue.get()
            if update is None:
                return
            try:
                request = urllib.request.Request(self.url, data=json.dumps(update).encode("utf-8"),
                                                 headers={"Content-Type": "application/json"}, method="POST")
                with urllib.request.urlopen(request, timeout=POST_TIMEOUT) as response:
                    response.read()
            except OSError as exc:
                if not self._warned:  # the run goes on without its live view
                    log.warning("mobileagent watch: cannot reach %s: %s", self.url.rsplit("/", 2)[0], exc)
                    self._warned = True

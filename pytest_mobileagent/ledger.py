"""Every collected task has a record, whatever happens to its run.

A task's record normally comes from its episode, on the report of the phase
that ends the task. Three things can leave a task without one, and each would
make the figures silently wrong:

* its setup fails before the episode exists (a fixture of the task's own that
  uses ``device`` when no device can be had): :func:`attach_record` gives the
  setup report an error record built from the task's spec;
* its xdist worker dies (``os._exit``, a segfault): the controller hears of it
  in ``pytest_testnodedown`` and through xdist's crash report, and
  :class:`RunLedger` turns that into an error record naming the reason;
* the run is interrupted: the tasks that did not run are counted as such, and
  the results say the run was cut short (:meth:`RunLedger.run_info`).

Under xdist the controller collects nothing, so each worker writes the
records-to-be of its collected tasks (a *manifest*) into a private directory
the controller created for the run (``workerinput[MANIFEST_DIR_KEY]``); the
controller reads it only when a task needs a record it never got.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .keys import DEVICE_ATTR, MANIFEST_DIR_KEY, RECORD_ATTR
from .metrics import StopReason, TaskRecord
from .reporting.short_errors import missing_fixture
from .tasks import new_task_record, task_spec
from .tempdirs import make_run_tempdir

if TYPE_CHECKING:
    from .options import MobileAgentOptions

__all__ = ["MANIFEST_DIR_KEY", "RunLedger", "attach_record", "repeat_index"]

_REPORTED = pytest.StashKey[bool]()


def repeat_index(item: pytest.Item) -> int:
    """Which repetition of its task ``item`` is (0 without --repeat-tasks)."""
    callspec = getattr(item, "callspec", None)
    # --repeat-tasks (reporting) parametrises tasks with the repetition index.
    return int(callspec.params.get("mobileagent_repeat", 0)) if callspec is not None else 0


def _error_text(report: pytest.TestReport) -> str:
    """The last line of a failed report's text: the exception and its message.

    A fixture that does not exist is named as the usage error it is (pytest's
    own text lists every fixture there is, and ends with where it was asked for).
    """
    usage = missing_fixture(report.longrepr)
    if usage is not None:
        return usage
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return str(crash.message)
    lines = [line for line in str(report.longrepr or "").strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "setup failed"


def attach_record(item: pytest.Item, report: pytest.TestReport, episode: Any, options: "MobileAgentOptions") -> None:
    """Put the task's record on the report of the phase that ends the task: the
    call, or the setup when the episode could not run to its end (or never existed)."""
    spec = task_spec(item)
    if spec is None or item.stash.get(_REPORTED, False):
        return
    if not (report.when == "call" or (report.when == "setup" and report.failed)):
        return
    item.stash[_REPORTED] = True
    if episode is None:
        # Failed before the episode existed: still a result, an error.
        record = new_task_record(spec, item.nodeid, options, repeat_index(item))
        record.stop_reason = StopReason.INFRA_ERROR
        record.error = _error_text(report)
        item.config.hook.pytest_mobileagent_task_record(record=record, item=item)
        setattr(report, RECORD_ATTR, record.to_dict())
        return
    record = episode.record
    if report.when == "setup" and report.failed and record.stop_reason != StopReason.INFRA_ERROR:
        # A seed fixture (or the harness) failed: the agent was not judged, so not a failure of its.
        record.stop_reason = StopReason.INFRA_ERROR
        record.error = record.error or _error_text(report)
    if record.infra_error:  # an error is not judged: never success and error at once
        record.success, record.success_step = False, None
    item.config.hook.pytest_mobileagent_task_record(record=record, item=item)
    setattr(report, RECORD_ATTR, record.to_dict())
    device = episode.device_info()
    if device is not None:
        setattr(report, DEVICE_ATTR, device)


class RunLedger:
    """What was collected, what ran, and what crashed (one per process)."""

    def __init__(self, config: pytest.Config, options: "MobileAgentOptions"):
        self.config = config
        self.options = options
        workerinput = getattr(config, "workerinput", None)
        self.is_worker = workerinput is not None
        self.directory: Path | None = Path(workerinput[MANIFEST_DIR_KEY]) if workerinput and workerinput.get(MANIFEST_DIR_KEY) else None
        self._own_directory = False
        self.collected: dict[str, dict[str, Any]] | None = None  # nodeid -> record before running
        self.failures: dict[str, str] = {}  # nodeid -> why its failed report failed
        self.crashes: dict[str, str] = {}  # xdist worker id -> why it went down
        self.skipped: set[str] = set()  # tasks skipped on purpose (a query that needs the LLM judge)

    # -- every process ------------------------------------------------------
    def make_directory(self) -> str:
        """The controller's private directory for the workers' manifests (created once)."""
        if self.directory is None:
            self.directory = Path(make_run_tempdir("run"))
            self._own_directory = True
        return str(self.directory)

    def note_collection(self, session: pytest.Session) -> None:
        """Remember the collected tasks; a worker writes them to the manifest directory."""
        collected = {}
        for item in session.items:
            spec = task_spec(item)
            if spec is not None:
                collected[item.nodeid] = new_task_record(spec, item.nodeid, self.options, repeat_index(item)).to_dict()
        self.collected = collected
        if self.is_worker and self.directory is not None:
            worker = self.config.workerinput.get("workerid", "gw")  # type: ignore[attr-defined]
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=f".{worker}.")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(collected, handle)
            os.replace(tmp, self.directory / f"tasks-{worker}.json")

    def close(self) -> None:
        if self._own_directory and self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None

    # -- the controller (or the sole process) ---------------------------------
    def note_report(self, report: pytest.TestReport) -> None:
        self.note_skip(report)
        if report.failed and report.nodeid not in self.failures:
            reason = _error_text(report)
            worker = getattr(getattr(report, "node", None), "gateway", None)
            if report.when == "???" and worker is not None and worker.id in self.crashes:
                # xdist's report of the test its worker was running when it died.
                reason = f"{reason} ({self.crashes[worker.id]})"
            self.failures[report.nodeid] = reason

    def note_node_down(self, worker: str, error: Any) -> None:
        if error is not None:
            self.crashes[worker] = " ".join(str(error).split())[:300] or "worker crashed"

    def tasks(self) -> dict[str, dict[str, Any]]:
        """The collected tasks (read from the workers' manifests under xdist)."""
        if not self.is_worker and self._own_directory:  # the xdist controller collects nothing itself
            collected: dict[str, dict[str, Any]] = {}
            for path in sorted(self.directory.glob("tasks-*.json")):
                try:
                    collected.update(json.loads(path.read_text(encoding="utf-8")))
                except (OSError, ValueError):
                    continue  # a worker that died while writing: another one wrote the same tasks
            return collected
        return dict(self.collected or {})

    def missing_records(self, have: set[str]) -> list[dict[str, Any]]:
        """Error records for collected tasks that failed (or crashed) without a record of their own."""
        out = []
        for nodeid, skeleton in sorted(self.tasks().items()):
            if nodeid in have or nodeid not in self.failures:
                continue
            record = TaskRecord.from_dict(skeleton)
            record.stop_reason = StopReason.INFRA_ERROR
            record.error = self.failures[nodeid]
            out.append(record.to_dict())
        return out

    def note_skip(self, report: pytest.TestReport) -> None:
        """A task skipped, with its reason (it did not run, and the run is complete without it)."""
        if report.skipped:
            self.skipped.add(report.nodeid)

    def run_info(self, session: pytest.Session, exitstatus: int, have: set[str]) -> dict[str, Any]:
        """Whether the run went to its end: the results file's ``run`` section."""
        tasks = self.tasks()
        skipped = sorted((set(tasks) & self.skipped) - have)
        not_run = sorted(set(tasks) - have - set(skipped))
        interrupted = int(exitstatus) == int(pytest.ExitCode.INTERRUPTED)
        stopped = session.shouldstop or session.shouldfail
        return {
            "interrupted": interrupted,
            "stopped_early": str(stopped) if stopped else None,
            "exit_status": int(exitstatus),
            "tasks_collected": len(tasks),
            "tasks_run": len(set(tasks) & have),
            "tasks_not_run": not_run,
            "tasks_skipped": skipped,
            "workers_crashed": sorted(self.crashes),
        }

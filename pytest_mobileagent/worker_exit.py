"""An xdist worker whose device is gone, or whose listener is lost, leaves the run; the other
workers take its tasks.

Without this, a worker whose phone died kept taking tasks and errored each at
once (0.1 s), so it drew most of the remaining tasks away from the healthy
workers (85 errors against 12 passes in one run).

How a worker leaves (pytest-xdist 3.x, ``remote.py`` and ``dsession.py``):

* Worker side (:class:`DeviceWatch`): when a task ends in an infrastructure
  error, the worker asks the adb server whether its device is still online,
  and the device whether it still answers (``true``, within 5 s). If not, or
  if the error was a lost listener (every later task would meet it too, issue
  37), the task's error says so, and the worker sets
  ``session.shouldstop``: xdist's worker loop ends after that task, and the
  tasks the controller had already sent it stay unrun. xdist copies
  ``shouldstop`` into the ``workerfinished`` message, where the controller
  would take it for a stop of the whole run; the worker puts its reason under
  :data:`LEFT_KEY` instead.
* Controller side (:class:`LeavingWorkers`): ``pytest_testnodedown`` runs
  before xdist handles ``workerfinished``. For a worker that left, it takes
  the worker out of the scheduler with ``remove_node``, which hands every
  task the worker still held to the other workers except the first (xdist
  assumes a crash was running it), and puts that one back with
  ``mark_test_pending``. xdist then finds the worker no longer scheduled and
  lets it go without counting a crash or starting a replacement.

xdist's ``LoadScheduling`` tells a worker to finish as soon as no task is
waiting to be sent, and a worker told so cannot take tasks again: near the end
of a run nobody could take a leaving worker's tasks. The run's scheduler is
therefore a ``LoadScheduling`` that leaves that to xdist's end of the run
(``DSession`` tells every worker once the tasks are finished).

Only ``--dist load`` (the default of ``-n``) hands tasks back this way; under
the other modes a worker whose device is gone stays, as before. A task no
healthy worker can take (``-n 1``, every worker's device gone, or a run so
small that xdist sent every task at once) is reported as an error naming the
device.
"""

from __future__ import annotations

from typing import Any, Generator

import pytest

from .errors import InfrastructureError, ListenerLostError

__all__ = ["DeviceWatch", "LEFT_KEY", "LeavingWorkers", "register_worker_exit"]

LEFT_KEY = "mobileagent_left"  # workeroutput: why the worker left the run (its device is gone)
DIST_KEY = "mobileagent_dist"  # workerinput: the run's --dist (xdist sets a worker's own to "no")
LEAVING_ATTR = "mobileagent_leaving"  # on the report of the task that found the device gone
_HANDS_BACK = ("load",)  # xdist modes whose scheduler takes a worker's tasks back (see make_scheduler)


class DeviceWatch:
    """Worker side: after an infrastructure error, leave the run if the device is gone."""

    def __init__(self, config: pytest.Config, runtime: Any):
        self.config = config
        self.runtime = runtime
        self.reason: str | None = None

    def _gone(self, exc: InfrastructureError) -> str | None:
        """Why this worker cannot run tasks any more (its device or adb server gone, its
        listener lost), or None while its device and listener work."""
        device = self.runtime.connected_device
        if device is None:
            return None  # never connected: its allocation error is said by every task already
        gone = device.unavailable()
        if gone is not None:
            return gone
        if isinstance(exc, ListenerLostError):
            # The error waited out the listener's redial already, and found the device answering:
            # every later task would wait, and fail, the same way.
            return f"the listener app on its device {device.label} is lost"
        return None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
        # Before the report is made, so the task's error carries the note.
        exc = call.excinfo.value if call.excinfo is not None else None
        leaving_now = False
        if self.reason is None and isinstance(exc, InfrastructureError):
            reason = self._gone(exc)
            if reason is not None:
                self.reason = f"{self.config.workerinput.get('workerid', 'gw?')} left the run: {reason}"  # type: ignore[attr-defined]
                exc.add_note(f"[mobileagent] {self.reason}; its remaining tasks go to the other workers")
                item.session.shouldstop = self.reason  # xdist's worker loop ends after this task
                leaving_now = True
        report = yield
        if leaving_now:
            setattr(report, LEAVING_ATTR, self.reason)  # travels to the controller with the report
        return report

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        # Runs inside xdist's hookwrapper, after it copied shouldstop into workeroutput
        # and before it sends workerfinished: leaving is not a stop of the whole run.
        output = self.config.workeroutput  # type: ignore[attr-defined]
        if self.reason is not None and output.get("shouldstop") == self.reason:
            output["shouldstop"] = False
            output[LEFT_KEY] = self.reason


class LeavingWorkers:
    """Controller side: hand the tasks of a worker that left to the other workers."""

    def __init__(self, config: pytest.Config):
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        if config.getvalue("dist") != "load":
            return None
        return _load_scheduling_keeping_workers()(config, log)

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[DIST_KEY] = self.config.getoption("dist", "no")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # The worker is leaving: send it nothing more (a send could meet its closed channel).
        node = getattr(report, "node", None)
        if getattr(report, LEAVING_ATTR, None) and node is not None:
            node.shutdown()
            sched = getattr(self.config.pluginmanager.getplugin("dsession"), "sched", None)
            if hasattr(sched, "leaving"):
                sched.leaving.add(node)

    @pytest.hookimpl(tryfirst=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        reason = (getattr(node, "workeroutput", None) or {}).get(LEFT_KEY)
        if error is not None or not reason:
            return
        dsession = self.config.pluginmanager.getplugin("dsession")
        sched = getattr(dsession, "sched", None)
        if sched is None or node not in sched.nodes:
            return
        first = sched.remove_node(node)  # hands back all it held but the first...
        if first is not None:
            sched.mark_test_pending(first)  # ...which it never started: back too
        terminal = self.config.pluginmanager.getplugin("terminalreporter")
        if terminal is not None:
            terminal.write_line(f"[{node.gateway.id}] {reason}; its remaining tasks go to the other workers")
        if getattr(sched, "pending", None) and all(n.shutting_down for n in sched.nodes):
            self._strand(sched, node, reason)

    def _strand(self, sched: Any, node: Any, reason: str) -> None:
        """Tasks no worker can take any more (the others were told to finish): one error each
        (a failed setup, as they are infrastructure errors), reported as xdist reports the
        task of a crashed worker."""
        runner = self.config.pluginmanager.getplugin("runner")
        indices, sched.pending[:] = list(sched.pending), []
        for index in indices:
            nodeid = sched.collection[index]
            path = nodeid.split("::")[0]
            message = f"not run: worker {reason}, and no other worker was left to take the task"
            report = runner.TestReport(nodeid, (path, None, path), (), "failed", message, "setup")
            report.node = node
            self.config.hook.pytest_runtest_logreport(report=report)


def register_worker_exit(config: pytest.Config, runtime: Any) -> None:
    """DeviceWatch on an xdist worker of a mode that hands tasks back; LeavingWorkers on the controller."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        config.pluginmanager.register(LeavingWorkers(config), "mobileagent-leaving-workers")
    elif workerinput.get(DIST_KEY) in _HANDS_BACK:
        config.pluginmanager.register(DeviceWatch(config, runtime), "mobileagent-device-watch")


def _load_scheduling_keeping_workers() -> type:
    from xdist.scheduler import LoadScheduling

    class LoadSchedulingKeepingWorkers(LoadScheduling):
        """``LoadScheduling``, except that a worker is not told to finish when no task is
        waiting: until the run's end it may still get the tasks of a worker that leaves."""

        def __init__(self, config: pytest.Config, log: Any = None) -> None:
            super().__init__(config, log)
            self.leaving: set[Any] = set()  # workers leaving the run, until their tasks are back

        def check_schedule(self, node: Any, duration: float = 0) -> None:
            if self.pending or node.shutting_down:
                super().check_schedule(node, duration)

        @property
        def tests_finished(self) -> bool:
            # xdist counts a worker's last pending task as running; a leaving worker's is
            # not, and it must go to another worker before the run may end.
            if any(self.node2pending.get(node) for node in self.leaving):
                return False
            return super().tests_finished

    return LoadSchedulingKeepingWorkers

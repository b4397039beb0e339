"""The reporting plugin object, registered by ``pytest_mobileagent.plugin`` in pytest_configure.

Where each part runs:

* every process that runs tests (the sole process, or each xdist worker):
  redaction of captured output and failure text in the test reports, and the
  per-task Allure content (:func:`allure_report.attach_task`);
* the controller (or the sole process): collecting the task records that
  arrive on the test reports (``report.mobileagent_record``, shipped by
  xdist) into a :class:`~.record_store.RecordStore` (whole records on disk,
  their figures in memory, so a long run stays flat), the terminal summary,
  ``--results-json``, ``--baseline``, the gates on the exit status and the
  run-level Allure files.
"""

from __future__ import annotations

import datetime as dt
import html
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ..metrics import TaskRecord, aggregate, aggregate_by
from ..keys import DEVICE_ATTR, EPISODE_KEY, LEDGER_KEY, RECORD_ATTR, RUNTIME_KEY
from . import TASK_MARKERS, summary
from .allure_files import AllureWriteError, install
from .allure_report import allure_dir, attach_task, write_run_files
from .atomic import WRITE_PROBLEM, _os_error
from .baseline import compare
from .options import ReportingOptions
from .plots import sr_bar_chart, warm_up
from .record_store import RecordStore
from .redact import Redactor, install_log_redaction
from .results import build_results, by_difficulty, write_results
from .short_errors import missing_fixture, short_agent_failure, short_judge_failure, wants_short_failures

__all__ = ["RECORD_ATTR", "DEVICE_ATTR", "ReportingPlugin"]

#: Attribute we add on the running side: the Allure uuid of the test, for the run summary.
ALLURE_UUID_ATTR = "mobileagent_allure_uuid"
#: Key of xdist's workeroutput carrying a worker's report-writing problems to the controller.
PROBLEMS_KEY = "mobileagent_problems"
#: Attribute we add on the running side: the failure's text was shortened (short_errors.py).
SHORTENED_ATTR = "mobileagent_shortened"
#: How the error of a task that asks for what does not exist begins (short_errors.missing_fixture).
USAGE_ERROR = "UsageError:"
#: Name of the parameter --repeat-tasks adds to task functions.
REPEAT_PARAM = "mobileagent_repeat"


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


class ReportingPlugin:
    """Terminal summary, results file, baseline gating and Allure output of a benchmark run."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.is_worker = hasattr(config, "workerinput")
        # Workers do not read the baseline: only the controller compares.
        self.options = ReportingOptions.from_config(config, load_baseline=not self.is_worker)
        self.redactor = Redactor.from_environ(self.options.secret_patterns)
        self.records = RecordStore()  # the task records, by nodeid
        self.devices: dict[str, dict[str, Any]] = {}
        self.allure_uuids: set[str] = set()
        self.bad_records: list[str] = []
        # (nodeid, phase) of failed reports: with a gate, only judged task
        # failures are left to the gates; errors and other failures still count.
        self.failed_reports: list[tuple[str, str]] = []
        self.shortened = 0  # failures shown short: the summary says where the whole tracebacks are
        self.started = _now()
        _screenshots_for_allure(config)
        self.finished: str | None = None
        self.results: dict[str, Any] | None = None
        self.run_info: dict[str, Any] | None = None  # interrupted? collected vs run (the ledger's account)
        self.gate_failures: list[str] = []
        self.results_json_failed = False  # its write failed: the summary says so instead of its path
        self.comparison = None
        self.allure_files = None  # the BackgroundFileLogger, with --alluredir
        self._charts_warming = False
        if not self.is_worker and config.pluginmanager.hasplugin("xdist"):
            config.pluginmanager.register(_WorkerProblems(self), "mobileagent-reporting-xdist")

    def problem(self, message: str) -> None:
        """A report could not be written: a warning in the controller's summary."""
        if self.is_worker:
            self.config.workeroutput.setdefault(PROBLEMS_KEY, []).append(message)  # type: ignore[attr-defined]
        else:
            self.add_problem(message)

    def add_problem(self, message: str) -> None:
        if message.startswith(WRITE_PROBLEM) and any(p.startswith(WRITE_PROBLEM) for p in self.bad_records):
            return  # one line per run: every process writing there met the same fault
        self.bad_records.append(message)

    # -- Allure files (every process) ---------------------------------------------

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # Secrets stay out of logs (the live log, --log-file, captured logs) and saved hierarchies.
        install_log_redaction(self.config, self.redactor)
        runtime = _core_runtime(self.config)
        if runtime is not None and self.redactor:
            runtime.redact = self.redactor.text
        # After every pytest_configure, so allure-pytest's logger is registered by now.
        if _allure_active(self.config):
            self.allure_files = install(self.config)
            runtime = _core_runtime(self.config)
            if self.allure_files is not None and runtime is not None:
                logger = self.allure_files
                runtime.screenshot_saver = lambda png: str(logger.save_screenshot(png))

    @pytest.hookimpl(tryfirst=True, specname="pytest_sessionfinish")
    def pytest_sessionfinish_flush(self, session: pytest.Session, exitstatus: int) -> None:
        # First thing at the end: on a worker, xdist reports it done only after
        # this, so the controller's run-level files see every task's files.
        if self.allure_files is None:
            return
        try:
            self.allure_files.flush()
        except AllureWriteError as exc:
            self.problem(str(exc))

    # -- repetition --------------------------------------------------------

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        count = self.options.repeat_tasks
        if count <= 1 or not _is_task(metafunc):
            return
        # Direct parametrisation on a name the function does not take: pytest
        # makes a pseudo-fixture of it, and the ids ("2-3") are stable across
        # xdist workers, so every worker collects the same items.
        metafunc.fixturenames.append(REPEAT_PARAM)
        metafunc.parametrize(REPEAT_PARAM, range(count), ids=[f"{i + 1}-{count}" for i in range(count)])

    # -- the side that runs tests ---------------------------------------------

    @pytest.hookimpl(hookwrapper=True, trylast=True)
    def pytest_runtest_makereport(self, item, call):
        # Innermost wrapper: redact before allure-pytest (an outer wrapper)
        # attaches captured output, and before the terminal or xdist sees it.
        outcome = yield
        report = outcome.get_result()
        if self.redactor:
            _redact_report(report, self.redactor)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True, specname="pytest_runtest_makereport")
    def pytest_runtest_makereport_allure(self, item, call):
        # Outermost wrapper: the core plugin has put the task record on the
        # report and allure-pytest has set the test's status; the test's Allure
        # result is still open (it is written when the test's protocol ends).
        outcome = yield
        report = outcome.get_result()
        if report.failed and call.excinfo is not None:
            # Here, after allure-pytest kept the whole traceback for the report: the terminal's is short.
            _shorten_failure(item, report, call.excinfo.value, self.redactor)
        data = getattr(report, RECORD_ATTR, None)
        listener = self.config.pluginmanager.get_plugin("allure_listener")
        if data is None or listener is None:
            return
        try:
            record = TaskRecord.from_dict(data)
        except (TypeError, ValueError, AttributeError):
            return  # the controller reports the unreadable record
        test = listener.allure_logger.get_test(None)
        files = self.allure_files
        save, full_size = (files.save_attachment, files.full_size) if files is not None else (None, None)
        if test is not None and attach_task(self.config, record, self.redactor, save, full_size):
            setattr(report, ALLURE_UUID_ATTR, test.uuid)
        if files is not None:
            files.forget_screens()  # the task's one record is attached: its full-size screens go

    # -- the controller ----------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker:
            return
        if not self._charts_warming and _allure_active(self.config):
            # The controller mostly waits while tasks run: prepare the run-level
            # charts then, so the end of the run does not wait for Pillow's import.
            self._charts_warming = True
            threading.Thread(target=warm_up, name="mobileagent-charts", daemon=True).start()
        uuid = getattr(report, ALLURE_UUID_ATTR, None)
        if uuid:
            self.allure_uuids.add(uuid)
        if report.failed:
            self.failed_reports.append((report.nodeid, report.when))
        self.shortened += bool(getattr(report, SHORTENED_ATTR, False))
        data = getattr(report, RECORD_ATTR, None)
        if data is None:
            return
        try:
            # One record per test: if several phases carry one, the last wins.
            self.records.add(report.nodeid, data)
        except (TypeError, ValueError, AttributeError) as exc:
            self.bad_records.append(f"{report.nodeid}: unreadable task record ({exc})")
            return
        device = getattr(report, DEVICE_ATTR, None)
        if isinstance(device, dict) and device.get("serial"):
            self.devices[str(device["serial"])] = device

    @pytest.hookimpl(trylast=True, specname="pytest_runtest_logreport")
    def pytest_runtest_logreport_release(self, report: pytest.TestReport) -> None:
        # After every plugin has read it: the record lives in the store now, and
        # the report pytest keeps to the end (terminalreporter.stats) need not
        # carry a second copy of it.
        if self.is_worker:
            return
        if hasattr(report, RECORD_ATTR):
            delattr(report, RECORD_ATTR)
        _share_strings(report)

    def hard_failures(self) -> list[str]:
        """Failed phases that are not a judged task failing its call phase."""
        return [
            f"{nodeid} ({when})" for nodeid, when in self.failed_reports
            if not (when == "call" and nodeid in self.records and not self.records.get(nodeid).infra_error)
        ]

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.is_worker or self.config.option.collectonly:
            return  # --collect-only runs nothing: no figures, and no file to overwrite
        self.finished = _now()
        ledger = self.config.stash.get(LEDGER_KEY, None)
        if ledger is not None:
            # Tasks that crashed their worker or failed before their episode: errors, not gaps.
            for data in ledger.missing_records(set(self.records.nodeids())):
                self.records.add(data["nodeid"], data)
            self.run_info = ledger.run_info(session, exitstatus, set(self.records.nodeids()))
        self._gate_and_build()
        if self.options.results_json is not None and self.results is not None:
            try:
                write_results(self.options.results_json, self.results)
            except OSError as exc:
                self.results_json_failed = True
                self.bad_records.append(f"could not write --results-json {self.options.results_json}: {exc}")
        try:
            self._write_allure()
        except OSError as exc:
            self.add_problem(f"{WRITE_PROBLEM}{allure_dir(self.config)}: {_os_error(exc)} (the run summary)")
        self._set_exit_status(session)

    def _gate_and_build(self) -> None:
        tasks = self.records.records()
        overall = aggregate(tasks)
        if self.options.baseline_data is not None:
            self.comparison = compare(self.options.baseline_data, tasks, sr=overall.sr)
        failures = []
        if self.options.fail_under is not None:
            if overall.sr is None:
                failures.append(f"--fail-under {self.options.fail_under:.1%}: no task was judged")
            elif overall.sr < self.options.fail_under:
                failures.append(f"--fail-under: SR {overall.sr:.1%} is below {self.options.fail_under:.1%}")
        if self.options.fail_on_regression and self.comparison is not None and self.comparison.regressions:
            n = len(self.comparison.regressions)
            failures.append(f"--fail-on-regression: {n} task{'s' if n != 1 else ''} regressed against "
                            f"{self.options.baseline}")
        self.gate_failures = failures
        gates = None
        if self.options.gated:
            gates = {"fail_under": self.options.fail_under, "fail_on_regression": self.options.fail_on_regression,
                     "failed": failures}
        self.results = build_results(
            self.records.whole,  # read back from disk when the results file is written
            figures=tasks,
            started=self.started,
            finished=self.finished or _now(),
            agent=getattr(self.config.option, "agent", None),
            model=None,
            redactor=self.redactor,
            baseline=self.comparison.to_dict() if self.comparison is not None else None,
            gates=gates,
            run=self.run_info,
        )

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.records.close()

    def _set_exit_status(self, session: pytest.Session) -> None:
        status = session.exitstatus
        if self.results_json_failed:
            # A results file was asked for and is not there: CI must not read the run as a success.
            if status in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            return
        if not self.options.gated:
            return
        if self.gate_failures:
            if status in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            return
        # The gates passed: judged task failures alone do not fail the run;
        # anything else (errors, ordinary test failures, interruptions) still does.
        if status == pytest.ExitCode.TESTS_FAILED and not self.hard_failures() and not self.bad_records:
            session.exitstatus = pytest.ExitCode.OK

    def _write_allure(self) -> None:
        directory = allure_dir(self.config)
        if directory is None or self.results is None:
            return
        tasks = self.records.records()
        versions = sorted({str(d.get("android_version")) for d in self.devices.values() if d.get("android_version")})
        versions += sorted(self.records.android_versions)
        import platform

        environment = {
            **summary.overview_figures(aggregate(tasks), aggregate_by(tasks, "app"), by_difficulty(tasks)),
            "agent": self.results.get("agent") or "-",
            "model": self.results.get("model") or "-",
            "devices": self.results.get("devices") or "-",
            "android_version": ", ".join(sorted(set(versions))) or "unknown",
            "plugin_version": self.results.get("plugin_version"),
            "python": platform.python_version(),
            "pytest": pytest.__version__,
        }
        table = "\n".join(self.summary_lines(tasks))
        plots = {
            "SR by difficulty.png": sr_bar_chart("Success rate by difficulty", by_difficulty(tasks)),
            "SR by app.png": sr_bar_chart("Success rate by app", aggregate_by(tasks, "app")),
        }
        aggregate_json = {k: self.results.get(k) for k in
                          ("aggregate", "by_app", "by_difficulty", "sr_interval", "pass_at_k", "baseline", "gates")}
        write_run_files(
            directory,
            environment=environment,
            summary_text=table,
            summary_html=_summary_html(table, plots),
            aggregate_json=aggregate_json,
            plots=plots,
            children=self.allure_uuids,
            redactor=self.redactor,
            headline=_headline(aggregate(tasks), self.results.get("agent")),
        )
        # Backstop: whatever else was written (captured logs, parameters of
        # other plugins) must not carry a secret either.
        self.redactor.scrub_tree(directory)

    # -- terminal ----------------------------------------------------------------

    def summary_lines(self, tasks: list[TaskRecord]) -> list[str]:
        header = {k: (self.results or {}).get(k) for k in ("agent", "model", "devices")}
        return summary.summary_lines(aggregate(tasks), aggregate_by(tasks, "app"), by_difficulty(tasks), header)

    def pytest_terminal_summary(self, terminalreporter, exitstatus, config) -> None:
        cut_short = _cut_short(self.run_info)
        if self.is_worker or self.config.option.collectonly or (
                not self.records and not self.bad_records and not cut_short):
            return
        tasks = self.records.records()
        write = terminalreporter.write_line
        terminalreporter.write_sep("=", "mobileagent benchmark summary")
        if cut_short:
            write(cut_short, red=True, bold=True)
        for line in self.summary_lines(tasks):
            write(self.redactor.text(line))
        if self.shortened:
            write(f"task reports shown short above: {self.shortened}; the whole tracebacks: --tb=long (or -v)"
                  + (", and in the Allure report" if _allure_active(self.config) else ""))
        errors = [r for r in tasks if r.infra_error]
        # A task asking for what does not exist is its author's mistake, not the infrastructure's.
        usage = [r for r in errors if (r.error or "").startswith(USAGE_ERROR)]
        for title, records in ((f"usage errors ({len(usage)}), not judged: fix the task", usage),
                               (f"infrastructure errors ({len(errors) - len(usage)}), not judged:",
                                [r for r in errors if r not in usage])):
            if records:
                write(title)
            for record in records:
                first = (record.error or "").strip().splitlines()
                write(self.redactor.text(f"  {record.nodeid}: {first[0] if first else record.stop_reason}"))
        flooded = [r for r in tasks if getattr(r, "events_dropped", 0)]
        if flooded:
            write(f"warning: {len(flooded)} task(s) received more app events than an episode keeps; "
                  f"{sum(r.events_dropped for r in flooded)} were dropped unjudged "
                  f"(events_dropped in the results), e.g. {flooded[0].nodeid}", yellow=True)
        for problem in self.bad_records:
            write(self.redactor.text(f"warning: {problem}"), yellow=True)
        passk = (self.results or {}).get("pass_at_k") or {}
        if passk.get("k", 1) > 1 or passk.get("flaky"):
            write(f"pass@{passk['k']} {_fmt(passk.get('mean_pass_at_k'))}   "
                  f"pass^{passk['k']} {_fmt(passk.get('mean_pass_hat_k'))}   (mean over tasks)")
            for line in _pass_k_table(passk):
                write(line)
            for task in passk.get("flaky", []):
                t = passk["tasks"][task]
                write(f"  flaky: {task}: {t['successes']}/{t['n']} runs passed")
        if self.comparison is not None:
            c = self.comparison
            write(f"baseline {self.options.baseline}: SR {_fmt(c.baseline_sr)} -> {_fmt(c.sr)}; "
                  f"{len(c.regressions)} regressions, {len(c.improvements)} improvements, {c.unchanged} unchanged"
                  + (f", {len(c.new)} new" if c.new else "") + (f", {len(c.missing)} not run" if c.missing else "")
                  + (f", {len(c.unjudged)} not judged" if c.unjudged else ""))
            for change in c.regressions:
                write(f"  REGRESSION  {change.task}: {change.describe()}", red=True)
            for change in c.improvements:
                write(f"  improvement {change.task}: {change.describe()}", green=True)
        if self.options.results_json is not None and not self.results_json_failed:
            write(f"results: {self.options.results_json}")
        for failure in self.gate_failures:
            write(f"FAILED gate {failure}", red=True, bold=True)
        if self.options.gated and not self.gate_failures:
            write("gates passed", green=True)


class _WorkerProblems:
    """Collects the workers' report-writing problems (registered on the controller, only with xdist)."""

    def __init__(self, reporting: ReportingPlugin):
        self.reporting = reporting

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        output = getattr(node, "workeroutput", None) or {}
        for message in output.get(PROBLEMS_KEY, []):
            self.reporting.add_problem(str(message))


def _headline(overall, agent: Any) -> str:
    """The report's name in Allure: ``mobileagent replay: SR 80.0% of 100 judged tasks``."""
    sr = "-" if overall.sr is None else f"{overall.sr * 100:.1f}%"
    judged = overall.tasks - overall.errors
    if isinstance(agent, (list, tuple)):
        agent = ", ".join(map(str, agent))
    return f"mobileagent {agent or 'benchmark'}: SR {sr} of {judged} judged task{'s' if judged != 1 else ''}"


def _share_strings(report: pytest.TestReport) -> None:
    """Under xdist each report arrives with its own copies of its test's nodeid,
    location and keywords; pytest keeps three reports per test to the end of the
    run. Equal strings become one (same values, so nothing reads them differently)."""
    report.nodeid = sys.intern(report.nodeid)
    report.location = tuple(sys.intern(part) if isinstance(part, str) else part  # type: ignore[assignment]
                            for part in report.location)
    if isinstance(report.keywords, dict):
        report.keywords = {sys.intern(key) if isinstance(key, str) else key: value
                           for key, value in report.keywords.items()}


def _allure_active(config: pytest.Config) -> bool:
    return getattr(config.option, "allure_report_dir", None) is not None


def _core_runtime(config: pytest.Config):
    """The core plugin's Runtime of this process, or None (a stand-in core in some tests)."""
    return config.stash.get(RUNTIME_KEY, None)


def _cut_short(run: dict[str, Any] | None) -> str | None:
    """The summary's warning line when the run did not go to its end, else None."""
    if not run or not (run.get("tasks_collected") or run.get("workers_crashed")):
        return None  # no task in the run: not a benchmark run, nothing to warn about
    why = "interrupted" if run.get("interrupted") else run.get("stopped_early")
    crashed = run.get("workers_crashed") or []
    accounted = run.get("tasks_run", 0) + len(run.get("tasks_skipped") or ())  # a skipped task is not missing
    if not why and not crashed and accounted == run.get("tasks_collected"):
        return None
    parts = [f"run {why}" if why else "a worker crashed" if crashed else "run incomplete",
             f"{run.get('tasks_run')} of {run.get('tasks_collected')} collected tasks ran",
             f"exit status {run.get('exit_status')}"]
    if crashed:
        parts.append(f"crashed workers: {', '.join(crashed)}")
    return "; ".join(parts) + " (the figures below cover the tasks that ran)"


def _screenshots_for_allure(config: pytest.Config) -> None:
    """With --alluredir every Allure step shows its screenshot: unless the user chose a
    --mobileagent-screenshots mode, the core takes one after every action ('all')."""
    if not _allure_active(config):
        return
    try:
        chosen = config.getoption("mobileagent_screenshots", default=None) or config.getini("mobileagent_screenshots")
    except ValueError:  # the core's options are not registered (a stand-in core)
        return
    runtime = _core_runtime(config)
    if chosen or runtime is None or getattr(runtime.options, "screenshots", "all") == "all":
        return
    import dataclasses

    runtime.options = dataclasses.replace(runtime.options, screenshots="all")


def _pass_k_table(passk: dict[str, Any]) -> list[str]:
    """One line per task: its runs, successes, pass@k and pass^k."""
    tasks = passk.get("tasks") or {}
    if not tasks:
        return []
    k, width = passk["k"], max(len("task"), *map(len, tasks))
    lines = [f"  {'task':<{width}}  runs  passed  {'pass@' + str(k):>7}  {'pass^' + str(k):>7}"]
    for name in sorted(tasks):
        t = tasks[name]
        lines.append(f"  {name:<{width}}  {t['n']:>4}  {t['successes']:>6}  {_fmt(t['pass_at_k']):>7}  "
                     f"{_fmt(t['pass_hat_k']):>7}")
    return lines


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _is_task(metafunc: pytest.Metafunc) -> bool:
    """Task functions carry the core plugin's task marker."""
    return any(metafunc.definition.get_closest_marker(name) for name in TASK_MARKERS)


def _shorten_failure(item: pytest.Item, report: pytest.TestReport, exc: BaseException, redactor: Redactor) -> None:
    """At default verbosity a task fails in a line: the judge's message, or the agent's error (short_errors.py)."""
    if not wants_short_failures(item.config) or not any(item.get_closest_marker(m) for m in TASK_MARKERS):
        return  # ordinary tests are left alone
    episode = item.stash.get(EPISODE_KEY, None)
    usage = missing_fixture(report.longrepr)
    if usage is not None:
        text = usage
    elif episode is None:
        return
    elif episode.agent_error is exc:
        text = short_agent_failure(exc)
    elif episode.last_assertion is exc and isinstance(exc, AssertionError):
        record = episode.record
        how = f"not done after {record.steps_taken} of {episode.max_steps} steps, stop: {record.stop_reason}"
        note = episode.answer_note()  # a query task: the answer given beside the expected one
        if note is not None:
            how += f"; {note}"
        text = short_judge_failure(exc, _crash_location(item, report), how, episode.hints)
    else:
        return
    report.longrepr = redactor.text(text) if redactor else text
    setattr(report, SHORTENED_ATTR, True)


def _crash_location(item: pytest.Item, report: pytest.TestReport) -> str:
    """``path:line`` of the failing assert, the path relative to the rootdir where it lies below it."""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is None:
        return item.nodeid
    path = Path(crash.path)
    if path.is_relative_to(item.config.rootpath):
        path = path.relative_to(item.config.rootpath)
    return f"{path}:{crash.lineno}"


def _redact_report(report: pytest.TestReport, redactor: Redactor) -> None:
    report.sections = [(title, redactor.text(body)) for title, body in report.sections]
    longrepr = report.longrepr
    if longrepr is None:
        return
    text = str(longrepr)
    if redactor.contains_secret(text):
        # The structured traceback cannot be edited in place; its redacted text is what remains.
        report.longrepr = redactor.text(text)


def _summary_html(table: str, plots: dict[str, bytes]) -> str:
    import base64

    images = "".join(
        f'<figure><img alt="{html.escape(name)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'
        f"<figcaption>{html.escape(name)}</figcaption></figure>"
        for name, png in plots.items()
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>mobileagent benchmark summary</title>"
        "<style>body{font-family:sans-serif} pre{font-size:12px} figure{display:inline-block;margin:8px}</style>"
        f"</head><body><h2>Benchmark summary</h2><pre>{html.escape(table)}</pre>{images}</body></html>"
    )

"""pytest-mobileagent's pytest hooks: options, markers, xdist glue, episode wiring.

A task's episode runs at the end of its setup phase (after its fixtures, with
the test body as the judge), so an infrastructure fault is a setup *error*;
the call phase only reports the verdict, so an agent that did not finish the
task is a *failure*. Ordinary tests are left alone.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Generator

import pytest

from . import hookspecs
from . import options as core_options
from . import llm_judge
from .agents import mobileagent
from .device import options as device_options
from .fixtures import *  # noqa: F401,F403 - fixtures are found through this module's namespace
from .allocation import BROKER_KEY, BROKER_SECRET_KEY, DeviceBroker
from .keys import (  # noqa: F401 - RUNTIME_KEY and the others are importable from here
    CONTROLLER_PID_KEY, DEVICE_ATTR, EPISODE_KEY, LEDGER_KEY, MANIFEST_DIR_KEY, RECORD_ATTR, RUNTIME_KEY)
from .ledger import RunLedger, attach_record
from .memory import freeze_long_lived_objects, return_freed_memory
from .outputs import check_outputs
from .reporting import options as reporting_options
from .tasks import MARKER, TaskSpec, task_spec
from .tempdirs import remove_stale
from .worker_exit import register_worker_exit

if TYPE_CHECKING:
    from .episode import Episode


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    core_options.add_options(parser)
    device_options.add_options(parser)
    mobileagent.add_options(parser)
    llm_judge.add_options(parser)
    reporting_options.add_options(parser)


@pytest.hookimpl(tryfirst=True, specname="pytest_configure")
def pytest_configure_check_outputs(config: pytest.Config) -> None:
    # First: allure-pytest creates --alluredir in its own pytest_configure.
    if not hasattr(config, "workerinput"):
        check_outputs(config)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(spec): a benchmark task (set by @pytest_mobileagent.task; the body is the judge)",
    )
    # The run's machinery is imported here, not at the top, so that importing this module (as
    # pytest does for every plugin at its start, and for `pytest --version`) loads the hooks,
    # options and fixtures only: the runtime brings the device side (pools, emulators, the event
    # server, the setup checks), the reporting plugin the report writers (allure-commons, pickle,
    # orjson, the plots). Measured with `python -X importtime -c "import pytest_mobileagent.plugin"`:
    # about 25 ms this way, about 65 ms with these three at the top.
    from .device.provision import SnapshotResetSummary, check_before_run
    from .reporting.plugin import ReportingPlugin
    from .runtime import Runtime

    config.addinivalue_line(
        "markers", "suite(name): the suite a task belongs to: 'mab' (the paper's 100) or 'extended'")
    options = core_options.MobileAgentOptions.from_config(config)
    llm_judge.judge_for(config)  # a bad --llm-judge-* value is a usage error before anything runs
    runtime = config.stash[RUNTIME_KEY] = Runtime(config, options)
    config.stash[LEDGER_KEY] = RunLedger(config, options)
    if not hasattr(config, "workerinput") and not (config.option.help or config.option.collectonly):
        check_before_run(runtime.device_options)  # no SDK, no such AVD, unreachable adb servers
        if runtime.device_options.reset == "snapshot":
            config.pluginmanager.register(SnapshotResetSummary(), "mobileagent-snapshot-resets")
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(XdistGlue(options, config.stash[LEDGER_KEY]), "mobileagent-xdist")
    if config.pluginmanager.hasplugin("xdist"):  # a worker whose device is gone leaves the run
        register_worker_exit(config, runtime)
    if options.watch:  # the live view: a server on the controller, a publisher where tasks run
        # Imported here, not above: the live view's HTTP server and client (http.server,
        # urllib.request) cost about 10 ms that a run without --mobileagent-watch need not pay.
        from .studio.watch import register_watch

        register_watch(config)
    config.pluginmanager.register(ReportingPlugin(config), "mobileagent-reporting")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    runtime = config.stash.get(RUNTIME_KEY, None)
    if runtime is not None and not hasattr(config, "workerinput") and not config.option.collectonly:
        remove_stale()  # what runs killed with SIGKILL left behind
        runtime.claim_requested_devices()


def pytest_itemcollected(item: pytest.Item) -> None:
    # The first task collected: this process will want its device, so a virtual phone starts
    # booting now, while pytest collects the rest (runtime.start_device_early). Not for runs
    # that collect without running: they would boot a phone for nothing.
    config = item.config
    runtime = config.stash.get(RUNTIME_KEY, None)
    if runtime is None or task_spec(item) is None:
        return
    if not any(getattr(config.option, name, False)
               for name in ("collectonly", "setupplan", "showfixtures", "show_fixtures_per_test")):
        runtime.start_device_early()


def pytest_collection_finish(session: pytest.Session) -> None:
    ledger = session.config.stash.get(LEDGER_KEY, None)
    if ledger is not None:
        ledger.note_collection(session)
    # The readiness check looks for the apps of the tasks selected, not of all tasks.
    runtime = session.config.stash.get(RUNTIME_KEY, None)
    if runtime is not None:
        freeze_long_lived_objects()  # the session's modules, plugins and items
        runtime.note_tasks([spec for spec in map(task_spec, session.items) if spec])


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    # An artifact that could not be written is said once, in the run's summary.
    runtime = session.config.stash.get(RUNTIME_KEY, None)
    reporting = session.config.pluginmanager.get_plugin("mobileagent-reporting")
    if runtime is not None and runtime.artifact_failure and reporting is not None:
        reporting.problem(runtime.artifact_failure)


def pytest_unconfigure(config: pytest.Config) -> None:
    runtime = config.stash.get(RUNTIME_KEY, None)
    if runtime is not None:
        runtime.close()
    ledger = config.stash.get(LEDGER_KEY, None)
    if ledger is not None:
        ledger.close()


def pytest_report_header(config: pytest.Config) -> str | None:
    runtime = config.stash.get(RUNTIME_KEY, None)
    if runtime is None:
        return None
    o = runtime.options
    devices = ", ".join(o.devices) or "auto"
    return (
        f"mobileagent: agent={o.agent} seed={o.agent_seed} max-steps-factor={o.max_steps_factor:g} "
        f"agent-timeout={f'{o.agent_timeout:g}s' if o.agent_timeout else 'none'} "
        f"stop-on-success={'yes' if o.stop_on_success else 'no'} devices={devices}"
        + (" mab-listener=yes (adb reverse tcp:8888 per worker)" if o.mab_listener else "")
    )


def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> None:
    # A malformed task is a collection error naming the task, before anything runs.
    marks = getattr(obj, "pytestmark", None)
    if not marks or not collector.funcnamefilter(name):
        return None
    for mark in marks:
        if mark.name == MARKER and mark.args and isinstance(mark.args[0], TaskSpec) and mark.args[0].problems:
            spec = mark.args[0]
            raise collector.CollectError(f"task {spec.name}: " + "; ".join(spec.problems))
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    result = yield
    episode = item.stash.get(EPISODE_KEY, None)
    if episode is not None:
        runtime = item.config.stash[RUNTIME_KEY]
        episode.run(_judge_body(item), artifacts=runtime.artifacts_dir(item.nodeid))
    return result


def _judge_body(item: pytest.Item) -> Any:
    function = item.obj  # type: ignore[attr-defined]
    names = item._fixtureinfo.argnames  # type: ignore[attr-defined]
    funcargs = item.funcargs  # type: ignore[attr-defined]

    def body() -> Any:
        return function(**{name: funcargs[name] for name in names})

    return body


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    episode = pyfuncitem.stash.get(EPISODE_KEY, None)
    if episode is None:
        return None
    episode.verdict()
    return True


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    report = yield
    runtime = item.config.stash.get(RUNTIME_KEY, None)
    if runtime is not None:
        episode: "Episode | None" = item.stash.get(EPISODE_KEY, None)
        attach_record(item, report, episode, runtime.options)
        ledger = item.config.stash.get(LEDGER_KEY, None)
        if report.skipped and ledger is not None and not hasattr(item.config, "workerinput"):
            ledger.note_skip(report)  # the sole process; under xdist the controller hears of it (XdistGlue)
        if report.when == "teardown" and episode is not None:
            # Its record has left with its report: free the screens, events and screenshots.
            del item.stash[EPISODE_KEY]
            return_freed_memory()
    return report


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if hasattr(report, RECORD_ATTR) and os.environ.get("PYTEST_XDIST_WORKER"):
        # On a worker the record has left for the controller with the report (xdist
        # sent it before this trylast hook): the worker keeps no copy.
        delattr(report, RECORD_ATTR)


class XdistGlue:
    """Gives each xdist worker a device (registered on the controller, only with xdist).

    The check of ``--device`` against the number of workers happens before any
    worker starts; the devices themselves are allocated by a
    :class:`~pytest_mobileagent.allocation.DeviceBroker` when a worker first needs one.
    """

    def __init__(self, options: core_options.MobileAgentOptions, ledger: RunLedger):
        self.options = options
        self.ledger = ledger
        self.broker: DeviceBroker | None = None

    def pytest_xdist_setupnodes(self, config: pytest.Config, specs: list[Any]) -> None:
        serials = self.options.devices
        if serials and len(serials) < len(specs):
            raise pytest.UsageError(
                f"{len(specs)} xdist workers but only {len(serials)} device(s) given with --device "
                f"({', '.join(serials)}): give one device per worker, or run -n {len(serials)}"
            )
        runtime = config.stash[RUNTIME_KEY]
        self.broker = DeviceBroker(serials, workers=len(specs), pool_factory=lambda: runtime.pool,
                                   up_front_pool=runtime.up_front_pool)
        self.address = self.broker.start()

    def pytest_configure_node(self, node: Any) -> None:
        if self.broker is not None:
            node.workerinput[BROKER_KEY] = self.address
            node.workerinput[BROKER_SECRET_KEY] = self.broker.secret
        node.workerinput[MANIFEST_DIR_KEY] = self.ledger.make_directory()
        node.workerinput[CONTROLLER_PID_KEY] = os.getpid()  # the worker dies with it (runtime.py)

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        # Before xdist starts a replacement for a crashed worker: the replacement
        # gets the device back (the next task resets the app anyway).
        worker = node.gateway.id
        self.ledger.note_node_down(worker, error)
        if self.broker is not None:
            self.broker.release(worker)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.ledger.note_report(report)  # a crashed worker's test gets its record from this

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.broker is not None:
            self.broker.close()
            self.broker = None

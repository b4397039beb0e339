"""Per-process resources of a run: the device, the event server, the agent.

One :class:`Runtime` lives on ``config.stash`` in every process (the xdist
controller and each worker). Nothing is started until a test needs it, so
running the plugin's own tests boots no device.
"""

from __future__ import annotations

import functools
import os
import re
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pytest

from .agents.base import AgentContext
from .allocation import BROKER_KEY, BROKER_SECRET_KEY, REQUEST_TIMEOUT, request_device
from .agents.builtin import register_builtins
from .agents.registry import AgentRegistry, UnknownAgentError
from .device.baseline import DeviceBaseline
from .device.options import DeviceOptions
from .device.provision import SnapshotReset, open_pool
from .device.remote import connect_ref
from .errors import InfrastructureError, MobileAgentError
from .events.server import EventServer, private_socket_path
# The keys live in keys.py; importable from here as before.
from .listener import SOCKET_NAME as LISTENER_SOCKET
from .keys import CONTROLLER_PID_KEY, DEVICE_ATTR, EPISODE_KEY, LEDGER_KEY, RECORD_ATTR, RUNTIME_KEY  # noqa: F401
from .options import MobileAgentOptions
from .setup.readiness import DeviceNotReadyError, check_ready, check_task_ready

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from .device import Device

__all__ = ["DEVICE_ATTR", "EPISODE_KEY", "EVENT_PORT_ON_DEVICE", "LEDGER_KEY", "RECORD_ATTR", "RUNTIME_KEY",
           "Runtime", "build_registry"]

# The port the listener app (and the virtual phone) connects to on the device.
EVENT_PORT_ON_DEVICE = "tcp:8888"


def die_with_controller(controller_pid: int) -> None:
    """Make this xdist worker die the moment its controller does (Linux).

    A worker whose controller was killed (SIGKILL: no shutdown reaches it)
    would go on acting on its device, which a new run may already have
    claimed; ``PR_SET_PDEATHSIG`` has the kernel kill it with its parent.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (linux/prctl.h)
    except (OSError, AttributeError):
        return
    if os.getppid() != controller_pid:  # it died before the call above: nobody will signal us
        os._exit(1)


def build_registry(config: pytest.Config | None) -> AgentRegistry:
    """Built-ins, then the ``pytest_mobileagent_register_agents`` hook, then entry points."""
    registry = AgentRegistry()
    register_builtins(registry)
    if config is not None:
        config.hook.pytest_mobileagent_register_agents(registry=registry)
    registry.load_entry_points()
    return registry


class Runtime:
    """Lazily started resources of this process; closed at ``pytest_unconfigure``."""

    def __init__(self, config: pytest.Config, options: MobileAgentOptions):
        self.config = config
        self.options = options
        workerinput = getattr(config, "workerinput", None)
        if workerinput is not None and workerinput.get(CONTROLLER_PID_KEY):
            die_with_controller(int(workerinput[CONTROLLER_PID_KEY]))
        self.registry = build_registry(config)
        if options.agent not in self.registry:
            raise pytest.UsageError(str(UnknownAgentError(options.agent, self.registry.names())))
        self._check_agent_config()
        self.device_options = DeviceOptions.from_config(config)
        self._snapshot_reset: Any = None
        self._agent: Any = None
        self._device: "Device | None" = None
        self._events: "EventServer | None" = None
        self._event_host_spec: str | None = None  # the reverse's host end, with --mab-listener only
        self._pool: Any = None
        self._up_front: list[str] = []  # the device taken before the first task (claim_requested_devices)
        self._early_device: Any = None  # the pool's allocate_soon future (start_device_early)
        self._background: Any = None
        self._artifacts: Path | None = None
        self.default_artifacts: Path | None = None  # set from tmp_path_factory by the fixture
        # Saves a step's screenshot and returns its path; None: into the task's
        # artifacts directory. With --alluredir the reporting plugin sets one
        # that saves it once, as the Allure attachment.
        self.screenshot_saver: Callable[[bytes], str] | None = None
        # Applied to every text the core saves (hierarchies): the reporting plugin
        # sets its secret redactor here.
        self.redact: Callable[[str], str] = lambda text: text
        self.device_error: BaseException | None = None
        #: the first artifact write that failed (path and OS error), reported once at the end
        self.artifact_failure: str | None = None
        #: packages of the selected tasks, checked on the device before its first task
        self.needed_packages: tuple[str, ...] = ()
        #: shared-storage folders the selected tasks own (``@task(storage=...)``), emptied for the run
        self.needed_storage: tuple[str, ...] = ()
        self._baseline: Any = None
        self.readiness_seconds: float | None = None
        self.installed_packages: set[str] = set()  # on this process's device, read by the readiness check

    # -- agent ----------------------------------------------------------------
    def _context(self) -> AgentContext:
        return AgentContext(name=self.options.agent, seed=self.options.agent_seed, config=self.config)

    def _check_agent_config(self) -> None:
        """Let the chosen agent's factory reject its settings now, as a usage error.

        A factory may define ``check_config(context)``; it runs in every process
        (the xdist controller too) so a missing endpoint or key stops the run
        before any device is booted, instead of erroring every task.
        """
        check = getattr(self.registry.factory(self.options.agent), "check_config", None)
        if callable(check):
            try:
                check(self._context())
            except MobileAgentError as exc:
                raise pytest.UsageError(f"--agent {self.options.agent}: {exc}") from None

    @property
    def agent(self) -> Any:
        if self._agent is None:
            self._agent = self.registry.create(self.options.agent, self._context())
        return self._agent

    # -- device ---------------------------------------------------------------
    @property
    def pool(self) -> Any:
        """The device source (a :class:`~pytest_mobileagent.device.DevicePool` or one of
        :func:`~pytest_mobileagent.device.provision.open_pool`'s) of the process that
        allocates (the xdist controller, or the sole process); created on first use."""
        if self._pool is None:
            # Emulators started for the run (--avd), other adb servers' devices
            # (--adb-server), or the local server's (a DevicePool).
            self._pool = open_pool(self.options.devices, self.device_options,
                                   device_wait=self.options.device_wait)
        return self._pool

    def claim_requested_devices(self) -> None:
        """Check and claim the ``--device`` serials for the run, before any test runs
        (a :class:`~pytest_mobileagent.device.DeviceAllocationError`, a usage error, if
        one is not online or another run holds it). A process that runs the tasks itself
        takes a device of a pool that boots nothing (``--adb-server``) now, likewise;
        under xdist the broker does (allocation.py)."""
        if self.options.devices:
            self.pool.claim_requested()
        elif self.config.pluginmanager.getplugin("dsession") is None:
            pool = self.up_front_pool()
            if pool is not None:
                self._up_front = pool.allocate(1)

    def up_front_pool(self) -> Any:
        """The pool, if it boots nothing (``--adb-server``: other servers' devices, taken
        before the first task), else None. Opens a pool only then: a run of plain tests,
        or one whose devices boot on demand, opens none here."""
        if not self.device_options.adb_servers:
            return None
        pool = self.pool
        return pool if getattr(pool, "allocates_up_front", False) else None

    def start_device_early(self) -> None:
        """Start getting this process's device now, on a thread (plugin.py calls it when the
        first task is collected): a virtual phone then boots while pytest collects the
        rest and sets the task up. Only where this process allocates its own device from
        the local adb server's (a pool with ``allocate_soon``); no-op after the first call."""
        if (self._early_device is not None or self._up_front or self._device is not None
                or self.device_error is not None):
            return
        workerinput = getattr(self.config, "workerinput", None)
        if workerinput is not None and workerinput.get(BROKER_KEY):
            return  # the controller's broker allocates
        try:
            allocate_soon = getattr(self.pool, "allocate_soon", None)
        except Exception:
            return  # a pool that cannot open says so where the device is first needed, as before
        if allocate_soon is not None and not self.options.devices:
            self._early_device = allocate_soon(1)

    def _serial(self) -> str:
        if self._early_device is not None:
            return self._early_device.result()[0]  # its error, if it failed, is raised here as it would have been
        workerinput = getattr(self.config, "workerinput", None)
        if workerinput is not None and workerinput.get(BROKER_KEY):
            # Emulators started for the run boot while the worker waits for its device.
            timeout = max(REQUEST_TIMEOUT, self.device_options.avd_boot_timeout + 120)
            return request_device(workerinput[BROKER_KEY], workerinput.get("workerid", "gw?"),
                                  workerinput.get(BROKER_SECRET_KEY, ""), timeout=timeout)
        # Not under xdist: this process allocates (and boots, if need be) its own device.
        return (self._up_front or self.pool.allocate(1))[0]

    @property
    def device(self) -> "Device":
        """This process's device, connected (and booted) on first use."""
        if self._device is None:
            if self.device_error is not None:
                # One failed allocation would fail every task the same way: say it once, fast.
                raise InfrastructureError(f"no device for this worker: {self.device_error}")
            try:
                # A reference: a serial, or SERIAL@HOST:PORT for another adb server's device.
                self._device = connect_ref(self._serial())
            except Exception as exc:
                self.device_error = exc
                raise
        return self._device

    @property
    def connected_device(self) -> "Device | None":
        """This process's device if it was connected, without connecting it."""
        return self._device

    @property
    def events(self) -> "EventServer":
        """The event server, dialling the device's listener, started on first use.

        The worker opens the listener's socket through the device's own adb
        server (``localabstract:mobileagent-listener``), whichever machine that
        server is on. Only ``--mab-listener`` adds the push direction: a
        reverse of device port 8888 to a socket of this worker's.
        """
        if self._events is None:
            if self.device_error is not None:
                raise InfrastructureError(f"this worker's device cannot be used: {self.device_error}")
            device = self.device
            dial = functools.partial(device.open_stream, f"localabstract:{LISTENER_SOCKET}")
            host_spec = None
            if self.options.mab_listener:
                # Only the device (through the adb server) reaches a Unix socket in a
                # private directory; a loopback port would take events from any local
                # process. A remote adb server cannot reach our sockets: TCP then.
                local_adb = os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1") in ("127.0.0.1", "localhost")
                if local_adb and hasattr(socket, "AF_UNIX"):
                    server = EventServer(unix_path=private_socket_path(), dial=dial, listen=True).start()
                    host_spec = f"localfilesystem:{server.unix_path}"
                else:
                    server = EventServer(dial=dial, listen=True).start()
                    host_spec = f"tcp:{server.port}"
            else:
                server = EventServer(dial=dial).start()
            try:
                if host_spec is not None:
                    device.reverse(EVENT_PORT_ON_DEVICE, host_spec)
                self.readiness_seconds = self._check_ready(server)
            except BaseException:
                server.stop()
                raise
            self._event_host_spec = host_spec
            self._events = server
        return self._events

    def note_tasks(self, specs: "list[Any]") -> None:
        """The selected tasks: their apps (for the readiness check and the reset) and storage."""
        self.needed_packages = tuple(sorted({spec.package for spec in specs}))
        # A malformed task (its storage among its problems) errors alone at its setup.
        self.needed_storage = tuple(sorted({folder for spec in specs if not spec.problems for folder in spec.storage}))

    def reset_device(self, packages: "tuple[str, ...]" = (), storage: "tuple[str, ...]" = ()) -> float | None:
        """The device-wide reset before a task: its seconds with ``--reset snapshot``, else None.

        Without a snapshot, the device goes back to the run's baseline
        (device/baseline.py): shared storage, settings, the recent-apps stack.
        ``packages`` and ``storage`` are the task's own, for a task the
        collection did not announce (a run of one item through the API).
        """
        if self.device_options.reset != "snapshot":
            if self._baseline is None:
                self._baseline = DeviceBaseline(
                    self.device, storage=set(self.needed_storage) | set(storage),
                    packages=set(self.needed_packages) | set(packages))
            self._baseline.restore()
            return None
        if self._snapshot_reset is None:
            self._snapshot_reset = SnapshotReset(self.device)
        seconds = self._snapshot_reset()
        if self._events is not None and self._event_host_spec is not None:
            # The snapshot holds the device's state from before this run's reverse forward.
            # (The listener's stream needs nothing: the server dials it again once the
            # restored listener serves.)
            self._device.reverse(EVENT_PORT_ON_DEVICE, self._event_host_spec)
        return seconds

    def _check_ready(self, server: "EventServer") -> float:
        """The readiness check (setup/readiness.py); a failure is kept so every task says it at once."""
        try:
            seconds, self.installed_packages = check_ready(self.device, server, self.needed_packages)
        except DeviceNotReadyError as exc:
            self.device_error = exc
            raise
        return seconds

    def check_task_ready(self, package: str, task: str) -> None:
        """This task's readiness (its app installed, the listener answering); raises what is wrong."""
        check_task_ready(self.device, self.events, package, self.installed_packages, task)

    @property
    def background(self) -> "ThreadPoolExecutor":
        """One thread for device calls that overlap another (a screenshot during a dump)."""
        if self._background is None:
            from concurrent.futures import ThreadPoolExecutor

            self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mobileagent-device")
        return self._background

    # -- artifacts ------------------------------------------------------------
    def artifacts_dir(self, nodeid: str) -> Path | None:
        """A fresh directory for one task's screenshots and hierarchies (None once writing failed)."""
        if self.artifact_failure is not None:
            return None
        if self._artifacts is None:
            base = self.options.artifacts
            if base is None:
                if self.default_artifacts is None:
                    raise RuntimeError("no artifacts directory: give --mobileagent-artifacts")
                base = self.default_artifacts
            self._artifacts = Path(base)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")[-150:] or "task"
        path = self._artifacts / name
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._write_failed(path, exc)
            return None
        return path

    def save_screenshot(self, path: Path, png: bytes) -> str | None:
        """Save a step's PNG (at ``path`` unless a screenshot saver is set); returns where it
        went, or None when it could not be written (see :meth:`save_text`)."""
        if self.artifact_failure is not None:
            return None
        try:
            if self.screenshot_saver is not None:
                return str(self.screenshot_saver(png))
            path.write_bytes(png)
        except OSError as exc:
            self._write_failed(path, exc)
            return None
        return str(path)

    def save_text(self, path: Path, text: str) -> str | None:
        """Save an artifact's text; its path, or None when it could not be written.

        The first write that fails (a full disk, a read-only directory) is kept
        in :attr:`artifact_failure`, reported once at the end of the run; no
        artifact is written after it. Tasks are judged as before: a screenshot
        that cannot be saved says nothing about the agent.
        """
        if self.artifact_failure is not None:
            return None
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self._write_failed(path, exc)
            return None
        return str(path)

    def _write_failed(self, path: Path, exc: OSError) -> None:
        target = getattr(exc, "filename", None) or path
        reason = f"[Errno {exc.errno}] {exc.strerror}" if exc.errno else str(exc)
        self.artifact_failure = (f"could not write artifacts: {target}: {reason}; "
                                 "no screenshot or hierarchy was saved after it")

    def close(self) -> None:
        if self._background is not None:
            self._background.shutdown(wait=True)
            self._background = None
        if self._events is not None:
            if self._device is not None and self._event_host_spec is not None:
                try:
                    self._device.remove_reverse(EVENT_PORT_ON_DEVICE)
                except Exception:
                    pass  # the device may already be gone; nothing to undo then
            self._events.stop()
            if self._events.unix_path is not None and self._event_host_spec is not None:
                import shutil

                shutil.rmtree(os.path.dirname(self._events.unix_path), ignore_errors=True)
            self._events = None
        if self._device is not None:
            self._device.close()
            self._device = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        close = getattr(self._agent, "close", None)
        if callable(close):
            close()

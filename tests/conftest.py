"""Shared fixtures for the plugin's own tests.

- `adb_server_port` (session): a private adb server (the adbutils wheel's binary)
  on a free port; ANDROID_ADB_SERVER_PORT points at it for the session, and it
  is killed at the end. Under xdist every worker gets its own server.
- `phone` (session): one virtual phone (a `RunningPhone`: .serial, .port,
  .phone) registered with that server. Shared by the session: tests that need
  pristine state use `phone_factory`, or reset the apps they touch.
- `phone_factory`: `phone_factory(count=1, **start_phones_kwargs)` boots extra
  phones, stopped when the test ends.
- `adb_device`: an adbutils `AdbDevice` for `phone`.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]


def pytest_configure(config):
    # Under -n, the tests of one xdist_group run on one worker (the golden paths share a module
    # fixture that runs the whole benchmark three times); every other test is handed out one by
    # one. Set here, not in pyproject's addopts, so that benchmark runs keep xdist's default.
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None and getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"
    elif workerinput is not None and workerinput.get("tests_loadgroup"):
        # A worker derives this from its own parse of the command line, which says `load`:
        # it must tag the grouped tests' ids as the controller's scheduler expects.
        config.option.loadgroup = True

    # Device claims (device/claims.py) of this test session live in a directory of
    # its own: other runs on the machine cannot block our phones, nor we theirs.
    # Set once by the xdist controller (or the sole process); workers inherit it.
    if not hasattr(config, "workerinput") and not os.environ.get("MOBILEAGENT_TESTS_CLAIMS"):
        import tempfile

        from pytest_mobileagent.device.claims import claims_dir

        # Where every other run looks: the phones this session boots are claimed there
        # too (see _claimed_where_every_run_looks), so a benchmark run takes none of them.
        os.environ["MOBILEAGENT_SHARED_CLAIMS"] = str(claims_dir())
        path = tempfile.mkdtemp(prefix="mobileagent-test-claims-")
        os.environ["MOBILEAGENT_TESTS_CLAIMS"] = os.environ["XDG_RUNTIME_DIR"] = path


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    node.workerinput["tests_loadgroup"] = node.config.option.dist == "loadgroup"


#: No test of this suite takes near this long alone; one that does is stuck (a read that never
#: returns), and failing it keeps the rest of the suite running (pytest-timeout). The thread
#: method, not SIGALRM: the agent clock's own tests own the process's interval timer.
TEST_TIMEOUT_S = 900


def pytest_report_header(config):
    if not config.option.markexpr:
        return ("slow group left out (whole-benchmark runs, recorded sessions, the wheel, the benchmark scripts): "
                "`-m slow` runs it, naming a file runs its slow tests; CI runs both")


def _named_files(config) -> set[Path]:
    """The test files named on the command line (a directory names none of its files)."""
    root = config.invocation_params.dir
    paths = (root / arg.split("::")[0] for arg in config.args)
    return {path.resolve() for path in paths if path.is_file()}


def pytest_collection_modifyitems(config, items):
    # The slow group is CI's second command (`-m slow`), so the README's command stays a quick loop;
    # any -m decides for itself, and a file named on the command line runs all its tests.
    if not config.option.markexpr:
        named = _named_files(config)
        slow = [item for item in items
                if item.get_closest_marker("slow") is not None and Path(item.path).resolve() not in named]
        if slow:
            left_out = set(map(id, slow))
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if id(item) not in left_out]
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TEST_TIMEOUT_S, method="thread"))
    # Longest first: the slow groups start while both workers are fresh, and the short tests fill
    # in behind them, so no half-minute test is left alone at the end of the run. A stable sort:
    # each module's tests keep their order and stay together (module fixtures are shared).
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def adb_server_port():
    """Port of a private adb server started for this session (or xdist worker)."""
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    adb = bundled_adb_path()  # the wheel's adb 36, even when Debian's adb is on PATH
    port = _free_port()
    subprocess.run([adb, "-P", str(port), "start-server"], check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    previous = os.environ.get("ANDROID_ADB_SERVER_PORT")
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(port)
    try:
        yield port
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if previous is None:
            os.environ.pop("ANDROID_ADB_SERVER_PORT", None)
        else:
            os.environ["ANDROID_ADB_SERVER_PORT"] = previous


@pytest.fixture(scope="module")
def empty_adb_server():
    """Port of a private adb server with nothing attached, so a run boots its own phone.

    On a shared machine emulators (the --avd stand-ins of other test sessions, phones
    served with --emulator-ports) listen on emulator ports (5555-5585), and any adb
    server would list them as attached devices; with ADB_EMU=0 this one lists only the
    phones the run itself boots (and connects explicitly), as on a machine with nothing
    attached.
    """
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    adb = bundled_adb_path()
    port = _free_port()
    subprocess.run([adb, "-P", str(port), "start-server"], check=True, timeout=60,
                   env={**os.environ, "ADB_EMU": "0"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield port
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@contextlib.contextmanager
def _claimed_where_every_run_looks(count: int, **kwargs):
    """start_phones(), with each phone claimed in the claims directory other runs use.

    The session's own runs (pytester subprocesses) claim in the session's
    directory, so they can use the phones; any other run on the machine sees
    them as busy, from their boot on (under that directory's allocation lock).
    """
    from pathlib import Path

    from pytest_mobileagent.device.claims import DeviceClaim, allocation_lock
    from pytest_mobileagent.virtual_phone import start_phones

    shared = os.environ.get("MOBILEAGENT_SHARED_CLAIMS")
    directory = Path(shared) if shared else None
    with contextlib.ExitStack() as stack:
        if directory is not None:
            with allocation_lock(directory):
                phones = stack.enter_context(start_phones(count, **kwargs))
                for running in phones:
                    claim = DeviceClaim.try_claim(running.serial, directory)
                    if claim is not None:
                        stack.callback(claim.release)
        else:
            phones = stack.enter_context(start_phones(count, **kwargs))
        yield phones


@pytest.fixture(scope="session")
def phone(adb_server_port):
    """A virtual phone served for the whole session, listed by the adb server."""
    with _claimed_where_every_run_looks(1, adb_server_port=adb_server_port) as phones:
        yield phones[0]


@pytest.fixture
def phone_factory(adb_server_port):
    """Start extra phones: `phone_factory(count=1, **kwargs) -> list[RunningPhone]`."""
    with contextlib.ExitStack() as stack:
        def start(count: int = 1, **kwargs):
            kwargs.setdefault("adb_server_port", adb_server_port)
            return stack.enter_context(_claimed_where_every_run_looks(count, **kwargs))

        yield start


@pytest.fixture
def adb_device(phone, adb_server_port):
    """adbutils AdbDevice for the session `phone`."""
    import adbutils

    return adbutils.AdbClient(port=adb_server_port).device(phone.serial)

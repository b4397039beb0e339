"""The fixtures of pytest-mobileagent (re-imported by the plugin).

``device`` and ``agent`` are per worker; ``screen``, ``events``, ``progress``
and ``answer`` are the live judging objects of the current task and exist only
inside a task (a test marked with ``@task``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

import pytest

from .keys import EPISODE_KEY, RUNTIME_KEY
from .ledger import repeat_index
from .llm_judge import judge_for
from .metrics import StopReason
from .tasks import task_spec

if TYPE_CHECKING:
    from .device import Device
    from .episode import Episode
    from .judge import Answer, Events, Progress, Screen
    from .runtime import Runtime

__all__ = [
    "_mobileagent_episode",
    "_mobileagent_runtime",
    "agent",
    "answer",
    "device",
    "events",
    "progress",
    "screen",
]


@pytest.fixture(scope="session")
def _mobileagent_runtime(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> "Runtime":
    """This process's :class:`~pytest_mobileagent.runtime.Runtime` (nothing started yet)."""
    runtime = pytestconfig.stash[RUNTIME_KEY]
    if runtime.default_artifacts is None:
        runtime.default_artifacts = tmp_path_factory.getbasetemp() / "mobileagent"
    return runtime


@pytest.fixture(scope="session")
def device(_mobileagent_runtime: "Runtime") -> "Device":
    """The device allocated to this worker (connected, or booted, on first use)."""
    return _mobileagent_runtime.device


@pytest.fixture(scope="session")
def agent(_mobileagent_runtime: "Runtime") -> Any:
    """The agent chosen with ``--agent`` (one instance per worker)."""
    return _mobileagent_runtime.agent


@pytest.fixture(autouse=True)
def _mobileagent_episode(request: pytest.FixtureRequest) -> Iterator["Episode | None"]:
    """For a task: create its episode and reset the app before the task's own fixtures.

    Autouse fixtures are set up before the fixtures a test requests, so seed
    fixtures (which drive the UI or push files) run on a freshly cleared app.
    """
    spec = task_spec(request.node)
    if spec is None:
        yield None
        return
    # Imported here, not above: the episode and what only it uses (the clocks, the screenshot
    # comparison with Pillow: about 15 ms) load with a run's first task, not with every pytest run.
    from .episode import Episode

    spec.check()
    if spec.llm_judge and judge_for(request.config) is None:
        pytest.skip(f"task {spec.name} needs the LLM judge: give --llm-judge-url URL (and --llm-judge-model NAME)")
    runtime: "Runtime" = request.getfixturevalue("_mobileagent_runtime")
    episode = Episode(spec, request.node.nodeid, runtime, repeat_index(request.node))
    request.node.stash[EPISODE_KEY] = episode
    try:
        episode.reset()
    except Exception as exc:
        # Keep a record: a task that could not even start is still a result (an error).
        episode.record.stop_reason = StopReason.INFRA_ERROR
        episode.record.error = f"{type(exc).__name__}: {exc}"
        raise
    yield episode


def _episode(request: pytest.FixtureRequest, what: str) -> "Episode":
    episode = request.node.stash.get(EPISODE_KEY, None)
    if episode is None:
        raise pytest.UsageError(
            f"the {what!r} fixture exists only in a task (a test function decorated with @task)"
        )
    return episode


@pytest.fixture
def screen(request: pytest.FixtureRequest) -> "Screen":
    """The live screen of the task's device (the view hierarchy after the last action)."""
    return _episode(request, "screen").screen


@pytest.fixture
def events(request: pytest.FixtureRequest) -> "Events":
    """The app events of the current episode."""
    return _episode(request, "events").events


@pytest.fixture
def progress(request: pytest.FixtureRequest) -> "Progress":
    """The milestones of the current episode (``progress.reach(name, condition)``)."""
    return _episode(request, "progress").progress


@pytest.fixture
def answer(request: pytest.FixtureRequest) -> "Answer":
    """The agent's final answer (query tasks)."""
    return _episode(request, "answer").answer

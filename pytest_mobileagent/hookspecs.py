"""Hook specifications of pytest-mobileagent.

Implement them in a ``conftest.py`` or a plugin; they are added to pytest's
hook relay in ``pytest_addhooks``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .agents.registry import AgentRegistry
    from .device import Device
    from .judge import Progress
    from .metrics import StepRecord, TaskRecord
    from .tasks import TaskSpec


@pytest.hookspec(historic=False)
def pytest_mobileagent_register_agents(registry: "AgentRegistry") -> None:
    """Called once per process, when the agent registry is built, to add agents.

    ``registry.register(name, factory)`` where ``factory(context)`` returns a
    step agent (``step(observation) -> Action``) or a driver agent
    (``run(prompt, session)``); ``context`` is an
    :class:`~pytest_mobileagent.agents.AgentContext`.

    :param registry: the :class:`~pytest_mobileagent.agents.AgentRegistry`;
        the built-ins (``replay``, ``noop``, ``random``) are already in it.
    """


@pytest.hookspec
def pytest_mobileagent_task_record(record: "TaskRecord", item: pytest.Item) -> None:
    """Called on the process that ran a task, when its record is complete.

    Runs before the record is attached to the test report
    (``report.mobileagent_record``), so an implementation may add to it
    (``record.model = ...``). Raising here is a plugin bug, not a task result.

    :param record: the :class:`~pytest_mobileagent.metrics.TaskRecord`.
    :param item: the task's test item.
    """


@pytest.hookspec
def pytest_mobileagent_step(
    task: "TaskSpec", record: "TaskRecord", step: "StepRecord | None", progress: "Progress", device: "Device"
) -> None:
    """Called on the process that runs a task, each time the harness has observed and judged.

    Once for the first screen, before the agent acts (``step`` is None), then
    after every recorded action. The live view of ``--mobileagent-watch``
    implements it; it runs inside the step's harness time, so an
    implementation should be quick (hand slow work to a thread).

    :param task: the task's :class:`~pytest_mobileagent.tasks.TaskSpec`.
    :param record: the task's :class:`~pytest_mobileagent.metrics.TaskRecord` so far.
    :param step: the :class:`~pytest_mobileagent.metrics.StepRecord` just recorded, or None.
    :param progress: the judge's :class:`~pytest_mobileagent.judge.Progress` (milestones).
    :param device: the task's :class:`~pytest_mobileagent.device.Device`.
    """

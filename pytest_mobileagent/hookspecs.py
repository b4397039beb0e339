"""Hook specifications of pytest-mobileagent.

Implement them in a ``conftest.py`` or a plugin; they are added to pytest's
hook relay in ``pytest_addhooks``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .agents.registry import AgentRegistry
    from .metrics import TaskRecord


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

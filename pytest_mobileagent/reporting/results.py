"""The JSON results file (``--results-json``): every task record plus the aggregates.

Schema (``version`` 1)::

    {"version": 1, "plugin_version": "0.1.0",
     "agent": "replay" | ["a", "b"] | null, "model": str | [..] | null,
     "devices": ["emulator-5554", ...],
     "started": ISO-8601 UTC, "finished": ISO-8601 UTC,
     "tasks": [TaskRecord.to_dict(), ...],          # sorted by nodeid
     "aggregate": Aggregate.to_dict(),              # all tasks
     "by_app": {app: Aggregate.to_dict()}, "by_difficulty": {...},
     "sr_interval": [low, high] | null,             # 95% Wilson interval of SR
     "pass_at_k": {"k", "mean_pass_at_k", "mean_pass_hat_k", "flaky", "tasks": {...}},
     "baseline": Comparison.to_dict() | null,
     "gates": {"fail_under": .., "fail_on_regression": .., "failed": [reasons]},
     "run": {"interrupted": bool, "stopped_early": reason | null, "exit_status": int,
             "tasks_collected": int, "tasks_run": int, "tasks_not_run": [nodeid, ...],
             "tasks_skipped": [nodeid, ...], "workers_crashed": ["gw0", ...]} | null}

Every string in it has been through the secret redactor.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..metrics import TaskRecord, aggregate, aggregate_by
from ..version import __version__
from .passk import pass_k_report
from .redact import Redactor

__all__ = ["build_results", "one_or_many", "write_results"]

DIFFICULTY_ORDER = ("easy", "medium", "hard")


def one_or_many(values: Iterable[Any]) -> Any:
    """None for no value, the value when all agree, else the sorted distinct values."""
    distinct = sorted({v for v in values if v not in (None, "")}, key=str)
    if not distinct:
        return None
    return distinct[0] if len(distinct) == 1 else distinct


def by_difficulty(records: list[TaskRecord]) -> dict[str, Any]:
    """Per-difficulty aggregates, easy -> medium -> hard first."""
    groups = aggregate_by(records, "difficulty")
    ordered = [d for d in DIFFICULTY_ORDER if d in groups] + [d for d in groups if d not in DIFFICULTY_ORDER]
    return {d: groups[d] for d in ordered}


Pairs = Iterable[tuple[dict[str, Any], TaskRecord]]


class TaskList:
    """The results document's ``tasks`` when the records are read back only as the
    file is written (a long run's records do not fit in memory all at once)."""

    def __init__(self, records: Callable[[], Pairs], redactor: Redactor):
        self._records = records
        self._redactor = redactor

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for raw, record in self._records():
            yield _finite(self._redactor.data(_task_dict(raw, record)))


def _task_dict(raw: dict[str, Any], record: TaskRecord) -> dict[str, Any]:
    # Keep keys a newer core may add, but normalise the known ones (and
    # recompute "derived") from the TaskRecord, as the aggregates are.
    return {**raw, **record.to_dict()}


def build_results(
    records: list[tuple[dict[str, Any], TaskRecord]] | Callable[[], Pairs],
    *,
    figures: list[TaskRecord] | None = None,
    started: str,
    finished: str,
    agent: Any = None,
    model: Any = None,
    redactor: Redactor,
    baseline: dict[str, Any] | None = None,
    gates: dict[str, Any] | None = None,
    run: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The results document for ``records`` (pairs of the raw dict and its TaskRecord).

    ``records`` may also be a function that returns the pairs anew each time
    (read back from disk): the document's ``tasks`` is then a :class:`TaskList`
    that :func:`write_results` writes one record at a time, and ``figures``
    gives the records (slim copies will do) the aggregates are computed from.
    """
    task_dicts: Any
    if callable(records):
        tasks = list(figures or [])
        task_dicts = TaskList(records, redactor)
    else:
        tasks = [r for _, r in records]
        task_dicts = [_task_dict(raw, record) for raw, record in records]
    overall = aggregate(tasks)
    document = {
        "version": 1,
        "plugin_version": __version__,
        "agent": one_or_many([r.agent for r in tasks]) or agent,
        "model": one_or_many([r.model for r in tasks]) or model,
        "devices": sorted({r.device for r in tasks if r.device}),
        "started": started,
        "finished": finished,
        "tasks": task_dicts,
        "aggregate": overall.to_dict(),
        "by_app": {k: v.to_dict() for k, v in aggregate_by(tasks, "app").items()},
        "by_difficulty": {k: v.to_dict() for k, v in by_difficulty(tasks).items()},
        "sr_interval": list(overall.sr_interval) if overall.sr_interval else None,
        "pass_at_k": pass_k_report(tasks),
        "baseline": baseline,
        "gates": gates,
        "run": run,
    }
    return _finite(redactor.data(document))


def _finite(value: Any) -> Any:
    """NaN and infinities (not JSON) become None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _umask() -> int:
    """The process's umask (read by setting it, as the os module offers no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_results(path: Path, document: dict[str, Any]) -> None:
    """Write atomically, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp creates the file 0600; the results file gets what open() would give it.
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            _dump(document, handle)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


#: Stands for a TaskList while the rest of the document is encoded (never a value of its own).
_TASKS_MARK = "\x00mobileagent-tasks\x00"


def _dump(document: dict[str, Any], handle: Any) -> None:
    """``json.dump(document, indent=2)``, byte for byte, but a :class:`TaskList`
    is encoded one record at a time."""
    options = {"indent": 2, "ensure_ascii": False, "allow_nan": False}
    tasks = document.get("tasks")
    if not isinstance(tasks, TaskList):
        json.dump(document, handle, **options)
        return
    text = json.dumps({**document, "tasks": _TASKS_MARK}, **options)
    head, _, tail = text.partition(json.dumps(_TASKS_MARK, **options))
    handle.write(head)
    # The list sits at depth 1 of the document: json.dump puts its items at
    # depth 2 (four spaces), each line of an item indented as deep again.
    separator = "["
    for task in tasks:
        handle.write(separator + "\n    " + json.dumps(task, **options).replace("\n", "\n    "))
        separator = ","
    handle.write("[]" if separator == "[" else "\n  ]")
    handle.write(tail)

"""The controller's task records: whole on disk, only their figures in memory.

A long run (``--repeat-tasks 20`` over the 100 tasks is 2,000 records) must
not grow the controller by a whole record per episode: a record carries its
steps' actions, LLM texts and the app's event log, tens of KB each. The
store writes each record as it arrives to an anonymous temporary file (the
system deletes it with the process, even after a SIGKILL) and keeps in memory
a slim copy: the record's fields without its event log and prompt, its error
cut to the first line, and per step (and for the final turn) only the figures
the aggregates read.
Everything computed from records (the summary, pass@k, the baseline, the
gates, the Allure overview) reads the slim copies and comes out the same as
from whole records; the results file's task list reads the records back from
disk one at a time (:meth:`RecordStore.whole`).
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
import tempfile
from typing import Any, Iterator, NamedTuple

from ..metrics import TaskRecord

__all__ = ["RecordStore", "StepFigures", "slim_record"]


class StepFigures(NamedTuple):
    """What the aggregates read of a step (in place of a whole StepRecord)."""

    agent_seconds: float
    harness_seconds: float
    tokens: int
    screen_changed: bool
    screen_change_source: str


def _interned(value: Any) -> Any:
    # Records arrive from xdist as new objects: the same app, task or agent
    # name is one string in memory, not one per record.
    return sys.intern(value) if isinstance(value, str) else value


def slim_record(record: TaskRecord) -> TaskRecord:
    """A copy of ``record`` for the figures: its derived values and aggregates are the
    record's own, but it has no event log, prompt or step details."""
    lines = (record.error or "").strip().splitlines()
    steps = [StepFigures(step.agent_seconds, step.harness_seconds, step.tokens, step.screen_changed,
                         _interned(step.screen_change_source)) for step in record.steps]
    changes: dict[str, Any] = {f.name: _interned(getattr(record, f.name)) for f in dataclasses.fields(TaskRecord)
                               if isinstance(getattr(record, f.name), str)}
    changes.update(
        prompt="", error=lines[0] if lines else None, event_log=[], steps=steps,
        milestones=[_interned(m) for m in record.milestones],
        milestones_reached=[_interned(m) for m in record.milestones_reached],
        final_hierarchy=None, initial_screenshot=None,
    )
    if record.final_turn is not None:  # its figures count; its LLM texts are details
        changes["final_turn"] = dataclasses.replace(record.final_turn, llm_input=None, llm_output=None,
                                                    kind=_interned(record.final_turn.kind))
    return dataclasses.replace(record, **changes)


class RecordStore:
    """Task records by nodeid (the last one given for a nodeid wins)."""

    def __init__(self) -> None:
        self._file: Any = None  # the spool, opened with the first record
        self._where: dict[str, tuple[int, int]] = {}  # nodeid -> (offset, size) of its pickle in the spool
        self._held: dict[str, dict[str, Any]] = {}  # records the spool could not take (kept whole in memory)
        self._slim: dict[str, TaskRecord] = {}
        #: Android versions the records name (the Allure environment lists them).
        self.android_versions: set[str] = set()

    def add(self, nodeid: str, data: dict[str, Any]) -> TaskRecord:
        """Keep the record ``data`` (a ``TaskRecord.to_dict()``) of test ``nodeid``;
        returns its slim copy. Raises what ``TaskRecord.from_dict`` raises for an
        unreadable record, and keeps nothing of it then.
        """
        record = TaskRecord.from_dict(data)
        self._spool(nodeid, data)
        self._slim[nodeid] = slim = slim_record(record)
        if data.get("android_version"):
            self.android_versions.add(str(data["android_version"]))
        return slim

    def _spool(self, nodeid: str, data: dict[str, Any]) -> None:
        self._where.pop(nodeid, None)
        self._held.pop(nodeid, None)
        try:
            blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="mobileagent-records-")
            offset = self._file.seek(0, 2)
            self._file.write(blob)
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            # A full temporary directory or a value pickle cannot take: this one stays in memory.
            self._held[nodeid] = data
            return
        self._where[nodeid] = (offset, len(blob))

    def __contains__(self, nodeid: object) -> bool:
        return nodeid in self._slim

    def __len__(self) -> int:
        return len(self._slim)

    def __bool__(self) -> bool:
        return bool(self._slim)

    def nodeids(self) -> list[str]:
        return sorted(self._slim)

    def get(self, nodeid: str) -> TaskRecord | None:
        """The slim copy of a nodeid's record."""
        return self._slim.get(nodeid)

    def records(self) -> list[TaskRecord]:
        """Slim copies of every record, by nodeid."""
        return [self._slim[nodeid] for nodeid in sorted(self._slim)]

    def whole(self) -> Iterator[tuple[dict[str, Any], TaskRecord]]:
        """Every record as given and as a TaskRecord, by nodeid, read back one at a time."""
        if self._file is not None:
            self._file.flush()
        for nodeid in sorted(self._slim):
            data = self._held.get(nodeid)
            if data is None:
                offset, size = self._where[nodeid]
                self._file.seek(offset)
                data = pickle.loads(self._file.read(size))
            yield data, TaskRecord.from_dict(data)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

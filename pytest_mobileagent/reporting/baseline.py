"""Comparison of this run with an earlier results file (``--baseline``).

Tasks are matched by their task name. With one run per task a regression is
"passed before, fails now"; with repeated runs (``--repeat-tasks``) it is a
lower success fraction than before. Runs that ended in an infrastructure
error are not judged: a task with no judged run now is listed as unjudged,
never as a regression.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..metrics import TaskRecord
from .passk import trials_by_task

__all__ = ["Change", "Comparison", "compare"]


@dataclass(frozen=True)
class Change:
    task: str
    before: float  # success fraction in the baseline
    after: float  # success fraction now
    before_runs: int
    after_runs: int

    def describe(self) -> str:
        def word(rate: float, runs: int) -> str:
            if runs == 1:
                return "passed" if rate == 1 else "failed"
            return f"{rate:.0%} of {runs}"

        return f"{word(self.before, self.before_runs)} -> {word(self.after, self.after_runs)}"

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "before": self.before, "after": self.after,
                "before_runs": self.before_runs, "after_runs": self.after_runs}


@dataclass
class Comparison:
    baseline_sr: float | None
    sr: float | None
    regressions: list[Change] = field(default_factory=list)
    improvements: list[Change] = field(default_factory=list)
    unchanged: int = 0
    new: list[str] = field(default_factory=list)  # tasks not in the baseline
    missing: list[str] = field(default_factory=list)  # baseline tasks not run now
    unjudged: list[str] = field(default_factory=list)  # run now, but only infrastructure errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "baseline_sr": self.baseline_sr,
            "sr": self.sr,
            "regressions": [c.to_dict() for c in self.regressions],
            "improvements": [c.to_dict() for c in self.improvements],
            "unchanged": self.unchanged,
            "new": self.new,
            "missing": self.missing,
            "unjudged": self.unjudged,
        }


def _records_of(results: dict[str, Any]) -> list[TaskRecord]:
    records = []
    for data in results.get("tasks", []):
        try:
            records.append(TaskRecord.from_dict(data))
        except TypeError:
            continue  # a record of an incompatible shape is skipped, not fatal
    return records


def compare(baseline: dict[str, Any], records: Iterable[TaskRecord], sr: float | None = None) -> Comparison:
    """Per-task changes between a baseline results document and this run's records."""
    records = list(records)
    before = trials_by_task(_records_of(baseline))
    after = trials_by_task(records)
    ran_now = {r.task_key for r in records}
    ran_before = {r.task_key for r in _records_of(baseline)}
    comparison = Comparison(baseline_sr=(baseline.get("aggregate") or {}).get("sr"), sr=sr)
    for task in sorted(ran_now | ran_before):
        if task not in ran_before:
            comparison.new.append(task)
        elif task not in ran_now:
            comparison.missing.append(task)
        elif task not in after:
            comparison.unjudged.append(task)
        elif task not in before:
            comparison.new.append(task)  # only infrastructure errors in the baseline
        else:
            old, new = before[task], after[task]
            change = Change(task, sum(old) / len(old), sum(new) / len(new), len(old), len(new))
            if change.after < change.before:
                comparison.regressions.append(change)
            elif change.after > change.before:
                comparison.improvements.append(change)
            else:
                comparison.unchanged += 1
    return comparison

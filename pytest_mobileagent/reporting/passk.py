"""pass@k and pass^k over repeated runs of the same task.

With ``n`` judged runs of a task of which ``c`` succeeded:

* pass@k = 1 - C(n-c, k) / C(n, k): the chance that at least one of k runs
  drawn without replacement succeeds (the unbiased estimator of Chen et al.);
* pass^k = C(c, k) / C(n, k): the chance that all k drawn runs succeed
  (tau-bench's reliability figure). pass@1 = pass^1 = c / n.

A task whose pass@k is high but pass^k low is flaky: it can be done, but not
reliably. Runs that ended in an infrastructure error are not judged and are
left out of n.
"""

from __future__ import annotations

from math import comb
from typing import Any, Iterable

from ..metrics import TaskRecord

__all__ = ["pass_at_k", "pass_hat_k", "pass_k_report", "trials_by_task"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` of the ``n`` runs succeeded."""
    _check(n, c, k)
    # Integer arithmetic, one division: pass@1 is exactly c / n.
    return (comb(n, k) - comb(n - c, k)) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that all ``k`` of ``k`` runs drawn from the ``n`` succeeded."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")


def trials_by_task(records: Iterable[TaskRecord]) -> dict[str, list[bool]]:
    """Judged outcomes per task, in record order (infrastructure errors left out)."""
    trials: dict[str, list[bool]] = {}
    for record in records:
        if record.infra_error:
            continue
        trials.setdefault(record.task_key, []).append(bool(record.success))  # a family: per instance
    return dict(sorted(trials.items()))


def pass_k_report(records: Iterable[TaskRecord], k: int | None = None) -> dict[str, Any]:
    """The results file's ``pass_at_k`` section.

    ``k`` defaults to the smallest number of judged runs of any task, so every
    task has a defined figure; a task with fewer than ``k`` runs gets None.
    """
    trials = trials_by_task(records)
    if k is None:
        k = min((len(t) for t in trials.values()), default=1) or 1
    per_task: dict[str, dict[str, Any]] = {}
    for task, outcomes in trials.items():
        n, c = len(outcomes), sum(outcomes)
        defined = n >= k
        per_task[task] = {
            "n": n,
            "successes": c,
            "pass_at_k": pass_at_k(n, c, k) if defined else None,
            "pass_hat_k": pass_hat_k(n, c, k) if defined else None,
            "flaky": 0 < c < n,
        }
    at = [t["pass_at_k"] for t in per_task.values() if t["pass_at_k"] is not None]
    hat = [t["pass_hat_k"] for t in per_task.values() if t["pass_hat_k"] is not None]
    return {
        "k": k,
        "mean_pass_at_k": sum(at) / len(at) if at else None,
        "mean_pass_hat_k": sum(hat) / len(hat) if hat else None,
        "flaky": [task for task, t in per_task.items() if t["flaky"]],
        "tasks": per_task,
    }

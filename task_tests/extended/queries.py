"""What each query task of the extended suite must accept and reject (``test_<app>_queries.py``).

Each query file declares beside its tasks, per task, an :class:`Answers`; tests/test_query_tasks.py
holds every task to it and runs them on a virtual phone (the golden path passes and ends on a screen
that shows the answer, ``noop`` fails, a near miss fails).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Answers"]


@dataclass(frozen=True)
class Answers:
    """A query task's right answers and near misses, and where its golden path shows the answer."""

    #: the right answer in several surface forms (three at least), each of which the judge accepts
    right: tuple[str, ...]
    #: near misses the judge rejects (two at least); the first is of the golden answer's kind, and is
    #: what the wrong-answer agent of the self-validation answers
    wrong: tuple[str, ...]
    #: texts of views on the golden path's last screen that hold the answer (each one a view's text)
    shown: tuple[str, ...] = ()

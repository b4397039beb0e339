"""The benchmark summary table (terminal, and the Allure run summary)."""

from __future__ import annotations

from typing import Any, Iterable

from ..metrics import Aggregate

__all__ = ["COLUMNS", "format_table", "summary_lines"]

COLUMNS = ("group", "tasks", "errors", "SR", "SR 95% CI", "SE", "Latency", "Tokens", "FFR", "OER", "Overhead")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _num(value: float | None, fmt: str, suffix: str = "") -> str:
    return "-" if value is None else format(value, fmt) + suffix


def row(name: str, agg: Aggregate) -> tuple[str, ...]:
    interval = agg.sr_interval
    return (
        name,
        str(agg.tasks),
        str(agg.errors),
        _pct(agg.sr),
        "-" if interval is None else f"{interval[0] * 100:.1f}-{interval[1] * 100:.1f}%",
        _num(agg.se, ".2f"),
        _num(agg.latency, ".3f", "s"),
        _num(agg.tokens, ".0f"),
        _pct(agg.ffr),
        _pct(agg.oer),
        _num(None if agg.harness_overhead_median is None else agg.harness_overhead_median * 1000, ".1f", "ms"),
    )


def format_table(groups: Iterable[tuple[str, Aggregate]]) -> list[str]:
    """Rows aligned under COLUMNS; numbers right-aligned."""
    rows = [COLUMNS] + [row(name, agg) for name, agg in groups]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = []
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return lines


def summary_lines(
    overall: Aggregate,
    by_app: dict[str, Aggregate],
    by_difficulty: dict[str, Aggregate],
    header: dict[str, Any],
    by_suite: dict[str, Aggregate] | None = None,
) -> list[str]:
    """Header line, then the table: overall, per suite, per app, per difficulty."""
    groups = [("overall", overall)]
    groups += [(f"suite {name}", agg) for name, agg in (by_suite or {}).items()]
    groups += [(f"app {name}", agg) for name, agg in by_app.items()]
    groups += [(f"difficulty {name}", agg) for name, agg in by_difficulty.items()]
    described = []
    for key in ("agent", "model", "devices"):
        value = header.get(key)
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        described.append(f"{key}: {value if value else '-'}")
    lines = ["   ".join(described)]
    lines += format_table(groups)
    lines.append(
        "SR = successes / judged tasks; SE = steps to success / min_steps; Latency = agent seconds per turn; "
        "Tokens = per task; FFR = early stops / failures; OER = late stops / successes; "
        "Overhead = median harness time per step; errors = infrastructure errors (not judged)."
    )
    return lines


def overview_figures(overall: Aggregate, by_app: dict[str, Aggregate],
                     by_difficulty: dict[str, Aggregate],
                     by_suite: dict[str, Aggregate] | None = None) -> dict[str, str]:
    """The benchmark's figures as Allure's overview shows them (environment entries, first).

    Allure 2's Environment widget shows five entries before "Show all": the
    figures over all tasks, then SR per app, per difficulty and per suite.
    """
    interval = overall.sr_interval
    ci = "" if interval is None else f" (95% CI {interval[0] * 100:.1f}-{interval[1] * 100:.1f}%)"
    return {
        "benchmark": (f"SR {_pct(overall.sr)}{ci} of {overall.tasks - overall.errors} judged tasks, "
                      f"SE {_num(overall.se, '.2f')}, FFR {_pct(overall.ffr)}, OER {_pct(overall.oer)}, "
                      f"Latency {_num(overall.latency, '.3f', ' s')} per turn, "
                      f"Tokens {_num(overall.tokens, '.0f')} per task, errors {overall.errors}"),
        "SR by app": "; ".join(f"{name} {_pct(agg.sr)} of {agg.tasks - agg.errors}" for name, agg in by_app.items()),
        "SR by difficulty": "; ".join(f"{name} {_pct(agg.sr)} of {agg.tasks - agg.errors}"
                                      for name, agg in by_difficulty.items()),
        "SR by suite": "; ".join(f"{name} {_pct(agg.sr)} of {agg.tasks - agg.errors}"
                                 for name, agg in (by_suite or {}).items()),
    }

"""Command-line options and ini keys of the reporting side of the plugin.

Each option has one stem for its flag, its ini key and its ``dest``
(``--fail-under`` / ``fail_under``). Values are parsed once, here, into a
:class:`ReportingOptions`; a bad value is a :class:`pytest.UsageError` that
says what is accepted.
"""

from __future__ import annotations

import fnmatch
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

__all__ = ["DEFAULT_SECRET_PATTERNS", "ReportingOptions", "add_options", "parse_fail_under", "parse_repeat"]

#: Environment variable names (fnmatch patterns, case-insensitive) whose
#: values are secrets and are redacted from every report.
DEFAULT_SECRET_PATTERNS = (
    "*API_KEY*",
    "*APIKEY*",
    "*TOKEN*",
    "*SECRET*",
    "*PASSWORD*",
    "*PASSWD*",
    "*ACCESS_KEY*",
    "*PRIVATE_KEY*",
    "*CREDENTIAL*",
)

_OPTIONS = (
    # (stem, cli kwargs, ini type, ini help)
    ("results_json", dict(metavar="PATH"), "string",
     "Write every per-task record and the aggregate metrics to this JSON file."),
    ("baseline", dict(metavar="PATH"), "string",
     "Compare this run with an earlier --results-json file: list per-task regressions and improvements."),
    ("fail_under", dict(metavar="SR"), "string",
     "Fail the run when the overall success rate is below SR (a fraction such as 0.8, or a percentage such as 80 followed by a percent sign). "
     "With a gate given, task failures alone no longer fail the run: the gates decide."),
    ("fail_on_regression", dict(action="store_true", default=None), "bool",
     "Fail the run when a task that passed in --baseline fails now."),
    ("repeat_tasks", dict(metavar="K"), "string",
     "Run every task K times (parametrised, works with xdist) and report pass@k and pass^k per task."),
)


def add_options(parser: pytest.Parser) -> None:
    """Add the reporting options and ini keys to pytest's parser (called from plugin.py)."""
    group = parser.getgroup("mobileagent")
    for stem, kwargs, ini_type, help_text in _OPTIONS:
        group.addoption("--" + stem.replace("_", "-"), dest=stem, help=help_text, **kwargs)
        parser.addini(stem, help=help_text, type=ini_type, default=None)
    parser.addini(
        "redact_env",
        type="linelist",
        default=[],
        help="Extra environment variable names (fnmatch patterns) whose values are redacted from reports, "
        "on top of " + ", ".join(DEFAULT_SECRET_PATTERNS) + ".",
    )


def parse_fail_under(value: Any) -> float | None:
    """``"0.8"`` or ``"80%"`` -> 0.8; ``None``/empty -> None; anything else: UsageError."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    percent = text.endswith("%")
    try:
        number = float(text[:-1] if percent else text)
    except ValueError:
        raise pytest.UsageError(
            f"--fail-under: {value!r} is not a number; give a success rate as a fraction (0.8) or a percentage (80%)"
        ) from None
    if percent:
        number /= 100
    elif number > 1:
        raise pytest.UsageError(
            f"--fail-under: {value!r} is above 1; give a fraction such as 0.8, or write a percentage with '%' (80%)"
        )
    if not 0 <= number <= 1 or number != number:
        raise pytest.UsageError(f"--fail-under: {value!r} is outside 0..1 (0%..100%)")
    return number


def parse_repeat(value: Any) -> int:
    """``--repeat-tasks``: a positive integer (1 = no repetition)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return 1
    try:
        count = int(str(value).strip())
    except ValueError:
        raise pytest.UsageError(f"--repeat-tasks: {value!r} is not an integer; give K >= 1") from None
    if count < 1:
        raise pytest.UsageError(f"--repeat-tasks: {value!r} must be at least 1")
    return count


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in {"1", "true", "yes", "on"}


@dataclass
class ReportingOptions:
    """The reporting options of one run, parsed and validated."""

    results_json: Path | None = None
    baseline: Path | None = None
    fail_under: float | None = None
    fail_on_regression: bool = False
    repeat_tasks: int = 1
    secret_patterns: tuple[str, ...] = DEFAULT_SECRET_PATTERNS
    baseline_data: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def gated(self) -> bool:
        """A gate decides the exit status (task failures alone do not)."""
        return self.fail_under is not None or self.fail_on_regression

    @classmethod
    def from_config(cls, config: pytest.Config, *, load_baseline: bool = True) -> "ReportingOptions":
        def get(stem: str) -> Any:
            value = config.getoption(stem, default=None)
            return value if value is not None else config.getini(stem)

        root = Path(str(config.rootpath))
        results_json = get("results_json")
        baseline = get("baseline")
        options = cls(
            # Paths given on the command line are relative to the invocation dir (as
            # pytest's own --junitxml); ini paths are relative to the rootdir.
            results_json=_path(results_json, config, root, "results_json"),
            baseline=_path(baseline, config, root, "baseline"),
            fail_under=parse_fail_under(get("fail_under")),
            fail_on_regression=_bool(get("fail_on_regression") or False),
            repeat_tasks=parse_repeat(get("repeat_tasks")),
            secret_patterns=DEFAULT_SECRET_PATTERNS + tuple(config.getini("redact_env") or ()),
        )
        if options.fail_on_regression and options.baseline is None:
            raise pytest.UsageError("--fail-on-regression needs --baseline PATH (an earlier --results-json file)")
        if options.baseline is not None and load_baseline:
            options.baseline_data = load_results(options.baseline, what="--baseline")
        return options

    def is_secret_name(self, name: str) -> bool:
        upper = name.upper()
        return any(fnmatch.fnmatchcase(upper, pattern.upper()) for pattern in self.secret_patterns)


def _path(value: Any, config: pytest.Config, root: Path, stem: str) -> Path | None:
    if not value:
        return None
    path = Path(os.path.expanduser(str(value)))
    if path.is_absolute():
        return path
    from_cli = config.getoption(stem, default=None) is not None
    base = Path(str(config.invocation_params.dir)) if from_cli else root
    return base / path


def load_results(path: Path, what: str = "results file") -> dict[str, Any]:
    """Read a results file written by --results-json; UsageError when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise pytest.UsageError(f"{what}: {path} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise pytest.UsageError(f"{what}: {path} is not a readable JSON results file ({exc})") from None
    if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("tasks"), list):
        raise pytest.UsageError(
            f"{what}: {path} is not a pytest-mobileagent results file (expected a JSON object with "
            f"\"version\": 1 and a \"tasks\" list, as written by --results-json)"
        )
    return data

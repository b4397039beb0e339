"""Per-task records and the benchmark's aggregate figures.

The definitions follow the MobileAgentBench paper, made precise:

* SR  = successes / tasks.
* SE  = success step / min_steps, averaged over successful tasks (1.0 is the
  golden path; lower is better).
* Latency = seconds the agent spent per turn, over all turns of all tasks
  (turns: below).
* Tokens  = mean LLM input+output tokens per task, of all its turns.
* FFR = early stops / failures: the agent declared it was done while the task
  was not done (false finish).
* OER = late stops / successes: the agent kept acting after the task was
  already done, or ran into the step budget (over-execution).
* ROR = actions that changed the screen / actions (AndroidLab's reasonable
  operation ratio).  An action is judged on the screenshots before and after
  it when both were taken (AndroidLab's pixel test, screen_similarity.py), else
  on the view hierarchies; ``ror_sources`` counts which source each action used.

Turns and steps. A turn is one call of the agent: a step agent's ``step()``,
a driver agent's stretch up to its next report. A turn either carries out an
action -- a step -- or ends the episode without one: the finish declaration,
or a failure (an exception, a timeout, a reply that was no action); that last
turn is the record's ``final_turn``. Steps are actions only: a finish is the
agent's declaration, not a UI action, so it is in no step figure
(``steps_taken``, the step budget, SE, OER, ROR, the harness overhead), just
as the golden path's ``finish`` is not in ``min_steps``. But the final turn
called the model like any other, so it counts where the agent's cost is
measured, in Latency and Tokens. That is why Latency is per turn, not per
action: per action, the final turn's time would be either lost or spread over
actions it was no part of, and an episode the agent ends at once would show
no Latency at all.

A task's record is built by the episode engine on the xdist worker and travels
to the controller as plain JSON-compatible data (``to_dict``/``from_dict``),
so the aggregates are computed from exactly what the results file holds.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Iterable, Sequence

__all__ = [
    "Aggregate",
    "StepRecord",
    "StopReason",
    "TaskRecord",
    "TurnRecord",
    "aggregate",
    "aggregate_by",
    "estimate_image_tokens",
    "estimate_text_tokens",
    "wilson_interval",
]


class StopReason:
    """Why an episode ended (plain strings so records stay JSON data)."""

    FINISHED = "finished"  # the agent declared it was done
    STEP_BUDGET = "step_budget"  # max_steps actions were taken
    AGENT_ERROR = "agent_error"  # the agent raised: a task failure
    INFRA_ERROR = "infra_error"  # device/adb fault: a test error, not a failure
    STOPPED = "stopped"  # the harness asked a driver agent to stop

    ALL = (FINISHED, STEP_BUDGET, AGENT_ERROR, INFRA_ERROR, STOPPED)


@dataclass
class StepRecord:
    """One agent action and what the harness observed after it."""

    index: int  # 1-based action number
    action: dict[str, Any]  # e.g. {"type": "tap", "x": 540, "y": 1200, "target": {"id": "btn_7"}}
    agent_seconds: float = 0.0  # think + act time spent by the agent
    harness_seconds: float = 0.0  # settle + dump + screenshot + events + judge
    tokens_in: int = 0
    tokens_out: int = 0
    screenshot: str | None = None  # path of the PNG saved for this step, if any
    screen_changed: bool = False  # the screen differs from before the action (see screen_change_source)
    #: what screen_changed compared: "screenshot" (AndroidLab's pixel test, when the screens
    #: before and after the action were both captured) or "hierarchy" (the view-hierarchy XML)
    screen_change_source: str = "hierarchy"
    judge_passed: bool = False  # the task body passed after this step
    milestones: list[str] = field(default_factory=list)  # milestones first reached at this step
    events: int = 0  # app events drained after this step
    observed_via: str = ""  # where the hierarchy came from: "listener" or "uiautomator" (dump)
    llm_input: str | None = None
    llm_output: str | None = None

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


@dataclass
class TurnRecord:
    """The agent's turn that ended its episode without an action: its finish, or its failure.

    No step (it moved nothing on the screen), but its time counts in Latency
    and its tokens in Tokens: the model was called all the same.
    """

    kind: str  # "finish": the agent declared done; "error": the turn raised, timed out or gave no action
    agent_seconds: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    llm_input: str | None = None
    llm_output: str | None = None

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


@dataclass
class TaskRecord:
    """Everything measured about one task run; the unit of the results file."""

    nodeid: str
    task: str
    app: str
    prompt: str
    difficulty: str
    min_steps: int
    max_steps: int
    agent: str
    device: str = ""
    model: str | None = None
    success: bool = False
    success_step: int | None = None  # action index at which the judge first passed
    steps_taken: int = 0  # actions executed (a finish declaration is not an action)
    stop_reason: str = StopReason.FINISHED
    error: str | None = None  # last AssertionError message, or the agent/infra traceback summary
    answer: str | None = None  # the agent's final answer, for query tasks
    expected_answer: str | None = None  # a query task's reference answer (its golden path's finish)
    #: the LLM judge's verdicts: {"expected", "criteria", "answer", "verdict", "reason", "model"} each
    llm_verdicts: list[dict[str, Any]] = field(default_factory=list)
    wall_seconds: float = 0.0
    milestones: list[str] = field(default_factory=list)  # declared milestones, in order of first reach
    milestones_reached: list[str] = field(default_factory=list)
    steps: list[StepRecord] = field(default_factory=list)
    event_log: list[dict[str, Any]] = field(default_factory=list)
    events_dropped: int = 0  # events received beyond the per-episode cap (not in event_log, not judged)
    final_hierarchy: str | None = None  # path of the last view-hierarchy XML, if saved
    initial_screenshot: str | None = None  # path of the PNG of the screen before the first action, if saved
    repeat: int = 0  # repetition index when a task is run several times
    reset_seconds: float | None = None  # the device-wide reset before the task (--reset snapshot)
    #: the agent's last turn when it carried out no action (its finish, or its failure); None
    #: when the episode ended on an action (step budget, --stop-on-success) or never reached the agent
    final_turn: TurnRecord | None = None

    # -- derived figures -------------------------------------------------

    @property
    def early_stop(self) -> bool:
        """The agent declared done although the task was not done (false finish)."""
        return not self.success and self.stop_reason == StopReason.FINISHED

    @property
    def late_stop(self) -> bool:
        """The task was done but the agent kept acting or ran into the budget."""
        if not self.success or self.success_step is None:
            return False
        return self.steps_taken > self.success_step or self.stop_reason == StopReason.STEP_BUDGET

    @property
    def step_efficiency(self) -> float | None:
        """Steps to success over min_steps (1.0 = as short as the golden path)."""
        if not self.success or self.success_step is None or self.min_steps <= 0:
            return None
        return self.success_step / self.min_steps

    @property
    def turns(self) -> int:
        """The agent's turns: its actions, and the final turn that carried out none."""
        return len(self.steps) + (self.final_turn is not None)

    @property
    def tokens(self) -> int:
        """Tokens of every turn, the final one included."""
        final = self.final_turn.tokens if self.final_turn is not None else 0
        return sum(step.tokens for step in self.steps) + final

    @property
    def agent_seconds(self) -> float:
        """The agent's time over every turn, the final one included."""
        final = self.final_turn.agent_seconds if self.final_turn is not None else 0.0
        return sum(step.agent_seconds for step in self.steps) + final

    @property
    def latency(self) -> float | None:
        """Mean agent seconds per turn (see the module's docstring)."""
        if not self.turns:
            return None
        return self.agent_seconds / self.turns

    @property
    def reasonable_operation_ratio(self) -> float | None:
        """Share of actions that changed the screen (AndroidLab's ROR; see ``ror_sources``)."""
        if not self.steps:
            return None
        return sum(step.screen_changed for step in self.steps) / len(self.steps)

    @property
    def ror_sources(self) -> dict[str, int]:
        """How many actions' ROR came from screenshots and how many from view hierarchies."""
        return {source: sum(step.screen_change_source == source for step in self.steps)
                for source in ("screenshot", "hierarchy")}

    @property
    def infra_error(self) -> bool:
        return self.stop_reason == StopReason.INFRA_ERROR

    def summary(self) -> dict[str, Any]:
        """The per-task figures (what Allure's metrics.json and the summary show)."""
        return {
            "task": self.task,
            "success": self.success,
            "success_step": self.success_step,
            "steps_taken": self.steps_taken,
            "min_steps": self.min_steps,
            "max_steps": self.max_steps,
            "step_efficiency": self.step_efficiency,
            "early_stop": self.early_stop,
            "late_stop": self.late_stop,
            "stop_reason": self.stop_reason,
            "turns": self.turns,
            "latency": self.latency,
            "tokens": self.tokens,
            "milestones": list(self.milestones),
            "milestones_reached": list(self.milestones_reached),
            "reasonable_operation_ratio": self.reasonable_operation_ratio,
            "ror_sources": self.ror_sources,
            "wall_seconds": self.wall_seconds,
        }

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["derived"] = self.summary()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TaskRecord":
        known = {f.name for f in fields(cls)}
        kwargs = {key: value for key, value in data.items() if key in known}
        kwargs["steps"] = [_step_from_dict(step) for step in data.get("steps", [])]
        final = data.get("final_turn")
        if isinstance(final, dict):
            kwargs["final_turn"] = _turn_from_dict(final)
        elif data.get("failed_turn_tokens_in") or data.get("failed_turn_tokens_out"):
            # A results file from before final_turn: its failed turn's tokens still count.
            kwargs["final_turn"] = TurnRecord("error", tokens_in=int(data.get("failed_turn_tokens_in") or 0),
                                              tokens_out=int(data.get("failed_turn_tokens_out") or 0))
        return cls(**kwargs)


def _step_from_dict(data: dict[str, Any]) -> StepRecord:
    known = {f.name for f in fields(StepRecord)}
    return StepRecord(**{key: value for key, value in data.items() if key in known})


def _turn_from_dict(data: dict[str, Any]) -> TurnRecord:
    known = {f.name for f in fields(TurnRecord)}
    return TurnRecord(**{key: value for key, value in data.items() if key in known})


@dataclass
class Aggregate:
    """Benchmark figures over a group of task records."""

    tasks: int
    successes: int
    errors: int  # infrastructure errors: excluded from SR, FFR and OER
    sr: float | None
    sr_interval: tuple[float, float] | None  # 95% Wilson interval
    se: float | None
    latency: float | None
    tokens: float | None
    ffr: float | None
    oer: float | None
    sub_sr: float | None  # milestones reached / milestones declared
    reasonable_operation_ratio: float | None
    #: actions whose ROR came from screenshots / from view hierarchies
    ror_sources: dict[str, int]
    harness_overhead_median: float | None
    harness_overhead_p90: float | None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.sr_interval is not None:
            data["sr_interval"] = list(self.sr_interval)
        return data


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.fmean(values) if values else None


def _percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float] | None:
    """The 95% Wilson score interval of a success proportion."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}, got {successes}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # Rounding leaves centre - half a hair above 0 at p = 0 (and centre + half
    # below 1 at p = 1): the interval must still contain the estimate.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def aggregate(records: Iterable[TaskRecord]) -> Aggregate:
    """Compute SR, SE, latency, tokens, FFR, OER... over ``records``.

    Tasks that ended in an infrastructure error say nothing about the agent:
    they are counted in ``errors`` and left out of every other figure.
    """
    records = list(records)
    judged = [r for r in records if not r.infra_error]
    successes = [r for r in judged if r.success]
    failures = [r for r in judged if not r.success]
    steps = [step for r in judged for step in r.steps]
    turns = sum(r.turns for r in judged)
    declared = sum(len(r.milestones) for r in judged)
    reached = sum(len(r.milestones_reached) for r in judged)
    overheads = [step.harness_seconds for step in steps]
    n = len(judged)
    return Aggregate(
        tasks=n,
        successes=len(successes),
        errors=len(records) - n,
        sr=len(successes) / n if n else None,
        sr_interval=wilson_interval(len(successes), n),
        se=_mean(r.step_efficiency for r in successes if r.step_efficiency is not None),
        latency=(sum(r.agent_seconds for r in judged) / turns) if turns else None,
        tokens=_mean(r.tokens for r in judged),
        ffr=(sum(r.early_stop for r in failures) / len(failures)) if failures else None,
        oer=(sum(r.late_stop for r in successes) / len(successes)) if successes else None,
        sub_sr=reached / declared if declared else None,
        reasonable_operation_ratio=(sum(s.screen_changed for s in steps) / len(steps)) if steps else None,
        ror_sources={source: sum(s.screen_change_source == source for s in steps)
                     for source in ("screenshot", "hierarchy")},
        harness_overhead_median=statistics.median(overheads) if overheads else None,
        harness_overhead_p90=_percentile(overheads, 90),
    )


def aggregate_by(records: Iterable[TaskRecord], key: str) -> dict[str, Aggregate]:
    """Aggregates per value of a record attribute (``"app"``, ``"difficulty"``, ``"agent"``)."""
    groups: dict[str, list[TaskRecord]] = {}
    for record in records:
        groups.setdefault(str(getattr(record, key)), []).append(record)
    return {name: aggregate(group) for name, group in sorted(groups.items())}


# -- token counting (the paper's rule) ------------------------------------


def estimate_text_tokens(text: str) -> int:
    """Tokens of a text when the agent did not report usage: ceil(chars / 4)."""
    return math.ceil(len(text) / 4)


def estimate_image_tokens(width: int, height: int) -> int:
    """Tokens of an image: 85 + 170 per 512x512 tile after fitting into 1024x1024."""
    if width <= 0 or height <= 0:
        return 0
    scale = min(1.0, 1024 / max(width, height))
    width, height = math.ceil(width * scale), math.ceil(height * scale)
    tiles = math.ceil(width / 512) * math.ceil(height / 512)
    return 85 + 170 * tiles

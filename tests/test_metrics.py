"""Properties of the metric definitions (metrics.py) on generated trajectories.

Each trajectory is generated the way an episode unfolds: the judge's outcome
after every action, success latched at the first pass, and the agent stopping
by declaring done or by running into the step budget. The properties follow
from the definitions in DESIGN.md; none re-implements the code under test.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import assume, given, strategies as st

from pytest_mobileagent.metrics import (
    StepRecord,
    StopReason,
    TaskRecord,
    TurnRecord,
    aggregate,
    aggregate_by,
    estimate_image_tokens,
    estimate_text_tokens,
    wilson_interval,
)


@st.composite
def trajectories(draw, infra: bool | None = False) -> TaskRecord:
    min_steps = draw(st.integers(1, 6))
    max_steps = 2 * min_steps
    n = draw(st.integers(0, max_steps))
    # The judge cannot pass before min_steps actions (min_steps is the fewest possible).
    judged = [i >= min_steps and draw(st.booleans()) for i in range(1, n + 1)]
    success_step = next((i for i, ok in enumerate(judged, 1) if ok), None)
    if n == max_steps and draw(st.booleans()):
        stop = StopReason.STEP_BUDGET
    else:
        stop = draw(st.sampled_from([StopReason.FINISHED, StopReason.FINISHED, StopReason.AGENT_ERROR]))
    if infra is None:
        infra = draw(st.booleans())
    if infra:
        stop = StopReason.INFRA_ERROR
    steps = [
        StepRecord(
            index=i,
            action={"type": "tap", "x": i, "y": i},
            agent_seconds=draw(st.floats(0, 5, allow_nan=False)),
            harness_seconds=draw(st.floats(0, 0.2, allow_nan=False)),
            tokens_in=draw(st.integers(0, 5000)),
            tokens_out=draw(st.integers(0, 500)),
            screen_changed=draw(st.booleans()),
            judge_passed=success_step is not None and i >= success_step,
        )
        for i in range(1, n + 1)
    ]
    milestones = draw(st.lists(st.sampled_from("abcd"), unique=True, max_size=4))
    reached = milestones[: draw(st.integers(0, len(milestones)))]
    # The turn that ended the episode without an action: the finish, or the failure
    # (an agent that fails before its first turn, in reset or so, may have none).
    final_turn = None
    if stop in (StopReason.FINISHED, StopReason.AGENT_ERROR) and (stop == StopReason.FINISHED or draw(st.booleans())):
        final_turn = TurnRecord(
            kind="finish" if stop == StopReason.FINISHED else "error",
            agent_seconds=draw(st.floats(0, 5, allow_nan=False)),
            tokens_in=draw(st.integers(0, 5000)),
            tokens_out=draw(st.integers(0, 500)),
        )
    return TaskRecord(
        nodeid=f"t.py::test_{draw(st.integers(0, 10**6))}",
        task=draw(st.sampled_from(["t1", "t2", "t3"])),
        app=draw(st.sampled_from(["calculator", "notes", "clock"])),
        prompt="p",
        difficulty=draw(st.sampled_from(["easy", "medium", "hard"])),
        min_steps=min_steps,
        max_steps=max_steps,
        agent="a",
        success=success_step is not None,
        success_step=success_step,
        steps_taken=n,
        stop_reason=stop,
        milestones=milestones,
        milestones_reached=reached,
        steps=steps,
        final_turn=final_turn,
    )


records = st.lists(trajectories(infra=None), max_size=12)


@given(trajectories())
def test_early_stop_is_a_declared_finish_on_an_undone_task(r):
    assert r.early_stop == (not r.success and r.stop_reason == StopReason.FINISHED)
    # A step budget exhausted, or an agent error, is a failure but no false finish.
    if r.stop_reason in (StopReason.STEP_BUDGET, StopReason.AGENT_ERROR):
        assert not r.early_stop


@given(trajectories())
def test_late_stop_only_on_success_and_means_acting_on_or_running_out(r):
    if r.late_stop:
        assert r.success
        assert r.steps_taken > r.success_step or r.stop_reason == StopReason.STEP_BUDGET
    if r.success and r.steps_taken == r.success_step and r.stop_reason == StopReason.FINISHED:
        assert not r.late_stop  # declared done right at success: the ideal stop
    assert not (r.early_stop and r.late_stop)


@given(trajectories())
def test_step_efficiency_is_steps_to_success_over_min_steps(r):
    if not r.success:
        assert r.step_efficiency is None
    else:
        assert r.step_efficiency * r.min_steps == pytest.approx(r.success_step)
        assert r.step_efficiency >= 1  # the golden path is the shortest
        assert r.step_efficiency <= r.max_steps / r.min_steps


@given(records)
def test_aggregate_rates_count_what_they_define(rs):
    agg = aggregate(rs)
    judged = [r for r in rs if r.stop_reason != StopReason.INFRA_ERROR]
    assert agg.tasks + agg.errors == len(rs)
    assert agg.successes == sum(r.success for r in judged)
    failures = agg.tasks - agg.successes
    if agg.tasks == 0:
        assert agg.sr is None and agg.sr_interval is None
    else:
        assert agg.sr * agg.tasks == pytest.approx(agg.successes)
        low, high = agg.sr_interval
        assert 0 <= low <= agg.sr <= high <= 1
    # FFR counts early stops among failures, OER late stops among successes.
    if failures == 0:
        assert agg.ffr is None
    else:
        assert agg.ffr * failures == pytest.approx(sum(r.early_stop for r in judged))
    if agg.successes == 0:
        assert agg.oer is None and agg.se is None
    else:
        assert agg.oer * agg.successes == pytest.approx(sum(r.late_stop for r in judged))
        ses = [r.success_step / r.min_steps for r in judged if r.success]
        assert min(ses) - 1e-9 <= agg.se <= max(ses) + 1e-9


@given(records, st.randoms())
def test_aggregate_ignores_order_and_infrastructure_errors(rs, rnd):
    agg = aggregate(rs)
    shuffled = list(rs)
    rnd.shuffle(shuffled)
    again = aggregate(shuffled)
    for name in ("tasks", "successes", "errors", "sr", "ffr", "oer", "sub_sr"):
        assert getattr(again, name) == pytest.approx(getattr(agg, name))
    judged_only = aggregate([r for r in rs if not r.infra_error])
    assert (judged_only.sr, judged_only.ffr, judged_only.oer, judged_only.errors) == (agg.sr, agg.ffr, agg.oer, 0)


def _final(r: TaskRecord) -> list[TurnRecord]:
    return [r.final_turn] if r.final_turn is not None else []


@given(records)
def test_latency_is_per_turn_and_tokens_per_task_the_final_turn_included(rs):
    agg = aggregate(rs)
    judged = [r for r in rs if not r.infra_error]
    turns = [t for r in judged for t in [*r.steps, *_final(r)]]
    if not turns:
        assert agg.latency is None
    else:
        total = sum(t.agent_seconds for t in turns)
        assert agg.latency * len(turns) == pytest.approx(total, abs=1e-9)
    if judged:
        assert agg.tokens * len(judged) == pytest.approx(sum(t.tokens_in + t.tokens_out for t in turns))


@given(trajectories())
def test_the_final_turn_is_no_step(r):
    """A finish (or the turn that failed) counts in the agent's time and tokens, in no step figure."""
    assume(r.final_turn is not None)
    without = TaskRecord.from_dict({**r.to_dict(), "final_turn": None})
    assert r.turns == len(r.steps) + 1 == without.turns + 1
    assert r.tokens == without.tokens + r.final_turn.tokens
    assert r.agent_seconds == pytest.approx(without.agent_seconds + r.final_turn.agent_seconds)
    for figure in ("steps_taken", "step_efficiency", "early_stop", "late_stop", "reasonable_operation_ratio"):
        assert getattr(r, figure) == getattr(without, figure)
    with_agg, without_agg = aggregate([r]), aggregate([without])
    assert (with_agg.se, with_agg.ffr, with_agg.oer, with_agg.harness_overhead_median) == \
        (without_agg.se, without_agg.ffr, without_agg.oer, without_agg.harness_overhead_median)
    # An episode with no action still shows what its one turn took.
    if not r.steps:
        assert r.latency == r.final_turn.agent_seconds and without.latency is None


def test_a_results_file_from_before_final_turn_keeps_its_failed_turns_tokens():
    old = TaskRecord(nodeid="t.py::test_a", task="test_a", app="calculator", prompt="p", difficulty="easy",
                     min_steps=1, max_steps=2, agent="mobileagent", stop_reason=StopReason.AGENT_ERROR).to_dict()
    del old["final_turn"]
    old.update(failed_turn_tokens_in=300, failed_turn_tokens_out=12)
    record = TaskRecord.from_dict(old)
    assert record.tokens == 312 and record.final_turn.kind == "error"


@given(records)
def test_groups_partition_the_tasks(rs):
    for key in ("app", "difficulty"):
        groups = aggregate_by(rs, key)
        assert sum(g.tasks + g.errors for g in groups.values()) == len(rs)
        assert sum(g.successes for g in groups.values()) == aggregate(rs).successes


@given(trajectories(infra=None))
def test_record_round_trips_through_its_dict(r):
    import json

    again = TaskRecord.from_dict(json.loads(json.dumps(r.to_dict())))
    assert again == r
    assert again.summary() == r.summary()


@given(st.integers(1, 500), st.data())
def test_wilson_interval_properties(n, data):
    c = data.draw(st.integers(0, n))
    low, high = wilson_interval(c, n)
    assert 0 <= low <= c / n <= high <= 1
    # Symmetry: the interval of the failures mirrors that of the successes.
    f_low, f_high = wilson_interval(n - c, n)
    assert low == pytest.approx(1 - f_high, abs=1e-12) and high == pytest.approx(1 - f_low, abs=1e-12)
    # More runs at the same proportion give a narrower interval.
    d_low, d_high = wilson_interval(2 * c, 2 * n)
    assert d_high - d_low < high - low
    # Never degenerate: even 0/n or n/n leaves room for doubt.
    assert high - low > 0
    assert wilson_interval(c, 0) is None


def test_wilson_interval_known_value():
    # 8 of 10 -> [0.4902, 0.9433] (the textbook 95% Wilson interval).
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


@given(st.text(max_size=400), st.text(max_size=400))
def test_text_tokens_are_a_quarter_of_the_characters_rounded_up(a, b):
    t = estimate_text_tokens(a)
    assert 4 * (t - 1) < len(a) <= 4 * t or (t == 0 and a == "")
    # Concatenation costs no more than the parts, and at most one token less.
    ab = estimate_text_tokens(a + b)
    assert ab <= t + estimate_text_tokens(b) <= ab + 1


@given(st.integers(1, 8000), st.integers(1, 8000))
def test_image_tokens_follow_the_tile_rule(w, h):
    tokens = estimate_image_tokens(w, h)
    tiles, rest = divmod(tokens - 85, 170)
    assert rest == 0 and 1 <= tiles <= 4  # at most 2 x 2 tiles of 512 in 1024 x 1024
    assert estimate_image_tokens(h, w) == tokens
    if max(w, h) <= 512:
        assert tokens == 85 + 170
    if max(w, h) <= 1024:
        assert tiles == math.ceil(w / 512) * math.ceil(h / 512)


def test_image_tokens_of_nothing():
    assert estimate_image_tokens(0, 100) == 0 == estimate_image_tokens(100, -1)
    assert estimate_image_tokens(1080, 2340) == 85 + 170 * 2  # 473 x 1024 -> 1 x 2 tiles

"""Allure output: per task (on the process that ran the test) and per run (controller).

allure-pytest is active only with ``--alluredir``; everything here is a no-op
otherwise. The episode runs in the test's setup and the verdict is raised in
its call phase, so per-task content is added *after the fact*: when the
report carrying the task record is made, the test's Allure result is still
open (it is written when the test's protocol ends), and we add the title,
labels, parameters, one step per agent action (then one for the agent's
final turn: its finish, or the turn that failed) and the attachments to it
through allure-pytest's own reporter, with step times laid out from the
recorded durations.

Run-level content is written by the controller into the results directory:
``environment.properties``, ``categories.json`` and a container whose set-up
("benchmark summary") carries the aggregate table and the SR plots, so every
task's page links to the run summary without adding a test to the count.
"""

from __future__ import annotations

import os
import uuid as uuid_mod
from pathlib import Path
from typing import Any, Callable, Iterable

from ..metrics import StepRecord, StopReason, TaskRecord
from . import thumbnails
from .atomic import WRITE_PROBLEM, write_atomically
from .jsontext import json_text
from .redact import Redactor

__all__ = ["CATEGORIES", "WRITE_PROBLEM", "allure_dir", "attach_task", "describe_action", "full_size_steps",
           "write_run_files"]

# Markers appended to the Allure status trace; categories.json matches on them.
MARK = "mobileagent: "
CATEGORIES = [
    {"name": "Early stop (agent declared done, task not done)", "matchedStatuses": ["failed"],
     "traceRegex": f"(?s).*{MARK}early stop.*"},
    {"name": "Step budget exhausted", "matchedStatuses": ["failed"],
     "traceRegex": f"(?s).*{MARK}step budget exhausted.*"},
    {"name": "Agent error", "matchedStatuses": ["failed", "broken"],
     "traceRegex": f"(?s).*{MARK}agent error.*"},
    {"name": "Infrastructure error", "matchedStatuses": ["broken", "failed"],
     "traceRegex": f"(?s).*{MARK}infrastructure error.*"},
    {"name": "Over-execution (kept acting after success)", "matchedStatuses": ["passed"],
     "traceRegex": f"(?s).*{MARK}over-execution.*"},
]


def allure_dir(config) -> Path | None:
    """The ``--alluredir`` of this run, when allure-pytest is installed and active."""
    value = getattr(config.option, "allure_report_dir", None)
    return Path(os.path.abspath(value)) if value else None


def _listener(config):
    return config.pluginmanager.get_plugin("allure_listener")


def describe_action(step: StepRecord | dict[str, Any]) -> str:
    """A short step title: ``"3. type 'laundry' id=task_title"``."""
    action = step.action if isinstance(step, StepRecord) else step.get("action", {})
    index = step.index if isinstance(step, StepRecord) else step.get("index", "?")
    if not isinstance(action, dict):
        return f"{index}. {action}"[:120]
    parts = [f"{index}. {action.get('type', 'action')}"]
    text = action.get("text")
    if isinstance(text, str) and text:
        parts.append(repr(text if len(text) <= 40 else text[:37] + "..."))
    target = action.get("target")
    if isinstance(target, dict) and target:
        parts.append(" ".join(f"{k}={v}" for k, v in target.items() if v not in (None, "")))
    else:
        scalars = [
            f"{k}={v}" for k, v in action.items()
            if k not in ("type", "text", "target") and isinstance(v, (int, float, str, bool))
        ]
        parts.extend(scalars)
    return " ".join(parts)[:120]


def _status_mark(record: TaskRecord) -> str | None:
    if record.infra_error:
        return "infrastructure error"
    if record.stop_reason == StopReason.AGENT_ERROR:
        return "agent error"
    if record.early_stop:
        return "early stop"
    if not record.success and record.stop_reason == StopReason.STEP_BUDGET:
        return "step budget exhausted"
    if record.late_stop:
        return "over-execution"
    return None


def full_size_steps(record: TaskRecord) -> set[int]:
    """The steps (0: the initial screen) whose screenshot a report keeps at full size.

    Where the judge's verdict changed: the judge runs after every action and
    its success latches (episode.py, ``_judge``), so it changes once at most,
    from failing to passing, at the step marked ``judge_passed``. And for a
    task that did not pass (failed, or an error), the last screen: the last
    step's, or the initial one when the agent took no step.
    """
    steps = {step.index for step in record.steps if step.judge_passed}
    if not record.success:
        steps.add(record.steps[-1].index if record.steps else 0)
    return steps


def attach_task(config, record: TaskRecord, redactor: Redactor,
                save: Callable[[bytes, str], Path] | None = None,
                full_size: Callable[[str], Path | None] | None = None) -> bool:
    """Add the task's title, labels, parameters, steps and attachments to the open Allure test.

    ``save(body, extension)`` writes an attachment file into the results and
    returns its path (the background logger's, which writes equal content
    once); without it, attachments go through allure-pytest's reporter.
    ``full_size(screenshot)`` saves the full PNG of a screenshot saved as a
    thumbnail and returns its path (None: not kept); the screens of
    :func:`full_size_steps` get it, as a second attachment.
    Returns False (and does nothing) when Allure is not active or no test is open.
    """
    listener = _listener(config)
    if listener is None:
        return False
    from allure_commons.model2 import Attachment, Label, Parameter, Status, StatusDetails, TestStepResult
    from allure_commons.types import AttachmentType, LabelType
    from allure_commons.utils import now

    reporter = listener.allure_logger
    test = reporter.get_test(None)
    if test is None:
        return False
    parent = test.uuid
    text = redactor.text
    results_dir = allure_dir(config)

    def attach_text(body: str, name: str, kind, item, item_uuid: str) -> None:
        if save is not None:
            source = save(body.encode("utf-8"), kind.extension).name
            item.attachments.append(Attachment(name=name, source=source, type=kind.mime_type))
        else:
            reporter.attach_data(str(uuid_mod.uuid4()), body, name=name, attachment_type=kind,
                                 parent_uuid=item_uuid)

    def attach_png(path: str | None, name: str, item, item_uuid: str, whole: bool = False) -> None:
        if not path:
            return
        source = Path(path)
        if source.parent == results_dir:
            # Saved here once by the episode (still queued, maybe): refer to it by name.
            thumbnail = source.suffix == f".{thumbnails.EXTENSION}"
            kind = thumbnails.MIME_TYPE if thumbnail else AttachmentType.PNG.mime_type
            item.attachments.append(Attachment(name=name, source=source.name, type=kind))
            full = full_size(path) if whole and full_size is not None else None
            if full is not None:
                item.attachments.append(Attachment(name=f"{name} (full size)", source=full.name,
                                                   type=AttachmentType.PNG.mime_type))
        elif source.is_file():
            reporter.attach_file(str(uuid_mod.uuid4()), path, name=name, attachment_type=AttachmentType.PNG,
                                 parent_uuid=item_uuid)

    test.name = text(record.prompt) or test.name
    test.labels.extend([
        Label(LabelType.FEATURE, text(record.app)),
        Label(LabelType.STORY, text(record.difficulty)),
        Label(LabelType.TAG, text(record.agent)),
    ])
    parameters = [("agent", record.agent, False), ("model", record.model, False),
                  ("device", record.device, True),  # excluded: the same task on another phone is the same test
                  ("min_steps", record.min_steps, False), ("max_steps", record.max_steps, False)]
    if record.repeat:
        parameters.append(("repeat", record.repeat, False))
    known = {p.name for p in test.parameters}
    for name, value, excluded in parameters:
        if value is None or name in known:
            continue
        test.parameters.append(Parameter(name=name, value=text(str(value)), excluded=excluded or None))

    # Lay the steps out on the timeline where the episode ran: it ended when
    # the call phase began, and lasted wall_seconds.
    durations = [max(0, int((s.agent_seconds + s.harness_seconds) * 1000)) for s in record.steps]
    final = record.final_turn
    final_ms = max(0, int(final.agent_seconds * 1000)) if final is not None else 0
    episode_ms = max(int(record.wall_seconds * 1000), sum(durations) + final_ms)
    end = test.start if test.start else now()
    clock = end - episode_ms
    test.start = min(test.start or clock, clock)

    whole = full_size_steps(record)
    for step, duration in zip(record.steps, durations):
        step_uuid = str(uuid_mod.uuid4())
        step_params = [
            Parameter(name="agent_seconds", value=f"{step.agent_seconds:.3f}"),
            Parameter(name="harness_seconds", value=f"{step.harness_seconds:.3f}"),
            Parameter(name="tokens", value=str(step.tokens)),
            Parameter(name="screen_changed", value=str(step.screen_changed)),
        ]
        if step.milestones:
            step_params.append(Parameter(name="milestones", value=text(", ".join(step.milestones))))
        if step.judge_passed:
            step_params.append(Parameter(name="judge", value="passed"))
        step_result = TestStepResult(name=text(describe_action(step)), start=clock, parameters=step_params)
        reporter.start_step(parent, step_uuid, step_result)
        attach_png(step.screenshot, "screenshot", step_result, step_uuid, whole=step.index in whole)
        attach_text(text(json_text(step.action)), "action.json", AttachmentType.JSON, step_result, step_uuid)
        if step.llm_input:
            attach_text(text(step.llm_input), "llm input", AttachmentType.TEXT, step_result, step_uuid)
        if step.llm_output:
            attach_text(text(step.llm_output), "llm output", AttachmentType.TEXT, step_result, step_uuid)
        clock += duration
        reporter.stop_step(step_uuid, stop=clock, status=Status.PASSED)

    if final is not None:
        # The turn that ended the episode without an action: no step of the task, but the
        # agent's time, tokens and texts are here as for any turn.
        step_uuid = str(uuid_mod.uuid4())
        title = "finish" if final.kind == "finish" else "turn that failed"
        if final.kind == "finish" and record.answer:
            title += f" {record.answer!r}"
        if final.kind == "finish" and record.expected_answer is not None:  # a query: the answer it wanted
            title += f", expected {record.expected_answer!r}"
        step_result = TestStepResult(name=text(title[:120]), start=clock, parameters=[
            Parameter(name="agent_seconds", value=f"{final.agent_seconds:.3f}"),
            Parameter(name="tokens", value=str(final.tokens)),
        ])
        reporter.start_step(parent, step_uuid, step_result)
        if final.llm_input:
            attach_text(text(final.llm_input), "llm input", AttachmentType.TEXT, step_result, step_uuid)
        if final.llm_output:
            attach_text(text(final.llm_output), "llm output", AttachmentType.TEXT, step_result, step_uuid)
        clock += final_ms
        reporter.stop_step(step_uuid, stop=clock,
                           status=Status.PASSED if final.kind == "finish" else Status.BROKEN)

    def attach(body: str, name: str, kind) -> None:
        attach_text(body, name, kind, test, parent)

    # The screen the agent started from; each step shows the screen after its action.
    attach_png(record.initial_screenshot, "initial screen", test, parent, whole=0 in whole)
    attach(text(json_text(record.summary())), "metrics.json", AttachmentType.JSON)
    trajectory = redactor.data({
        "task": record.task, "prompt": record.prompt, "agent": record.agent, "model": record.model,
        "device": record.device, "answer": record.answer, "expected_answer": record.expected_answer,
        "llm_verdicts": record.llm_verdicts, "error": record.error,
        "steps": [dict(vars(s)) for s in record.steps],
        "final_turn": dict(vars(final)) if final is not None else None,
    })
    attach(json_text(trajectory), "trajectory.json", AttachmentType.JSON)
    attach(json_text(redactor.data(record.event_log)), "events.json", AttachmentType.JSON)
    if record.final_hierarchy and Path(record.final_hierarchy).is_file():
        try:
            xml = Path(record.final_hierarchy).read_text(encoding="utf-8", errors="replace")
        except OSError:
            xml = None
        if xml is not None:
            attach(text(xml), "final hierarchy.xml", AttachmentType.XML)

    mark = _status_mark(record)
    if mark is not None:
        details = test.statusDetails or StatusDetails()
        line = f"{MARK}{mark} (stop reason {record.stop_reason}, success step {record.success_step}, " \
               f"steps taken {record.steps_taken}, max steps {record.max_steps})"
        details.trace = f"{details.trace}\n\n{line}" if details.trace else line
        if not details.message:
            details.message = line
        test.statusDetails = details
    if test.statusDetails is not None:
        test.statusDetails.message = text(test.statusDetails.message) if test.statusDetails.message else None
        test.statusDetails.trace = text(test.statusDetails.trace) if test.statusDetails.trace else None
    return True


# -- run level (controller) -------------------------------------------------


def _properties_escape(value: str, key: bool = False) -> str:
    value = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    if key:
        value = value.replace("=", "\\=").replace(":", "\\:").replace(" ", "\\ ")
    return value


def write_run_files(
    directory: Path,
    *,
    environment: dict[str, Any],
    summary_text: str,
    summary_html: str,
    aggregate_json: dict[str, Any],
    plots: dict[str, bytes],
    children: Iterable[str],
    redactor: Redactor,
    headline: str | None = None,
) -> None:
    """environment.properties, categories.json, executor.json and the run-summary container.

    ``headline`` (say ``SR 80.0% of 100 judged tasks``) becomes the report's
    name, the title of the overview's Summary widget, through executor.json;
    the Executors widget shows the benchmark's figures beside it. A run whose
    CI already put an executor.json there keeps it.

    Each file appears whole or not at all (a full disk raises OSError and
    leaves no truncated file for ``allure generate`` to trip on).
    """
    directory.mkdir(parents=True, exist_ok=True)
    lines = []
    for key, value in environment.items():
        if isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        lines.append(f"{_properties_escape(key, key=True)}={_properties_escape(redactor.text(str(value)))}")
    write_atomically(directory / "environment.properties", ("\n".join(lines) + "\n").encode("utf-8"))
    write_atomically(directory / "categories.json", (json_text(CATEGORIES) + "\n").encode("utf-8"))
    if headline and not (directory / "executor.json").exists():
        executor = {"name": "pytest-mobileagent", "type": "pytest", "reportName": redactor.text(headline),
                    "buildName": redactor.text(str(environment.get("benchmark") or headline))}
        write_atomically(directory / "executor.json", (json_text(executor) + "\n").encode("utf-8"))

    from allure_commons.utils import now

    attachments = []

    def add(name: str, body: bytes, ext: str, mime: str) -> None:
        source = f"{uuid_mod.uuid4()}-attachment.{ext}"
        write_atomically(directory / source, body)
        attachments.append({"name": name, "source": source, "type": mime})

    add("benchmark summary", redactor.text(summary_html).encode(), "html", "text/html")
    add("summary table", redactor.text(summary_text).encode(), "txt", "text/plain")
    add("aggregate.json", json_text(redactor.data(aggregate_json)).encode(), "json", "application/json")
    for name, png in plots.items():
        add(name, png, "png", "image/png")
    stamp = now()
    container = {
        "uuid": str(uuid_mod.uuid4()),
        "name": "mobileagent benchmark summary",
        "children": sorted(set(children)),
        "befores": [{"name": "benchmark summary", "status": "passed", "stage": "finished",
                     "attachments": attachments, "start": stamp, "stop": stamp}],
        "afters": [],
        "start": stamp,
        "stop": stamp,
    }
    write_atomically(directory / f"{container['uuid']}-container.json", json_text(container).encode("utf-8"))

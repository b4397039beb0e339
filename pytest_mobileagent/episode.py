"""One run of one task: reset, agent loop, live judging and the trajectory record.

The plugin creates an :class:`Episode` in the task's first fixture, which
resets the app (before the task's own setup fixtures run), and calls
:meth:`Episode.run` at the end of the setup phase with the task body as the
judge. Anything the harness cannot do (device lost, adb error, timeout)
propagates from there as a pytest *error*; the agent's own faults are kept
and reported by :meth:`Episode.verdict` in the call phase as a *failure*.
"""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .agent_clock import AgentClock, AgentTimeout
from .agents.actions import Action, Observation
from .agents.base import agent_kind, reset_agent
from .device.text import check_typable
from .errors import InfrastructureError, MobileAgentError, TaskDefinitionError
from .judge import Answer, Events, LLMVerdictNeeded, Lookups, Node, Progress, Screen, parse_hierarchy
from .llm_judge import judge_for
from .judge_clock import JudgeClock
from .metrics import StepRecord, StopReason, TaskRecord, TurnRecord
from .screen_similarity import screen_changed
from .setup.readiness import LISTENER_REPLY_TIMEOUT, listener_lost
from .tasks import new_task_record

if TYPE_CHECKING:
    from concurrent.futures import Future

    from .device import Device
    from .events import EventServer
    from .runtime import Runtime
    from .tasks import TaskSpec

__all__ = ["DriverSession", "Episode", "SETTLE_TIMEOUT"]

SETTLE_TIMEOUT = 5.0  # seconds a screen may keep changing before it is judged as it is
EVENT_QUIET = 0.03  # seconds without a new event that count as "the stream is quiet"
EVENT_QUIET_BOUND = 1.0  # longest wait for the stream to go quiet


_PIXEL_TESTS: ThreadPoolExecutor | None = None


def _pixel_test_pool() -> ThreadPoolExecutor:
    """One thread comparing screenshots for ROR, apart from the device thread and the agent."""
    global _PIXEL_TESTS
    if _PIXEL_TESTS is None:
        _PIXEL_TESTS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mobileagent-ror")
    return _PIXEL_TESTS


class AgentFault(Exception):
    """The agent produced an action the harness cannot execute."""


class Episode:
    """The state of one task run, shared with the task body's fixtures."""

    def __init__(self, spec: "TaskSpec", nodeid: str, runtime: "Runtime", repeat: int = 0):
        # The agent's reset(task) sees which repetition (--repeat-tasks) this episode is.
        self.spec = dataclasses.replace(spec, repeat=repeat)
        self.runtime = runtime
        self.options = runtime.options
        self.max_steps = spec.max_steps(self.options.max_steps_factor)
        self.progress = Progress()
        # What the judge asked for and what the screens showed: a judge's typo is named when it fails.
        self.lookups = Lookups(spec.package)
        self.events = Events(spec.package, self.progress, self.lookups)
        self.answer = Answer(spec.prompt)
        self._llm_judge = judge_for(runtime.config) if runtime.config is not None else None
        self.answer.llm_judge_available = self._llm_judge is not None
        self.screen = Screen(spec.package, lookups=self.lookups)
        self.hints: list[str] = []  # the judge's likely mistakes, when it failed (Lookups.hints)
        self.record: TaskRecord = new_task_record(spec, nodeid, self.options, repeat)
        self.last_assertion: AssertionError | None = None
        self.agent_error: BaseException | None = None
        self.definition_error: BaseException | None = None
        self.finished = False  # run() completed (with or without success)
        self._body: Callable[[], Any] | None = None
        self._device: "Device | None" = None
        self._server: "EventServer | None" = None
        self._server_dropped = 0  # the server's drop count when the episode began
        self._artifacts: Path | None = None
        self._xml = ""
        self._png: bytes | None = None
        self._png_step = 0  # the step whose observation the current screen is
        self._png_paths: dict[int, str] = {}  # step -> where this episode saved its screenshot
        # ROR from pixels: the last screenshot kept (step, png), and per step the
        # comparison of the screenshots before and after its action (AndroidLab's test),
        # running off the main thread; read when the record is finished.
        self._last_shot: tuple[int, bytes] | None = None
        self._pixel_tests: "dict[int, Future[bool]]" = {}
        # 'all' mode: the screenshot of the settled screen, still on its way
        # (see _observe); collected before the next action at the latest.
        self._pending_png: "Future[bytes] | None" = None
        self._actions_wait_for_png = False  # step agents: the harness sends every action itself
        self._lazy_seconds = 0.0  # screenshot time spent inside the agent's turn
        self._observed_via = ""  # how the last hierarchy was read: "listener" or "uiautomator"
        self._parsed: "tuple[str, list[Node]] | None" = None  # a hierarchy parsed ahead (_settle_via_listener)
        self._listener_expected = False  # the listener was connected when the episode began
        # Times the agent's code and interrupts it after --agent-timeout.
        self._clock = AgentClock(self.options.agent_timeout)
        # Bounds every judge call (--judge-timeout): a judge that never returns errors this task only.
        self._judge_clock = JudgeClock(getattr(self.options, "judge_timeout", None), spec.name,
                                       watchdog=_judge_watchdog_fd(self.runtime.config))
        self._judge_error: TaskDefinitionError | None = None  # the judge's fault, kept if an agent swallows it
        self._started = time.perf_counter()

    # -- phase 1: reset, before the task's setup fixtures ----------------------
    def reset(self) -> None:
        """Force-stop the app, clear its data (and the task's `clears`), grant permissions, forget old events."""
        device = self._device = self.runtime.device
        self._server = self.runtime.events
        self.record.device = device.label
        # This task's own readiness: its app is there, the listener still answers.
        self.runtime.check_task_ready(self.spec.package, self.spec.name)
        self.record.reset_seconds = self.runtime.reset_device((self.spec.package,), self.spec.storage)
        self.screen = Screen(self.spec.package, current_app=device.current_app, lookups=self.lookups)
        package = self.spec.package
        device.force_stop(package)
        device.clear_app(package)
        for extra in self.spec.clears:  # system data the task starts without (contacts, SMS)
            device.clear_app(extra)
        for permission in self.spec.permissions:
            device.grant(package, permission)
        self._server.drain()
        self._server_dropped = self._server.dropped

    def device_info(self) -> dict[str, str] | None:
        """Serial and Android version of the task's device, for the reports (None before reset)."""
        if self._device is None:
            return None
        try:
            version = self._device.android_version
        except MobileAgentError:
            version = "unknown"  # a lost device: the record already says what happened
        return {"serial": self._device.label, "android_version": version}

    # -- phase 2: the episode, after the setup fixtures -------------------------
    def run(self, body: Callable[[], Any], artifacts: Path | None = None) -> None:
        """Launch the app, let the agent act, judge after every action."""
        self._body = body
        self._artifacts = artifacts
        self._started = time.perf_counter()
        device = self._require_device()
        try:
            # The listener answered the readiness probe: from now on, losing it is an error.
            self._listener_expected = self._server.listener_connected  # type: ignore[union-attr]
            device.launch(self.spec.package, self.spec.activity)
            # Events caused by setup (seeding through the UI, the launch) are not the agent's.
            self._quiesce()
            self._observe(step=0)
            self.events.clear()
            if self._judge(0):
                raise TaskDefinitionError(
                    f"task {self.spec.name}: the judge already passes before the agent acted "
                    "(the setup leaves the task done, or the judge asserts too little)"
                )
            self._notify_observers(None)  # the first screen, judged
            agent = self.runtime.agent
            self.record.model = getattr(agent, "model", None)
            started = time.perf_counter()
            try:
                self._clock.call("reset", reset_agent, agent, self.spec)
            except AgentTimeout as exc:
                self._account_turn(time.perf_counter() - started, _usage_of(exc))
                self._agent_failed(exc)
            else:
                if agent_kind(agent) == "step":
                    self._run_step_agent(agent)
                else:
                    self._run_driver_agent(agent)
            if not self.record.success:
                # Events still on their way may complete the task, and so may the answer the
                # agent finished with (a query task): judge once more.
                late = self._quiesce()
                if late:
                    self.events.extend(late)
                if late or self.answer.given:
                    self._judge(self.record.steps_taken)
        except InfrastructureError as exc:
            self._errored(f"{type(exc).__name__}: {exc}")
            raise
        except TaskDefinitionError as exc:
            # Not the agent's doing either: like an infrastructure fault, the task is
            # reported as an error and left out of the agent's figures.
            self._errored(f"{type(exc).__name__}: {exc}")
            raise
        finally:
            self._finish_record()
        self.finished = True

    def _errored(self, error: str) -> None:
        """The task is an error, not judged: its record says so, and never also success."""
        self.record.stop_reason = StopReason.INFRA_ERROR
        self.record.error = error
        self.record.success = False
        self.record.success_step = None

    def _require_device(self) -> "Device":
        if self._device is None or self._server is None:
            raise RuntimeError("Episode.run() before Episode.reset()")
        return self._device

    # -- step agents -------------------------------------------------------
    def _run_step_agent(self, agent: Any) -> None:
        record = self.record
        self._actions_wait_for_png = True
        while record.steps_taken < self.max_steps:
            index = record.steps_taken
            observation = Observation(
                prompt=self.spec.prompt,
                screenshot=self._screenshot,
                hierarchy=self._xml,
                step=index,
                remaining_steps=self.max_steps - index,
                app=self.screen.nodes[0].package if self.screen.nodes else "",
                task=self.spec.name,
            )
            started = time.perf_counter()
            action: Any = None
            returned = False  # step() returned: the turn's usage is the agent's last_usage
            failure: Exception | None = None
            try:
                action = self._clock.call(f"step {index + 1}", agent.step, observation)
                returned = True
                if not isinstance(action, Action):
                    raise AgentFault(f"step() returned {action!r}, not an Action")
                if action.type != "finish":
                    self._execute(action)
            except Exception as exc:
                failure = exc
            # A screenshot the agent asked for is the harness's time, not the agent's.
            agent_seconds = time.perf_counter() - started - self._lazy_seconds
            usage = getattr(agent, "last_usage", None) if returned else _usage_of(failure)
            # Every way out of this turn passes here: the action, the finish, the failure.
            self._account_turn(agent_seconds, usage, None if failure is not None else action.to_dict())
            if isinstance(failure, InfrastructureError):
                raise failure  # the device's fault: the task is an error (its record keeps the turn)
            if failure is not None:
                self._agent_failed(failure)
                return
            if action.type == "finish":
                self.answer.text = action.answer
                record.answer = action.answer
                record.stop_reason = StopReason.FINISHED
                return
            if self.options.stop_on_success and record.success:
                record.stop_reason = StopReason.STOPPED
                return
        record.stop_reason = StopReason.STEP_BUDGET

    def _execute(self, action: Action) -> None:
        device = self._device
        assert device is not None
        self._collect_png(in_agent_turn=True)  # the screenshot shows the screen before this action
        kind = action.type
        try:
            if kind in ("tap", "long_press", "swipe") or (kind == "type" and action.x is not None):
                if action.x is None or action.y is None:
                    raise AgentFault(f"{kind} needs x and y: {action}")
            if kind == "tap":
                device.tap(action.x, action.y)
            elif kind == "long_press":
                device.long_press(action.x, action.y, action.duration_ms or 1000)
            elif kind == "swipe":
                if action.x2 is None or action.y2 is None:
                    raise AgentFault(f"swipe needs x2 and y2: {action}")
                device.swipe(action.x, action.y, action.x2, action.y2, action.duration_ms or 300)
            elif kind == "type":
                check_typable(action.text or "")  # before the tap clears the field: lose nothing
                if action.x is not None:
                    device.tap(action.x, action.y)
                    self._clear_field(action.x, action.y)
                device.type_text(action.text or "")
            elif kind == "key":
                device.key(action.text or "")
            elif kind == "launch":
                device.launch(action.text or "")
        except (ValueError, TypeError) as exc:
            # The device refuses malformed input (a bad key name, a package
            # that is not one): the agent's fault, not the harness's.
            raise AgentFault(f"cannot execute {action.to_dict()}: {exc}") from exc

    def _clear_field(self, x: int, y: int) -> None:
        """Delete the text of the editable field at (x, y): a targeted type replaces the text."""
        fields = [
            n for n in self.screen.nodes
            if "EditText" in n.cls and n.bounds[0] <= x < n.bounds[2] and n.bounds[1] <= y < n.bounds[3]
        ]
        if fields and fields[-1].text:
            # One shell call for all the key presses (input keyevent takes several codes).
            # DELs from the end, then FORWARD_DELs: MOVE_END only reaches the end of the
            # cursor's line in a multi-line field, and the tap put the cursor anywhere.
            count = len(fields[-1].text)
            self._device.shell("input keyevent MOVE_END " + " ".join(["DEL"] * count + ["FORWARD_DEL"] * count))  # type: ignore[union-attr]

    # -- driver agents -----------------------------------------------------
    def _run_driver_agent(self, agent: Any) -> None:
        session = DriverSession(self)
        try:
            answer = self._clock.call(self._driver_turn_name, agent.run, self.spec.prompt, session)
        except (InfrastructureError, TaskDefinitionError):
            raise
        except Exception as exc:
            last_turn = session.turn_seconds()  # up to here: what follows is the harness's time
            if self._judge_error is not None:
                raise self._judge_error from exc  # the judge failed inside after_action, not the agent
            self._account_turn(last_turn, _usage_of(exc))
            self._probe_device(exc)
            self._agent_failed(exc)
            return
        last_turn = session.turn_seconds()
        if self._judge_error is not None:  # the agent caught the judge's error and went on
            raise self._judge_error
        if isinstance(answer, str):
            self.answer.text = answer
            self.record.answer = answer
        if session.stopped_for_success:
            self.record.stop_reason = StopReason.STOPPED
        elif self.record.steps_taken >= self.max_steps:
            self.record.stop_reason = StopReason.STEP_BUDGET
        else:
            self.record.stop_reason = StopReason.FINISHED
            if self.record.final_turn is None:
                # The agent returned on its own without reporting its finish: the stretch
                # since its last report (a last look, deciding it was done) is its finish turn.
                self._account_turn(last_turn, None, {"type": "finish"})

    def _driver_turn_name(self) -> str:
        taken = self.record.steps_taken
        return f"run(), after {taken} action{'' if taken == 1 else 's'}"

    def _probe_device(self, cause: BaseException) -> None:
        """A driver agent raised: blame the device if it no longer answers."""
        try:
            self._device.shell("echo ok", timeout=5)  # type: ignore[union-attr]
        except Exception as exc:
            raise InfrastructureError(f"the device stopped answering ({exc}) while the agent failed with {cause!r}")

    def _agent_failed(self, exc: BaseException) -> None:
        self.agent_error = exc
        self.record.stop_reason = StopReason.AGENT_ERROR
        if not self.record.success:  # done before the agent raised: a success, and no error
            self.record.error = f"{type(exc).__name__}: {exc}"

    # -- the agent's turns -----------------------------------------------------
    def _account_turn(self, agent_seconds: float, usage: Any, action: dict[str, Any] | None = None) -> None:
        """Count one turn of the agent: every turn's time, tokens and LLM texts are recorded here.

        ``usage`` is what the agent reported for the turn (``tokens_in``,
        ``tokens_out``, ``llm_input``, ``llm_output``; None for nothing);
        ``action`` what the turn carried out, None when it failed. A turn
        that carried out an action becomes a step, observed and judged. A
        finish (an action of type ``"finish"``) or a failure ends the episode
        without an action: it becomes the record's ``final_turn``, no step,
        but its time and tokens count like any turn's (metrics.py says why).
        """
        figures = _usage_figures(usage)
        if action is not None and action.get("type") != "finish":
            self._after_action(action, agent_seconds, **figures)
            return
        self._lazy_seconds = 0.0  # screenshot time inside this turn: the harness's, and no step to carry it
        turn = TurnRecord("error" if action is None else "finish", agent_seconds, **figures)
        earlier = self.record.final_turn
        if earlier is not None:
            # A driver that reported its finish, then raised: both cost the agent, both count.
            turn = dataclasses.replace(
                turn, agent_seconds=earlier.agent_seconds + turn.agent_seconds,
                tokens_in=earlier.tokens_in + turn.tokens_in, tokens_out=earlier.tokens_out + turn.tokens_out,
                llm_input=turn.llm_input or earlier.llm_input, llm_output=turn.llm_output or earlier.llm_output)
        self.record.final_turn = turn

    # -- observing and judging ------------------------------------------------
    def _after_action(
        self,
        action: dict[str, Any],
        agent_seconds: float,
        tokens_in: int = 0,
        tokens_out: int = 0,
        llm_input: str | None = None,
        llm_output: str | None = None,
    ) -> StepRecord:
        started = time.perf_counter()
        lazy, self._lazy_seconds = self._lazy_seconds, 0.0
        before = self._xml
        self.record.steps_taken += 1
        index = self.record.steps_taken
        new_events = self._observe(step=index)
        was_success = self.record.success
        passed = self._judge(index)
        step = StepRecord(
            index=index,
            action=action,
            agent_seconds=agent_seconds,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            screenshot=self._screenshot_path(index),
            screen_changed=self._xml != before,  # until the screenshots' verdict replaces it
            judge_passed=passed and not was_success,
            milestones=list(self.progress.new),
            events=new_events,
            observed_via=self._observed_via,
            llm_input=llm_input,
            llm_output=llm_output,
        )
        self.record.steps.append(step)
        self._notify_observers(step)  # inside the step's harness time: a live view costs what it costs
        step.harness_seconds = time.perf_counter() - started + lazy
        return step

    def _notify_observers(self, step: StepRecord | None) -> None:
        """The ``pytest_mobileagent_step`` hook: the live view (``--mobileagent-watch``) and other observers."""
        self.runtime.config.hook.pytest_mobileagent_step(
            task=self.spec, record=self.record, step=step, progress=self.progress, device=self._device
        )

    def _observe(self, *, step: int = 0) -> int:
        """Settle, dump, drain events (and screenshot in 'all' mode); returns the number of new events.

        In 'all' mode with a step agent the screenshot is left to arrive while
        the harness parses and judges and the agent thinks; it is collected
        before the next action (``_execute``) or when the agent reads it.
        A driver agent acts on the device by itself, so its screenshots are
        collected here.
        """
        self._collect_png()
        xml, shot = self._settle(screenshot=self.options.screenshots == "all")
        self._xml = xml
        self._png, self._png_step, self._pending_png = None, step, shot
        if shot is not None and not self._actions_wait_for_png:
            self._collect_png()
        try:
            nodes = self._nodes_of(xml)
        except ValueError as exc:
            # The device's own output, not the agent's doing (issue 37): the task is an error.
            raise InfrastructureError(
                f"the view hierarchy device {self._device.label} gave at step {step} (through "  # type: ignore[union-attr]
                f"{self._observed_via}) cannot be read: {exc}") from None
        self.screen.update(xml, nodes)
        if self._listener_expected and not self._server.listener_connected:  # type: ignore[union-attr]
            # Its events (what event judges read) stopped: the task cannot be judged.
            raise listener_lost(self._device, f"disconnected during step {step}")  # type: ignore[arg-type]
        new = self._server.drain()  # type: ignore[union-attr]
        self.events.extend(new)
        return len(new)

    def _collect_png(self, *, in_agent_turn: bool = False) -> None:
        """Wait for the pending screenshot, if any, and save it.

        ``in_agent_turn``: called while the agent's time runs (before its
        action, or as it reads the screenshot); the wait is then moved to the
        harness's time of the next step, like a screenshot taken on demand.
        """
        shot, self._pending_png = self._pending_png, None
        if shot is None:
            return
        started = time.perf_counter()
        try:
            self._store_screenshot(shot.result())
        except InfrastructureError:
            raise
        except Exception as exc:
            # Collected inside the agent's turn, but never the agent's fault.
            raise InfrastructureError(
                f"the screenshot after step {self._png_step} could not be taken or saved: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        if in_agent_turn:
            self._lazy_seconds += time.perf_counter() - started

    def _apply_pixel_tests(self) -> None:
        """ROR: the screenshots' verdict replaces the hierarchy's wherever both screens were captured."""
        for step in self.record.steps:
            test = self._pixel_tests.get(step.index)
            if test is None:
                continue
            try:
                changed = test.result()
            except Exception:  # an undecodable screenshot: the hierarchy's verdict stands
                continue
            step.screen_changed, step.screen_change_source = changed, "screenshot"

    def _take_screenshot(self) -> bytes:
        return self._store_screenshot(self._device.screenshot_png())  # type: ignore[union-attr]

    def _store_screenshot(self, png: bytes) -> bytes:
        """Keep and save the current screen's PNG; a recorded step it belongs to points at it.

        With the screenshot of the step before, the action between them is
        compared from pixels (ROR) in the background; :meth:`_finish_record`
        puts the verdict in place of the hierarchy's.
        """
        self._png = png
        step = self._png_step
        if self._last_shot is not None and self._last_shot[0] == step - 1 and step not in self._pixel_tests:
            self._pixel_tests[step] = _pixel_test_pool().submit(screen_changed, self._last_shot[1], png)
        self._last_shot = (step, png)
        if self._artifacts is not None:
            name = self._artifacts / f"step_{self._png_step:03d}.png"
            saved = self.runtime.save_screenshot(name, png)  # None: the disk refused it (reported once)
            if saved is not None:
                self._png_paths[self._png_step] = saved
                steps = self.record.steps
                if steps and steps[-1].index == self._png_step:
                    steps[-1].screenshot = saved
        return png

    def _screenshot(self) -> bytes:
        """The current screen's PNG, taken on first request (an agent reading its observation)."""
        with self._clock.harness_turn():
            self._collect_png(in_agent_turn=True)
            if self._png is None:
                started = time.perf_counter()
                self._take_screenshot()
                self._lazy_seconds += time.perf_counter() - started
            assert self._png is not None
            return self._png

    def _screenshot_path(self, step: int) -> str | None:
        """Where this episode saved the screenshot of ``step`` (None: it saved none)."""
        return self._png_paths.get(step)

    def _settle(self, *, screenshot: bool = False) -> "tuple[str, Future[bytes] | None]":
        """Dump until two consecutive dumps agree (bounded): the UI has settled.

        With ``screenshot``, also returns the settled screen's screenshot as a
        future. Every dump after the first asks the device for a screenshot
        in the same round trip (``dump_hierarchy_then_screenshot``): the XML
        comes first and is compared at once, and if it agrees with the dump
        before, the screenshot that follows shows the settled screen; it is
        read in the background while the harness goes on. A screenshot of a
        screen still moving is dropped unread.
        """
        device = self._device
        assert device is not None
        server = self._server
        if self.options.hierarchy == "auto" and server is not None and server.listener_connected:
            settled = self._settle_via_listener(server, screenshot)
            if settled is not None:
                self._observed_via = "listener"
                return settled
        self._observed_via = "uiautomator"
        deadline = time.monotonic() + SETTLE_TIMEOUT
        previous = device.dump_hierarchy()
        while True:
            if screenshot:
                current, pending = device.dump_hierarchy_then_screenshot()
            else:
                current, pending = device.dump_hierarchy(), None
            if current == previous or time.monotonic() > deadline:
                # An endlessly animating screen is judged as it is at the bound.
                if pending is None:
                    return current, None
                try:
                    return current, self.runtime.background.submit(pending.png)
                except BaseException:
                    pending.drop()
                    raise
            if pending is not None:
                pending.drop()
            previous = current

    def _settle_via_listener(
        self, server: "EventServer", screenshot: bool
    ) -> "tuple[str, Future[bytes] | None] | None":
        """Settle on the listener's hierarchy; None when a reply is no hierarchy (use dumps then).

        The same rule as with dumps (two consecutive hierarchies agree, bounded),
        plus: no event arrived between them. A reply travels behind every event
        the app sent before it, so a window still changing shows up as a
        window-content event before the second reply. A hierarchy costs the
        listener a walk of the node tree instead of uiautomator's wait for idle.
        """
        deadline = time.monotonic() + SETTLE_TIMEOUT
        previous = self._listener_hierarchy(server, server.send_hierarchy_request())
        seen = server.received
        spare = None  # the last screenshot asked for, perhaps still on its way
        while previous is not None:
            ticket = server.send_hierarchy_request()
            # The screenshot is taken while the hierarchy that may confirm the screen
            # is asked for (its own adb connection): if the two hierarchies agree with
            # no event between them, the screen did not change in between either, and
            # the screenshot shows it. Otherwise it is left unused. One at a time: on
            # a screen that keeps moving, no screenshots pile up behind each other.
            shot = None
            if screenshot and (spare is None or spare.done()):
                shot = spare = self.runtime.background.submit(self._device.screenshot_png)  # type: ignore[union-attr]
            # While the listener answers, parse the hierarchy in hand: when the
            # screen has settled it is the step's, and _observe needs no parse.
            self._parse_ahead(previous)
            current = self._listener_hierarchy(server, ticket)
            if current is None:
                break
            now_seen = server.received
            if (current == previous and now_seen == seen) or time.monotonic() > deadline:
                if screenshot and shot is None:  # none went out with this hierarchy: take it now
                    shot = self.runtime.background.submit(self._device.screenshot_png)  # type: ignore[union-attr]
                return current, shot
            previous, seen = current, now_seen
        return None

    def _listener_hierarchy(self, server: "EventServer", ticket: "tuple[Any, int] | None") -> str | None:
        """The listener's reply to ``ticket``'s request; None for a reply that is no hierarchy (dump instead).

        No reply within LISTENER_REPLY_TIMEOUT is an infrastructure error (a
        listener that does not answer sends no events either, so the task cannot
        be judged): the lost device or adb server when that is the cause, else
        the lost listener.
        """
        reply = server.hierarchy_reply(ticket, LISTENER_REPLY_TIMEOUT)
        if reply is None:
            raise listener_lost(self._device,  # type: ignore[arg-type]
                                f"did not answer during step {self.record.steps_taken}: no reply to a "
                                f"hierarchy request within {LISTENER_REPLY_TIMEOUT:g} s")
        return _document(reply)

    def _parse_ahead(self, xml: str) -> None:
        """Parse ``xml`` now and keep its nodes for :meth:`_nodes_of` (a parse error waits for _observe)."""
        if self._parsed is not None and self._parsed[0] == xml:
            return
        try:
            self._parsed = (xml, parse_hierarchy(xml))
        except ValueError:
            self._parsed = None  # _observe parses again and reports it

    def _nodes_of(self, xml: str) -> "list[Node]":
        """The nodes of ``xml``: parsed ahead while the listener answered, or now."""
        parsed = self._parsed
        if parsed is not None and parsed[0] == xml:
            return parsed[1]
        return parse_hierarchy(xml)

    def _quiesce(self) -> list[Any]:
        """Collect events until none arrives for EVENT_QUIET seconds (bounded)."""
        server = self._server
        assert server is not None
        deadline = time.monotonic() + EVENT_QUIET_BOUND
        collected = server.drain()
        while time.monotonic() < deadline and server.wait(EVENT_QUIET):
            collected.extend(server.drain())
        return collected

    def _judge(self, step: int) -> bool:
        """Run the task body against the live state; latch success at ``step``."""
        if self.record.success:
            return True
        assert self._body is not None
        if self._judge_error is not None:
            raise self._judge_error
        self.progress.step = step
        self.progress.new = []
        try:
            self._judge_clock.call(self._body, step=step)
        except AssertionError as exc:
            self.last_assertion = exc
            return False
        except LLMVerdictNeeded as need:
            # Asked outside the judge's clock (a model takes seconds); then the body runs again.
            self._ask_llm_judge(need.question)
            return self._judge(step)
        except TaskDefinitionError as exc:  # the judge overran its bound, or tried to exit
            self._judge_error = exc
            raise
        except Exception as exc:
            self.definition_error = exc
            self._judge_error = TaskDefinitionError(
                f"task {self.spec.name}: the judge raised {type(exc).__name__}: {exc} "
                "(a task body must only fail through assert)"
            )
            raise self._judge_error from exc
        self.record.success = True
        self.record.success_step = step
        return True

    def _ask_llm_judge(self, question: Any) -> None:
        """The LLM judge's verdict on ``question``, kept on the answer and in the record."""
        assert self._llm_judge is not None  # Answer.judged_by_llm asks only when a judge is configured
        correct, reason = self._llm_judge.decide(question)  # LLMJudgeError: an infrastructure error
        self.answer.verdicts[question] = (correct, reason)
        self.record.llm_verdicts.append({
            "expected": question.expected, "criteria": question.criteria, "answer": question.answer,
            "verdict": "correct" if correct else "incorrect", "reason": reason, "model": self._llm_judge.model,
        })

    def answer_note(self) -> str | None:
        """The note "answer given ...; expected ..." for a query task that failed, else None."""
        record = self.record
        if record.expected_answer is None and not record.llm_verdicts:
            return None  # not a query task: an answer the agent gave anyway is not what failed it
        given = repr(record.answer) if record.answer is not None else "none"
        note = f"answer given: {given}; expected: {record.expected_answer!r}"
        for verdict in record.llm_verdicts:
            note += f"; LLM judge: {verdict['verdict']} ({verdict['reason']})"
        return note

    def _finish_record(self) -> None:
        record = self.record
        try:
            self._collect_png()
        except Exception:
            pass  # a failing screenshot must not hide the episode's own outcome
        if record.steps and record.steps[-1].screenshot is None and self._xml and not record.infra_error:
            # The final screen, for reports; outside every step's timing.
            try:
                self._take_screenshot()  # points the last step at it
            except Exception:
                pass  # a failing screenshot must not hide the episode's own outcome
        record.wall_seconds = time.perf_counter() - self._started
        self._apply_pixel_tests()
        record.milestones = list(self.progress.declared)
        record.milestones_reached = self.progress.reached_in_order
        record.event_log = [event.to_dict() for event in self.events]
        if self._server is not None:
            # What the server had to drop while this episode ran, and what the episode's cap dropped.
            record.events_dropped = self.events.dropped + self._server.dropped - self._server_dropped
        record.initial_screenshot = self._screenshot_path(0)  # 'all' mode, or the agent read it
        if self._artifacts is not None and self._xml:
            record.final_hierarchy = self.runtime.save_text(self._artifacts / "final_hierarchy.xml",
                                                            self.runtime.redact(self._xml))
        if not record.success and record.error is None and self.last_assertion is not None:
            self.hints = self.lookups.hints()
            record.error = _assertion_summary(self.last_assertion) + "".join(f"; {hint}" for hint in self.hints)
            note = self.answer_note()
            if note is not None:
                record.error += f"; {note}"

    # -- phase 3: the verdict, in the call phase --------------------------------
    def verdict(self) -> None:
        """Pass if success latched; else raise what the agent or the judge said."""
        if self.record.success:
            return
        if self.agent_error is not None:
            raise self.agent_error
        if self.last_assertion is not None:
            exc = self.last_assertion
            exc.add_note(
                f"[mobileagent] task {self.spec.name} not done after {self.record.steps_taken} of "
                f"{self.max_steps} steps (stop: {self.record.stop_reason})"
            )
            for hint in self.hints:
                exc.add_note(f"[mobileagent] {hint}")
            note = self.answer_note()
            if note is not None:
                exc.add_note(f"[mobileagent] {note}")
            raise exc
        raise AssertionError(f"task {self.spec.name} was not done")


def _document(xml: str | None) -> str | None:
    """The XML document alone, as ``Device.dump_hierarchy`` returns it (None stays None)."""
    if xml is None:
        return None
    start, end = xml.find("<?xml"), xml.rfind("</hierarchy>")
    if start < 0 or end < start:
        return None  # not a hierarchy: fall back to a dump
    return xml[start:end + len("</hierarchy>")]


def _usage_of(exc: BaseException | None) -> Any:
    """What a failed turn cost, as its agent said: ``exc.usage`` (the LLM agent sets it).

    Under ``--agent-timeout`` the agent was interrupted by the clock's own
    exception, which the AgentTimeout names as its cause.
    """
    for candidate in (exc, getattr(exc, "__cause__", None)):
        usage = getattr(candidate, "usage", None)
        if usage is not None:
            return usage
    return None


def _usage_figures(usage: Any) -> dict[str, Any]:
    """A turn's reported usage as the record keeps it (unknown keys are the agent's own business)."""
    usage = usage if isinstance(usage, dict) else {}
    return {
        "tokens_in": int(usage.get("tokens_in") or 0),
        "tokens_out": int(usage.get("tokens_out") or 0),
        "llm_input": usage.get("llm_input"),
        "llm_output": usage.get("llm_output"),
    }


def _assertion_summary(exc: AssertionError) -> str:
    text = str(exc).strip().splitlines()
    return "AssertionError: " + (text[0] if text else "(no message)")


class DriverSession:
    """What a driver agent reports its actions to (see :class:`~.agents.Session`).

    Attributes: ``prompt`` (the task's instruction), ``task`` (the task's
    name: its test function's name), ``serial`` (what an agent passes to its
    own adb client; a virtual phone's is ``127.0.0.1:<adb port>``),
    ``adb_server`` ((host, port) of the adb server that owns the device, for
    that client: ``adbutils.AdbClient(*session.adb_server)``),
    ``device`` (the harness's :class:`~pytest_mobileagent.device.Device` on the
    same phone, for agents without an adb client of their own; acting through
    it records nothing by itself) and ``max_steps`` (the step budget).
    Properties: ``steps_taken`` (actions recorded so far), ``remaining_steps``
    and ``success`` (for logging only).

    Before ``run`` the agent's ``reset(task)`` (if it has one) was called with
    the :class:`~pytest_mobileagent.tasks.TaskSpec`, as for step agents
    (``task.repeat``: which repetition of the task this is, under ``--repeat-tasks``).
    """

    def __init__(self, episode: Episode):
        self._episode = episode
        self.prompt = episode.spec.prompt
        self.task = episode.spec.name
        self.device = episode._device
        self.serial = episode._device.serial if episode._device is not None else ""
        #: (host, port) of the adb server that owns the device: another machine's under --adb-server.
        self.adb_server = getattr(episode._device, "_addr", None)
        self.max_steps = episode.max_steps
        self.stopped_for_success = False
        self.finish_reported = False  # the agent reported its finish through after_action
        self._started: float | None = None
        self._last_end = time.perf_counter()

    @property
    def steps_taken(self) -> int:
        return self._episode.record.steps_taken

    @property
    def remaining_steps(self) -> int:
        return max(0, self.max_steps - self.steps_taken)

    @property
    def success(self) -> bool:
        """The task is done (only for logging: agents must not peek to decide)."""
        return self._episode.record.success

    def before_action(self) -> None:
        """Start timing the agent's next action: call it before the agent observes the screen.

        The action's Latency is the time from here to :meth:`after_action`: the
        agent's own observation (its dump or screenshot), its thinking and the
        action on the device.  Without a call, timing starts where the previous
        ``after_action`` returned (for the first action: when ``run`` began).
        """
        self._started = time.perf_counter()

    def turn_seconds(self) -> float:
        """The agent's time in its current turn so far (from ``before_action``, else the last report)."""
        started = self._started if self._started is not None else self._last_end
        return time.perf_counter() - started

    def after_action(
        self,
        action: Any,
        llm_input: str | None = None,
        llm_output: str | None = None,
        tokens_in: int | None = None,
        tokens_out: int | None = None,
    ) -> bool:
        """Record an action the agent has carried out, then observe and judge.

        ``action`` is recorded as the step's action: an :class:`Action` as its
        ``to_dict()`` (``{"type": "tap", "x": 540, "y": 1200}``), a dict as a copy
        of itself (give it a ``"type"``), anything else (a string) as
        ``{"type": "other", "description": str(action)}``.  ``llm_input``,
        ``llm_output`` and the token counts go into the step record and reports.
        A finish (``Action.finish(answer)``, or a dict of type ``"finish"``)
        is the agent's declaration that it is done: it records the turn that
        decided so (its time, tokens and texts count; it is no step) and its
        answer, and returns True.
        Returns True when the agent must stop now: the step budget is spent, the
        task is done under ``--stop-on-success``, or the agent finished; a call
        after that records nothing and returns True again.
        """
        seconds = self.turn_seconds()
        if self.remaining_steps == 0 or self.stopped_for_success or self.finish_reported:
            return True
        self._started = None
        recorded = _action_dict(action)
        usage = {"tokens_in": tokens_in, "tokens_out": tokens_out, "llm_input": llm_input, "llm_output": llm_output}
        with self._episode._clock.harness_turn():
            self._episode._account_turn(seconds, usage, recorded)
        self._last_end = time.perf_counter()
        if recorded.get("type") == "finish":
            self.finish_reported = True
            if recorded.get("answer") is not None:  # a string run() returns still wins
                self._episode.answer.text = self._episode.record.answer = str(recorded["answer"])
            return True
        if self._episode.options.stop_on_success and self._episode.record.success:
            self.stopped_for_success = True
            return True
        return self.remaining_steps == 0


def _action_dict(action: Any) -> dict[str, Any]:
    if isinstance(action, Action):
        return action.to_dict()
    if isinstance(action, dict):
        return dict(action)
    return {"type": "other", "description": str(action)}


def _judge_watchdog_fd(config: Any) -> int:
    """Where the judge's warden writes its note: pytest's own copy of stderr (fd 2 is the
    capture file during a test), where faulthandler writes the stacks that follow it."""
    try:
        from _pytest.faulthandler import fault_handler_stderr_fd_key
    except ImportError:  # pragma: no cover - a pytest without its faulthandler plugin
        return 2
    return config.stash.get(fault_handler_stderr_fd_key, 2) if config is not None else 2

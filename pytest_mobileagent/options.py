"""Command-line options and ini keys of the plugin core, parsed once into types.

Each option has one stem for its flag, ini key and ``dest``
(``--max-steps-factor`` / ``max_steps_factor``). The command line wins over
the ini file. The reporting options live in :mod:`pytest_mobileagent.reporting.options`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

__all__ = ["DEFAULT_AGENT", "MobileAgentOptions", "add_options"]

DEFAULT_AGENT = "replay"
DEFAULT_MAX_STEPS_FACTOR = 2.0
# Longer than any model call the built-in agent makes with its own retries
# (--llm-timeout 60 s, three tries), far shorter than a CI job's limit.
DEFAULT_AGENT_TIMEOUT = 300.0
# A judge reads the screen and maybe a provider or two (tens of ms on a phone):
# seconds more mean a loop or a wait that never ends.
DEFAULT_JUDGE_TIMEOUT = 5.0
SCREENSHOT_MODES = ("auto", "all")
HIERARCHY_SOURCES = ("auto", "dump")


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("mobileagent", "mobile agent benchmark")
    specs = [
        ("agent", dict(metavar="NAME"), "string",
         f"Agent under test (a registered name; default {DEFAULT_AGENT!r})."),
        ("agent_seed", dict(metavar="N"), "string", "Seed of randomised agents such as 'random' (default 0)."),
        ("agent_timeout", dict(metavar="SECONDS"), "string",
         f"Longest time the agent may take for one action (default {DEFAULT_AGENT_TIMEOUT:g}); "
         "an agent that overruns is interrupted, its task fails and the run goes on. 0: no limit."),
        ("judge_timeout", dict(metavar="SECONDS"), "string",
         f"Longest time one run of a task's judge (its body) may take (default {DEFAULT_JUDGE_TIMEOUT:g}); "
         "a judge that overruns makes its task an error naming where it was stuck, and the run goes on. "
         "0: no limit, and the judge runs on pytest's main thread (for a debugger)."),
        ("device", dict(metavar="SERIAL", action="append"), "linelist",
         "adb serial of a device to use (repeatable: one per xdist worker). "
         "Default: attached devices, else virtual phones started on demand."),
        ("device_wait", dict(metavar="SECONDS"), "string",
         "How long to wait for a --device that another run is using (default 0: stop at once, "
         "naming the run that holds it)."),
        ("max_steps_factor", dict(metavar="F"), "string",
         f"Step budget per task = F * min_steps (default {DEFAULT_MAX_STEPS_FACTOR:g})."),
        ("stop_on_success", dict(action="store_true", default=None), "bool",
         "Stop the agent as soon as the task is done (default: let it run, so over-execution is measured)."),
        ("mobileagent_screenshots", dict(choices=SCREENSHOT_MODES), "string",
         "When to take per-step screenshots: 'auto' (default) when the agent reads its observation's "
         "screenshot, 'all' after every action (complete trajectories; about 2 ms more per step on the "
         "virtual phone)."),
        ("mobileagent_hierarchy", dict(choices=HIERARCHY_SOURCES), "string",
         "Where each step's view hierarchy comes from: 'auto' (default) from the listener app when it is "
         "connected (no uiautomator wait for idle; about a second less per dump on a real device), else "
         "from `uiautomator dump`; 'dump' always from `uiautomator dump`."),
        ("mobileagent_artifacts", dict(metavar="DIR"), "string",
         "Directory for per-step screenshots and hierarchies (default: under pytest's basetemp)."),
        ("mab_listener", dict(action="store_true", default=None), "bool",
         "Also take the events of the original MobileAgentBench listener app, which POSTs them to device "
         "port 8888: each worker reverses that port to its event server (`adb reverse`; a device behind "
         "another machine's adb server then needs the port carried back by hand). The project's own "
         "listener needs nothing of the kind: the worker dials it through the adb server."),
        ("mobileagent_watch", dict(action="store_true", default=None), "bool",
         "Serve a live view of the run on 127.0.0.1 (its URL, with a secret token, is printed at the start): "
         "each worker's phone, the agent's last action and LLM output, the step count and the milestones."),
    ]
    for stem, kwargs, ini_type, help_text in specs:
        group.addoption("--" + stem.replace("_", "-"), dest=stem, help=help_text, **kwargs)
        parser.addini(stem, help=help_text, type=ini_type, default=None)


def _get(config: pytest.Config, stem: str) -> Any:
    value = config.getoption(stem, default=None)
    return value if value not in (None, []) else config.getini(stem)


def _number(config: pytest.Config, stem: str, kind: type, default: Any, what: str) -> tuple[Any, Any]:
    """The option's value as ``kind`` (``default`` when unset) and the text it came from."""
    text = _get(config, stem)
    if text in (None, ""):
        return default, text
    try:
        return kind(str(text).strip()), text
    except ValueError:
        flag = "--" + stem.replace("_", "-")
        raise pytest.UsageError(f"{flag}: {text!r} is not {what}") from None


@dataclass(frozen=True)
class MobileAgentOptions:
    """The core options of one run, validated."""

    agent: str = DEFAULT_AGENT
    agent_seed: int = 0
    agent_timeout: float | None = DEFAULT_AGENT_TIMEOUT  # None: no limit
    judge_timeout: float | None = DEFAULT_JUDGE_TIMEOUT  # None: no limit, on the main thread
    devices: tuple[str, ...] = ()
    device_wait: float = 0.0
    max_steps_factor: float = DEFAULT_MAX_STEPS_FACTOR
    stop_on_success: bool = False
    artifacts: Path | None = None
    screenshots: str = "auto"
    hierarchy: str = "auto"
    watch: bool = False  # --mobileagent-watch: the live view of the run (studio/watch.py)
    mab_listener: bool = False  # --mab-listener: the push direction for MobileAgentBench's own listener

    @classmethod
    def from_config(cls, config: pytest.Config) -> "MobileAgentOptions":
        agent = str(_get(config, "agent") or DEFAULT_AGENT).strip()
        seed, _ = _number(config, "agent_seed", int, 0, "an integer")
        factor, factor_text = _number(config, "max_steps_factor", float, DEFAULT_MAX_STEPS_FACTOR, "a number")
        if not factor >= 1:  # also rejects NaN
            raise pytest.UsageError(
                f"--max-steps-factor: {factor_text!r} must be at least 1 (the budget cannot be below min_steps)"
            )
        timeout, timeout_text = _number(config, "agent_timeout", float, DEFAULT_AGENT_TIMEOUT, "a number of seconds")
        if not timeout >= 0 or timeout == float("inf"):  # also rejects NaN
            raise pytest.UsageError(f"--agent-timeout: {timeout_text!r} must be 0 (no limit) or a positive number")
        judge_timeout, judge_text = _number(config, "judge_timeout", float, DEFAULT_JUDGE_TIMEOUT,
                                            "a number of seconds")
        if not judge_timeout >= 0 or judge_timeout == float("inf"):  # also rejects NaN
            raise pytest.UsageError(f"--judge-timeout: {judge_text!r} must be 0 (no limit) or a positive number")
        devices: list[str] = []
        for entry in _get(config, "device") or []:
            # "--device a,b" is accepted as well as repeating the flag.
            serials = [s.strip() for s in str(entry).split(",")]
            if not all(serials):  # "--device ''" (an unset shell variable) must not mean "any device"
                raise pytest.UsageError(
                    f"--device: an empty serial in {str(entry)!r}; give the serials `adb devices` lists, "
                    "or leave --device out to use the attached devices (else virtual phones)")
            devices.extend(serials)
        if len(set(devices)) != len(devices):
            raise pytest.UsageError(f"--device: a serial is given twice in {devices}")
        device_wait, wait_text = _number(config, "device_wait", float, 0.0, "a number of seconds")
        if not 0 <= device_wait < float("inf"):  # also rejects NaN
            raise pytest.UsageError(f"--device-wait: {wait_text!r} must be 0 or a positive number of seconds")
        stop = _get(config, "stop_on_success")
        if isinstance(stop, str):
            stop = stop.strip().lower() in {"1", "true", "yes", "on"}
        artifacts = _get(config, "mobileagent_artifacts")
        artifacts_path = None
        if artifacts:
            artifacts_path = Path(os.path.expanduser(str(artifacts)))
            if not artifacts_path.is_absolute():
                from_cli = config.getoption("mobileagent_artifacts", default=None) is not None
                base = Path(str(config.invocation_params.dir if from_cli else config.rootpath))
                artifacts_path = base / artifacts_path
        screenshots = str(_get(config, "mobileagent_screenshots") or "auto").strip()
        if screenshots not in SCREENSHOT_MODES:
            raise pytest.UsageError(
                f"--mobileagent-screenshots: {screenshots!r} is not one of {', '.join(SCREENSHOT_MODES)}"
            )
        hierarchy = str(_get(config, "mobileagent_hierarchy") or "auto").strip()
        if hierarchy not in HIERARCHY_SOURCES:
            raise pytest.UsageError(
                f"--mobileagent-hierarchy: {hierarchy!r} is not one of {', '.join(HIERARCHY_SOURCES)}"
            )
        watch = _get(config, "mobileagent_watch")
        if isinstance(watch, str):
            watch = watch.strip().lower() in {"1", "true", "yes", "on"}
        mab_listener = _get(config, "mab_listener")
        if isinstance(mab_listener, str):
            mab_listener = mab_listener.strip().lower() in {"1", "true", "yes", "on"}
        return cls(
            watch=bool(watch),
            mab_listener=bool(mab_listener),
            screenshots=screenshots,
            hierarchy=hierarchy,
            agent=agent,
            agent_seed=seed,
            agent_timeout=timeout or None,
            judge_timeout=judge_timeout or None,
            devices=tuple(devices),
            device_wait=device_wait,
            max_steps_factor=factor,
            stop_on_success=bool(stop),
            artifacts=artifacts_path,
        )

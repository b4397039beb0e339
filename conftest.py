"""Defaults for running the benchmark from a checkout (``pytest task_tests ...``).

The plugin is normally loaded through its ``pytest11`` entry point (``pip
install -e .``); from a bare checkout this loads it explicitly instead.
Benchmarks and examples are scripts and plugins, not tests to collect.
"""

from importlib.metadata import entry_points

collect_ignore = ["benchmarks", "examples"]

if not any(ep.value == "pytest_mobileagent.plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins = ["pytest_mobileagent.plugin"]

"""Reporting: terminal summary, JSON results, baseline gating, pass@k, Allure, plots.

``options.add_options`` is called from the core plugin's ``pytest_addoption``
and ``plugin.ReportingPlugin(config)`` is registered in its ``pytest_configure``.
"""

#: Markers that make a test function a benchmark task (repeated by --repeat-tasks).
TASK_MARKERS = ("mobileagent_task",)

__all__ = ["TASK_MARKERS"]

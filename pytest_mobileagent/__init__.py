"""pytest-mobileagent: benchmark tasks for mobile LLM agents as pytest tests."""

__version__ = "0.1.0"

"""The benchmark: MobileAgentBench's 100 tasks, one module per app (shipped in the wheel as pytest_mobileagent.task_tests)."""

"""The extended suite: task families (parameters drawn per instance) and query tasks beyond MobileAgentBench's 100."""

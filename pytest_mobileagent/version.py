"""The plugin's version, below every module that reports it (the results file's ``plugin_version``)."""

__version__ = "0.1.0"

"""Redaction of secrets (API keys, tokens) from everything the plugin writes.

The secrets are the values of environment variables whose names look like
credentials (``OPENAI_API_KEY``, ``HF_TOKEN``, ``*SECRET*``...). An agent may
echo its key into an LLM prompt, an exception message or its output; every
text that reaches the terminal summary, the results file or an Allure
attachment goes through :meth:`Redactor.text` / :meth:`Redactor.data` first.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import os
from pathlib import Path
from typing import Any, Iterable, Mapping

from .options import DEFAULT_SECRET_PATTERNS

__all__ = ["RedactingFilter", "Redactor", "install_log_redaction", "run_redactor"]

# Shorter values are flags ("1", "true"), not credentials; redacting them would
# mangle every text they happen to occur in.
MIN_SECRET_LENGTH = 6
_NOT_SECRETS = {"false", "true", "none", "null", "disabled", "enabled"}


class Redactor:
    """Replaces known secret values with ``[REDACTED:NAME]``."""

    def __init__(self, secrets: Mapping[str, str]):
        # A secret is also looked for as JSON writes it inside a string (a quote,
        # a backslash, a non-ASCII letter escaped), so text that is already
        # JSON (the live pages' messages) is redacted too.
        forms = {(form, name) for name, value in secrets.items()
                 for form in (value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1])}
        # Longest first, so a secret that contains another is replaced whole.
        self._secrets = sorted(forms, key=lambda pair: (len(pair[0]), pair), reverse=True)

    @classmethod
    def from_environ(
        cls, patterns: Iterable[str] = DEFAULT_SECRET_PATTERNS, environ: Mapping[str, str] | None = None
    ) -> "Redactor":
        environ = os.environ if environ is None else environ
        upper_patterns = [p.upper() for p in patterns]
        secrets = {
            name: value
            for name, value in environ.items()
            if len(value) >= MIN_SECRET_LENGTH
            and value.strip().lower() not in _NOT_SECRETS
            and any(fnmatch.fnmatchcase(name.upper(), p) for p in upper_patterns)
        }
        return cls(secrets)

    def __bool__(self) -> bool:
        return bool(self._secrets)

    @property
    def names(self) -> list[str]:
        return sorted({name for _, name in self._secrets})

    def text(self, value: str) -> str:
        for secret, name in self._secrets:
            if secret in value:
                value = value.replace(secret, f"[REDACTED:{name}]")
        return value

    def contains_secret(self, value: str) -> bool:
        return any(secret in value for secret, _ in self._secrets)

    def data(self, value: Any) -> Any:
        """A copy of JSON-like ``value`` with every string (keys too) redacted."""
        if not self._secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.data(k) if isinstance(k, str) else k: self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self.data(v) for v in value)
        return value

    def scrub_tree(self, root: Path, skip_suffixes: Iterable[str] = (".png", ".jpg", ".jpeg", ".gif", ".webp")) -> list[Path]:
        """Rewrite text files under ``root`` that contain a secret; returns those files.

        The backstop for what other plugins (allure-pytest's captured output,
        test parameters) wrote without going through this class.
        """
        changed: list[Path] = []
        if not self._secrets or not root.is_dir():
            return changed
        skipped = tuple(skip_suffixes)
        encoded = [(secret.encode(), name) for secret, name in self._secrets]
        for path in root.rglob("*"):
            # Images are binary: rewriting bytes in them could only corrupt them.
            if not path.is_file() or path.name.lower().endswith(skipped):
                continue
            try:
                raw = path.read_bytes()
            except OSError:
                continue
            if not any(secret in raw for secret, _ in encoded):
                continue
            for secret, name in encoded:
                raw = raw.replace(secret, f"[REDACTED:{name}]".encode())
            path.write_bytes(raw)
            changed.append(path)
        return changed


class RedactingFilter(logging.Filter):
    """A handler filter that rewrites a record's message (and traceback) without its secrets.

    On a handler, it sees every record the handler emits, including those
    propagated from other loggers (a logger's own filters would not).
    """

    def __init__(self, redactor: Redactor):
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to the handler to report
            return True
        if self.redactor.contains_secret(message):
            record.msg, record.args = self.redactor.text(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and self.redactor.contains_secret(record.exc_text):
            record.exc_text = self.redactor.text(record.exc_text)
        if record.stack_info and self.redactor.contains_secret(record.stack_info):
            record.stack_info = self.redactor.text(record.stack_info)
        return True


def install_log_redaction(config: Any, redactor: Redactor) -> RedactingFilter | None:
    """Put a :class:`RedactingFilter` on pytest's log handlers (captured logs, the
    live log, ``--log-file``) and the root logger's handlers; None if no secret is known."""
    if not redactor:
        return None
    handlers = list(logging.getLogger().handlers)
    plugin = config.pluginmanager.get_plugin("logging-plugin")
    for name in ("caplog_handler", "report_handler", "log_file_handler", "log_cli_handler"):
        handler = getattr(plugin, name, None)
        if isinstance(handler, logging.Handler):
            handlers.append(handler)
    redacting = RedactingFilter(redactor)
    for handler in handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(redacting)
    return redacting


#: The name the reporting plugin is registered under (``pytest_mobileagent.plugin``).
REPORTING_PLUGIN = "mobileagent-reporting"


def run_redactor(config: Any) -> Redactor:
    """The run's redactor: the reporting plugin's, which every report, log and
    saved hierarchy of the run goes through (the ini's ``redact_env`` included)."""
    redactor = getattr(config.pluginmanager.get_plugin(REPORTING_PLUGIN), "redactor", None)
    if isinstance(redactor, Redactor):
        return redactor
    # Not registered (yet, or reporting is not installed): the same secrets, by the default names.
    return Redactor.from_environ()

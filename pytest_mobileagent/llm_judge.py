"""The optional LLM judge of free-form answers: any OpenAI-compatible chat-completions endpoint.

Off by default; ``--llm-judge-url URL`` (and ``--llm-judge-model NAME``) turn it on. A query task
whose answer needs it says so (``@task(..., llm_judge=True)``) and calls
``answer.judged_by_llm(expected=..., criteria=...)`` in its body; without an endpoint such a task
is skipped, with the reason. The deterministic comparisons of
:class:`~pytest_mobileagent.judge.Answer` stay the default, and the ones CI uses.

The model must reply with one JSON object, ``{"verdict": "correct" | "incorrect", "reason": "..."}``.
Anything else (no reply within ``--llm-judge-timeout``, an HTTP error, a reply that is not that
object) is :class:`LLMJudgeError`, an infrastructure error: a broken judge never passes a task.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any

import pytest

from .errors import InfrastructureError
from .judge import LLMQuestion

__all__ = ["LLMJudge", "LLMJudgeError", "add_options", "judge_for", "SYSTEM_PROMPT"]

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT = 60.0
#: Where the judge's API key is read from (the first set), so it can differ from the agent's.
API_KEY_VARIABLES = ("MOBILEAGENT_LLM_JUDGE_API_KEY", "OPENAI_API_KEY")

SYSTEM_PROMPT = (
    "You judge the answer an agent gave to a question about the contents of an Android phone. "
    "Decide whether the given answer states the expected answer: wording, case, units and formatting "
    "do not matter, a different value does, and so does an answer that hedges between values. "
    "Apply the criteria if any are given. Reply with one JSON object and nothing else: "
    '{"verdict": "correct" or "incorrect", "reason": "<one sentence>"}'
)

_STASH = pytest.StashKey["LLMJudge | None"]()
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


class LLMJudgeError(InfrastructureError):
    """The LLM judge did not decide: no reply in time, an HTTP error, or a reply that is no verdict."""


def add_options(parser: pytest.Parser) -> None:
    """``--llm-judge-url``, ``--llm-judge-model``, ``--llm-judge-timeout`` (and ini keys of the same stems)."""
    group = parser.getgroup("mobileagent-llm-judge", "mobileagent LLM judge of free-form answers")
    specs = [
        ("llm_judge_url", "URL", "OpenAI-compatible endpoint of the LLM judge (default: none; tasks that "
                                 "need the judge are skipped)."),
        ("llm_judge_model", "NAME", f"Model name sent to the judge's endpoint (default {DEFAULT_MODEL})."),
        ("llm_judge_timeout", "SECONDS", f"Seconds to wait for one verdict (default {DEFAULT_TIMEOUT:g}); "
                                         "no verdict in time makes the task an error."),
    ]
    for stem, metavar, help_text in specs:
        group.addoption("--" + stem.replace("_", "-"), dest=stem, metavar=metavar, help=help_text)
        parser.addini(stem, help=help_text, type="string", default=None)


@dataclass(frozen=True)
class LLMJudge:
    """Asks one endpoint for verdicts (one request per question, no retries)."""

    base_url: str
    model: str = DEFAULT_MODEL
    api_key: str = ""
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_config(cls, config: pytest.Config) -> "LLMJudge | None":
        """The judge the options ask for; None without ``--llm-judge-url``. UsageError for bad values."""

        def get(stem: str) -> Any:
            value = config.getoption(stem, default=None)
            return value if value not in (None, "") else config.getini(stem)

        url = get("llm_judge_url")
        if not url:
            return None
        if not re.match(r"https?://", str(url)):
            raise pytest.UsageError(f"--llm-judge-url: {url!r} is not an http(s) URL")
        timeout_text = get("llm_judge_timeout")
        try:
            timeout = float(timeout_text) if timeout_text else DEFAULT_TIMEOUT
        except ValueError:
            raise pytest.UsageError(f"--llm-judge-timeout: {timeout_text!r} is not a number of seconds") from None
        if not 0 < timeout < float("inf"):
            raise pytest.UsageError(f"--llm-judge-timeout: {timeout_text!r} must be a positive number of seconds")
        api_key = next((os.environ[v] for v in API_KEY_VARIABLES if os.environ.get(v)), "")
        return cls(str(url), str(get("llm_judge_model") or DEFAULT_MODEL), api_key, timeout)

    def messages(self, question: LLMQuestion) -> list[dict[str, str]]:
        lines = [f"Question: {question.prompt}", f"Expected answer: {question.expected}"]
        if question.criteria:
            lines.append(f"Criteria: {question.criteria}")
        lines.append(f"Given answer: {question.answer}")
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "\n".join(lines)}]

    def decide(self, question: LLMQuestion) -> tuple[bool, str]:
        """(correct, reason) for the question; :class:`LLMJudgeError` when the endpoint does not decide."""
        # Imported here: the openai client (the `llm` extra) loads only when a task asks the judge.
        import openai

        client = openai.OpenAI(base_url=self.base_url, api_key=self.api_key or "none",
                               timeout=self.timeout, max_retries=0)
        try:
            reply = client.chat.completions.create(model=self.model, messages=self.messages(question),
                                                   temperature=0)  # type: ignore[arg-type]
        except openai.APITimeoutError:
            raise LLMJudgeError(f"the LLM judge at {self.base_url} gave no verdict within "
                                f"{self.timeout:g} s (--llm-judge-timeout)") from None
        except openai.APIStatusError as exc:
            raise LLMJudgeError(f"the LLM judge at {self.base_url} answered HTTP {exc.status_code}") from exc
        except openai.APIConnectionError as exc:
            raise LLMJudgeError(f"cannot reach the LLM judge at {self.base_url}: {exc.__cause__ or exc}") from exc
        except openai.OpenAIError as exc:  # a body that is no chat completion, among others
            raise LLMJudgeError(f"the LLM judge at {self.base_url} sent no completion: {exc}") from exc
        try:
            text = reply.choices[0].message.content or ""
        except (AttributeError, IndexError, TypeError):
            raise LLMJudgeError(f"the LLM judge at {self.base_url} sent no completion: {reply!r:.200}") from None
        return parse_verdict(text, self.base_url)


def parse_verdict(text: str, where: str = "the LLM judge") -> tuple[bool, str]:
    """(correct, reason) from the model's reply; :class:`LLMJudgeError` unless it is one verdict object."""
    match = _JSON_OBJECT.search(text)
    try:
        data = json.loads(match.group(0)) if match else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        raise LLMJudgeError(f"the LLM judge at {where} replied with no JSON object: {text[:200]!r}")
    verdict, reason = data.get("verdict"), data.get("reason")
    if verdict not in ("correct", "incorrect") or not isinstance(reason, str) or not reason.strip():
        raise LLMJudgeError(f"the LLM judge at {where} replied with no verdict ('correct' or 'incorrect') "
                            f"and reason: {text[:200]!r}")
    return verdict == "correct", reason.strip()


def judge_for(config: pytest.Config) -> LLMJudge | None:
    """This run's LLM judge (read from the options once per process), or None."""
    if _STASH not in config.stash:
        config.stash[_STASH] = LLMJudge.from_config(config)
    return config.stash[_STASH]

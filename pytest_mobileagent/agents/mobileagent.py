"""``mobileagent``: an LLM agent over any OpenAI-compatible chat endpoint.

Each step it shows the model the task, the actions taken so far and a
numbered list of the screen's interactive elements (optionally the screenshot
too), and asks for exactly one action as JSON. Elements are referred to by
number, so the model never has to guess coordinates.

Settings (command line, ini key of the same stem, then environment):

* ``--llm-base-url`` / ``MOBILEAGENT_LLM_BASE_URL`` / ``OPENAI_BASE_URL``
* ``--llm-model`` / ``MOBILEAGENT_LLM_MODEL`` (default ``gpt-4o-mini``)
* ``--llm-api-key-env NAME``: the environment variable holding the key
  (default ``MOBILEAGENT_LLM_API_KEY``, then ``OPENAI_API_KEY``). The key is
  read from the environment only, never from the command line, so it cannot
  leak into reports of the run's arguments.
* ``--llm-vision``: also send the screenshot.
* ``--llm-timeout SECONDS`` (default 60): a hanging endpoint becomes an agent
  failure after this long instead of stalling the run.

A request the endpoint failed in a way that may pass (no reply in time, a
dropped connection, HTTP 408, 409, 429 or 5xx) is sent once more, and never
silently: each retry is an :class:`LLMRetryWarning` (pytest's warnings
summary lists it with its task), and a task that fails after a retry says so
in its one line. The openai client's own retries are off: they are silent,
and a hanging endpoint took twice ``--llm-timeout`` and a pause with no word why.
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import MobileAgentError
from ..judge import parse_hierarchy
from ..metrics import estimate_image_tokens, estimate_text_tokens
from .actions import Action, Observation
from .base import AgentContext

if TYPE_CHECKING:
    import pytest

    from ..judge import Node
    from ..tasks import TaskSpec

__all__ = ["LLMRetryWarning", "LLMSettings", "MobileAgent", "add_options", "describe_elements", "parse_reply"]

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT = 60.0
MAX_ELEMENTS = 80  # long lists cost tokens and rarely help the model
#: A request is sent once more after a failure that may pass. The statuses are the openai client's
#: own rule (_base_client.py, SyncAPIClient._should_retry: 408, 409, 429 and every 5xx).
RETRY_STATUSES = frozenset({408, 409, 429})
#: The pause before sending again, unless the endpoint names one (Retry-After, in seconds, up to
#: MAX_RETRY_AFTER): the openai client's first pause (_constants.py, INITIAL_RETRY_DELAY). None
#: after a timeout, which has waited --llm-timeout already.
RETRY_PAUSE = 0.5
MAX_RETRY_AFTER = 60.0

SYSTEM_PROMPT = """\
You operate an Android phone to complete a task for the user.
Each turn you see the task, the actions you already took, and the numbered
interactive elements of the current screen. Reply with exactly one JSON object,
nothing else, choosing one of these actions:
{"action": "tap", "element": N}
{"action": "long_press", "element": N}
{"action": "type", "element": N, "text": "..."}   (replaces the field's text)
{"action": "swipe", "direction": "up" | "down" | "left" | "right"}   (scrolls the content)
{"action": "key", "key": "BACK" | "HOME" | "ENTER"}
{"action": "launch", "app": "<package name>"}
{"action": "wait"}
{"action": "finish", "answer": "<answer if the task asks a question, else empty>"}
Reply "finish" only when the task is complete."""


class AgentReplyError(MobileAgentError):
    """The model's reply is not a valid action (after one request to correct it)."""


class LLMEndpointError(MobileAgentError):
    """The endpoint answered with an HTTP error, did not answer in time, or could not be reached.

    Its message is one line (status code, or the timeout, and the endpoint's own
    message); the client library's exception is its ``__cause__``.
    """


class LLMRetryWarning(UserWarning):
    """A request to the endpoint failed and was sent again (one line: what failed, where)."""


def _retry_pause(exc: Exception) -> float | None:
    """Seconds to wait before sending a failed request again; None: it is not worth another try."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return 0.0
    if isinstance(exc, openai.APIConnectionError):
        return RETRY_PAUSE
    if isinstance(exc, openai.APIStatusError) and (exc.status_code in RETRY_STATUSES or exc.status_code >= 500):
        named = exc.response.headers.get("retry-after")
        try:
            pause = float(named) if named is not None else RETRY_PAUSE
        except ValueError:  # an HTTP date: not worth parsing for one retry
            pause = RETRY_PAUSE
        return pause if 0 <= pause <= MAX_RETRY_AFTER else None
    return None


def _after_retry(error: Exception, first: Exception) -> LLMEndpointError:
    """The failure of a retried request, saying that it was retried (and how the first try failed)."""
    if str(error) == str(first):
        return LLMEndpointError(f"{error}, twice: the request was sent once more")
    return LLMEndpointError(f"{error}, when sent once more after: {first}")


def _endpoint_error(exc: Exception, settings: "LLMSettings") -> Exception:
    """A one-line :class:`LLMEndpointError` for the openai client's errors (others unchanged)."""
    import openai

    where = settings.base_url
    if isinstance(exc, openai.APITimeoutError):
        return LLMEndpointError(f"no reply from {where} within {settings.timeout:g} s (--llm-timeout)")
    if isinstance(exc, openai.APIStatusError):
        body = exc.body
        message = body.get("message") if isinstance(body, dict) else None
        message = message or (body if isinstance(body, str) else None) or exc.response.reason_phrase
        return LLMEndpointError(f"HTTP {exc.status_code} from {where}: {' '.join(str(message).split())[:300]}")
    if isinstance(exc, openai.APIConnectionError):
        reason = exc.__cause__ or exc
        return LLMEndpointError(f"cannot reach {where}: {' '.join(str(reason).split())[:300]}")
    return exc


def add_options(parser: "pytest.Parser") -> None:
    """The ``--llm-*`` options (and ini keys of the same stems)."""
    group = parser.getgroup("mobileagent-llm", "mobileagent LLM agent")
    specs = [
        ("llm_base_url", dict(metavar="URL"), "OpenAI-compatible endpoint of the mobileagent agent."),
        ("llm_model", dict(metavar="NAME"), f"Model name sent to the endpoint (default {DEFAULT_MODEL})."),
        ("llm_api_key_env", dict(metavar="VAR"), "Environment variable holding the API key."),
        ("llm_vision", dict(action="store_true", default=None), "Send the screenshot to the model as well."),
        ("llm_timeout", dict(metavar="SECONDS"), f"Seconds to wait for one model reply (default {DEFAULT_TIMEOUT:g})."),
    ]
    for stem, kwargs, help_text in specs:
        group.addoption("--" + stem.replace("_", "-"), dest=stem, help=help_text, **kwargs)
        parser.addini(stem, help=help_text, type="bool" if stem == "llm_vision" else "string", default=None)


@dataclass(frozen=True)
class LLMSettings:
    """Where and how the agent talks to its model."""

    base_url: str
    model: str = DEFAULT_MODEL
    api_key: str = ""
    vision: bool = False
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_context(cls, context: AgentContext) -> "LLMSettings":
        config = context.config

        def get(stem: str) -> Any:
            if stem in context.options:
                return context.options[stem]
            if config is None:
                return None
            value = config.getoption(stem, default=None)
            if value is None:
                try:
                    value = config.getini(stem)
                except ValueError:  # the ini key is not registered (plugin not loaded)
                    value = None
            return value or None

        base_url = get("llm_base_url") or os.environ.get("MOBILEAGENT_LLM_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
        if not base_url:
            raise MobileAgentError(
                "the 'mobileagent' agent needs an OpenAI-compatible endpoint: give --llm-base-url URL "
                "(or the ini key llm_base_url, or set MOBILEAGENT_LLM_BASE_URL / OPENAI_BASE_URL)"
            )
        key_env = get("llm_api_key_env")
        if key_env:
            if key_env not in os.environ:
                raise MobileAgentError(f"--llm-api-key-env: the environment variable {key_env} is not set")
            api_key = os.environ[key_env]
        else:
            api_key = os.environ.get("MOBILEAGENT_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or ""
        timeout_text = get("llm_timeout")
        try:
            timeout = float(timeout_text) if timeout_text is not None else DEFAULT_TIMEOUT
        except ValueError:
            raise MobileAgentError(f"--llm-timeout: {timeout_text!r} is not a number of seconds") from None
        if not timeout > 0:
            raise MobileAgentError(f"--llm-timeout: {timeout_text!r} must be positive")
        vision = get("llm_vision")
        return cls(
            base_url=str(base_url),
            model=str(get("llm_model") or os.environ.get("MOBILEAGENT_LLM_MODEL") or DEFAULT_MODEL),
            api_key=api_key,
            vision=bool(vision) and str(vision).lower() not in {"0", "false", "no", "off"},
            timeout=timeout,
        )


def _interactive(node: "Node", width: int, height: int) -> bool:
    x1, y1, x2, y2 = node.bounds
    if x2 <= x1 or y2 <= y1 or x2 <= 0 or y2 <= 0 or x1 >= width or y1 >= height:
        return False
    return bool(
        node.clickable or node.long_clickable or node.checkable or node.scrollable
        or "EditText" in node.cls or node.text or node.desc
    )


def describe_elements(nodes: list["Node"], width: int = 1080, height: int = 2340) -> tuple[list["Node"], str]:
    """The numbered element list the model sees, and the nodes behind the numbers."""
    chosen = [n for n in nodes if _interactive(n, width, height)][:MAX_ELEMENTS]
    lines = []
    for number, node in enumerate(chosen):
        parts = [f"[{number}] {node.cls.rpartition('.')[2] or 'View'}"]
        if node.text:
            parts.append(json.dumps(node.text, ensure_ascii=False))
        if node.desc:
            parts.append(f"desc={json.dumps(node.desc, ensure_ascii=False)}")
        if node.short_id:
            parts.append(f"id={node.short_id}")
        flags = [name for name in ("clickable", "checkable", "scrollable") if getattr(node, name)]
        if node.checkable:
            flags.append("checked" if node.checked else "unchecked")
        if node.focused:
            flags.append("focused")
        if flags:
            parts.append("(" + ", ".join(flags) + ")")
        lines.append(" ".join(parts))
    return chosen, "\n".join(lines) or "(no interactive elements)"


_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_SWIPES = {  # direction the content moves -> finger path, as fractions of the screen
    "up": (0.5, 0.75, 0.5, 0.3),
    "down": (0.5, 0.3, 0.5, 0.75),
    "left": (0.8, 0.5, 0.2, 0.5),
    "right": (0.2, 0.5, 0.8, 0.5),
}


def parse_reply(reply: str, elements: list["Node"], width: int = 1080, height: int = 2340) -> Action:
    """Turn the model's JSON reply into an :class:`Action`; ValueError says what is wrong."""
    match = _JSON_OBJECT.search(reply or "")
    if not match:
        raise ValueError("the reply holds no JSON object")
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        raise ValueError(f"the reply's JSON does not parse: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the reply's JSON is not an object")
    kind = str(data.get("action", "")).lower()

    def element() -> "Node":
        number = data.get("element")
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(elements):
            raise ValueError(f"'element' must be a number from 0 to {len(elements) - 1}, not {number!r}")
        return elements[number]

    def target(node: "Node") -> dict[str, str]:
        return {"id": node.short_id} if node.short_id else {"text": node.text} if node.text else {"desc": node.desc}

    if kind == "tap":
        node = element()
        return Action.tap(*node.center, target=target(node))
    if kind == "long_press":
        node = element()
        return Action.long_press(*node.center, target=target(node))
    if kind == "type":
        node = element()
        text = data.get("text")
        if not isinstance(text, str):
            raise ValueError("'type' needs a string 'text'")
        x, y = node.center
        return Action.type(text, x=x, y=y, target=target(node))
    if kind == "swipe":
        direction = str(data.get("direction", "")).lower()
        if direction not in _SWIPES:
            raise ValueError(f"'direction' must be one of {', '.join(_SWIPES)}, not {direction!r}")
        fx1, fy1, fx2, fy2 = _SWIPES[direction]
        return Action.swipe(int(fx1 * width), int(fy1 * height), int(fx2 * width), int(fy2 * height), 400)
    if kind == "key":
        key = str(data.get("key", "")).upper()
        if key not in {"BACK", "HOME", "ENTER"}:
            raise ValueError(f"'key' must be BACK, HOME or ENTER, not {key!r}")
        return Action.key(key)
    if kind == "launch":
        app = data.get("app")
        if not isinstance(app, str) or not app:
            raise ValueError("'launch' needs the package name in 'app'")
        return Action.launch(app)
    if kind == "wait":
        return Action.wait()
    if kind == "finish":
        answer = data.get("answer")
        return Action.finish(str(answer) if answer not in (None, "") else None)
    raise ValueError(f"unknown action {kind!r}")


def _describe_action(action: Action) -> str:
    target = action.target or {}
    aim = ", ".join(f"{k}={v}" for k, v in target.items())
    if action.type == "type":
        return f"type {action.text!r}" + (f" into {aim}" if aim else "")
    if action.type in ("key", "launch"):
        return f"{action.type} {action.text}"
    return action.type + (f" {aim}" if aim else "")


class MobileAgent:
    """A step agent that asks an OpenAI-compatible model for each action."""

    def __init__(self, context: AgentContext):
        self.settings = LLMSettings.from_context(context)
        self.model = self.settings.model
        self.last_usage: dict[str, Any] = {}
        self._history: list[str] = []
        self._client: Any = None
        self._turn: dict[str, Any] = _new_turn()  # what the current step has cost so far

    @staticmethod
    def check_config(context: AgentContext) -> None:
        """Reject missing or malformed settings before the run starts."""
        LLMSettings.from_context(context)

    def _chat(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError:
                raise MobileAgentError(
                    "the 'mobileagent' agent needs the openai package: pip install 'pytest-mobileagent[llm]'"
                ) from None
            self._client = openai.OpenAI(
                base_url=self.settings.base_url,
                api_key=self.settings.api_key or "not-needed",
                timeout=self.settings.timeout,
                max_retries=0,  # _complete retries, and says so
            )
        return self._client

    def reset(self, task: "TaskSpec") -> None:
        """A new episode. Its repetition (``task.repeat``) changes nothing here: the model is asked at
        temperature 0, so what differs between repetitions is the endpoint's doing."""
        self._history = []

    def step(self, observation: Observation) -> Action:
        """The model's next action, or its finish; ``last_usage`` says what the step cost.

        Whatever goes wrong, the cost of every call the endpoint answered in
        this step travels on the exception as ``usage`` (the harness counts it).
        """
        self._turn = _new_turn()
        self.last_usage = {}
        try:
            action = self._step(observation)
        except BaseException as exc:
            # BaseException: the agent clock's interruption (--agent-timeout) passes here too.
            exc.usage = dict(self._turn)  # type: ignore[attr-defined]
            raise
        self.last_usage = dict(self._turn)
        return action

    def _step(self, observation: Observation) -> Action:
        elements, listing = describe_elements(parse_hierarchy(observation.hierarchy))
        text = self._user_text(observation, listing)
        content: Any = text
        image_tokens = 0
        if self.settings.vision and observation.screenshot:
            encoded = base64.b64encode(observation.screenshot).decode()
            content = [
                {"type": "text", "text": text},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}},
            ]
            image_tokens = estimate_image_tokens(*_png_size(observation.screenshot))
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": content}]
        self._turn["llm_input"] = text
        reply = self._complete(messages, image_tokens)
        try:
            action = parse_reply(reply, elements)
        except ValueError as problem:
            # One chance to correct a malformed reply: models slip on format.
            messages += [
                {"role": "assistant", "content": reply},
                {"role": "user", "content": f"That reply was not a valid action ({problem}). Reply with one JSON object."},
            ]
            reply = self._complete(messages, image_tokens)
            try:
                action = parse_reply(reply, elements)
            except ValueError as again:
                raise AgentReplyError(f"the model's reply is not a valid action ({again}): {reply[:300]!r}") from None
        self._history.append(_describe_action(action))
        return action

    def _user_text(self, observation: Observation, listing: str) -> str:
        history = "\n".join(f"{i + 1}. {entry}" for i, entry in enumerate(self._history)) or "(none yet)"
        return (
            f"Task: {observation.prompt}\n"
            f"Step {observation.step + 1}; at most {observation.remaining_steps} actions left.\n"
            f"Foreground app: {observation.app}\n"
            f"Actions taken so far:\n{history}\n"
            f"Elements on the screen:\n{listing}"
        )

    def _complete(self, messages: list[dict[str, Any]], image_tokens: int) -> str:
        """The model's reply to ``messages``; the call's tokens are added to the step's as it returns."""
        client = self._chat()
        retried: Exception | None = None  # the failure that was retried
        while True:
            try:
                response = client.chat.completions.create(model=self.settings.model, messages=messages, temperature=0)
                break
            except Exception as exc:
                error = _endpoint_error(exc, self.settings)
                if error is exc:
                    raise
                pause = _retry_pause(exc) if retried is None else None
                if pause is None:
                    raise (error if retried is None else _after_retry(error, retried)) from exc
                retried = error
                warnings.warn(LLMRetryWarning(f"{error}; sending the request once more"), stacklevel=2)
                time.sleep(pause)  # a pause the endpoint asked for, or the client's usual one; see RETRY_PAUSE
        reply = (response.choices[0].message.content or "") if response.choices else ""
        usage = getattr(response, "usage", None)
        tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
        tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
        if tokens_in == 0:  # the endpoint reported no usage: the paper's rule, for this call's own messages
            tokens_in = estimate_text_tokens("".join(_message_text(m) for m in messages)) + image_tokens
            tokens_out = estimate_text_tokens(reply)
        self._turn["tokens_in"] += tokens_in
        self._turn["tokens_out"] += tokens_out
        self._turn["llm_output"] = reply
        return reply

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _new_turn() -> dict[str, Any]:
    return {"tokens_in": 0, "tokens_out": 0, "llm_input": None, "llm_output": None}


def _message_text(message: dict[str, Any]) -> str:
    """A chat message's text (its content is a string, or parts of which some are text)."""
    content = message.get("content") or ""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (no decoding needed)."""
    if len(png) >= 24 and png[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return (0, 0)

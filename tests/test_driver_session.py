"""The driver-agent API as the README documents it: what a session offers and what it records."""

from __future__ import annotations

import typing
from types import SimpleNamespace

from pytest_mobileagent.agents import Action
from pytest_mobileagent.agents.base import Session
from pytest_mobileagent.episode import DriverSession, _action_dict


def test_after_action_records_actions_dicts_and_anything_else():
    assert _action_dict(Action.tap(540, 1200)) == {"type": "tap", "x": 540, "y": 1200}
    given = {"type": "tap", "x": 1, "y": 2, "why": "the OK button"}
    recorded = _action_dict(given)
    assert recorded == given and recorded is not given  # a copy
    assert _action_dict("tap OK") == {"type": "other", "description": "tap OK"}


def test_the_session_protocol_names_everything_the_readme_promises():
    promised = {"device", "prompt", "task", "max_steps", "remaining_steps", "steps_taken", "serial",
                "before_action", "after_action"}
    members = set(typing.get_type_hints(Session)) | {n for n in vars(Session) if not n.startswith("_")}
    assert promised <= members
    episode = SimpleNamespace(spec=SimpleNamespace(prompt="Add 3 and 5", name="test_add"),
                              _device=SimpleNamespace(serial="emulator-5554"), max_steps=8,
                              record=SimpleNamespace(steps_taken=3, success=False))
    session = DriverSession(episode)
    assert all(hasattr(session, name) for name in promised)
    assert (session.prompt, session.task, session.serial, session.max_steps) == \
        ("Add 3 and 5", "test_add", "emulator-5554", 8)
    assert (session.steps_taken, session.remaining_steps) == (3, 5)
    assert isinstance(session, Session)

"""Random input on Calendar and App Launcher: no app error, and a reset clears whatever it did.

An agent may tap, long-press, swipe, type and press keys anywhere; the apps
must never fail while building a screen or running a callback (the phone logs
those), and clearing the app's data must bring back its fresh first screen.
"""

from __future__ import annotations

import logging
import random
import re

import pytest
from uitools import nodes

from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

APPS = ("com.simplemobiletools.calendar.pro", "com.simplemobiletools.applauncher")
TEXTS = ("laundry", "x", "12", " ", "MyChrome", "ü∑")
KEYS = ("BACK", "DEL", "ENTER", "HOME", "TAB", "MENU", "DPAD_LEFT")


def _random_session(system: AndroidSystem, package: str, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if system.focused_window()[0] != package and rng.random() < 0.3:
            system.start_activity(package)
        touchable = [n for n in nodes(system.dump_xml())
                     if n["clickable"] == "true" or n["long-clickable"] == "true"]
        roll = rng.random()
        if touchable and roll < 0.6:
            left, top, right, bottom = map(int, re.findall(r"-?\d+", rng.choice(touchable)["bounds"]))
            action = system.long_press if rng.random() < 0.15 else system.tap
            action((left + right) // 2, (top + bottom) // 2)
        elif roll < 0.7:
            system.swipe(rng.randrange(1080), rng.randrange(300, 2000), rng.randrange(1080), rng.randrange(300, 2000))
        elif roll < 0.85:
            system.input_text(rng.choice(TEXTS))
        else:
            system.key(rng.choice(KEYS))
        system.screenshot_png()


@pytest.mark.parametrize("package", APPS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_input_never_fails_and_a_reset_clears_it(package, seed, caplog):
    fresh = AndroidSystem(clock=PhoneClock(1_714_554_000_000), apps=INSTALLED_APPS)
    fresh.start_activity(package)
    first_screen = fresh.dump_xml()

    system = AndroidSystem(clock=PhoneClock(1_714_554_000_000), apps=INSTALLED_APPS)
    system.start_activity(package)
    with caplog.at_level(logging.ERROR, logger="pytest_mobileagent"):
        _random_session(system, package, random.Random(seed), 150)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[-3000:]
    assert system.clear_data(package)
    system.start_activity(package)
    assert system.dump_xml() == first_screen

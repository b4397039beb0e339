"""Random taps, long presses, swipes, keys and text on the audio apps never break them.

Every callback error would be logged by the UI layer (it keeps the phone up);
here none may happen, and `pm clear` then gives the fresh app back.
"""

from __future__ import annotations

import logging
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_mobileagent.virtual_phone import VirtualPhone

AUDIO = Path(__file__).resolve().parents[2] / "fixtures" / "audio"
APPS = ["com.simplemobiletools.musicplayer", "com.simplemobiletools.voicerecorder"]


def _phone(seed: int) -> VirtualPhone:
    phone = VirtualPhone(seed=seed)
    for folder, target in (("recordings", "/sdcard/Music/Recordings"), ("music", "/sdcard/Music")):
        for path in (AUDIO / folder).iterdir():
            phone.fs.write_file(f"{target}/{path.name}", path.read_bytes(), parents=True)
    return phone


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("package", APPS)
def test_random_input_raises_nothing_and_pm_clear_resets(package, seed, caplog):
    rng = random.Random(seed)
    phone = _phone(seed)
    launch = f"monkey -p {package} -c android.intent.category.LAUNCHER 1"
    phone.run_shell(launch)
    system = phone.system
    with caplog.at_level(logging.ERROR):
        for _ in range(150):
            if system.activity_stack()[0][0] != package:
                phone.run_shell(launch)
            nodes = [n for n in ET.fromstring(system.dump_xml().encode()).iter("node")
                     if n.get("clickable") == "true" or n.get("long-clickable") == "true"]
            roll = rng.random()
            if roll < 0.06 or not nodes:
                system.key("BACK")
            elif roll < 0.12:
                system.input_text(rng.choice(["", "voice", "a/b", "test", "  ", "é✓"]))
            elif roll < 0.14:
                system.key("ENTER")
            else:
                x1, y1, x2, y2 = map(int, re.findall(r"-?\d+", rng.choice(nodes).get("bounds")))
                x, y = (x1 + x2) // 2, (y1 + y2) // 2
                if roll < 0.25:
                    system.long_press(x, y)
                elif roll < 0.3:
                    system.swipe(x, y + 300, x, y - 300, 300)
                else:
                    system.tap(x, y)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert phone.run_shell(f"pm clear {package}").stdout == b"Success\n"
    phone.run_shell(launch)
    assert system.activity_stack()[0] == (package, f"{package}.activities.MainActivity")

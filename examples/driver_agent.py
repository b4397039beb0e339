"""A driver agent plugged into pytest-mobileagent.

``KeypadAgent`` stands for an existing agent that drives the phone itself
through adb (here: adbutils, tapping the keys of the expression quoted in the
prompt). The integration is the ``session`` calls in ``run`` and the
registration hook at the bottom; use it with::

    pytest task_tests/test_calculator.py -p examples.driver_agent --agent keypad
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET


class KeypadAgent:
    """Taps, one by one, the buttons labelled with the characters of the quoted expression."""

    def __init__(self, context=None):
        pass

    def plan(self, prompt: str) -> list[str]:
        quoted = re.search(r"'([^']*)'", prompt)
        keys = [c for c in (quoted.group(1) if quoted else "") if not c.isspace()]
        return keys + ["="] if keys else []

    def tap_key(self, device, label: str) -> None:
        root = ET.fromstring(device.dump_hierarchy())
        for node in root.iter("node"):
            if node.get("text") == label and node.get("clickable") == "true":
                x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds")))
                device.click((x1 + x2) // 2, (y1 + y2) // 2)
                return
        raise LookupError(f"no key {label!r} on the screen")

    # -- the integration: < 10 lines -------------------------------------------
    def run(self, prompt, session):
        import adbutils

        device = adbutils.adb.device(session.serial)
        for key in self.plan(prompt):
            session.before_action()
            self.tap_key(device, key)
            if session.after_action(f"tap {key}", llm_output=key):
                break


def pytest_mobileagent_register_agents(registry):
    registry.register("keypad", KeypadAgent)

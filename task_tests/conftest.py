"""Helpers shared by the built-in tasks' seed fixtures."""

from __future__ import annotations

import pytest

from pytest_mobileagent.judge import Screen


class UI:
    """Drives the device's UI by element, for seed fixtures (setup, not the agent)."""

    def __init__(self, device, package: str):
        self.device = device
        self.package = package

    def screen(self) -> Screen:
        screen = Screen(self.package)
        screen.update(self.device.dump_hierarchy())
        return screen

    def _center(self, selectors: dict) -> tuple[int, int]:
        node = self.screen().get(**selectors)
        if node is None:
            raise LookupError(f"seed: no element {selectors} on the screen")
        return node.center

    def launch(self) -> "UI":
        self.device.launch(self.package)
        return self

    def tap(self, **selectors) -> "UI":
        self.device.tap(*self._center(selectors))
        return self

    def long_press(self, **selectors) -> "UI":
        self.device.long_press(*self._center(selectors))
        return self

    def type(self, text: str, **selectors) -> "UI":
        if selectors:
            self.tap(**selectors)
        self.device.type_text(text)
        return self

    def key(self, name: str) -> "UI":
        self.device.key(name)
        return self


@pytest.fixture
def ui_factory(device):
    """``ui_factory(package) -> UI``: seed an app through its UI."""
    return lambda package: UI(device, package)

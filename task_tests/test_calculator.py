"""Simple Calculator: the ten calculator_* tasks of MobileAgentBench.

The judges check the intent: the result line holds the value *computed* by
the calculator (the formula line is filled by "=", which the agent must have
pressed), not merely a number typed in.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

APP = "com.simplemobiletools.calculator"


def keys(expression: str) -> list:
    """Golden taps for the keys of ``expression`` (then "=")."""
    ids = {"+": "btn_plus", "-": "btn_minus", "×": "btn_multiply", "÷": "btn_divide", "^": "btn_power",
           "√": "btn_root", ".": "btn_decimal", "C": "btn_clear", "=": "btn_equals"}
    return [g.tap(id=ids.get(c, f"btn_{c}")) for c in expression if not c.isspace()]


def computed(screen, events, value: str, *formulas: str) -> None:
    """The result shows ``value`` computed by "=" (from one of ``formulas``, when given)."""
    assert screen.text(id="result") == value
    assert events.clicked(id="btn_equals"), "'=' was never pressed"
    formula = screen.text(id="formula")
    assert formula, "no formula: the result was typed, not calculated"
    if formulas:
        assert formula in formulas


@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=keys("3+5="))
def test_calculator_add(screen, events):
    computed(screen, events, "8", "3+5", "5+3")


@task(app="calculator", prompt="Calculate the result of '3 ^ 3'", golden=keys("3^3="))
def test_calculator_cube(screen, events):
    computed(screen, events, "27", "3^3")


@task(app="calculator", prompt="Calculate the result of '12 ÷ 3'", golden=keys("12÷3="))
def test_calculator_divide(screen, events):
    computed(screen, events, "4", "12÷3")


@task(
    app="calculator",
    prompt="Use Unit converter function to calculate how many kilometers 1mile is equal to",
    # Length opens on Kilometer -> Meter (LengthConverter's defaults); the input is the top row, so
    # the bottom row becomes Mile and the swap button puts it on top.
    golden=[g.tap(desc="Unit converter"), g.tap(text="Length"), g.tap(id="bottom_unit_holder"),
            g.tap(text="Mile (mi)"), g.tap(id="swap_button"), g.tap(id="btn_1")],
)
def test_calculator_convert_length(screen):
    rows = {
        screen.text(id=f"{row}_unit_name"): screen.text(id=f"{row}_unit_text") for row in ("top", "bottom")
    }
    assert rows == {"Mile": "1", "Kilometer": "1.609344"}


@task(app="calculator", prompt="Calculate the result of '12 - 4'", golden=keys("12-4="))
def test_calculator_minus(screen, events):
    computed(screen, events, "8", "12-4")


@task(
    app="calculator",
    prompt="Calculate the result of '18+(24×3)-(9÷3)'",
    # The calculator has no parentheses and evaluates left to right: 24×3+18-3.
    golden=keys("24×3+18-3="),
)
def test_calculator_mixed(screen, events):
    computed(screen, events, "87")


@task(app="calculator", prompt="Calculate the result of '12*4'", golden=keys("12×4="))
def test_calculator_multiply(screen, events):
    computed(screen, events, "48", "12×4", "4×12")


@task(app="calculator", prompt="Calculate the result of '19.7 - 81.3'", golden=keys("19.7-81.3="))
def test_calculator_point(screen, events):
    computed(screen, events, "-61.6", "19.7-81.3")


@pytest.fixture
def formula_12x4(ui_factory):
    """The formula '12×4' already typed (the mistaken input the task corrects)."""
    ui = ui_factory(APP).launch()
    for key in ("btn_1", "btn_2", "btn_multiply", "btn_4"):
        ui.tap(id=key)


@task(
    app="calculator",
    prompt="Calculate the result of '12 × 5'. However, during the input process, the number '4' was mistakenly "
    "entered instead of '5'. Correct this by first enter 'C' to delete '4' and re-entering '5' and then perform "
    "the calculation",
    golden=keys("C5="),
)
def test_calculator_recalculate(formula_12x4, screen, events, progress):
    progress.reach("4 deleted", events.clicked(id="btn_clear") and screen.text(id="result") == "12×")
    computed(screen, events, "60", "12×5")


@task(app="calculator", prompt="Calculate the result of '√16 + 3'", golden=keys("√16+3="))
def test_calculator_square(screen, events):
    computed(screen, events, "7")

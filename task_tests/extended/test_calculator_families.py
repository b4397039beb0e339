"""Simple Calculator: task families (expressions drawn per instance).

The prompts follow the paper's ("Calculate the result of '12 - 4'"). The
judges are the fixed tasks' own: the result line holds the value the
calculator computed with "=" from the drawn expression, in the app's number
format (NumberFormatHelper: grouping commas, at most ten decimals).
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

pytestmark = pytest.mark.suite("extended")

KEY_IDS = {"+": "btn_plus", "-": "btn_minus", "×": "btn_multiply", "÷": "btn_divide", "^": "btn_power",
           ".": "btn_decimal", "=": "btn_equals"}


def keys(expression: str) -> list:
    """Golden taps for the keys of ``expression`` (spaces skipped)."""
    return [g.tap(id=KEY_IDS.get(c, f"btn_{c}")) for c in expression if not c.isspace()]


def app_number(value: float) -> str:
    """The calculator's display of ``value``: grouping commas, no trailing zeros."""
    text = f"{round(value, 10):,.10f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def computed(screen, events, value: float, *formulas: str) -> None:
    """The result shows ``value``, computed by "=" from one of ``formulas`` (commas ignored)."""
    assert screen.text(id="result") == app_number(value)
    assert events.clicked(id="btn_equals"), "'=' was never pressed"
    formula = (screen.text(id="formula") or "").replace(",", "")
    assert formula, "no formula: the result was typed, not calculated"
    assert formula in formulas, f"the formula {formula!r} is not {' or '.join(formulas)}"


OPERATIONS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "×": lambda a, b: a * b}


@task(app="calculator", prompt="Calculate the result of '{a} {op} {b}'",
      params={"a": lambda r: r.randint(2, 999), "op": list(OPERATIONS), "b": lambda r: r.randint(2, 999)},
      golden=lambda p: keys(f"{p.a}{p.op}{p.b}="))
def test_calculator_compute(params, screen, events):
    commuted = (f"{params.b}{params.op}{params.a}",) if params.op in "+×" else ()
    computed(screen, events, OPERATIONS[params.op](params.a, params.b), f"{params.a}{params.op}{params.b}", *commuted)


def _division(r):
    divisor, quotient = r.randint(2, 40), r.randint(2, 250)
    return {"dividend": divisor * quotient, "divisor": divisor}


@task(app="calculator", prompt="Calculate the result of '{dividend} ÷ {divisor}'", params=_division,
      golden=lambda p: keys(f"{p.dividend}÷{p.divisor}="))
def test_calculator_divide_exactly(params, screen, events):
    computed(screen, events, params.dividend // params.divisor, f"{params.dividend}÷{params.divisor}")


def _decimals(r):
    return {"a": f"{r.randint(1, 99)}.{r.randint(1, 9)}", "b": f"{r.randint(1, 99)}.{r.randint(1, 9)}"}


@task(app="calculator", prompt="Calculate the result of '{a} - {b}'", params=_decimals,
      golden=lambda p: keys(f"{p.a}-{p.b}="))
def test_calculator_decimal_minus(params, screen, events):
    computed(screen, events, float(params.a) - float(params.b), f"{params.a}-{params.b}")


@task(app="calculator", prompt="Calculate the result of '{base} ^ {exponent}'",
      params={"base": lambda r: r.randint(2, 12), "exponent": lambda r: r.randint(2, 4)},
      golden=lambda p: keys(f"{p.base}^{p.exponent}="))
def test_calculator_power(params, screen, events):
    computed(screen, events, params.base ** params.exponent, f"{params.base}^{params.exponent}")

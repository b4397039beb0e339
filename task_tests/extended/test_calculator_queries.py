"""Simple Calculator: query tasks (the agent reads the phone and answers).

The formula is typed through the app's keys by the seed (as the MobileAgentBench
"recalculate" task seeds its '12×4'); the answer is what the calculator shows.
"""

from __future__ import annotations

import pytest

from pytest_mobileagent import golden as g
from pytest_mobileagent import task

from .queries import Answers

pytestmark = pytest.mark.suite("extended")

APP = "com.simplemobiletools.calculator"


#: per query: what its judge accepts and rejects, and where its golden path shows the answer
ANSWERS = {
    "test_calculator_query_result": Answers(
        right=("15.625", "15.6250", "The result is 15.625."),
        wrong=("15.62", "16", "15.625 or 16"),
        shown=("15.625",)),
    "test_calculator_query_convert": Answers(
        right=("8.04672", "8.04672 km", "5 miles are 8.04672 kilometers"),
        wrong=("8.04", "1.609344", "8.05"),
        shown=("Mile", "5", "Kilometer", "8.04672")),
}


@pytest.fixture
def formula_125_by_8(ui_factory):
    """The formula '125÷8' typed, not yet computed."""
    ui = ui_factory(APP).launch()
    for key in ("btn_1", "btn_2", "btn_5", "btn_divide", "btn_8"):
        ui.tap(id=key)


@task(app="calculator", prompt="What is the result of the calculation typed into the calculator?",
      golden=[g.tap(id="btn_equals"), g.finish(answer="15.625")])
def test_calculator_query_result(formula_125_by_8, answer):
    assert answer.number() == 15.625


@task(app="calculator", prompt="Using the calculator's unit converter, how many kilometers are 5 miles?",
      # Length opens on Kilometer -> Meter: the bottom row becomes Mile and the swap puts it on top.
      golden=[g.tap(desc="Unit converter"), g.tap(text="Length"), g.tap(id="bottom_unit_holder"),
              g.tap(text="Mile (mi)"), g.tap(id="swap_button"), g.tap(id="btn_5"), g.finish(answer="8.04672")])
def test_calculator_query_convert(answer):
    # The answer may restate the question's 5 miles before the result.
    assert answer.number() == 8.04672 or answer.numbers() == [5, 8.04672]

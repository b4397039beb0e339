"""Simple Calculator: the real app's semantics, the ten benchmark flows, converter, menus."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from uitools import BUTTON, CALC, find, find_all, long_press, press_keys, tap, text_of, texts

from pytest_mobileagent.virtual_phone.apps.simple.calculator import CalculatorEngine, format_number
from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock


@pytest.fixture
def events():
    return []


@pytest.fixture
def calc(events):
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), emit_event=events.append, apps=INSTALLED_APPS)
    tap(system, text="Calculator")             # from the home screen, like a user
    assert system.focused_window() == (CALC, f"{CALC}.activities.MainActivity")
    return system


def _judge(system, events, expected: str) -> None:
    """What MobileAgentBench checks: `result` text and a '=' click right after a one-text click."""
    assert text_of(system, "result").strip() == expected
    clicks = [e for e in events if e["type"] == "click" and e["package"] == CALC]
    assert clicks[-1]["text"] == ["="]
    assert len(clicks[-2]["text"]) == 1


# The ten calculator_* rows of the benchmark, as tap sequences.
FLOWS = [
    ("calculator_add", "3+5=", "8"),
    ("calculator_cube", "3^3=", "27"),
    ("calculator_divide", "12÷3=", "4"),
    ("calculator_minus", "12-4=", "8"),
    ("calculator_multiply", "12×4=", "48"),
    ("calculator_point", "19.7-81.3=", "-61.6"),
    ("calculator_square", "√16+3=", "7"),
    # No parentheses on this calculator and it evaluates left to right, so
    # 18+(24×3)-(9÷3) is entered with the products first: 24×3 (+18) and 9÷3 = 3.
    ("calculator_mixed", "24×3+18-3=", "87"),
]


@pytest.mark.parametrize("name, keys, expected", FLOWS, ids=[f[0] for f in FLOWS])
def test_benchmark_flows(calc, events, name, keys, expected):
    press_keys(calc, keys)
    _judge(calc, events, expected)


def test_mixed_task_with_nine_divided_by_three_computed_on_the_calculator(calc, events):
    press_keys(calc, "9÷3=")
    assert text_of(calc, "result") == "3"
    long_press(calc, id="btn_clear")
    press_keys(calc, "24×3+18-3=")
    _judge(calc, events, "87")
    assert text_of(calc, "formula") == "90-3"


def test_recalculate_deletes_the_mistyped_digit_with_c(calc, events):
    press_keys(calc, "12×4")
    assert text_of(calc, "result") == "12×4"
    tap(calc, id="btn_clear")
    assert text_of(calc, "result") == "12×"
    press_keys(calc, "5=")
    _judge(calc, events, "60")
    assert text_of(calc, "formula") == "12×5"


def test_typing_shows_the_expression_and_equals_moves_it_to_formula(calc):
    press_keys(calc, "18+24")
    assert text_of(calc, "result") == "18+24"
    assert text_of(calc, "formula") == ""
    tap(calc, text="×", cls=BUTTON)            # a second operator computes the pending one
    assert text_of(calc, "result") == "42×"
    assert text_of(calc, "formula") == "18+24"
    press_keys(calc, "3=")
    assert text_of(calc, "result") == "126"    # left to right, as the real app


def test_long_press_c_clears_everything(calc, events):
    press_keys(calc, "12+3=")
    long_press(calc, id="btn_clear")
    assert text_of(calc, "result") == "0" and text_of(calc, "formula") == ""
    assert events[-1]["type"] == "long_click" and events[-1]["text"] == ["C"]


def test_engine_percent_grouping_and_division_by_zero():
    toasts = []
    engine = CalculatorEngine(on_toast=toasts.append)
    for key in "200+10%":
        engine.operation(key) if key in "+%" else engine.digit(key)
    assert engine.result == "220"
    engine.reset()
    for key in "1234567":
        engine.digit(key)
    assert engine.result == "1,234,567"
    engine.reset()
    for key in "5÷0":
        engine.operation(key) if key == "÷" else engine.digit(key)
    engine.equals()
    assert toasts == ["Cannot divide by zero"] and engine.result == "5÷0"
    engine.reset()
    for key in "0.5":
        engine.digit(key)
    engine.operation("^")
    engine.digit("2")
    engine.equals()
    assert engine.result == "0.25"


def test_an_overflowing_result_toasts_and_further_keys_do_not_raise():
    toasts = []
    engine = CalculatorEngine(on_toast=toasts.append)

    def press(keys):
        for key in keys:
            engine.operation(key) if key in "^×+" else engine.digit(key)

    press("9" * 200 + "^" + "9" * 5)
    # 9...9 ^ 99999 is infinite: the input keeps both operands and gains the
    # new operator, whose operand then cannot be read (the app toasts again).
    press("×")
    assert engine.input.endswith("^99,999×") and set(toasts) == {"An unknown error occurred"}
    press("7×7")  # before the fix: ValueError from every further operator
    engine.equals()
    engine.reset()
    press("2+3")
    engine.equals()
    assert engine.result == "5"


def test_leading_zeros_and_double_decimal_points_are_ignored():
    engine = CalculatorEngine()
    for key in "000..5.":
        engine.digit(key)
    assert engine.result == "0.5"


@given(st.integers(0, 10**6), st.sampled_from("+-×÷"), st.integers(1, 10**6))
def test_engine_computes_a_op_b(a, op, b):
    engine = CalculatorEngine()
    for key in str(a):
        engine.digit(key)
    engine.operation(op)
    for key in str(b):
        engine.digit(key)
    engine.equals()
    expected = {"+": a + b, "-": a - b, "×": a * b, "÷": a / b}[op]
    assert engine.result == format_number(expected)
    assert float(engine.result.replace(",", "")) == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_format_number():
    assert format_number(87.0) == "87"
    assert format_number(-61.599999999999994) == "-61.6"
    assert format_number(1609.344 / 1000) == "1.609344"
    assert format_number(1e6) == "1,000,000"
    assert format_number(-0.0) == "0"


def test_unit_converter_mile_to_kilometer(calc):
    tap(calc, desc="Unit converter")   # 5.12.0's menu.xml: an `always` toolbar icon
    tap(calc, text="Length")
    assert (text_of(calc, "top_unit_name"), text_of(calc, "bottom_unit_name")) == ("Kilometer", "Meter")
    tap(calc, id="bottom_unit_holder")
    shown = texts(calc.dump_xml())     # Commons' RadioGroupDialog, "name (symbol)" per unit
    assert "Mile (mi)" in shown and "Nautical Mile (NM)" in shown  # the rows that fit the dialog
    tap(calc, text="Mile (mi)")
    tap(calc, id="swap_button")
    tap(calc, id="btn_1")
    assert (text_of(calc, "top_unit_name"), text_of(calc, "bottom_unit_name")) == ("Mile", "Kilometer")
    assert text_of(calc, "top_unit_text") == "1" and text_of(calc, "bottom_unit_text") == "1.609344"


def converter_keys(system, keys: str) -> None:
    """The converter's numpad: TextViews btn_0..btn_9 (view_unit_converter.xml)."""
    for key in keys:
        tap(system, id=f"btn_{key}")


def test_unit_converter_input_follows_converter_view(calc):
    calc.start_activity(CALC, ".activities.UnitConverterActivity")  # no extra: converter 0, Length
    converter_keys(calc, "1500")
    assert text_of(calc, "top_unit_text") == "1,500"          # grouped as it is typed
    assert text_of(calc, "bottom_unit_text") == "1,500,000"
    tap(calc, id="btn_decimal")
    tap(calc, id="btn_0")                                       # addDigit re-formats "1,500.0" to "1,500"
    assert text_of(calc, "top_unit_text") == "1,500"
    tap(calc, id="btn_clear")                                   # deletes the last character
    assert text_of(calc, "top_unit_text") == "150" and text_of(calc, "bottom_unit_text") == "150,000"
    tap(calc, id="swap_button")
    assert text_of(calc, "top_unit_name") == "Meter" and text_of(calc, "bottom_unit_text") == "0.15"
    long_press(calc, id="btn_clear")                            # clear(): both rows to 0
    assert text_of(calc, "top_unit_text") == text_of(calc, "bottom_unit_text") == "0"


def test_unit_converter_remembers_the_units_per_converter(calc):
    tap(calc, desc="Unit converter")
    assert texts(calc.dump_xml())[-6:] == ["Length", "Area", "Volume", "Mass", "Temperature", "Time"]
    tap(calc, text="Temperature")
    tap(calc, id="top_unit_holder")
    tap(calc, text="Fahrenheit (°F)")
    converter_keys(calc, "212")
    assert text_of(calc, "bottom_unit_text") == "373.15"          # Fahrenheit -> Kelvin
    calc.key("BACK")
    tap(calc, text="Temperature")                                  # config.getLastConverterUnits
    assert (text_of(calc, "top_unit_name"), text_of(calc, "bottom_unit_name")) == ("Fahrenheit", "Kelvin")


def test_about_and_settings_are_toolbar_icons(calc):
    # History, Unit converter, Settings and About are all `always`; More apps from us is hidden in
    # the F-Droid build, so there is no "More options" at all.
    assert not find_all(calc.dump_xml(), desc="More options")
    tap(calc, desc="About")
    assert calc.focused_window() == (CALC, "com.simplemobiletools.commons.activities.AboutActivity")
    assert "Frequently asked questions" in texts(calc.dump_xml())
    calc.key("BACK")
    tap(calc, desc="Settings")
    # compose/SettingsScreen.kt: Compose nodes without resource-ids; the boxes in row order are
    # vibrate, prevent sleeping, comma as decimal mark
    shown = texts(calc.dump_xml())
    assert shown[:3] == ["Settings", "COLOR CUSTOMIZATION", "Customize colors"]
    assert "Prevent phone from sleeping while the app is in foreground" in shown
    ids = {n["resource-id"] for n in find_all(calc.dump_xml()) if n.get("resource-id", "").startswith(CALC)}
    assert ids == {f"{CALC}:id/action_bar_root"}  # AppCompat's decor only; the Compose content has none
    boxes = find_all(calc.dump_xml(), cls="android.widget.CheckBox")
    assert [b["checked"] for b in boxes] == ["true", "false", "false"]
    tap(calc, text="Vibrate on button press")  # the row toggles its box
    assert find_all(calc.dump_xml(), cls="android.widget.CheckBox")[0]["checked"] == "false"
    assert calc.app(CALC).data.vibrate is False
    tap(calc, text="Customize colors")
    assert calc.focused_window()[1].endswith("CustomizationActivity")
    calc.clear_data(CALC)
    assert calc.app(CALC).data.vibrate is True


def test_history_dialog_lists_calculations(calc):
    press_keys(calc, "2+2=")
    tap(calc, id="history")
    shown = texts(calc.dump_xml())
    assert "History" in shown and "2+2" in shown and "4" in shown


def test_force_stop_resets_the_display_but_keeps_history(calc):
    press_keys(calc, "7×6=")
    calc.force_stop(CALC)
    calc.start_activity(CALC)
    assert text_of(calc, "result") == "0"
    assert calc.app(CALC).data.history == [("7×6", "42")]

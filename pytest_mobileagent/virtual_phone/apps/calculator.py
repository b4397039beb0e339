"""Simple Calculator (com.simplemobiletools.calculator), modelled on version 5.11.

Ids and button texts are the real ones (view_calculator.xml).  The engine
follows the real app's semantics, which are NOT those of a precedence-aware
expression calculator: the `result` line shows what is being typed
("18+24"), and pressing a second operator first computes the pending
operation, so input is evaluated strictly left to right ("18+24×3" gives
126 on "=", not 90).  "=" shows the computed expression in `formula` and the
value in `result`; C deletes the last character, a long press on C clears
everything.  There are no parentheses: "18+(24×3)-(9÷3)" takes two steps,
e.g. "2 4 × 3 + 1 8 - 3 =" after working out 9÷3 = 3 (or "9 ÷ 3 =" first).

The unit converter (toolbar overflow "Unit converter") lists converter types;
"Length" shows two unit rows (top = input typed on its numpad, bottom =
converted value) whose units are chosen from pop-up menus.
"""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

from ..ui.views import (
    ACCENT,
    MATCH,
    TEXT_SECONDARY,
    Button,
    Column,
    ImageView,
    LinearLayout,
    RecyclerView,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from .base import Activity, App, Dialog, settings_checkbox
from .menus import FDROID_HIDDEN, menu

PACKAGE = "com.simplemobiletools.calculator"

PLUS, MINUS, MULTIPLY, DIVIDE, PERCENT, POWER, ROOT = "+", "-", "×", "÷", "%", "^", "√"
OPERATIONS = (PLUS, MINUS, MULTIPLY, DIVIDE, POWER, PERCENT, ROOT)
_OPS_RE = re.compile("[-+×÷^%√]")
_NUMBER_RE = re.compile(r"[0-9][0-9,]*(?:\.[0-9]*)?")
DIGIT, DECIMAL, EQUALS, CLEAR = "digit", "decimal", "equals", "clear"
DIVIDE_BY_ZERO = "Cannot divide by zero"
UNKNOWN_ERROR = "An unknown error occurred"


def format_number(value: float) -> str:
    """The app's number format: grouping commas, at most 10 decimals, no trailing zeros ("87", "-61.6")."""
    value = round(value, 10)
    if value == 0:
        return "0"
    text = f"{value:,.10f}".rstrip("0").rstrip(".")
    return text


class CalculatorEngine:
    """The calculator's input state machine (the real app's CalculatorImpl, re-expressed)."""

    def __init__(self, on_history=None, on_toast=None) -> None:
        self.base = 0.0
        self.second = 0.0
        self.input = "0"
        self.last_key = ""
        self.last_op = ""
        self.result = "0"
        self.formula = ""
        self.on_history = on_history or (lambda formula, result: None)
        self.on_toast = on_toast or (lambda text: None)

    # -- helpers ----------------------------------------------------------
    def _operand(self) -> float:
        """The number after the first operator (or the whole input without one)."""
        check = self.input.lstrip("-").replace(",", "")
        positions = [check.find(op) for op in OPERATIONS if op in check]
        value = check[min(positions) + 1:] if positions else check
        try:
            return float(value) if value not in ("", ".") else 0.0
        except ValueError:
            # A result that overflowed leaves "a×b×" behind; the app's
            # getSecondValue() catches the parse error, toasts it and uses 0.
            self.on_toast(UNKNOWN_ERROR)
            return 0.0

    def _group(self) -> None:
        def regroup(match: re.Match) -> str:
            number = match.group(0).replace(",", "")
            whole, dot, frac = number.partition(".")
            return f"{int(whole):,}" + (dot + frac if dot else "") if whole else number
        self.input = _NUMBER_RE.sub(regroup, self.input)

    # -- keys ---------------------------------------------------------------
    def digit(self, key: str) -> None:
        """A numpad key: "0".."9" or "."."""
        if self.input == "NaN":
            self.input = ""
        if self.last_key == EQUALS:
            self.last_op = EQUALS
        self.last_key = DIGIT
        if key == ".":
            self._decimal()
        elif key == "0":
            check = self.input.lstrip("-").replace(",", "")
            positions = [check.find(op) for op in OPERATIONS if op in check]
            value = check[min(positions) + 1:] if positions else check
            if value != "0" or "." in value:
                self._add_digit("0")
        else:
            self._add_digit(key)

    def _add_digit(self, key: str) -> None:
        if self.input == "0":
            self.input = ""
        self.input += key
        self._group()
        self.result = self.input

    def _decimal(self) -> None:
        check = self.input.lstrip("-").replace(",", "")
        positions = [check.find(op) for op in OPERATIONS if op in check]
        value = check[min(positions) + 1:] if positions else check
        if "." not in value:
            if value == "0" and not _OPS_RE.search(check):
                self.input = "0."
            elif value == "":
                self.input += "0."
            else:
                self.input += "."
        self.last_key = DECIMAL
        self.result = self.input

    def operation(self, op: str) -> None:
        if self.input in ("NaN", ""):
            self.input = "0"
        if op == ROOT and self.input == "0" and self.last_key != DIGIT:
            self.input = "1√"
        last = self.input[-1]
        if last == ".":
            self.input = self.input[:-1]
        elif last in OPERATIONS:
            self.input = self.input[:-1] + op
        elif not _OPS_RE.search(self.input.lstrip("-")):
            self.input += op
        if self.last_key in (DIGIT, DECIMAL):
            if self.last_op != "" and op == PERCENT:
                self._percent()
            else:
                self.second = self._operand()
                self._calculate()
                if self.input[-1] not in OPERATIONS and DIVIDE not in self.input:
                    self.input += op
        if self._operand() == 0.0 and DIVIDE in self.input:
            self.last_key = self.last_op = DIVIDE
        else:
            self.last_key = self.last_op = op
        self.result = self.input

    def equals(self) -> None:
        if self.last_key == EQUALS:
            self._calculate()
        if self.last_key not in (DIGIT, DECIMAL):
            return
        self.second = self._operand()
        self._calculate()
        if self.last_op in (DIVIDE, PERCENT) and self.second == 0.0:
            self.last_key = DIGIT
            return
        self.last_key = EQUALS

    def clear(self) -> None:
        """C: delete the last character."""
        current = self.input or "0"
        deleted, new = current[-1], current[:-1]
        if new == "":
            new = "0"
        else:
            if deleted in OPERATIONS or self.last_key == EQUALS:
                self.last_op = ""
            tail = new[-1]
            self.last_key = CLEAR if tail in OPERATIONS else DECIMAL if tail == "." else DIGIT
        self.input = new.rstrip(",")
        self._group()
        self.result = self.input

    def reset(self) -> None:
        """Long press on C: clear everything."""
        self.base = self.second = 0.0
        self.last_key = self.last_op = ""
        self.result = "0"
        self.formula = ""
        self.input = ""

    # -- evaluation ---------------------------------------------------------
    def _sign(self, op: str) -> str:
        return op if op in OPERATIONS else PLUS

    def _calculate(self) -> None:
        if self.last_op == ROOT and self.input.startswith(ROOT):
            self.base = 1.0
        if self.last_key != EQUALS:
            check = self.input.lstrip("-").replace(",", "")
            parts = [p for p in _OPS_RE.split(check) if p != ""]
            if not parts:
                return
            self.base = float(parts[0]) if parts[0] != "." else 0.0
            if self.input.startswith("-"):
                self.base *= -1
            if len(parts) > 1:
                self.second = float(parts[1]) if parts[1] != "." else 0.0
        if self.last_op == "":
            return
        sign = self._sign(self.last_op)
        base_text, second_text = format_number(self.base), format_number(self.second)
        a, b = float(base_text.replace(",", "")), float(second_text.replace(",", ""))
        if sign == DIVIDE and b == 0.0:
            self.on_toast(DIVIDE_BY_ZERO)
            return
        try:
            value = _apply(sign, a, b)
        except (OverflowError, ValueError, ZeroDivisionError):
            value = math.nan
        if math.isinf(value) or math.isnan(value):
            self.on_toast(UNKNOWN_ERROR)
            return
        formula = f"{base_text}{sign}{second_text}"
        self.result = format_number(value)
        self.base = value
        self.input = self.result
        self.formula = formula
        self.on_history(formula, self.result)

    def _percent(self) -> None:
        second = self._operand()
        value = _percentage(self.base, second, self.last_op)
        if math.isinf(value) or math.isnan(value):
            value = 0.0
        self.formula = f"{format_number(self.base)}{self._sign(self.last_op)}{format_number(second)}%"
        self.input = self.result = format_number(value)
        self.base = value


def _apply(sign: str, a: float, b: float) -> float:
    if sign == PLUS:
        return a + b
    if sign == MINUS:
        return a - b
    if sign == MULTIPLY:
        return a * b
    if sign == DIVIDE:
        return a / b
    if sign == POWER:
        result = a ** b
        if isinstance(result, complex):
            return math.nan
        return float(result)
    if sign == ROOT:  # "a√b" is a times the square root of b
        return a * math.sqrt(b)
    if sign == PERCENT:  # "a%b" is b percent of a
        return a * (b / 100)
    return a + b


def _percentage(base: float, second: float, sign: str) -> float:
    if second == 0:
        return math.nan
    if sign == MULTIPLY:
        return base / (100 / second)
    if sign == DIVIDE:
        return base * (100 / second)
    if sign == PLUS:
        return base + base / (100 / second)
    if sign == MINUS:
        return base - base / (100 / second)
    if sign == PERCENT:
        return (base % second) / 100
    return base / (100 * second)


# ---------------------------------------------------------------------------
# screens

_KEYPAD = (
    (("btn_percent", "%"), ("btn_power", "^"), ("btn_root", "√"), ("btn_reset", "AC"), ("btn_divide", "÷")),
    (("btn_7", "7"), ("btn_8", "8"), ("btn_9", "9"), ("btn_multiply", "×")),
    (("btn_4", "4"), ("btn_5", "5"), ("btn_6", "6"), ("btn_minus", "-")),
    (("btn_1", "1"), ("btn_2", "2"), ("btn_3", "3"), ("btn_plus", "+")),
    (("btn_0", "0"), ("btn_decimal", "."), ("btn_clear", "C"), ("btn_equals", "=")),
)
_KEY_BG = (250, 250, 250)
_OP_BG = (255, 236, 229)


class MainActivity(Activity):
    name = f"{PACKAGE}.activities.MainActivity"

    def on_create(self) -> None:
        self.engine = CalculatorEngine(on_history=self._add_history, on_toast=self.toast)

    def _add_history(self, formula: str, result: str) -> None:
        self.data.history.append((formula, result))

    def build(self) -> View:
        engine = self.engine
        rows = []
        for row in _KEYPAD:
            buttons = []
            for view_id, label in row:
                is_op = not (label.isdigit() or label == ".")
                buttons.append(Button(
                    label, view_id, weight=1, height=MATCH, size=sp(28), radius=0,
                    bg=_OP_BG if is_op else _KEY_BG, color=ACCENT if is_op else (34, 34, 34),
                    visible=view_id != "btn_reset",  # AC is gone in the real layout
                    on_click=lambda label=label: self._press(label),
                    on_long_click=engine.reset if view_id == "btn_clear" else None,
                ))
            rows.append(Row(*buttons, weight=1, height=MATCH, class_name="android.widget.LinearLayout"))
        return LinearLayout(
            # converter_menu (Swap units) is inflated in landscape only (UnitConverterActivity.onCreate).
            self.toolbar("main_toolbar", items=menu("calculator", "menu", {
                "history": self.show_history, "unit_converter": lambda: self.start(UnitConverterPickerActivity),
                "settings": lambda: self.start(SettingsActivity),
                "about": lambda: self.start("com.simplemobiletools.commons.activities.AboutActivity")},
                hide=FDROID_HIDDEN)),
            LinearLayout(
                TextView(engine.formula, "formula", size=sp(28), color=TEXT_SECONDARY, gravity="end|bottom",
                         width=MATCH, weight=1, max_lines=1, padding=(dp(16), dp(8))),
                TextView(engine.result, "result", size=sp(48), gravity="end|center_vertical", width=MATCH,
                         weight=1, max_lines=1, padding=(dp(16), dp(8))),
                *rows,
                id="calculator_holder", class_name="android.view.ViewGroup", weight=1,
            ),
            id="main_coordinator", class_name="android.view.ViewGroup", height=MATCH,
        )

    def _press(self, label: str) -> None:
        engine = self.engine
        if label.isdigit() or label == ".":
            engine.digit(label)
        elif label == "=":
            engine.equals()
        elif label == "C":
            engine.clear()
        elif label == "AC":
            engine.reset()
        else:
            engine.operation(label)

    def show_history(self) -> None:
        entries = list(reversed(self.data.history))
        if not entries:
            self.toast("History is empty")
            return

        def body() -> View:
            return RecyclerView(*[
                Column(TextView(formula, "item_formula", size=sp(16), color=TEXT_SECONDARY, width=MATCH,
                                gravity="end"),
                       TextView(result, "item_result", size=sp(22), width=MATCH, gravity="end"),
                       padding=(dp(24), dp(8)), key=f"h{i}",
                       on_click=lambda result=result: self._use_history(result))
                for i, (formula, result) in enumerate(entries)], id="history_list", height=dp(400))

        def clear(dialog) -> None:
            self.data.history.clear()

        self.show_dialog(Dialog("History", body, positive="Close", negative=("Clear history", clear)))

    def _use_history(self, result: str) -> None:
        self.engine.input = self.engine.result = result
        self.engine.last_key = DIGIT
        for window in list(self.overlays):
            dialog = getattr(window, "dialog", None)
            if dialog is not None:
                dialog.dismiss()


class SettingsActivity(Activity):
    name = f"{PACKAGE}.activities.SettingsActivity"
    title = "Settings"

    def build(self) -> View:
        data = self.data
        return LinearLayout(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(
                TextView("COLOR CUSTOMIZATION", "settings_color_customization_label", color=ACCENT, bold=True,
                         size=sp(14), width=MATCH, padding=(dp(16), dp(20), dp(16), dp(8))),
                LinearLayout(TextView("Customize colors", "settings_customize_colors_label", width=MATCH),
                             id="settings_customize_colors_holder", padding=(dp(16), dp(16)),
                             on_click=lambda: self.toast("Customize colors")),
                TextView("GENERAL", "settings_general_settings_label", color=ACCENT, bold=True, size=sp(14),
                         width=MATCH, padding=(dp(16), dp(20), dp(16), dp(8))),
                settings_checkbox("settings_vibrate", "Vibrate on button press", data.vibrate,
                                  lambda v: setattr(data, "vibrate", v)),
                settings_checkbox("settings_prevent_phone_from_sleeping", "Prevent phone from sleeping",
                                  data.prevent_sleeping, lambda v: setattr(data, "prevent_sleeping", v)),
                settings_checkbox("settings_use_comma_as_decimal_mark", "Use comma as decimal mark",
                                  data.comma_decimal, lambda v: setattr(data, "comma_decimal", v)),
                id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name="android.view.ViewGroup", height=MATCH,
        )


# -- unit converter ----------------------------------------------------------

#: converter type -> list of (unit name, symbol, factor to the base unit); Temperature is special-cased
CONVERTERS: dict[str, list[tuple[str, str, float]]] = {
    "Length": [
        ("Kilometer", "km", 1000.0), ("Meter", "m", 1.0), ("Centimeter", "cm", 0.01), ("Millimeter", "mm", 0.001),
        ("Mile", "mi", 1609.344), ("Yard", "yd", 0.9144), ("Foot", "ft", 0.3048), ("Inch", "in", 0.0254),
        ("Nautical mile", "NM", 1852.0),
    ],
    "Area": [
        ("Square kilometer", "km²", 1e6), ("Square meter", "m²", 1.0), ("Hectare", "ha", 1e4),
        ("Acre", "ac", 4046.8564224), ("Square mile", "mi²", 2589988.110336), ("Square foot", "ft²", 0.09290304),
    ],
    "Volume": [
        ("Cubic meter", "m³", 1.0), ("Liter", "l", 0.001), ("Milliliter", "ml", 1e-6),
        ("Gallon", "gal", 0.003785411784), ("Cup", "cup", 0.0002365882365),
    ],
    "Mass": [
        ("Kilogram", "kg", 1.0), ("Gram", "g", 0.001), ("Milligram", "mg", 1e-6), ("Pound", "lb", 0.45359237),
        ("Ounce", "oz", 0.028349523125), ("Tonne", "t", 1000.0),
    ],
    "Temperature": [("Celsius", "°C", 0.0), ("Fahrenheit", "°F", 0.0), ("Kelvin", "K", 0.0)],
    "Time": [
        ("Hour", "h", 3600.0), ("Minute", "min", 60.0), ("Second", "s", 1.0), ("Day", "d", 86400.0),
        ("Week", "wk", 604800.0),
    ],
}
#: which units each converter shows first (top, bottom)
DEFAULT_UNITS = {
    "Length": ("Meter", "Kilometer"), "Area": ("Square meter", "Square kilometer"), "Volume": ("Liter", "Cubic meter"),
    "Mass": ("Kilogram", "Pound"), "Temperature": ("Celsius", "Fahrenheit"), "Time": ("Hour", "Minute"),
}


def convert(kind: str, value: float, source: str, target: str) -> float:
    """`value` in unit `source` expressed in unit `target`."""
    if kind == "Temperature":
        kelvin = {"Celsius": value + 273.15, "Fahrenheit": (value - 32) * 5 / 9 + 273.15, "Kelvin": value}[source]
        return {"Celsius": kelvin - 273.15, "Fahrenheit": (kelvin - 273.15) * 9 / 5 + 32, "Kelvin": kelvin}[target]
    factors = {name: factor for name, _, factor in CONVERTERS[kind]}
    return value * factors[source] / factors[target]


class UnitConverterPickerActivity(Activity):
    name = f"{PACKAGE}.activities.UnitConverterPickerActivity"
    title = "Unit converter"

    def build(self) -> View:
        items = [
            LinearLayout(
                ImageView("unit_type_icon", icon="dot", margin=(dp(16), 0, dp(16), 0)),
                TextView(kind, "unit_type_name", size=sp(18), width=MATCH, weight=1),
                orientation="horizontal", id="unit_type_holder", gravity="center_vertical", height=dp(72),
                key=kind, on_click=lambda kind=kind: self.start(UnitConverterActivity, type=kind),
            )
            for kind in CONVERTERS
        ]
        return LinearLayout(
            self.toolbar("unit_converter_picker_toolbar", title="Unit converter", back=True),
            RecyclerView(*items, id="unit_types_grid", weight=1),
            id="unit_converter_picker_coordinator", class_name="android.view.ViewGroup", height=MATCH,
        )


class UnitConverterActivity(Activity):
    name = f"{PACKAGE}.activities.UnitConverterActivity"
    title = "Unit converter"

    def on_create(self) -> None:
        self.kind = self.extras.get("type", "Length")
        self.top, self.bottom = DEFAULT_UNITS[self.kind]
        self.value = "0"

    def _symbol(self, unit: str) -> str:
        return next(symbol for name, symbol, _ in CONVERTERS[self.kind] if name == unit)

    def converted(self) -> str:
        number = float(self.value) if self.value not in ("", "-", ".") else 0.0
        return format_number(convert(self.kind, number, self.top, self.bottom)).replace(",", "")

    def _unit_row(self, prefix: str, unit: str, value: str) -> View:
        row = LinearLayout(
            Column(TextView(unit, f"{prefix}_unit_name", size=sp(20), bold=True),
                   TextView(self._symbol(unit), f"{prefix}_unit_symbol", size=sp(14), color=TEXT_SECONDARY),
                   width=dp(170), weight=1),
            TextView(value, f"{prefix}_unit_text", size=sp(34), gravity="end", max_lines=1, width=MATCH, weight=1),
            orientation="horizontal", id=f"{prefix}_unit_holder", gravity="center_vertical",
            padding=(dp(20), dp(16)), height=dp(96), bg=(255, 255, 255) if prefix == "bottom" else (255, 243, 238),
        )
        row.on_click = lambda: self.show_menu(
            [(name, lambda name=name: self._choose(prefix, name)) for name, _, _ in CONVERTERS[self.kind]],
            anchor=row)
        row.clickable = row.focusable = True
        return row

    def _choose(self, prefix: str, unit: str) -> None:
        if prefix == "top":
            self.top = unit
        else:
            self.bottom = unit

    def _swap(self) -> None:
        converted = self.converted()
        self.top, self.bottom = self.bottom, self.top
        self.value = converted

    def _key(self, label: str) -> None:
        if label.isdigit():
            self.value = label if self.value == "0" else self.value + label
        elif label == ".":
            if "." not in self.value:
                self.value += "."
        elif label == "±":
            self.value = self.value[1:] if self.value.startswith("-") else "-" + self.value
        elif label == "C":
            self.value = self.value[:-1] or "0"
            if self.value == "-":
                self.value = "0"

    def _clear_all(self) -> None:
        self.value = "0"

    def build(self) -> View:
        pad = []
        for row in (("7", "8", "9"), ("4", "5", "6"), ("1", "2", "3"), ("±", "0", ".", "C")):
            ids = {".": "btn_decimal", "C": "btn_clear", "±": "btn_plus_minus"}
            pad.append(Row(*[
                Button(label, ids.get(label, f"btn_{label}"), weight=1, height=MATCH, radius=0, size=sp(26),
                       bg=(250, 250, 250), on_click=lambda label=label: self._key(label),
                       on_long_click=self._clear_all if label == "C" else None)
                for label in row], weight=1, height=MATCH, class_name="android.widget.LinearLayout"))
        return LinearLayout(
            self.toolbar("unit_converter_toolbar", title=self.kind, back=True),
            self._unit_row("top", self.top, self.value),
            LinearLayout(
                # The swap icon is small; like the real ImageView's padding, a
                # touch delegate makes a generous area around it respond.
                ImageView("swap_button", icon="swap", desc="Swap", tint=ACCENT, on_click=self._swap,
                          touch_extend=(dp(24), dp(12), dp(24), dp(12))),
                orientation="horizontal", gravity="center_horizontal", height=dp(56), important=False),
            self._unit_row("bottom", self.bottom, self.converted()),
            LinearLayout(*pad, id="converter_numpad", weight=1, margin=(0, dp(16), 0, 0)),
            id="unit_converter_coordinator", class_name="android.view.ViewGroup", height=MATCH,
        )


class Calculator(App):
    package = PACKAGE
    label = "Calculator"
    activities = (MainActivity, UnitConverterPickerActivity, UnitConverterActivity, SettingsActivity)

    def new_data(self) -> SimpleNamespace:
        return SimpleNamespace(history=[], vibrate=True, prevent_sleeping=False, comma_decimal=False)

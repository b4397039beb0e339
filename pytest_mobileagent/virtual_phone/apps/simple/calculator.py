"""Simple Calculator (com.simplemobiletools.calculator), modelled on release 5.12.0.

Ids and button texts are the real ones (view_calculator.xml).  The engine
follows the real app's semantics, which are NOT those of a precedence-aware
expression calculator: the `result` line shows what is being typed
("18+24"), and pressing a second operator first computes the pending
operation, so input is evaluated strictly left to right ("18+24×3" gives
126 on "=", not 90).  "=" shows the computed expression in `formula` and the
value in `result`; C deletes the last character, a long press on C clears
everything.  There are no parentheses: "18+(24×3)-(9÷3)" takes two steps,
e.g. "2 4 × 3 + 1 8 - 3 =" after working out 9÷3 = 3 (or "9 ÷ 3 =" first).

The unit converter (the toolbar's "Unit converter" icon) lists the six
converters in a grid; each shows two unit rows (top = input typed on its
numpad, bottom = the converted value) whose units are chosen in Commons'
radio dialog ("Mile (mi)"); the swap button exchanges them.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, Decimal
from types import SimpleNamespace
from typing import NamedTuple

from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT_SECONDARY,
    WRAP,
    Button,
    Column,
    FrameLayout,
    ImageView,
    LinearLayout,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity, Dialog
from ...framework.ui.accessibility_class import COORDINATOR_LAYOUT
from ..commons.commons_app import CommonsApp
from ..commons.commons_compose import (commons_strings, compose_checkbox_row, compose_group_title, compose_preference,
                              compose_scaffold)
from ..commons.commons_dialogs import color_picker_dialog, radio_dialog
from ..commons.simple_commons import CustomizationActivity, launch_change_app_language
from ..menus import FDROID_HIDDEN, menu

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
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH,
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
            self.toast("History has been cleared")

        # dialogs/HistoryDialog.kt (5.12.0): OK, and the neutral R.string.clear_history ("Clear")
        self.show_dialog(Dialog("History", body, positive="OK", neutral=("Clear", clear)))

    def _use_history(self, result: str) -> None:
        self.engine.input = self.engine.result = result
        self.engine.last_key = DIGIT
        for window in list(self.overlays):
            dialog = getattr(window, "dialog", None)
            if dialog is not None:
                dialog.dismiss()


class SettingsActivity(Activity):
    """SettingsActivity (5.12.0) draws compose/SettingsScreen.kt: Commons' SimpleColumnScaffold with two
    SettingsGroups, as uiautomator dumps Compose (no resource-ids; see commons_compose)."""

    name = f"{PACKAGE}.activities.SettingsActivity"
    title = "Settings"

    def build(self) -> View:
        data = self.data
        s = commons_strings(PACKAGE)

        def checkbox(label: str, key: str, attribute: str) -> View:
            """SettingsCheckBoxComponent: a clickable Row of the label Text and a Material Checkbox."""
            def toggle(value: bool) -> None:
                setattr(data, attribute, value)
                if attribute == "comma_decimal":  # onUseCommaAsDecimalMarkFlow also deletes the history
                    data.history.clear()
            return compose_checkbox_row(label, getattr(data, attribute), toggle, key)

        rows = [
            compose_group_title("Color customization"),
            # getCustomizeColorsString(): "Customize colors", the F-Droid build pretending Thank You is
            # installed (app/src/fdroid/res/values/bools.xml pretend_thank_you_installed)
            compose_preference("Customize colors", None,
                               lambda: self.start(CustomizationActivity), "customize_colors"),
            # setupCustomizeWidgetColors: WidgetConfigureActivity with IS_CUSTOMIZING_COLORS
            compose_preference("Customize widget colors", None,
                               lambda: self.start(WidgetConfigureActivity, customizing_colors=True),
                               "customize_widget_colors"),
            compose_group_title("General"),
            # isTiramisuPlus(): the app language row, which opens the system's per-app language settings
            # (launchChangeAppLanguageIntent: Settings' app language screen)
            compose_preference("Language", "English", lambda: launch_change_app_language(self), "language"),
            checkbox("Vibrate on button press", "vibrate", "vibrate"),
            checkbox("Prevent phone from sleeping while the app is in foreground", "prevent", "prevent_sleeping"),
            checkbox("Use comma as a decimal mark", "comma", "comma_decimal"),
        ]
        return compose_scaffold("Settings", self.finish, rows, s)


#: Commons' colors.xml default_widget_bg_color (#AA000000) and color_primary (#F57C00), BaseConfig's defaults
DEFAULT_WIDGET_BG = 0xAA000000
DEFAULT_WIDGET_TEXT = 0xFFF57C00
#: values/dimens widget_colorpicker_size (Commons): the two colour squares
_SWATCH = dp(50)


def _rgb(color: int) -> tuple[int, int, int]:
    return (color >> 16) & 255, (color >> 8) & 255, color & 255


class WidgetConfigureActivity(Activity):
    """WidgetConfigureActivity (5.12.0, layout/widget_config.xml): the widget's colours.

    Started from Settings ("Customize widget colors", ``IS_CUSTOMIZING_COLORS``) it shows the
    widget preview (view_calculator with "15,937*5" / "79,685" and the AC key), the background
    colour square (``config_bg_color``) with its transparency SeekBar, the text colour square
    (``config_text_color``) and OK (``config_save``).  The squares open Commons' ColorPickerDialog;
    OK stores the colours (storeWidgetColors: BaseConfig's widgetBgColor / widgetTextColor) and
    finishes.  Started without a widget id and not for colours (``am start``) it finishes at once.
    Not modelled: dragging the SeekBar (a tap carries no position here); with the system theme the
    text colour is Material You's primary (``you_primary_color``), which comes from the wallpaper:
    the phone shows the app's own primary colour instead.
    """

    name = f"{PACKAGE}.activities.WidgetConfigureActivity"
    title = "Calculator"

    def on_create(self) -> None:
        if not self.extras.get("customizing_colors"):
            self.host.defer(self.finish)  # INVALID_APPWIDGET_ID and not customizing colors: finish()
        self.bg = getattr(self.data, "widget_bg_color", DEFAULT_WIDGET_BG)
        self.alpha = (self.bg >> 24) & 255
        self.text_color = getattr(self.data, "widget_text_color", DEFAULT_WIDGET_TEXT)

    def pick_background(self) -> None:
        def picked(ok: bool, color: int) -> None:
            if ok:
                self.bg = (self.alpha << 24) | (color & 0xFFFFFF)

        color_picker_dialog(self, 0xFF000000 | (self.bg & 0xFFFFFF), picked)

    def pick_text(self) -> None:
        def picked(ok: bool, color: int) -> None:
            if ok:
                self.text_color = color

        color_picker_dialog(self, self.text_color, picked)

    def save(self) -> None:
        self.data.widget_bg_color = self.bg
        self.data.widget_text_color = self.text_color
        self.finish()

    def build(self) -> View:
        text = _rgb(self.text_color)
        rows = []
        for row in _KEYPAD:
            rows.append(Row(*[Button(label, view_id, weight=1, height=MATCH, size=sp(28), radius=0, bg=None,
                                     color=text) for view_id, label in row],
                            weight=1, height=MATCH, class_name="android.widget.LinearLayout"))
        preview = LinearLayout(
            TextView("15,937*5", "formula", size=sp(28), color=text, gravity="end|bottom", width=MATCH, weight=1,
                     max_lines=1, padding=(dp(16), dp(8))),
            TextView("79,685", "result", size=sp(48), color=text, gravity="end|center_vertical", width=MATCH,
                     weight=1, max_lines=1, padding=(dp(16), dp(8))),
            *rows, id="config_calc", class_name="android.view.ViewGroup", height=MATCH)
        controls = Row(
            Column(ImageView("config_bg_color", icon="dot", tint=_rgb(self.bg), width=_SWATCH, height=_SWATCH,
                             on_click=self.pick_background),
                   ImageView("config_text_color", icon="dot", tint=text, width=_SWATCH, height=_SWATCH,
                             on_click=self.pick_text), width=WRAP),
            Column(RelativeLayout(View("config_bg_seekbar", class_name="android.widget.SeekBar", height=dp(4),
                                       focusable=True, bg=ACCENT, margin=(0, dp(14))),
                                  id="config_bg_seekbar_holder", padding=(dp(16), dp(9)), margin=(dp(8), 0)),
                   Row(View(weight=1, width=MATCH),
                       Button("OK", "config_save", bg=ACCENT, color=(255, 255, 255), width=WRAP, on_click=self.save)),
                   weight=1, width=MATCH),
            height=WRAP)
        return FrameLayout(
            # widget_background: the preview's rounded background in the chosen colour, behind config_calc
            RelativeLayout(Column(FrameLayout(ImageView("widget_background", width=MATCH, height=MATCH,
                                                        bg=_rgb(self.bg)), preview, weight=1),
                                  controls, height=MATCH),
                           id="config_holder", margin=dp(16), height=MATCH),
            id="config_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


# -- unit converter ----------------------------------------------------------
# Simple Calculator 5.12.0: helpers/converters/*.kt (units, factors, defaults), views/ConverterView.kt
# (input and conversion), activities/UnitConverter*Activity.kt, res/layout/item_unit_type.xml,
# view_unit_converter.xml and view_converter.xml; names and symbols from res/values/strings.xml.


class Unit(NamedTuple):
    name: str
    symbol: str
    factor: float  # value in the converter's base unit = value * factor (Temperature aside)


class Converter(NamedTuple):
    name: str
    icon: str  # the app's drawable, drawn by name
    units: tuple[Unit, ...]
    default_top: str
    default_bottom: str


_MINUTE, _HOUR = 60.0, 3600.0
_DAY = _HOUR * 24.0
#: Converter.ALL, in its order (the picker's grid).
CONVERTERS: tuple[Converter, ...] = (
    Converter("Length", "height", (
        Unit("Kilometer", "km", 1000.0), Unit("Meter", "m", 1.0), Unit("Centimeter", "cm", 0.01),
        Unit("Millimeter", "mm", 0.001), Unit("Micrometer", "μm", 0.000001), Unit("Nanometer", "nm", 0.000000001),
        Unit("Angstrom", "Å", 1e-10), Unit("Mile", "mi", 1_609.344), Unit("Yard", "yd", 0.9144),
        Unit("Foot", "ft", 0.3048), Unit("Inch", "in", 0.0254), Unit("Fathom", "fathom", 1.852),
        Unit("Nautical Mile", "NM", 1_852.0), Unit("Astronomical Unit", "au", 1.495979e+11),
        Unit("Parsec", "pc", 3.0857e+16), Unit("Light Year", "ly", 9.4607e+15)), "Kilometer", "Meter"),
    Converter("Area", "box", (
        Unit("Square Kilometer", "km²", 1000000.0), Unit("Square Meter", "m²", 1.0),
        Unit("Square Centimeter", "cm²", 0.0001), Unit("Square Millimeter", "mm²", 0.000001),
        Unit("Square Mile", "sq mi", 2_589_988.110336), Unit("Square Yard", "sq yd", 0.83612736),
        Unit("Square Foot", "sq ft", 0.09290304), Unit("Square Inch", "sq in", 0.00064516),
        Unit("Acre", "ac", 4_046.8564224), Unit("Hectare", "ha", 10_000.0)), "Square Kilometer", "Square Meter"),
    Converter("Volume", "drop", (
        Unit("Cubic Meter", "m³", 1.0), Unit("Cubic Decimeter", "dm³", 0.001), Unit("Cubic Centimeter", "cm³", 0.000001),
        Unit("Cubic Millimeter", "mm³", 0.000000001), Unit("Liter", "L", 0.001), Unit("Centiliter", "cL", 0.0001),
        Unit("Deciliter", "dL", 0.00001), Unit("Milliliter", "mL", 0.000001),
        Unit("Acre Foot", "ac ft", 1_233.48183754752), Unit("Cubic Foot", "ft³", 0.028316846592),
        Unit("Cubic Inch", "in³", 0.000016387064), Unit("Barrel (US)", "fl bl (US)", 0.119240471196),
        Unit("Gallon (US)", "gal (US)", 0.003785411784), Unit("Quart (US)", "qt (US)", 0.000946352946),
        Unit("Pint (US)", "pt (US fl)", 0.000473176473), Unit("Gill (US)", "gi (US)", 0.00011829411825),
        Unit("Fluid Ounce (US)", "US fl oz", 0.00003), Unit("Barrel (Imperial)", "bl (imp)", 0.16365924),
        Unit("Gallon (Imperial)", "gal (imp)", 0.00454609), Unit("Quart (Imperial)", "qt (imp)", 0.0011365225),
        Unit("Pint (Imperial)", "pt (imp)", 0.00056826125), Unit("Gill (Imperial)", "gi (imp)", 0.0001420653125),
        Unit("Fluid Ounce (Imperial)", "fl oz (imp)", 0.0000284130625)), "Liter", "Cubic Meter"),
    Converter("Mass", "scale", (
        Unit("Gram", "g", 0.001), Unit("Kilogram", "kg", 1.0), Unit("Milligram", "mg", 0.000001),
        Unit("Microgram", "μm", 0.000000001), Unit("Tonne", "t", 1_000.0), Unit("Pound", "lb", 0.45359237),
        Unit("Ounce", "oz", 0.028349523125), Unit("Grain", "gr", 0.00006479891),
        Unit("Dram", "dr", 0.0017718451953125), Unit("Stone", "st", 6.35029318),
        Unit("Long Ton", "ton", 1_016.0469088), Unit("Short Ton", "sh tn", 907.18474),
        Unit("Carat", "kt", 0.0002051965483), Unit("Carat (Metric)", "ct", 0.0002)), "Pound", "Kilogram"),
    Converter("Temperature", "thermostat", (
        Unit("Celsius", "°C", 1.0), Unit("Fahrenheit", "°F", 9.0 / 5), Unit("Rankine", "°R", 5.0 / 9),
        Unit("Kelvin", "K", 1.0)), "Celsius", "Kelvin"),
    Converter("Time", "clock", (
        # unit_time_millisecond is "Microsecond" in the release's strings.xml; its factor is a millisecond's
        Unit("Hour", "h", _HOUR), Unit("Minute", "m", _MINUTE), Unit("Second", "s", 1.0),
        Unit("Microsecond", "ms", 0.001), Unit("Day", "d", _DAY), Unit("Week", "wk", _DAY * 7),
        Unit("Year", "y", _DAY * 365.2425)), "Hour", "Second"),
)
_CONVERTER = {converter.name: converter for converter in CONVERTERS}
_KELVIN_OFFSET, _CELSIUS_OFFSET = 273.15, 32


def _to_base(kind: str, unit: Unit, value: float) -> float:
    """Converter.Unit.toBase; TemperatureConverter's Celsius and Fahrenheit override it (base: kelvin)."""
    if kind == "Temperature" and unit.name == "Celsius":
        return value + _KELVIN_OFFSET
    if kind == "Temperature" and unit.name == "Fahrenheit":
        return (value - _CELSIUS_OFFSET) / unit.factor + _KELVIN_OFFSET
    return value * unit.factor


def _from_base(kind: str, unit: Unit, value: float) -> float:
    if kind == "Temperature" and unit.name == "Celsius":
        return value - _KELVIN_OFFSET
    if kind == "Temperature" and unit.name == "Fahrenheit":
        return (value - _KELVIN_OFFSET) * unit.factor + _CELSIUS_OFFSET
    return value / unit.factor


def convert(kind: str, value: float, source: str, target: str) -> float:
    """`value` in unit `source` expressed in unit `target` (Converter.convert)."""
    units = {unit.name: unit for unit in _CONVERTER[kind].units}
    return _from_base(kind, units[target], _to_base(kind, units[source], value))


def converter_text(value: float) -> str:
    """NumberFormatHelper.doubleToString: java.text.DecimalFormat with grouping, at most 12 fraction
    digits, rounding HALF_EVEN (DecimalFormat's default); -0.0 prints as "-0"."""
    rounded = Decimal(repr(value)).quantize(Decimal("1e-12"), rounding=ROUND_HALF_EVEN)
    text = f"{abs(rounded):,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    negative = rounded < 0 or (rounded == 0 and str(value).startswith("-"))
    return ("-" if negative else "") + text


class UnitConverterPickerActivity(Activity):
    """activity_unit_converter_picker.xml: a grid (AutoGridLayoutManager, 120 dp cells) of item_unit_type."""

    name = f"{PACKAGE}.activities.UnitConverterPickerActivity"
    title = "Unit converter"

    def build(self) -> View:
        items = [
            LinearLayout(
                ImageView("unit_image", icon=converter.icon, tint=ACCENT, important=False),
                TextView(converter.name, "unit_label", max_lines=1),
                id="unit_background", gravity="center", height=dp(120), margin=dp(4), padding=dp(8),
                key=converter.name, on_click=lambda index=index: self.start(UnitConverterActivity, converter_id=index),
            )
            for index, converter in enumerate(CONVERTERS)
        ]
        # AutoGridLayoutManager: span count = the grid's width / unit_type_size (392 dp / 120 dp = 3)
        return LinearLayout(
            self.toolbar("unit_converter_picker_toolbar", title="Unit converter", back=True),
            RecyclerView(*items, id="unit_types_grid", columns=3, weight=1),
            id="unit_converter_picker_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH,
        )


class UnitConverterActivity(Activity):
    name = f"{PACKAGE}.activities.UnitConverterActivity"
    title = "Unit converter"

    def on_create(self) -> None:
        index = self.extras.get("converter_id", 0)
        if not isinstance(index, int) or not 0 <= index < len(CONVERTERS):
            self.finish()  # Converter.ALL.getOrNull(...) == null -> finish()
            return
        self.converter = CONVERTERS[index]
        # config.getLastConverterUnits: the units last chosen for this converter, else its defaults
        self.top, self.bottom = self.data.converter_units.get(
            self.converter.name, (self.converter.default_top, self.converter.default_bottom))
        self.top_text = "0"
        self.bottom_text = self._converted()

    def _unit(self, name: str) -> Unit:
        return next(unit for unit in self.converter.units if unit.name == name)

    def _value(self, text: str) -> float:
        return float(text.replace(",", ""))  # removeGroupingSeparator(...).toDouble()

    def _converted(self) -> str:
        """ConverterView.updateBottomValue."""
        return converter_text(convert(self.converter.name, self._value(self.top_text), self.top, self.bottom))

    # -- ConverterView's input ---------------------------------------------------------
    def _digit(self, digit: str) -> None:
        if digit == "0" and self.top_text == "0":  # zeroClicked: a leading zero is not added
            return
        value = "" if self.top_text == "0" else self.top_text
        # addDigit re-formats the whole text through the double: "1." + "0" gives "1"
        self.top_text = converter_text(self._value(value + digit))
        self.bottom_text = self._converted()

    def _decimal(self) -> None:
        if "." not in self.top_text:
            self.top_text += "."
        self.bottom_text = self._converted()

    def _delete(self) -> None:
        """deleteCharacter: drop the last character, then re-format."""
        text = self.top_text[:-1].rstrip(",") or "0"
        self.top_text = converter_text(self._value(text))
        self.bottom_text = self._converted()

    def _clear(self) -> None:
        """clear(): both fields to 0 (the long press on C)."""
        self.top_text = self.bottom_text = "0"

    def _switch(self) -> None:
        self.top, self.bottom = self.bottom, self.top
        self.bottom_text = self._converted()

    def _pick_unit(self, row: str) -> None:
        """setClickListenerForUnitSelector: Commons' RadioGroupDialog of "Name (symbol)" items."""
        current, other = (self.top, self.bottom) if row == "top" else (self.bottom, self.top)
        names = [unit.name for unit in self.converter.units]

        def picked(index: int) -> None:
            unit = names[index]
            if unit == other:
                self._switch()
            elif unit != current:
                if row == "top":
                    self.top = unit
                else:
                    self.bottom = unit
                self.bottom_text = self._converted()
            self.data.converter_units[self.converter.name] = (self.top, self.bottom)  # putLastConverterUnits

        radio_dialog(self, [f"{unit.name} ({unit.symbol})" for unit in self.converter.units],
                     names.index(current), picked)

    def _copy(self, text: str) -> None:
        """Context.copyToClipboard (Commons): the clip, and a toast that shows it."""
        self.host.clipboard = text
        self.toast(f"Value copied to clipboard:\n{text}")

    def _unit_holder(self, row: str, unit: Unit, text: str) -> View:
        return LinearLayout(
            TextView(unit.name, f"{row}_unit_name", size=sp(18)),
            TextView(text, f"{row}_unit_text", size=sp(34), gravity="end", max_lines=1, width=MATCH, weight=2),
            TextView(unit.symbol, f"{row}_unit_symbol", size=sp(16), gravity="center", min_width=dp(40),
                     height=dp(40)),
            orientation="horizontal", id=f"{row}_unit_holder", class_name="android.view.ViewGroup",
            gravity="center_vertical", padding=(dp(16), dp(8)), weight=3, height=MATCH,
            bg=(255, 243, 238) if row == "top" else None,
            on_click=lambda: self._pick_unit(row), on_long_click=lambda: self._copy(text))

    def build(self) -> View:
        keys = (("7", "8", "9"), ("4", "5", "6"), ("1", "2", "3"), ("0", ".", "C"))
        actions = {".": self._decimal, "C": self._delete}
        ids = {".": "btn_decimal", "C": "btn_clear"}
        pad = [
            LinearLayout(*[
                TextView(label, ids.get(label, f"btn_{label}"), size=sp(26), gravity="center", weight=1, height=MATCH,
                         on_click=actions.get(label, lambda label=label: self._digit(label)),
                         on_long_click=self._clear if label == "C" else None)
                for label in row], orientation="horizontal", weight=2.5, height=MATCH)
            for row in keys
        ]
        converter_view = LinearLayout(
            self._unit_holder("top", self._unit(self.top), self.top_text),
            ImageView("swap_button", icon="swap", tint=ACCENT, width=dp(64), height=dp(64),
                      layout_gravity="center_horizontal", on_click=self._switch),
            self._unit_holder("bottom", self._unit(self.bottom), self.bottom_text),
            id="view_converter", weight=1.5, height=MATCH)
        return LinearLayout(
            self.toolbar("unit_converter_toolbar", title=self.converter.name, back=True),
            ScrollView(LinearLayout(converter_view, *pad, id="converter_holder", height=dp(640)),
                       id="nested_scrollview", weight=1),
            id="unit_converter_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH,
        )


class Calculator(CommonsApp):
    package = PACKAGE
    label = "Calculator"
    activities = (MainActivity, UnitConverterPickerActivity, UnitConverterActivity, SettingsActivity,
                  CustomizationActivity, WidgetConfigureActivity)

    def new_data(self) -> SimpleNamespace:
        return SimpleNamespace(history=[], vibrate=True, prevent_sleeping=False, comma_decimal=False,
                               converter_units={})

"""The UI layer reached like a real phone: through the adb server with adbutils.

The issue's acceptance flow: tapping 18+(24×3)-(9÷3)= on the calculator shows
87 in `result`, and the clicks arrive from the listener's socket (`localabstract:`)
as MobileAgentBench's judge needs them ('=' right after a one-text click).
The calculator has no parentheses and evaluates left to right (like the real
app), so the expression is entered as 24×3+18-3= with 9÷3 done first.
(Event delivery itself is covered by test_events.py.)
"""

from __future__ import annotations

import io

import pytest
from listener_stream import ListenerSink
from uitools import CALC, centre, find, texts

MAIN = f"{CALC}/.activities.SplashActivity.Orange"  # the launcher alias: MainActivity is not exported


@pytest.fixture
def calculator(adb_device):
    adb_device.shell(f"am force-stop {CALC}")
    adb_device.shell(f"am start -n {MAIN}")
    yield adb_device
    adb_device.shell(f"am force-stop {CALC}")


def _tap_keys(device, keys: str) -> None:
    xml = device.dump_hierarchy()      # the keypad does not move: one dump serves all taps
    for key in keys:
        device.click(*centre(find(xml, text=key, cls="android.widget.Button")))


def test_mixed_expression_gives_87_and_the_judge_sees_its_clicks(calculator):
    sink = ListenerSink(calculator)
    try:
        _tap_keys(calculator, "9÷3=")
        assert find(calculator.dump_hierarchy(), id="result")["text"] == "3"
        # Digits typed after "=" extend the result (as in the real app): clear
        # everything first with a long press on C (a same-point 1 s swipe).
        x, y = centre(find(calculator.dump_hierarchy(), id="btn_clear"))
        calculator.swipe(x, y, x, y, 1.0)
        assert find(calculator.dump_hierarchy(), id="result")["text"] == "0"
        _tap_keys(calculator, "24×3+18-3=")
        assert find(calculator.dump_hierarchy(), id="result")["text"].strip() == "87"
        equals_clicks = []

        def second_equals(event: dict) -> bool:
            if event["type"] == "click" and event["text"] == ["="]:
                equals_clicks.append(event)
            return len(equals_clicks) == 2

        events = sink.events_until(second_equals)
    finally:
        sink.close()
    clicks = [e for e in events if e["type"] == "click" and e["package"] == CALC]
    assert [c["text"][0] for c in clicks] == list("9÷3=24×3+18-3=")
    assert all(c["id"].startswith(f"{CALC}:id/btn_") for c in clicks)
    assert [e["id"] for e in events if e["type"] == "long_click"] == [f"{CALC}:id/btn_clear"]
    assert len(clicks[-2]["text"]) == 1


def test_screencap_png_is_the_screen_at_real_size(calculator, phone):
    from PIL import Image

    _tap_keys(calculator, "12×4=")
    png = calculator.shell("screencap -p", encoding=None)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.size == (1080, 2340)
    assert png == phone.phone.system.screenshot_png()


def test_unit_converter_through_adb(calculator):
    calculator.click(*centre(find(calculator.dump_hierarchy(), desc="Unit converter")))   # an `always` icon
    calculator.click(*centre(find(calculator.dump_hierarchy(), text="Length")))
    calculator.click(*centre(find(calculator.dump_hierarchy(), id="bottom_unit_holder")))  # Kilometer -> Meter
    calculator.click(*centre(find(calculator.dump_hierarchy(), text="Mile (mi)")))
    calculator.click(*centre(find(calculator.dump_hierarchy(), id="swap_button")))
    calculator.click(*centre(find(calculator.dump_hierarchy(), id="btn_1")))
    shown = texts(calculator.dump_hierarchy())
    assert {"Mile", "Kilometer", "1", "1.609344"} <= set(shown)
    current = calculator.app_current()
    assert (current.package, current.activity) == (CALC, f"{CALC}.activities.UnitConverterActivity")

"""Accessibility events reach the host from the listener's socket (`localabstract:mobileagent-listener`)."""

from __future__ import annotations

import socket

import pytest
from listener_stream import ListenerSink
from uihelpers import CALC, NOTES, center, find, launch


@pytest.fixture
def line_server(adb_device):
    """The host end of the listener's socket (what the plugin's event server dials)."""
    sink = ListenerSink(adb_device)
    yield sink
    sink.close()


def _wait_for(server: ListenerSink, **wanted) -> dict:
    seen = []
    for _ in range(50):
        event = server.next_event()
        if all(event.get(k) == v for k, v in wanted.items()):
            return event
        seen.append(event)
    raise AssertionError(f"no event {wanted}; saw {seen}")


def test_click_arrives_as_json_line(adb_device, line_server):
    launch(adb_device.shell, CALC)
    seven = find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_7")
    adb_device.click(*center(seven))
    event = _wait_for(line_server, type="click", id=f"{CALC}:id/btn_7")
    assert event["v"] == 1 and event["package"] == CALC
    assert isinstance(event["time_ms"], int) and isinstance(event["text"], list)
    # the same stream carries later events, in order
    eight = find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_8")
    adb_device.click(*center(eight))
    assert _wait_for(line_server, type="click")["id"] == f"{CALC}:id/btn_8"


def test_a_taps_click_is_on_the_host_before_the_tap_command_returns(adb_device, line_server):
    # The event travels ahead of the command's reply through the same adb
    # server: the host's event socket already holds it when `input tap` returns.
    import select

    from pytest_mobileagent.device import Device

    launch(adb_device.shell, CALC)
    fast = Device(adb_device.serial)  # adbutils' own calls take ~20 ms: long enough to hide a late event
    try:
        keys = [center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_{d}")) for d in "1234567"]
        adb_device.click(*keys[0])
        _wait_for(line_server, type="click", id=f"{CALC}:id/btn_1")  # the stream is open
        for digit, (x, y) in zip("234567", keys[1:]):
            fast.tap(x, y)
            readable, _, _ = select.select([line_server.sock], [], [], 0)
            assert readable or b"\n" in line_server.buffer, f"no event waiting after tapping {digit}"
            assert _wait_for(line_server, type="click")["id"] == f"{CALC}:id/btn_{digit}"
    finally:
        fast.close()


def test_a_taps_click_goes_ahead_of_output_that_leaves_before_its_line_ends(adb_device, line_server, phone,
                                                                            monkeypatch):
    # A command line's output leaves as each command finishes (a dump before
    # the screencap after it), and must not overtake the events of the
    # commands before it. The phone holds the screencap until this test has
    # looked, so what the test reads is output sent before the line ended.
    import select
    import threading

    from pytest_mobileagent.device.fast_adb import FastAdb

    launch(adb_device.shell, CALC)
    released, holds = threading.Event(), []
    capture = phone.phone.system.screenshot_png

    def held_capture():
        holds.append(released.wait(timeout=10))
        return capture()

    try:
        keys = [center(find(adb_device.dump_hierarchy(), resource_id=f"{CALC}:id/btn_{d}")) for d in "1234"]
        adb_device.click(*keys[0])
        _wait_for(line_server, type="click", id=f"{CALC}:id/btn_1")  # the stream is open
        monkeypatch.setattr(phone.phone.system, "screenshot_png", held_capture)
        fast = FastAdb(adb_device.serial)
        for digit, (x, y) in zip("234", keys[1:]):
            reply = fast.exec_out_until(f"input tap {x} {y} && echo tapped && screencap -p", b"tapped")
            readable, _, _ = select.select([line_server.sock], [], [], 0)
            released.set()
            assert reply.rest().startswith(b"\n\x89PNG")  # the line ran to its end
            released.clear()
            assert readable or b"\n" in line_server.buffer, f"no event waiting when the output after tapping {digit} came"
            assert _wait_for(line_server, type="click")["id"] == f"{CALC}:id/btn_{digit}"
        assert holds == [True] * 3  # every screencap waited for this test, not for the bound
    finally:
        released.set()


def test_events_with_no_client_leave_the_shell_alone(adb_device, phone):
    launch(adb_device.shell, CALC)  # emits events; nobody is connected to the listener
    assert adb_device.shell("echo fine") == "fine"


def test_reverse_to_a_closed_port_does_not_hurt(adb_device, adb_server_port):
    with socket.socket() as probe:  # a port with nothing listening
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    adb_device.reverse("tcp:8888", f"tcp:{dead_port}")
    try:
        launch(adb_device.shell, CALC)
        assert adb_device.shell("echo fine") == "fine"
    finally:
        adb_device.reverse_remove_all()


def test_the_listener_gets_the_resized_windows_content_change_but_not_the_ime_windows_change(adb_device):
    # listener_service.xml subscribes to typeWindowContentChanged and does not ask for
    # interactive windows (no TYPE_WINDOWS_CHANGED): a keyboard hidden with BACK in Notes
    # (adjustResize) reaches it as a content change of the Notes window only.
    launch(adb_device.shell, NOTES)
    line_server = ListenerSink(adb_device)  # from here on: Notes' launch is behind it
    try:
        adb_device.shell("input keyevent BACK")
        launch(adb_device.shell, CALC)
        seen = []
        while not (seen and seen[-1]["type"] == "window_state" and seen[-1]["package"] == CALC):
            seen.append(line_server.next_event())
            assert len(seen) < 50, seen
        assert {"type": "window_content", "package": NOTES, "class": "android.widget.LinearLayout",
                "text": []}.items() <= seen[0].items()
        assert all(event["type"] != "windows_changed" for event in seen)
    finally:
        line_server.close()

"""The studio (``mobileagent-studio``): live screen, hierarchy, driving, recording, replay, access.

One virtual phone and one studio process serve the whole module; the browser
tests drive it from headless Chromium, and every check of the phone goes
through adb.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from pytest_mobileagent.device.device import connect
from pytest_mobileagent.judge import Screen, parse_hierarchy
from pytest_mobileagent.studio.locate import selectors_for, target_at
from studio_support import chromium_page, require_browser, studio_process, wait_version_above

CALCULATOR = "com.simplemobiletools.calculator"


@pytest.fixture(scope="module")
def studio_phone(adb_server_port):
    """A phone of this module's own: the studio claims it and dials its listener."""
    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(1, adb_server_port=adb_server_port) as phones:
        yield phones[0]


@pytest.fixture(scope="module")
def studio(studio_phone, tmp_path_factory):
    """(url, port, first line, tasks directory) of a studio on the module's phone."""
    tasks = tmp_path_factory.mktemp("recorded")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with studio_process("--port", str(port), "--no-browser", "--device", studio_phone.serial,
                        "--tasks-dir", str(tasks), cwd=tasks) as (proc, url, first):
        yield {"url": url, "port": port, "first": first, "tasks": tasks, "proc": proc}


@pytest.fixture(scope="module")
def device(studio_phone, studio):
    return connect(studio_phone.serial)


def _post(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        body = exc.read()
        try:
            return exc.code, json.loads(body or b"{}")
        except ValueError:
            return exc.code, {"text": body.decode()}


def _result_text(device) -> str | None:
    screen = Screen(CALCULATOR)
    screen.update(device.dump_hierarchy())
    return screen.text(id="result")


# -- the first line, the token, the address -------------------------------------------


def test_first_line_is_the_pages_url_on_the_given_port(studio):
    assert studio["first"].startswith(f"http://127.0.0.1:{studio['port']}/")


def test_requests_without_the_token_are_refused(studio, device):
    base = f"http://127.0.0.1:{studio['port']}"
    for path in ("/", "/stream", "/screen.png", "/apps", "/static/studio.js", "/x/", "/" + "A" * 24 + "/apps"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base + path, timeout=10)
        assert refused.value.code == 403, path
    before = device.dump_hierarchy()
    status, _ = _post(base + "/action", {"type": "key", "key": "HOME"})
    assert status == 403
    assert device.dump_hierarchy() == before  # nothing reached the phone
    with urllib.request.urlopen(studio["url"] + "apps", timeout=10) as ok:
        assert ok.status == 200


def test_the_server_listens_on_loopback_only(studio):
    # Linux routes all of 127/8 to the loopback device: a server bound to 0.0.0.0 would answer on
    # 127.0.0.2 (and on the machine's own addresses); one bound to 127.0.0.1 does not.
    addresses = {"127.0.0.2"}
    try:
        addresses |= {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except socket.gaierror:
        pass
    addresses.discard("127.0.0.1")
    for address in addresses:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((address, studio["port"]), timeout=5).close()
    socket.create_connection(("127.0.0.1", studio["port"]), timeout=5).close()


def test_bad_actions_get_a_clear_error_and_change_nothing(studio, device):
    before = device.dump_hierarchy()
    for body, message in [
        ({"type": "tap", "x": 5000, "y": 10}, "off the"),
        ({"type": "tap", "x": "left", "y": 10}, "must be integers"),
        ({"type": "type", "text": "café"}, "cannot type"),
        ({"type": "key", "key": "POWER"}, "key must be one of"),
        ({"type": "launch", "package": "not a package"}, "not an app name"),
        ({"type": "explode"}, "unknown action type"),
    ]:
        status, reply = _post(studio["url"] + "action", body)
        assert status == 400 and message in reply["error"], (body, reply)
    assert device.dump_hierarchy() == before
    status, reply = _post(studio["url"] + "record/stop", {"prompt": "x", "name": "x"})
    assert status == 400 and "not recording" in reply["error"]


# -- selectors: the golden path's own resolution ---------------------------------------


def test_every_selector_finds_its_view_as_the_golden_path_resolves_it(device):
    device.launch(CALCULATOR)
    nodes = parse_hierarchy(device.dump_hierarchy())
    screen = Screen(CALCULATOR)
    screen.update("", nodes)
    found = 0
    for node, selector in zip(nodes, selectors_for(nodes, CALCULATOR)):
        if selector is None:
            continue
        found += 1
        assert screen.get(**selector.kwargs) is node, (node, selector)
        assert (screen.count(**selector.kwargs) == 1) == selector.unique
    assert found >= 20
    seven = next(n for n in nodes if n.short_id == "btn_7")
    assert target_at(nodes, *seven.center, CALCULATOR)[1].code() == 'g.tap(id="btn_7")'


def test_a_selector_is_unique_when_a_combination_is(tmp_path):
    xml = (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="p.q" '
        'content-desc="" clickable="false" bounds="[0,0][100,300]">'
        '<node index="0" text="Milk" resource-id="p.q:id/row" class="android.widget.TextView" package="p.q" '
        'content-desc="" clickable="true" bounds="[0,0][100,100]" />'
        '<node index="1" text="Eggs" resource-id="p.q:id/row" class="android.widget.TextView" package="p.q" '
        'content-desc="" clickable="true" bounds="[0,100][100,200]" />'
        '<node index="2" text="Milk" resource-id="p.q:id/other" class="android.widget.TextView" package="p.q" '
        'content-desc="" clickable="true" bounds="[0,200][100,300]" />'
        "</node></hierarchy>"
    )
    nodes = parse_hierarchy(xml)
    selectors = selectors_for(nodes, "p.q")
    assert selectors[0] is None
    assert selectors[1].kwargs == {"id": "row", "text": "Milk"} and selectors[1].unique
    assert selectors[2].kwargs == {"text": "Eggs"} and selectors[2].unique
    assert selectors[3].kwargs == {"id": "other"} and selectors[3].unique


# -- the page --------------------------------------------------------------------------


def _screen_point(page, node) -> tuple[float, float]:
    box = page.locator("#screen").bounding_box()
    width, height = page.evaluate("() => [state.width, state.height]")
    x, y = node.center
    return box["x"] + x * box["width"] / width, box["y"] + y * box["height"] / height


def test_the_page_shows_the_screen_and_hierarchy_and_a_click_reaches_the_phone(studio, device):
    require_browser()
    with chromium_page() as page:
        page.goto(studio["url"])
        wait_version_above(page, "#screen", 0)
        assert page.evaluate("() => document.getElementById('screen').naturalWidth") == device.width
        page.select_option("#apps", CALCULATOR)
        page.click("#launch")
        page.get_by_text("btn_equals", exact=True).wait_for()  # the hierarchy, with resource-ids
        assert "btn_7" in page.locator("#tree").inner_text()
        nodes = parse_hierarchy(device.dump_hierarchy())
        before = _result_text(device)
        seven = next(n for n in nodes if n.short_id == "btn_7")
        # Hovering highlights the view and shows its golden selector.
        page.mouse.move(*_screen_point(page, seven))
        assert page.locator("#hover-info").inner_text().startswith('g.tap(id="btn_7")')
        assert page.locator("#tree li.hover").inner_text().startswith("Button btn_7")
        shown = page.get_attribute("#screen", "data-version")
        page.mouse.down()
        page.mouse.up()
        wait_version_above(page, "#screen", int(shown))
        assert _result_text(device) == ("7" if before in ("0", "") else before + "7")
        # Selecting a view in the hierarchy shows its attributes and selector.
        page.locator("#tree li", has_text="btn_equals").click()
        details = page.locator("#selected").inner_text()
        assert 'g.tap(id="btn_equals")' in details and "com.simplemobiletools.calculator:id/btn_equals" in details


def test_a_recorded_calculator_session_is_a_task_that_replay_passes_and_noop_fails(studio, device, phone_factory):
    require_browser()
    with chromium_page() as page:
        page.goto(studio["url"])
        wait_version_above(page, "#screen", 0)
        page.select_option("#apps", CALCULATOR)
        page.click("#record-start")
        page.locator("#record-stop-form").wait_for()
        assert _result_text(device) == "0"  # Record reset the app, as a task run does
        for key in ("btn_7", "btn_plus", "btn_5", "btn_equals"):
            page.get_by_text(key, exact=True).first.wait_for()
            node = next(n for n in parse_hierarchy(device.dump_hierarchy()) if n.short_id == key)
            count = page.locator("#steps li").count()
            page.mouse.click(*_screen_point(page, node))
            page.locator("#steps li").nth(count).wait_for()
        assert page.locator("#steps").inner_text().split("\n") == [
            'g.tap(id="btn_7")', 'g.tap(id="btn_plus")', 'g.tap(id="btn_5")', 'g.tap(id="btn_equals")']
        assert _result_text(device) == "12"
        page.fill("#prompt", "Calculate the result of '7 + 5'")
        page.fill("#task-name", "calculator_seven_plus_five")
        page.click("#record-stop")
        page.locator("#task-source").wait_for()
        source = page.locator("#task-source").inner_text()
        path = studio["tasks"] / "test_calculator_seven_plus_five.py"
        assert path.read_text() == source + ("\n" if not source.endswith("\n") else "")
        assert 'screen.text(id="result") == "12"' in source
        # A readable pane: long lines wrap rather than scroll sideways, and it opens, in view, at the
        # golden path and the judge (the docstring, imports and seed stub are above them).
        pane = page.evaluate("""() => {
            const pane = document.getElementById("task-source"), body = document.getElementById("task-golden");
            const p = pane.getBoundingClientRect(), b = body.getBoundingClientRect();
            return {wrap: getComputedStyle(pane).whiteSpace, wide: pane.scrollWidth - pane.clientWidth,
                    scrolled: pane.scrollTop, paneTop: p.top, paneBottom: p.bottom, bodyTop: b.top,
                    bodyBottom: b.bottom, viewport: window.innerHeight, body: body.textContent}
        }""")
        assert pane["wrap"] == "pre-wrap" and pane["wide"] <= 0, pane
        assert pane["body"].startswith("@task(") and pane["scrolled"] > 0, pane
        assert 0 <= pane["paneTop"] <= pane["bodyTop"] and pane["bodyBottom"] <= pane["paneBottom"] + 1, pane
        assert pane["paneBottom"] <= pane["viewport"], pane
        # The page's Replay: the plugin's own verdicts.
        page.click("#replay")
        page.locator("#replay-results div[data-agent='noop']").wait_for(timeout=180_000)
        assert page.get_attribute("#replay-results div[data-agent='replay']", "data-verdict") == "passed"
        assert page.get_attribute("#replay-results div[data-agent='noop']", "data-verdict") == "failed"
    # The studio holds its phone again after the replays: no other run can take it.
    from pytest_mobileagent.device.claims import DeviceClaim

    assert DeviceClaim.try_claim(device.serial) is None
    # And the same file from the command line, as its author would run it, on another phone.
    (other,) = phone_factory(1)
    for agent, expected in (("replay", 0), ("noop", 1)):
        run = subprocess.run([sys.executable, "-m", "pytest", str(path), "--agent", agent, "--device", other.serial,
                              "-p", "no:cacheprovider", "-q"], cwd=path.parent, capture_output=True, text=True,
                             timeout=300)
        assert run.returncode == expected, (agent, run.stdout[-3000:], run.stderr[-2000:])


def test_a_recording_never_overwrites_a_task_file(studio):
    (studio["tasks"] / "test_keep_me.py").write_text("# the author's edits\n")
    status, _ = _post(studio["url"] + "record/start", {"package": "calculator"})
    assert status == 200
    status, reply = _post(studio["url"] + "record/stop", {"prompt": "Press nothing", "name": "keep_me"})
    assert status == 400 and "exists already" in reply["error"]
    assert (studio["tasks"] / "test_keep_me.py").read_text() == "# the author's edits\n"
    status, reply = _post(studio["url"] + "record/stop", {"prompt": "Press nothing", "name": "keep_me_2"})
    assert status == 200, reply
    assert 'assert False, "describe the finished state here' in reply["source"]


def test_the_studio_stops_cleanly_on_sigterm(phone_factory, tmp_path):
    (own,) = phone_factory(1)
    with studio_process("--no-browser", "--device", own.serial, cwd=tmp_path) as (proc, url, _):
        with urllib.request.urlopen(url + "apps", timeout=10) as ok:
            assert ok.status == 200
        proc.terminate()
        assert proc.wait(timeout=30) == 0
    with pytest.raises((ConnectionRefusedError, http.client.HTTPException, urllib.error.URLError)):
        urllib.request.urlopen(url + "apps", timeout=5)


def test_with_no_device_attached_the_studio_boots_a_virtual_phone_that_stops_with_it(tmp_path):
    from pytest_mobileagent.device.fast_adb import list_devices
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    # An adb server of its own that does not scan the emulator ports (ADB_EMU=0; the scan starts at
    # 5555 whatever the ceiling), so the other phones on the machine stay out of it.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(port), "ADB_EMU": "0", "ADB_LOCAL_TRANSPORT_MAX_PORT": "5553"}
    adb = bundled_adb_path()
    subprocess.run([adb, "-P", str(port), "start-server"], env=env, check=True, timeout=60, capture_output=True)
    addr = ("127.0.0.1", port)
    try:
        assert list_devices(addr=addr) == []
        with studio_process("--no-browser", cwd=tmp_path, env=env) as (proc, url, first):
            with urllib.request.urlopen(url + "apps", timeout=10) as reply:
                serial = json.loads(reply.read())["serial"]
            assert list_devices(addr=addr) == [(serial, "device")]
            assert serial in first
            proc.terminate()
            assert proc.wait(timeout=30) == 0
        # Gone, or listed "offline" until the adb server drops the closed transport (as for a killed emulator).
        assert dict(list_devices(addr=addr)).get(serial, "offline") == "offline"
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], env=env, timeout=30, capture_output=True)


def test_a_device_another_studio_or_run_holds_is_refused_with_the_holder(studio, studio_phone, tmp_path):
    done = subprocess.run([sys.executable, "-m", "pytest_mobileagent.studio", "--no-browser", "--device",
                           studio_phone.serial], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert f"device {studio_phone.serial} is in use by another run" in done.stderr
    done = subprocess.run([sys.executable, "-m", "pytest_mobileagent.studio", "--no-browser", "--device",
                           "emulator-9998"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "'emulator-9998' is not attached" in done.stderr


# -- issue 38, point 9: the app list, the suggested judge, the task pane -----------------------


def test_the_app_list_offers_only_apps_a_launch_can_start(studio, device):
    with urllib.request.urlopen(studio["url"] + "apps", timeout=60) as reply:
        listed = {app["package"] for app in json.loads(reply.read())["apps"]}
    installed = {line.partition(":")[2] for line in device.shell("pm list packages").splitlines()}
    assert CALCULATOR in listed and "com.simplemobiletools.notes.pro" in listed
    # Installed, but without a MAIN / LAUNCHER activity: Launch (monkey -c LAUNCHER) cannot start them.
    for package in ("android", "com.android.shell", "com.android.systemui", "io.github.mobileagent.listener"):
        assert package in installed and package not in listed, package
    for package in listed:
        device.launch(package)  # each one listed starts


def _tap(url: str, device, short_id: str) -> dict:
    node = next(n for n in parse_hierarchy(device.dump_hierarchy()) if n.short_id == short_id)
    status, reply = _post(url + "action", {"type": "tap", "x": node.center[0], "y": node.center[1]})
    assert status == 200, reply
    return reply


def test_the_suggested_judge_skips_the_tab_strip_a_second_note_brings(studio, device):
    url = studio["url"]
    status, reply = _post(url + "record/start", {"package": "notes"})
    assert status == 200, reply
    _tap(url, device, "new_note")
    status, reply = _post(url + "action", {"type": "type", "text": "TODO List"})
    assert status == 200, reply
    _tap(url, device, "button1")
    # The second note brings the tab strip, with the first note's title beside the new one's.
    strip = [n.text for n in parse_hierarchy(device.dump_hierarchy()) if n.text]
    assert "General note" in strip and "TODO List" in strip
    status, reply = _post(url + "record/stop", {"prompt": "add a new note named 'TODO List'", "name": "note_add"})
    assert status == 200, reply
    source = reply["source"]
    assert 'assert screen.exists(text="TODO List")' in source
    assert "General note" not in source

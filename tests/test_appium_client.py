"""The real Appium server and its UiAutomator2 driver (npm) drive a virtual phone.

Appium (``clients/appium``, installed by ``.ci/run`` with ``npm ci``) runs on
127.0.0.1 with a free port and talks to the phone through a private adb
server, with ``ANDROID_HOME`` holding only ``platform-tools/adb`` (the adbutils
wheel's adb), as a machine with only platform-tools has it. The driver installs
its server APKs with ``adb install``, starts them with ``am instrument -w``,
forwards device port 6790 and proxies the Appium Python client's commands to
the phone's model of the server. Nothing here is patched: the clients' own code
is the test.

Skipped only when node or the npm packages are missing and
MOBILEAGENT_REQUIRE_CLIENTS is unset (``.ci/run`` sets it, so CI cannot skip).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request

import pytest
from clients_support import APPIUM_DIR, APPIUM_MAIN, appium_missing, require_client

CALCULATOR = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"
#: bound on Appium's start (it loads its driver in about a second)
START_TIMEOUT_S = 120


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _status(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(f"{url}/status", timeout=5) as response:
            return json.load(response)
    except OSError:
        return None


@pytest.fixture(scope="module")
def appium_phone(adb_server_port, tmp_path_factory):
    """A phone of its own (the driver installs APKs on it)."""
    require_client(appium_missing())
    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(1, adb_server_port=adb_server_port) as phones:
        yield phones[0]


@pytest.fixture(scope="module")
def appium_server(adb_server_port, tmp_path_factory):
    """Appium on 127.0.0.1:FREE_PORT; stopped (and waited for) at the end of the module."""
    require_client(appium_missing())
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    android_home = tmp_path_factory.mktemp("android-home")
    (android_home / "platform-tools").mkdir()
    (android_home / "platform-tools" / "adb").symlink_to(bundled_adb_path())
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = tmp_path_factory.mktemp("appium-log") / "appium.log"
    env = dict(os.environ, APPIUM_HOME=str(APPIUM_DIR), ANDROID_HOME=str(android_home),
               ANDROID_SDK_ROOT=str(android_home), ANDROID_ADB_SERVER_PORT=str(adb_server_port))
    with open(log_path, "wb") as log:
        process = subprocess.Popen(["node", str(APPIUM_MAIN), "server", "--address", "127.0.0.1",
                                    "--port", str(port), "--log-no-colors", "--log-timestamp"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT, cwd=APPIUM_DIR)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while (_status(url) or {}).get("value", {}).get("ready") is not True:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Appium did not start (exit {process.poll()}):\n{log_path.read_text()[-4000:]}")
            time.sleep(0.2)  # polling Appium's readiness, bounded by the deadline
        yield url, log_path
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def driver(appium_server, appium_phone, adb_server_port):
    """An Appium session on the phone, with the driver's default device setup."""
    from appium import webdriver
    from appium.options.android import UiAutomator2Options

    url, log_path = appium_server
    options = UiAutomator2Options()
    options.udid = appium_phone.serial
    options.set_capability("appium:adbPort", adb_server_port)
    options.set_capability("appium:newCommandTimeout", 120)
    try:
        session = webdriver.Remote(url, options=options)
    except Exception as exc:
        pytest.fail(f"no Appium session: {exc}\n{log_path.read_text()[-6000:]}")
    try:
        yield session
    finally:
        session.quit()


def test_session_runs_the_phone_server_installed_by_the_driver(driver, appium_phone):
    from appium.webdriver.common.appiumby import AppiumBy

    phone = appium_phone.phone
    assert phone.packages.is_installed("io.appium.uiautomator2.server")
    assert phone.packages.is_installed("io.appium.uiautomator2.server.test")
    assert "tcp:6790" in phone.sockets.listening()
    assert driver.get_window_size() == {"width": 1080, "height": 2340}
    source = driver.page_source
    assert source.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy ")
    assert driver.find_elements(AppiumBy.XPATH, "/hierarchy/*")  # the focused window's root


def test_calculator_by_id_and_xpath(driver):
    from appium.webdriver.common.appiumby import AppiumBy

    driver.activate_app(CALCULATOR)
    for key in ("btn_7", "btn_plus", "btn_8", "btn_equals"):
        driver.find_element(AppiumBy.ID, key).click()
    result = driver.find_element(AppiumBy.XPATH, f'//*[@resource-id="{CALCULATOR}:id/result"]')
    assert result.text == "15"
    assert result.get_attribute("resource-id") == f"{CALCULATOR}:id/result"
    rect = result.rect
    assert rect["width"] > 0 and rect["height"] > 0
    # a full resource id works as well, and an unknown one is Appium's NoSuchElementException
    assert driver.find_element(AppiumBy.ID, f"{CALCULATOR}:id/btn_7").text == "7"
    from selenium.common.exceptions import NoSuchElementException

    with pytest.raises(NoSuchElementException):
        driver.find_element(AppiumBy.ID, "no_such_button")


def test_notes_types_into_a_field_and_the_page_source_shows_it(driver):
    from appium.webdriver.common.appiumby import AppiumBy
    from lxml import etree

    driver.activate_app(NOTES)
    driver.find_element(AppiumBy.ID, "new_note").click()
    title = driver.find_element(AppiumBy.ID, "locked_note_title")
    title.send_keys("Groceries")
    assert title.text == "Groceries"
    title.clear()
    title.send_keys("Errands")
    assert title.text == "Errands"
    assert driver.switch_to.alert.text.splitlines()[0] == "Add a new note"  # the dialog, as AlertHelpers reads it
    driver.find_element(AppiumBy.XPATH, '//*[@resource-id="android:id/button1"]').click()
    tree = etree.fromstring(driver.page_source.encode())
    assert tree.tag == "hierarchy"
    texts = tree.xpath("//@text")
    assert "Errands" in texts
    tags = {node.tag for node in tree.iter()}
    assert "android.widget.TextView" in tags  # elements are named after their class
    by_uiautomator = driver.find_elements(AppiumBy.ANDROID_UIAUTOMATOR, 'new UiSelector().text("Errands")')
    assert by_uiautomator



def test_is_keyboard_shown_and_hide_keyboard_read_dumpsys_input_method(driver):
    """appium-adb's isSoftKeyboardPresent reads ``mInputShown`` and ``mIsInputViewShown`` from
    `dumpsys input_method` (InputMethodManagerService's and InputMethodService.dump's lines); the
    driver's hideKeyboard closes a keyboard that both say is up, with BACK, and waits for it to go."""
    from appium.webdriver.common.appiumby import AppiumBy

    driver.activate_app(NOTES)
    driver.find_element(AppiumBy.ID, "new_note").click()
    driver.find_element(AppiumBy.ID, "locked_note_title").click()
    assert driver.is_keyboard_shown() is True
    driver.hide_keyboard()  # appium-adb: KEYCODE_ESCAPE, then BACK if the keyboard stayed
    assert driver.is_keyboard_shown() is False
    driver.terminate_app(NOTES)

def test_back_and_keycodes_reach_the_phone(driver, appium_phone):
    driver.activate_app(CALCULATOR)
    assert appium_phone.phone.system.focused_window()[0] == CALCULATOR
    driver.press_keycode(3)  # KEYCODE_HOME
    assert appium_phone.phone.system.focused_window()[0] == "com.android.launcher3"
    driver.activate_app(CALCULATOR)
    driver.back()
    assert appium_phone.phone.system.focused_window()[0] != CALCULATOR


def test_taps_by_coordinates_are_w3c_actions(driver):
    from appium.webdriver.common.appiumby import AppiumBy

    # A calculator of its own: under xdist this module's tests may run on two phones, and
    # "C" only takes back one character of what an earlier test left on the display.
    driver.terminate_app(CALCULATOR)
    driver.activate_app(CALCULATOR)
    driver.find_element(AppiumBy.ID, "btn_clear").click()
    nine = driver.find_element(AppiumBy.ID, "btn_9").rect
    centre = (nine["x"] + nine["width"] // 2, nine["y"] + nine["height"] // 2)
    driver.tap([centre])  # pointerMove, pointerDown, pause, pointerUp
    driver.tap([centre])
    assert driver.find_element(AppiumBy.ID, "result").text == "99"
    # Appium's `mobile:` gestures reach the server's /appium/gestures endpoints
    driver.execute_script("mobile: clickGesture", {"elementId": driver.find_element(AppiumBy.ID, "btn_9").id})
    assert driver.find_element(AppiumBy.ID, "result").text == "999"


def test_app_state_terminate_and_contexts(driver):
    from appium.webdriver.applicationstate import ApplicationState

    driver.activate_app(NOTES)
    assert driver.query_app_state(NOTES) == ApplicationState.RUNNING_IN_FOREGROUND
    assert driver.query_app_state(CALCULATOR) in (ApplicationState.NOT_RUNNING,
                                                  ApplicationState.RUNNING_IN_BACKGROUND)
    assert driver.terminate_app(NOTES) is True
    assert driver.query_app_state(NOTES) == ApplicationState.NOT_RUNNING
    assert driver.contexts == ["NATIVE_APP"]  # no WebView devtools socket in /proc/net/unix


def test_clipboard_and_orientation(driver, appium_phone):
    driver.set_clipboard_text("from appium")
    assert appium_phone.phone.system.clipboard == "from appium"
    assert driver.get_clipboard_text() == "from appium"
    assert driver.orientation == "PORTRAIT"


def test_screenshot_is_the_phone_screen(driver):
    png = driver.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    from PIL import Image
    import io

    assert Image.open(io.BytesIO(png)).size == (1080, 2340)

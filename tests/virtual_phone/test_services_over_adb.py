"""System services as clients reach them over adb: the settings provider, `cmd package
query-activities`, `cmd statusbar` and the notification shade, `dumpsys input_method`'s
IME service state, monkey's network mode, and http(s) VIEW intents.

Every test drives the session phone through the real adb server with adbutils.
"""

from __future__ import annotations

import re
import socket

import pytest


@pytest.fixture
def sh(adb_device):
    """Run a command on the session phone: (exit status, stdout, stderr)."""
    def run(cmd: str) -> tuple[int, str, str]:
        result = adb_device.shell2(cmd, v2=True)
        return result.returncode, result.stdout, result.stderr

    return run


# -- content://settings (SettingsProvider) -------------------------------------------------------
def test_settings_provider_rows_are_the_settings_commands_facts(sh):
    """SettingsProvider.query (frameworks/base packages/SettingsProvider): columns _id, name, value
    (ALL_COLUMNS); Content.java prints "Row: N col=value, ..."; `settings get` reads the same store."""
    assert sh("settings put system svc_listed 1.15")[0] == 0
    out = sh("content query --uri content://settings/system")[1]
    rows = re.findall(r"^Row: (\d+) _id=(\d+), name=([^,]+), value=(.*)$", out, re.M)
    assert [int(r[0]) for r in rows] == list(range(len(rows))) and len(rows) >= 6
    listed = dict(line.split("=", 1) for line in sh("settings list system")[1].splitlines())
    assert {name: value for _, _, name, value in rows} == listed
    assert listed["svc_listed"] == "1.15"
    # one named row: by --where name='x' (Arguments' WHERE_PATTERN_NO_PARAM_NO_BRACKETS) or by path
    android_id = sh("settings get secure android_id")[1].strip()
    assert sh("content query --uri content://settings/secure --projection name:value "
              "--where \"name='android_id'\"")[1] == f"Row: 0 name=android_id, value={android_id}\n"
    assert sh("content query --uri content://settings/global/wifi_on --projection value")[1] == "Row: 0 value=1\n"
    assert sh("content query --uri content://settings/global --where \"(name = 'no_such')\"")[1] == \
        "No result found.\n"


def test_settings_provider_writes_reach_settings_get(sh):
    """insert/update/delete through the provider change what `settings get` prints; a changed
    value gets a new row id (SettingsState: String.valueOf(mNextId++))."""
    assert sh("content insert --uri content://settings/system --bind name:s:svc_probe --bind value:s:one") == \
        (0, "", "")
    assert sh("settings get system svc_probe")[1] == "one\n"
    first = re.search(r"_id=(\d+)", sh("content query --uri content://settings/system/svc_probe")[1]).group(1)
    sh("content update --uri content://settings/system --bind name:s:svc_probe --bind value:s:two "
       "--where \"name='svc_probe'\"")
    row = sh("content query --uri content://settings/system/svc_probe")[1]
    assert row == f"Row: 0 _id={int(first) + 1}, name=svc_probe, value=two\n"
    sh("settings put system svc_probe three")
    assert "value=three" in sh("content query --uri content://settings/system --where \"name='svc_probe'\"")[1]
    sh("content delete --uri content://settings/system --where \"name='svc_probe'\"")
    assert sh("settings get system svc_probe")[1] == "null\n"


def test_settings_provider_refuses_what_its_arguments_refuse(sh):
    """SettingsProvider.Arguments accepts only name='x', name=? (with one argument, which `content`
    never passes) or a name in the path; normalizeProjection refuses unknown columns."""
    code, out, err = sh("content query --uri content://settings/system --where \"value='1'\"")
    assert (code, out) == (0, "") and err.startswith("Error while accessing provider:settings\n"
                                                     "java.lang.IllegalArgumentException: Supported SQL:\n")
    assert "but got - uri:content://settings/system, where:value='1' whereArgs:null" in err
    assert "NullPointerException" in sh("content query --uri content://settings/system --where 'name=?'")[2]
    assert sh("content query --uri content://settings/system --projection package")[2].endswith(
        "java.lang.IllegalArgumentException: Invalid column: package\n")
    assert sh("content query --uri content://settings/bogus")[2].endswith("Bad root path: bogus\n")


# -- cmd package query-activities ------------------------------------------------------------------
MAIN, LAUNCHER = "android.intent.action.MAIN", "android.intent.category.LAUNCHER"
NOTES = "com.simplemobiletools.notes.pro"


def test_query_activities_lists_what_resolve_activity_and_am_start_choose_from(sh):
    """PackageManagerShellCommand.runQueryIntentActivities: "N activities found:", "  Activity #i:"
    and printResolveInfo at "    "; --components prints one flattenToShortString per line."""
    code, out, _ = sh(f"cmd package query-activities --brief -a {MAIN} -c {LAUNCHER} {NOTES}")
    assert (code, out.splitlines()) == (0, [
        "1 activities found:", "  Activity #0:",
        "    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false",
        f"    {NOTES}/.activities.SplashActivity.Orange"])
    # every launcher entry on the phone; each is what resolve-activity names for its package
    launchers = sh(f"pm query-activities --components -a {MAIN} -c {LAUNCHER}")[1].splitlines()
    assert f"{NOTES}/.activities.SplashActivity.Orange" in launchers and len(launchers) >= 10
    for component in launchers[:3]:
        package = component.split("/")[0]
        assert sh(f"cmd package resolve-activity --components -a {MAIN} -c {LAUNCHER} {package}")[1] == \
            component + "\n"
    # several answers: resolve-activity names the ResolverActivity, am start shows it
    senders = sh("cmd package query-activities --components -a android.intent.action.SEND -t text/plain")[1]
    assert len(senders.splitlines()) >= 2
    assert sh("cmd package resolve-activity --components -a android.intent.action.SEND -t text/plain")[1] == \
        "android/com.android.internal.app.ResolverActivity\n"
    # the full ResolveInfo.dump, and the options anywhere among the intent's arguments
    home = sh("cmd package query-activities -a android.intent.action.MAIN --user 0 -c android.intent.category.HOME")[1]
    assert home.splitlines()[:4] == [
        "1 activities found:", "  Activity #0:",
        "    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true", "    ActivityInfo:"]
    assert "      packageName=com.android.launcher3" in home.splitlines()


def test_query_activities_when_nothing_answers(sh):
    assert sh(f"cmd package query-activities -a android.intent.action.VIEW -d geo:0,0 {NOTES}") == \
        (0, "No activities found\n", "")
    code, _, err = sh("cmd package query-activities --brief")
    assert code == 255 and err.endswith("java.lang.IllegalArgumentException: No intent supplied\n")


# -- cmd statusbar, cmd notification post, SystemUI's shade -----------------------------------------
SYSUI = "com.android.systemui:id/"


@pytest.fixture
def shade(adb_device):
    """The session phone with no notifications, and its shade up and empty again afterwards
    (force-stopping a package cancels its notifications: NotificationManagerService on
    ACTION_PACKAGE_RESTARTED)."""
    adb_device.shell("am force-stop com.android.shell")
    yield adb_device
    adb_device.shell("cmd statusbar collapse; am force-stop com.android.shell")
    assert adb_device.shell("cmd notification list") == ""


def _nodes(xml: str, resource_id: str) -> list[dict]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', m)) for m in re.findall(r"<node [^>]*>", xml)
            if f'resource-id="{resource_id}"' in m]


def test_the_shade_shows_the_posted_notifications_and_back_closes_it(shade):
    """NotificationShellCmd.doNotify posts as com.android.shell (id 2020, channel shell_cmd);
    StatusBarShellCommand's expand-notifications pulls SystemUI's shade down: its ids
    (notification_stack_scroller, header_label, android:id/title...) as the real shade dumps in
    the DroidTask recordings show them; `cmd notification list` and `dumpsys notification` list
    the same notification.  BACK collapses the shade."""
    posted = shade.shell("cmd notification post -t 'Meeting moved' meeting 'Now at 3 pm in room B'")
    assert posted.startswith("posting:\n  Notification(channel=shell_cmd ")
    assert shade.shell("cmd notification list") == "0|com.android.shell|2020|meeting|2000"
    dump = shade.shell("dumpsys notification")
    assert "key=0|com.android.shell|2020|meeting|2000" in dump and "android.title=String (Meeting moved)" in dump
    assert shade.shell("cmd statusbar expand-notifications") == ""
    xml = shade.dump_hierarchy()
    assert 'package="com.android.systemui"' in xml
    assert _nodes(xml, SYSUI + "notification_stack_scroller")[0]["scrollable"] == "true"
    assert [n["text"] for n in _nodes(xml, SYSUI + "header_label")] == ["Notifications"]
    assert [n["text"] for n in _nodes(xml, "android:id/title")] == ["Meeting moved"]
    assert [n["text"] for n in _nodes(xml, "android:id/text")] == ["Now at 3 pm in room B"]
    assert [n["text"] for n in _nodes(xml, "android:id/app_name_text")] == ["Shell"]
    assert len(_nodes(xml, SYSUI + "quick_qs_panel")) == 1
    # WindowManager: SystemUI's NotificationShade window has the focus; the app keeps mFocusedApp
    windows = shade.shell("dumpsys window windows")
    assert re.search(r"mCurrentFocus=Window\{\w+ u0 NotificationShade\}", windows)
    assert "mFocusedApp=ActivityRecord{" in windows
    shade.shell("input keyevent BACK")
    assert "u0 NotificationShade}" not in shade.shell("dumpsys window displays")
    assert 'package="com.android.systemui"' not in shade.dump_hierarchy()
    assert shade.shell("cmd notification list") == "0|com.android.shell|2020|meeting|2000"  # BACK clears nothing


def test_quick_settings_tiles_are_the_settings_and_clear_all_empties_the_shade(shade):
    """expand-settings shows the quick settings panel (tile_label per tile); a tile's state is the
    setting `settings get` reports, and tapping the tile changes that setting.  "Clear all"
    (dismiss_text) cancels the notifications and the shade goes up."""
    shade.shell("cmd statusbar expand-settings")
    xml = shade.dump_hierarchy()
    labels = [n["text"] for n in _nodes(xml, SYSUI + "tile_label")]
    assert "Auto-rotate" in labels and "Airplane mode" in labels
    tile = next(dict(re.findall(r'([\w-]+)="([^"]*)"', m)) for m in re.findall(r"<node [^>]*>", xml)
                if 'content-desc="Auto-rotate screen"' in m)
    before = shade.shell("settings get system accelerometer_rotation")
    assert (tile["class"], tile["text"]) == ("android.widget.Switch", "On" if before == "1" else "Off")
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", tile["bounds"]))
    shade.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    assert shade.shell("settings get system accelerometer_rotation") == ("0" if before == "1" else "1")
    shade.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    assert shade.shell("settings get system accelerometer_rotation") == before
    # the notifications view: "Clear all" cancels every clearable one and the panel goes up
    shade.shell("cmd notification post first 'one'; cmd notification post second 'two'")
    shade.shell("cmd statusbar expand-notifications")
    xml = shade.dump_hierarchy()
    assert [n["text"] for n in _nodes(xml, "android:id/text")] == ["two", "one"]  # newest first
    button = _nodes(xml, SYSUI + "dismiss_text")[0]
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", button["bounds"]))
    shade.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    assert shade.shell("cmd notification list") == ""
    assert 'package="com.android.systemui"' not in shade.dump_hierarchy()
    shade.shell("cmd statusbar expand-notifications")
    assert [n["text"] for n in _nodes(shade.dump_hierarchy(), SYSUI + "no_notifications")] == ["No notifications"]
    shade.shell("cmd statusbar collapse")
    assert 'package="com.android.systemui"' not in shade.dump_hierarchy()


def test_statusbar_and_notification_commands_answer_as_their_shell_commands(sh):
    assert sh("cmd statusbar check-support") == (0, "true\n", "")
    code, out, _ = sh("cmd statusbar")
    assert code == 255 and out.startswith("Status bar commands:\n  help\n")
    assert sh("cmd statusbar no-such-verb") == (255, "Unknown command: no-such-verb\n", "")
    code, out, _ = sh("cmd notification post only-a-tag")
    assert code == 0 and out.startswith("usage: cmd notification post [flags] <tag> <text>\n")
    assert sh("cmd notification get '0|nothing'") == (1, "error: no active notification matching key: 0|nothing\n", "")


# -- monkey --port (MonkeySourceNetwork) ----------------------------------------------------------
class _LineClient:
    """A host socket to the monkey through `adb forward`, one answer line per command."""

    def __init__(self, port: int) -> None:
        import socket

        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buffer = b""

    def ask(self, line: str) -> str:
        self.sock.sendall(line.encode() + b"\n")
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            assert chunk, f"the monkey hung up after {line!r}"
            self.buffer += chunk
        answer, _, self.buffer = self.buffer.partition(b"\n")
        return answer.decode()


def test_network_monkey_speaks_its_line_protocol_through_adb_forward(adb_device):
    """development/cmds/monkey MonkeySourceNetwork: OK / OK:value / ERROR:message per command, no
    answer for an unknown one; tap, press and type act on the phone; getvar reads
    MonkeySourceNetworkVars; quit ends the monkey, whose shell then prints "Events injected"."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        host_port = probe.getsockname()[1]
    monkey = adb_device.shell("monkey --port 1080", stream=True)
    try:
        assert adb_device.shell("monkey --port 1080").splitlines()[-1] == "Error binding to network socket."
        adb_device.forward(f"tcp:{host_port}", "tcp:1080")
        client = _LineClient(host_port)
        assert client.ask("getvar build.version.sdk") == "OK:34"
        assert client.ask("getvar display.width") == "OK:1080"
        assert client.ask("getvar monkey.version") == "OK:2"
        assert client.ask("getvar no.such.var") == "ERROR:unknown var"
        assert "display.density" in client.ask("listvar").split()
        assert client.ask("tap 10") == "ERROR:Invalid Argument"
        # an unknown command and a comment get no answer: the next answer is the next command's
        client.sock.sendall(b"frobnicate 1 2\n# a comment\n")
        assert client.ask("wake") == "OK"
        adb_device.shell(f"pm clear {NOTES}")  # its first note empty, whatever the session's tests wrote
        adb_device.shell(f"am start -n {NOTES}/.activities.SplashActivity.Orange")
        assert client.ask("getvar am.current.package") == f"OK:{NOTES}"
        # Notes opens its note with the field focused: `type` types into it (KeyCharacterMap's events)
        # commandLineSplit: a quoted word opens a quote only a later word closes
        assert client.ask('type "single"') == "ERROR:Invalid Argument"
        assert client.ask('type "two words"') == "OK"
        field = _nodes(adb_device.dump_hierarchy(), f"{NOTES}:id/text_note_view")[0]
        assert field["text"] == "two words"
        assert client.ask("press KEYCODE_HOME") == "OK"
        assert client.ask("getvar am.current.package") == "OK:com.android.launcher3"
        assert 'package="com.android.launcher3"' in adb_device.dump_hierarchy()
        assert client.ask("press no_such_key") == "ERROR:Invalid Argument"
        assert client.ask("quit") == "OK"
        output = monkey.read_until_close()
        assert "  bash arg: --port\n" in output and "Events injected: 20\n" in output  # 9 keys down and up, HOME
    finally:
        monkey.close()
        adb_device.forward_remove(f"tcp:{host_port}")
        adb_device.shell("pm clear " + NOTES)



def test_network_monkeys_sleep_and_clock_vars_are_the_phones_clock(adb_device):
    """MonkeySourceNetwork's `sleep N` queues a MonkeyThrottleEvent (Thread.sleep on the phone), and
    `getvar clock.realtime` / `clock.uptime` read SystemClock.elapsedRealtime / uptimeMillis: on the
    virtual phone both are its one clock (kernel/clock.py), which moves by the sleep's length exactly."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        host_port = probe.getsockname()[1]
    monkey = adb_device.shell("monkey --port 1081", stream=True)
    try:
        adb_device.forward(f"tcp:{host_port}", "tcp:1081")
        client = _LineClient(host_port)
        before = int(client.ask("getvar clock.realtime").removeprefix("OK:"))
        assert client.ask("getvar clock.uptime") == f"OK:{before}"  # the phone never deep-sleeps
        assert client.ask("sleep 2500") == "OK"
        assert client.ask("getvar clock.realtime") == f"OK:{before + 2500}"
        uptime = float(adb_device.shell("cat /proc/uptime").split()[0])
        assert uptime * 1000 >= before + 2500  # /proc/uptime is the same clock (plus the cat's own start)
        assert client.ask("quit") == "OK"
        monkey.read_until_close()
    finally:
        monkey.close()
        adb_device.forward_remove(f"tcp:{host_port}")


# -- http(s) VIEW intents: Chrome ------------------------------------------------------------------
CHROME = "com.android.chrome"
VIEW = "android.intent.action.VIEW"


@pytest.fixture
def chrome(adb_device):
    adb_device.shell(f"pm clear {CHROME}")  # a fresh Chrome: its first run not yet accepted
    yield adb_device
    adb_device.shell(f"pm clear {CHROME}")
    adb_device.shell("input keyevent HOME")


def test_an_https_view_intent_opens_chrome_which_shows_the_url_offline(chrome, sh):
    """Chrome's manifest gives VIEW http/https to the alias com.google.android.apps.chrome.IntentDispatcher
    (what resolve-activity names on a Google emulator image); the page opens in ChromeTabbedActivity,
    behind the first-run screen until it is accepted; the omnibox (url_bar) shows the URL without its
    scheme, and with no network the page is Chrome's ERR_INTERNET_DISCONNECTED error page
    (chromium components/error_page/common/localized_error.cc)."""
    url = "https://example.com/news?id=3"
    assert sh(f"cmd package resolve-activity --components -a {VIEW} -d {url}")[1] == \
        f"{CHROME}/com.google.android.apps.chrome.IntentDispatcher\n"
    assert sh(f"cmd package query-activities --components -a {VIEW} -d {url}")[1] == \
        f"{CHROME}/com.google.android.apps.chrome.IntentDispatcher\n"
    out = chrome.shell(f"am start -W -a {VIEW} -d '{url}'")
    assert f"Activity: {CHROME}/org.chromium.chrome.browser.firstrun.FirstRunActivity" in out
    accept = _nodes(chrome.dump_hierarchy(), f"{CHROME}:id/terms_accept")[0]
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", accept["bounds"]))
    chrome.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    assert f"{CHROME}/org.chromium.chrome.browser.ChromeTabbedActivity" in chrome.shell("dumpsys activity top")
    xml = chrome.dump_hierarchy()
    bar = _nodes(xml, f"{CHROME}:id/url_bar")[0]
    assert (bar["class"], bar["text"]) == ("android.widget.EditText", "example.com/news?id=3")
    texts = re.findall(r'text="([^"]+)"', xml)
    assert "No internet" in texts and "ERR_INTERNET_DISCONNECTED" in texts
    # the first run is done: the next link goes straight to a tab
    out = chrome.shell(f"am start -W -a {VIEW} -d http://example.org/")
    assert f"Activity: {CHROME}/org.chromium.chrome.browser.ChromeTabbedActivity" in out
    assert _nodes(chrome.dump_hierarchy(), f"{CHROME}:id/url_bar")[0]["text"] == "example.org"


def test_back_on_chromes_first_run_leaves_chrome(chrome):
    chrome.shell(f"am start -a {VIEW} -d https://example.com/")
    assert _nodes(chrome.dump_hierarchy(), f"{CHROME}:id/terms_accept")
    chrome.shell("input keyevent BACK")
    assert 'package="com.android.chrome"' not in chrome.dump_hierarchy()

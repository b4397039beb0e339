"""DroidBot's helper app (``io.github.ylimit.droidbotapp``): its view-tree stream and its IME.

DroidBot (github:honeynet/droidbot, droidbot/adapter/droidbot_app.py) installs its
app with `adb install`, enables the app's accessibility service with
``settings put secure enabled_accessibility_services ...`` and
``accessibility_enabled 1``, waits until ``dumpsys activity services`` lists it,
then connects to device port 7336 through ``adb forward`` and reads packets:
a 6-byte header ``>BBI`` (0xFF, 0x00, length) and a message
``AccEvent >>> {json}`` for every accessibility event.

The app (github:ylimit/droidbotApp, PSAccessibilityServicePatch.java) is
PrivacyStreams' accessibility service (github:PrivacyStreams/PrivacyStreams):
``uqi.getData(AccEvent.asUpdates(), ...).logOverSocket("AccEvent")``.
PSDebugSocketServer (utils/PSDebugSocketServer.java) listens on port 7336 and
sends each message to every connected socket, never reading from them;
EchoOperator formats ``"%s >>> %s"``; an AccEvent item (accessibility/AccEvent.java,
core/Item.java) is ``time_created``, ``event``, ``event_time``, ``root_node`` (the
active window's root, taken when the service handles the event), ``event_type`` and
``package_name``, serialized by IOUtils.serialize: nodes as ``package, text, class,
child_count, content_description, enabled, resource_id, editable, scrollable,
is_password, checkable, checked, clickable, focusable, focused, visible,
long_clickable, selected, bounds [l, t, r, b], children``; JSONObject drops null
values. The service's config has flagIncludeNotImportantViews: the whole tree.

Its input method (DroidBotIME.java) takes ``am broadcast -a DROIDBOT_INPUT_TEXT
--es text T --ei mode 0|1`` while it is the current input method: mode 0 replaces
the focused field's text (deleteSurroundingText then commitText), 1 appends.
"""

from __future__ import annotations

import asyncio
import json
import struct
import weakref

from lxml import etree

from ..framework.active_services import SYNCERS
from ..framework.broadcasts import BROADCAST_RECEIVERS
from ..framework.input_methods import INPUT_METHODS, InputMethod
from ..kernel.context import PhoneContext

__all__ = ["ACCESSIBILITY_SERVICE", "DEVICE_PORT", "IME", "PACKAGE", "DroidBotBridge", "sync"]

PACKAGE = "io.github.ylimit.droidbotapp"
SERVICE_CLASS = "io.github.privacystreams.accessibility.PSAccessibilityService"
ACCESSIBILITY_SERVICE = f"{PACKAGE}/{SERVICE_CLASS}"
IME = f"{PACKAGE}/.DroidBotIME"
DEVICE_PORT = 7336  # Globals.DebugConfig.socketPort
#: PSDebugSocketServer's packet header: 0xFF, 0x00, then the message length (big-endian int)
_HEADER = struct.Struct(">BBI")

#: the phone's event types -> AccessibilityEvent.TYPE_* (android/view/accessibility/AccessibilityEvent.java)
_EVENT_TYPES = {
    "click": (0x1, "TYPE_VIEW_CLICKED"), "long_click": (0x2, "TYPE_VIEW_LONG_CLICKED"),
    "focus": (0x8, "TYPE_VIEW_FOCUSED"), "text_changed": (0x10, "TYPE_VIEW_TEXT_CHANGED"),
    "window_state": (0x20, "TYPE_WINDOW_STATE_CHANGED"), "window_content": (0x800, "TYPE_WINDOW_CONTENT_CHANGED"),
    "scroll": (0x1000, "TYPE_VIEW_SCROLLED"),
    # the service asks for interactive windows (flagRetrieveInteractiveWindows in PrivacyStreams'
    # ps_accessibility_config.xml, typeAllMask): it gets the IME window's coming and going
    "windows_changed": (0x400000, "TYPE_WINDOWS_CHANGED"),
}

_BRIDGES: "weakref.WeakKeyDictionary[PhoneContext, DroidBotBridge]" = weakref.WeakKeyDictionary()


def _node(element: etree._Element) -> dict:
    """One `uiautomator dump` node as IOUtils.serialize writes an AccessibilityNodeInfo."""
    a = element.attrib
    left, top, right, bottom = (int(v) for v in a["bounds"].replace("][", ",").strip("[]").split(","))
    children = [_node(child) for child in element]
    node = {
        "package": a.get("package"), "class": a.get("class"), "child_count": len(children),
        "enabled": a.get("enabled") == "true", "editable": a.get("class", "").endswith("EditText"),
        "scrollable": a.get("scrollable") == "true", "is_password": a.get("password") == "true",
        "checkable": a.get("checkable") == "true", "checked": a.get("checked") == "true",
        "clickable": a.get("clickable") == "true", "focusable": a.get("focusable") == "true",
        "focused": a.get("focused") == "true", "visible": True,  # the dump holds only shown views
        "long_clickable": a.get("long-clickable") == "true", "selected": a.get("selected") == "true",
        "bounds": [left, top, right, bottom], "children": children,
    }
    # null CharSequences are dropped by JSONObject; the dump writes them as ""
    for key, attr in (("text", "text"), ("content_description", "content-desc"), ("resource_id", "resource-id")):
        if a.get(attr):
            node[key] = a[attr]
    return node


class DroidBotBridge:
    """The running accessibility service: its socket server and the events it forwards."""

    def __init__(self, phone: "PhoneContext"):
        self.phone = phone
        self.clients: set = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        # PSDebugSocketServer opens its ServerSocket on its first use; the phone opens it
        # when the service connects, so that a client connecting at once is not refused.
        self.listener = phone.sockets.listen(f"tcp:{DEVICE_PORT}", self._serve)
        phone.add_event_sink(self._on_event)

    def stop(self) -> None:
        """onUnbind: the service stops, its sockets close."""
        self.phone.remove_event_sink(self._on_event)
        self.listener.close()

    async def _serve(self, conn) -> None:
        self._loop = asyncio.get_running_loop()
        self.clients.add(conn)
        try:
            while await conn.read():
                pass  # the app never reads what a client sends
        finally:
            self.clients.discard(conn)

    def _on_event(self, event: dict) -> None:
        loop = self._loop
        if not self.clients or loop is None or loop.is_closed():
            return  # sent to no socket
        # The service handles the event on its own thread, reading the active window then.
        loop.call_soon_threadsafe(lambda: loop.create_task(self._send(event)))

    def message(self, event: dict) -> bytes:
        system = self.phone.system
        # The service reads its event's window as it handles it: an app's own read of the
        # nodes, not a look at the screen that takes the phone's time (kernel/clock.py).
        root = etree.fromstring(system.dump_xml(look=False).encode())
        type_id, type_name = _EVENT_TYPES[event["type"]]
        # AccessibilityEvent.getEventTime(): SystemClock.uptimeMillis() when it happened
        uptime = self.phone.clock.elapsed_at(event.get("time_ms", self.phone.clock_ms())) - self.phone.clock.slept_ms
        texts = [t for t in event.get("text", []) if t is not None]
        item = {
            "time_created": event.get("time_ms", self.phone.clock_ms()),
            "event": {
                "event_type": type_name, "event_time": uptime, "action": 0, "text": texts,
                "item_count": -1, "current_item_index": -1, "enabled": True, "is_password": False,
                "checked": False, "full_screen": type_id == 0x20, "scrollable": False,
                "from_index": -1, "to_index": -1, "scroll_x": -1, "scroll_y": -1,
                "max_scroll_x": -1, "max_scroll_y": -1, "removed_count": -1,
                **({"content_description": event["desc"]} if event.get("desc") else {}),
                # null CharSequences are dropped (a windows-changed event has no package or class)
                **({"package_name": event["package"]} if event.get("package") else {}),
                **({"class_name": event["class"]} if event.get("class") else {}),
            },
            "event_time": uptime, "event_type": type_id, "package_name": event.get("package", ""),
        }
        if len(root):
            item["root_node"] = _node(root[0])
        body = ("AccEvent >>> " + json.dumps(item, ensure_ascii=False, separators=(",", ":"))).encode()
        return _HEADER.pack(0xFF, 0x00, len(body)) + body

    async def _send(self, event: dict) -> None:
        if not self.clients:
            return
        data = self.message(event)
        for conn in list(self.clients):
            try:
                await conn.write(data)
            except Exception:  # a socket that fails is dropped, as SocketSendThread does
                self.clients.discard(conn)


def sync(phone: "PhoneContext") -> None:
    """Bind or unbind the service after its package or the accessibility settings changed."""
    running = _BRIDGES.get(phone)
    enabled = phone.packages.accessibility_service_enabled(ACCESSIBILITY_SERVICE)
    if enabled and running is None:
        _BRIDGES[phone] = DroidBotBridge(phone)
    elif not enabled and running is not None:
        running.stop()
        del _BRIDGES[phone]


def _input_text(phone: "PhoneContext", intent) -> None:
    """DroidBotIME's InputReceiver: DROIDBOT_INPUT_TEXT while it is the current input method."""
    if phone.settings["secure"].get("default_input_method") != IME or not phone.packages.is_installed(PACKAGE):
        return  # no receiver registered for the action: the broadcast reaches nobody
    # getStringExtra("text") and getIntExtra("mode", 0): an extra of another type is not there
    text = intent.extras.get("text")
    text = text if isinstance(text, str) else None
    mode = intent.extras.get("mode")
    mode = mode if isinstance(mode, int) else 0
    system = phone.system
    focused = etree.fromstring(system.dump_xml().encode()).xpath(
        '//node[@focused="true"][substring(@class, string-length(@class) - 7) = "EditText"]')
    if text is None or not focused:
        return  # getCurrentInputConnection() is null without a focused field
    if mode == 0:
        system.key_combination(["CTRL_LEFT", "A"])
        system.key("DEL")
    system.input_text(text)


BROADCAST_RECEIVERS["DROIDBOT_INPUT_TEXT"] = _input_text
SYNCERS.append(sync)
# the app's manifest: <service android:name=".DroidBotIME" android:permission="...BIND_INPUT_METHOD">
INPUT_METHODS.append(InputMethod(PACKAGE, f"{PACKAGE}.DroidBotIME"))

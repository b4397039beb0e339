"""Appium's UiAutomator2 server, as the phone runs it: W3C WebDriver over HTTP on device port 6790.

The npm `appium-uiautomator2-driver` installs two APKs (`io.appium.uiautomator2.server`
and `io.appium.uiautomator2.server.test`) and starts this server with
``am instrument -w ... io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner``
(shell/instrument.py, which runs `UIA2_COMPONENT` below); the driver then reaches it through
``adb forward tcp:N tcp:6790`` and proxies the client's commands to it.

Routes, response shapes and errors follow the server's source
(github:appium/appium-uiautomator2-server, app/src/main/java/io/appium/uiautomator2):
``server/AppiumServlet.java`` (the route table; ``/wd/hub`` prefix stripped by
``http/ServerHandler.java``), ``http/AppiumResponse.java`` (``{"value": ..., "sessionId": ...}``;
errors as ``{"error", "message", "stacktrace"}`` with the exception's HTTP status),
``handler/request/SafeRequestHandler.java`` (unknown session -> "invalid session id").

The page source is Appium's XML (``core/AccessibilityNodeInfoDumper.java``,
``model/UiElementSnapshot.java``): a ``hierarchy`` root, one element per node named
after its class, attributes in ``SUPPORTED_ATTRIBUTES`` order. It is built from the
phone's `uiautomator dump` of the focused window; attributes the dump does not carry
(drawing order, input type...) are left out, as the server leaves out null ones.
XPath runs over that document with lxml, as the server runs it over its own.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import traceback
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from lxml import etree

from ..framework.system import LONG_PRESS_MS, TOUCH_SLOP
from ..framework.ui.window import STATUS_BAR_H
from ..kernel.context import PhoneContext
from ..shell.android import VIRTUAL_KEYBOARD_CHARS
from ..shell.instrument import finish_test, runner
from ..shell.interpreter import Invocation
from ..shell.keycodes import canonical_key
from ..shell.program import Program
from ..shell.system_services import battery_state
from . import uiselector
from .http_server import serve_http

__all__ = ["DEVICE_PORT", "SERVER_PACKAGE", "TEST_PACKAGE", "UiAutomator2Server", "WebDriverError"]

DEVICE_PORT = 6790
SERVER_PACKAGE = "io.appium.uiautomator2.server"
TEST_PACKAGE = "io.appium.uiautomator2.server.test"
#: the W3C element reference key and the legacy JSONWP one (model/api/ElementModel.java)
W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"
JWP_ELEMENT_KEY = "ELEMENT"

#: attributes the page source lists, in the server's order (UiElementSnapshot.SUPPORTED_ATTRIBUTES),
#: limited to those a `uiautomator dump` node carries (the dump's attribute name when it differs)
_SOURCE_ATTRIBUTES = ("index", "package", "class", "text", "content-desc", "resource-id", "checkable",
                      "checked", "clickable", "enabled", "focusable", "focused", "long-clickable",
                      "password", "scrollable", "selected", "bounds", "displayed")
#: getAttribute names and aliases (utils/Attribute.java) -> the source attribute
_ATTRIBUTE_ALIASES = {
    "checkable": "checkable", "checked": "checked", "class": "class", "className": "class",
    "clickable": "clickable", "content-desc": "content-desc", "contentDescription": "content-desc",
    "enabled": "enabled", "focusable": "focusable", "focused": "focused", "long-clickable": "long-clickable",
    "longClickable": "long-clickable", "package": "package", "password": "password",
    "resource-id": "resource-id", "resourceId": "resource-id", "scrollable": "scrollable",
    "selected": "selected", "text": "text", "name": "text", "bounds": "bounds", "displayed": "displayed",
}
#: Attribute.exposableAliases(), as the no-such-attribute message lists them
_EXPOSABLE_ALIASES = (
    "checkable, checked, class, className, clickable, content-desc, contentDescription, enabled, "
    "focusable, focused, long-clickable, longClickable, package, password, resource-id, resourceId, "
    "scrollable, selection-start, selection-end, selected, text, name, hint, extras, bounds, displayed, "
    "contentSize, a11y-important, importantForAccessibility, screen-reader-focusable, "
    "screenReaderFocusable, input-type, inputType, drawing-order, drawingOrder, showing-hint, "
    "showingHintText, text-entry-key, textEntryKey, multiline, multiLine, dismissable, a11y-focused, "
    "accessibilityFocused, heading, live-region, liveRegion, context-clickable, contextClickable, "
    "max-text-length, maxTextLength, content-invalid, contentInvalid, error, errorText, pane-title, "
    "paneTitle, tooltip-text, tooltipText, text-has-clickable-span, textHasClickableSpan, actions, "
    "window-id, windowId, text-size, textSize, text-unit, textUnit, is-collection, isCollection, "
    "is-collection-item, isCollectionItem, collection-info, collectionInfo, collection-item-info, "
    "collectionItemInfo")
_STRATEGIES = ("id", "xpath", "accessibility id", "class name", "-android uiautomator")
#: "pkg:id/name" (ElementLocationHelpers.resourceIdRegex): ids in that form are not completed
_FULL_RESOURCE_ID = re.compile(r"^[a-zA-Z_][a-zA-Z0-9._]*:[^/]+/\S+$")
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


class WebDriverError(Exception):
    """A UiAutomator2Exception subclass: its W3C error code and HTTP status."""

    def __init__(self, error: str, message: str, status: int):
        super().__init__(message)
        self.error, self.status = error, status


def _no_such_element(message: str = "An element could not be located on the page using the given "
                     "search parameters") -> WebDriverError:
    return WebDriverError("no such element", message, 404)


def _invalid_argument(message: str = "The arguments passed to the command are either invalid or "
                      "malformed") -> WebDriverError:
    return WebDriverError("invalid argument", message, 400)


_UNKNOWN_COMMAND = ("The requested resource could not be found, or a request was received using an "
                    "HTTP method that is not supported by the mapped resource")


@dataclass
class _Element:
    """A cached element: where it was found, and how (ElementsCache restores stale ones by locator)."""

    id: str
    path: tuple[int, ...]  # child indexes from the hierarchy root
    tag: str
    resource_id: str
    package: str
    strategy: str
    selector: str
    context: "_Element | None" = None

    def same_view(self, node: etree._Element) -> bool:
        """Whether ``node`` is still this element's view (class, id and app unchanged)."""
        return (node.tag, node.get("resource-id", ""), node.get("package", "")) == (
            self.tag, self.resource_id, self.package)


class _Session:
    def __init__(self, capabilities: dict):
        self.id = str(uuid.uuid4())
        self.capabilities = capabilities
        self.elements: dict[str, _Element] = {}


class UiAutomator2Server:
    """The server's state (one session at a time, as AppiumUIA2Driver keeps) and its routes."""

    def __init__(self, phone: "PhoneContext", version_name: str, version_code: int):
        self.phone = phone
        self.version_name, self.version_code = version_name, version_code
        self.session: _Session | None = None
        #: DELETE /session asked the server to stop (the HTTP layer acts once the reply is out)
        self.shutdown_requested = False
        self._lock = threading.Lock()
        self._routes: list[tuple[str, tuple[str, ...], Callable, bool]] = []
        for method, pattern, handler, needs_session in (
            ("DELETE", "/session/:sessionId", self._delete_session, True),
            ("POST", "/session", self._new_session, False),
            ("POST", "/session/:sessionId/element", self._find_element, True),
            ("POST", "/session/:sessionId/elements", self._find_elements, True),
            ("POST", "/session/:sessionId/element/:id/click", self._click, True),
            ("POST", "/session/:sessionId/element/:id/clear", self._clear, True),
            ("POST", "/session/:sessionId/element/:id/value", self._send_keys, True),
            ("POST", "/session/:sessionId/keys", self._send_keys, True),
            ("POST", "/session/:sessionId/back", self._back, True),
            ("POST", "/session/:sessionId/appium/device/press_keycode", self._press_keycode, True),
            ("POST", "/session/:sessionId/appium/settings", self._update_settings, True),
            ("POST", "/session/:sessionId/actions", self._actions, True),
            ("POST", "/session/:sessionId/alert/accept", self._accept_alert, True),
            ("POST", "/session/:sessionId/alert/dismiss", self._dismiss_alert, True),
            ("GET", "/session/:sessionId/alert/text", self._alert_text, True),
            ("POST", "/session/:sessionId/appium/gestures/click", self._gesture_click, True),
            ("POST", "/session/:sessionId/appium/gestures/long_click", self._gesture_long_click, True),
            ("POST", "/session/:sessionId/appium/gestures/double_click", self._gesture_double_click, True),
            ("POST", "/session/:sessionId/appium/gestures/swipe", self._gesture_swipe, True),
            ("GET", "/status", self._status, False),
            ("GET", "/sessions", self._sessions, False),
            ("GET", "/session/:sessionId", self._session_details, True),
            ("GET", "/session/:sessionId/screenshot", self._screenshot, True),
            ("GET", "/session/:sessionId/element/:id/text", self._text, True),
            ("GET", "/session/:sessionId/element/:id/attribute/:name", self._attribute, True),
            ("GET", "/session/:sessionId/element/:id/rect", self._rect, True),
            ("GET", "/session/:sessionId/element/:id/name", self._class_name, True),
            ("GET", "/session/:sessionId/element/:id/location", self._location, True),
            ("GET", "/session/:sessionId/element/:id/size", self._size, True),
            ("GET", "/session/:sessionId/element/active", self._active_element, True),
            ("GET", "/session/:sessionId/orientation", self._orientation, True),
            ("GET", "/session/:sessionId/rotation", self._rotation, True),
            ("POST", "/session/:sessionId/appium/device/get_clipboard", self._get_clipboard, True),
            ("POST", "/session/:sessionId/appium/device/set_clipboard", self._set_clipboard, True),
            ("GET", "/session/:sessionId/window/:windowHandle/size", self._window_size, True),
            ("GET", "/session/:sessionId/source", self._source, True),
            ("GET", "/session/:sessionId/appium/settings", self._settings, True),
            ("GET", "/session/:sessionId/appium/device/info", self._device_info, True),
            ("GET", "/session/:sessionId/appium/device/pixel_ratio", self._pixel_ratio, True),
            ("GET", "/session/:sessionId/appium/device/battery_info", self._battery_info, True),
            ("GET", "/session/:sessionId/appium/device/system_bars", self._system_bars, True),
            ("GET", "/session/:sessionId/appium/device/display_density", self._display_density, True),
        ):
            self._routes.append((method, tuple(pattern.split("/")), handler, needs_session))
        self._settings_values: dict[str, Any] = {}

    # -- HTTP face ----------------------------------------------------------------------
    def handle(self, method: str, target: str, body: bytes) -> tuple[int, str, bytes]:
        """One request -> (HTTP status, content type, JSON body), as ServerHandler and AppiumServlet answer it.

        NettyHttpResponse sets the content type AppiumResponse names: plain ``application/json``.
        """
        path = target.split("?", 1)[0]
        if path.startswith("/wd/hub"):
            path = path[len("/wd/hub"):]
        sections = tuple(path.split("/"))
        route, params = self._match(method, sections)
        session_id = params.get(":sessionId")
        if route is None:
            return self._render(session_id, WebDriverError("unknown command", _UNKNOWN_COMMAND, 404))
        _, _, handler, needs_session = route
        with self._lock:
            if needs_session and (self.session is None or session_id != self.session.id):
                return self._render(session_id, WebDriverError(
                    "invalid session id", f"The session identified by {session_id} is not known", 404))
            try:
                payload = json.loads(body) if body.strip() else {}
                if not isinstance(payload, dict):
                    raise _invalid_argument("A JSONObject text must begin with '{' at 1")
                value = handler(params, payload)
            except WebDriverError as exc:
                return self._render(session_id, exc)
            except ValueError as exc:  # malformed JSON: SafeRequestHandler's JsonSyntaxException
                return self._render(session_id, _invalid_argument(str(exc)))
            except Exception as exc:  # anything else is an "unknown error" with its trace
                return self._render(session_id, WebDriverError(
                    "unknown error", f"{type(exc).__name__}: {exc}", 500), traceback.format_exc())
        if handler == self._new_session:
            session_id = self.session.id
        return self._render(session_id, value)

    def _match(self, method: str, sections: tuple[str, ...]):
        for route in self._routes:
            route_method, pattern, _, _ = route
            if route_method != method or len(pattern) != len(sections):
                continue
            if all(p.startswith(":") or p == s for p, s in zip(pattern, sections)):
                from urllib.parse import unquote

                return route, {p: unquote(s) for p, s in zip(pattern, sections) if p.startswith(":")}
        return None, {}

    @staticmethod
    def _render(session_id: str | None, value: Any, trace: str = "") -> tuple[int, str, bytes]:
        if isinstance(value, WebDriverError):
            status = value.status
            value = {"error": value.error, "message": str(value),
                     "stacktrace": trace or f"io.appium.uiautomator2.common.exceptions: {value}"}
        else:
            status = 200
        return status, "application/json", json.dumps({"value": value, "sessionId": session_id}).encode()

    # -- sessions -------------------------------------------------------------------------
    def _status(self, params, payload):
        return {"ready": True, "message": "UiAutomator2 Server is ready to accept commands",
                "build": {"version": self.version_name, "versionCode": self.version_code}}

    def _new_session(self, params, payload):
        caps = payload.get("capabilities")
        if not isinstance(caps, dict):
            raise WebDriverError("session not created",
                                 "io.appium.uiautomator2.common.exceptions.InvalidArgumentException: "
                                 "'capabilities' are mandatory for session creation", 500)
        merged: dict = {}
        for source in [caps.get("alwaysMatch") or {}] + list((caps.get("firstMatch") or [{}])[:1]):
            merged.update(source)
        self.session = _Session({k.removeprefix("appium:"): v for k, v in merged.items()})
        self._settings_values = {}
        return {"capabilities": caps, "sessionId": self.session.id}

    def _sessions(self, params, payload):
        if self.session is None:
            return []
        return [{"id": self.session.id, "sessionId": self.session.id, "capabilities": self.session.capabilities}]

    def _session_details(self, params, payload):
        return self.session.capabilities

    def _delete_session(self, params, payload):
        self.session = None
        # DeleteSession stops the instrumentation 15 ms after answering (ServerInstrumentation.stop)
        self.shutdown_requested = True
        return None

    def _settings(self, params, payload):
        return dict(self._settings_values)

    def _update_settings(self, params, payload):
        settings = payload.get("settings")
        if not isinstance(settings, dict):
            raise _invalid_argument()
        self._settings_values.update(settings)
        return None

    def _device_info(self, params, payload):
        props = self.phone.props
        system = self.phone.system
        return {"androidId": self.phone.settings["secure"].get("android_id", ""),
                "manufacturer": props.get("ro.product.manufacturer", ""),
                "model": props.get("ro.product.model", ""), "brand": props.get("ro.product.brand", ""),
                "apiVersion": props.get("ro.build.version.sdk", ""),
                "platformVersion": props.get("ro.build.version.release", ""),
                "carrierName": "", "realDisplaySize": f"{system.width}x{system.height}",
                "displayDensity": system.density, "networks": [], "locale": "en_US",
                "timeZone": props.get("persist.sys.timezone", "UTC"), "bluetooth": {"state": "OFF"}}

    def _battery_info(self, params, payload):
        """BatteryHelper: ACTION_BATTERY_CHANGED's level / scale (100) and status (what dumpsys battery shows)."""
        state = battery_state(self.phone)
        return {"level": state.level / 100, "status": state.status}

    def _pixel_ratio(self, params, payload):
        return self.phone.system.density / 160  # DisplayMetrics.density (Gestures.getDisplayDensity)

    def _system_bars(self, params, payload):
        return {"statusBar": STATUS_BAR_H}  # SystemBarsModel: the status_bar_height dimension

    def _display_density(self, params, payload):
        return self.phone.system.density  # DisplayMetrics.densityDpi

    # -- the page source and lookups --------------------------------------------------------
    def _tree(self) -> etree._Element:
        """Appium's XML document for the screen now (AccessibilityNodeInfoDumper.dumpToXml)."""
        dump = etree.fromstring(self.phone.system.dump_xml().encode())
        root = etree.Element("hierarchy", {"index": "0", "class": "hierarchy",
                                           "rotation": "0", "width": str(self.phone.system.width),
                                           "height": str(self.phone.system.height)})
        for node in dump:
            root.append(self._convert(node))
        return root

    def _convert(self, node: etree._Element) -> etree._Element:
        attrs = dict(node.attrib)
        attrs["displayed"] = "true"  # the dump lists only views shown on screen
        element = etree.Element(_tag_name(attrs.get("class", "")),
                                {name: attrs[name] for name in _SOURCE_ATTRIBUTES if name in attrs})
        for child in node:
            element.append(self._convert(child))
        return element

    def _source(self, params, payload):
        # Android's XmlSerializer (KXmlSerializer) writes the declaration with a space before "?>"
        body = etree.tostring(self._tree(), encoding="unicode", pretty_print=True)
        return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n" + body

    def _find(self, strategy: str, selector: str, context: _Element | None, multiple: bool) -> list:
        if strategy not in _STRATEGIES:
            raise WebDriverError("invalid selector", f"Selector strategy '{strategy}' is not supported. Only "
                                 f"the following selector strategies are supported: [{', '.join(_STRATEGIES)}]",
                                 400)
        if not isinstance(selector, str):
            raise _invalid_argument()
        root = self._tree()
        scope = root if context is None else self._node_of(root, context)
        candidates = list(scope.iter()) if context is None else list(scope.iterdescendants())
        if strategy == "xpath":
            try:
                found = scope.xpath(selector)
            except (etree.XPathError, ValueError) as exc:
                raise WebDriverError("invalid selector", f"Unable to compile '{selector}': {exc}", 400) from None
            if not isinstance(found, list):
                # evaluated as XPathConstants.NODESET: a number, string or boolean result is an error
                raise WebDriverError("invalid selector", f"Cannot evaluate '{selector}' to a node set", 400)
            matches = [n for n in found if isinstance(n, etree._Element)]
        elif strategy == "id":
            wanted = selector if _FULL_RESOURCE_ID.match(selector) else f"{self._package()}:id/{selector}"
            matches = [n for n in candidates if n.get("resource-id") == wanted]
        elif strategy == "accessibility id":
            matches = [n for n in candidates if n.get("content-desc") == selector]
        elif strategy == "class name":
            matches = [n for n in candidates if n.get("class") == selector]
        else:
            try:
                matches = uiselector.select(selector, candidates, multiple)
            except uiselector.UiSelectorSyntaxError as exc:
                raise WebDriverError("invalid selector", str(exc), 400) from None
        matches = [n for n in matches if n is not root]
        return matches if multiple else matches[:1]

    def _package(self) -> str:
        return self.phone.system.focused_window()[0]

    def _cache(self, node: etree._Element, strategy: str, selector: str, context: _Element | None) -> dict:
        path = _path_of(node)
        identity = (path, node.tag, node.get("resource-id", ""), node.get("package", ""))
        # AxNodeInfoHelper.toUuid: one id per view, the same each time the view is found
        element = _Element(str(uuid.uuid5(uuid.NAMESPACE_OID, f"{self.session.id}:{identity}")), path, node.tag,
                           node.get("resource-id", ""), node.get("package", ""), strategy, selector, context)
        self.session.elements[element.id] = element
        return {JWP_ELEMENT_KEY: element.id, W3C_ELEMENT_KEY: element.id}

    def _context(self, payload) -> _Element | None:
        context = payload.get("context")
        return self._element({":id": context}) if context else None

    def _find_element(self, params, payload):
        strategy, selector = payload.get("strategy"), payload.get("selector")
        context = self._context(payload)
        found = self._find(strategy, selector, context, multiple=False)
        if not found:
            raise _no_such_element()
        return self._cache(found[0], strategy, selector, context)

    def _find_elements(self, params, payload):
        strategy, selector = payload.get("strategy"), payload.get("selector")
        context = self._context(payload)
        return [self._cache(node, strategy, selector, context)
                for node in self._find(strategy, selector, context, multiple=True)]

    def _element(self, params) -> _Element:
        element_id = params.get(":id")
        element = self.session.elements.get(element_id)
        if element is None:
            raise _no_such_element(f"The element identified by '{element_id}' is not present in the cache "
                                   "or has expired. Try to find it again")
        return element

    def _node_of(self, root: etree._Element, element: _Element) -> etree._Element:
        """The element's node on the screen now; restored by its locator when it moved (ElementsCache.restore)."""
        node = root
        for index in element.path:
            children = list(node)
            if index >= len(children):
                node = None
                break
            node = children[index]
        if node is not None and element.same_view(node):
            return node
        found = self._find(element.strategy, element.selector, element.context, multiple=False)
        if not found:
            raise WebDriverError("stale element reference",
                                 f"The element '{_by_name(element)}' does not exist in DOM anymore", 404)
        if not element.same_view(found[0]):
            raise WebDriverError("stale element reference",
                                 f"The element '{_by_name(element)}' is not linked to the same object in DOM "
                                 "anymore", 404)
        element.path = _path_of(found[0])
        return found[0]

    def _live(self, params) -> etree._Element:
        return self._node_of(self._tree(), self._element(params))

    # -- element commands ---------------------------------------------------------------------
    def _text(self, params, payload):
        return self._live(params).get("text", "")

    def _class_name(self, params, payload):
        return self._live(params).get("class", "")

    def _attribute(self, params, payload):
        name = params.get(":name")
        node = self._live(params)
        source = _ATTRIBUTE_ALIASES.get(name)
        if source is None:
            raise WebDriverError("unknown error", f"'{name}' attribute is unknown for the element. Only the "
                                 f"following attributes are supported: [{_EXPOSABLE_ALIASES}]", 500)
        return node.get(source)

    def _rect(self, params, payload):
        left, top, right, bottom = _bounds(self._live(params))
        return {"x": left, "y": top, "width": right - left, "height": bottom - top}

    def _location(self, params, payload):
        left, top, _, _ = _bounds(self._live(params))
        return {"x": left, "y": top}  # LocationModel

    def _size(self, params, payload):
        left, top, right, bottom = _bounds(self._live(params))
        return {"width": right - left, "height": bottom - top}  # SizeModel

    def _active_element(self, params, payload):
        """ActiveElement: the focused view (By.focused(true)), or no such element."""
        focused = [n for n in self._tree().iter() if n.get("focused") == "true"]
        if not focused:
            raise _no_such_element()
        return self._cache(focused[0], "xpath", "//*[@focused='true']", None)

    def _orientation(self, params, payload):
        return "PORTRAIT"  # the phone's display never rotates (ScreenRotation ROTATION_0)

    def _rotation(self, params, payload):
        return {"x": 0, "y": 0, "z": 0}  # RotationModel(0, 0, rotation * 90)

    def _get_clipboard(self, params, payload):
        content_type = str(payload.get("contentType") or "plaintext")
        if content_type.upper() != "PLAINTEXT":
            raise _invalid_argument(f"Only '[PLAINTEXT]' content types are supported. '{content_type}' is "
                                    "given instead")
        return base64.b64encode((self.phone.system.clipboard or "").encode()).decode()

    def _set_clipboard(self, params, payload):
        content_type = str(payload.get("contentType") or "plaintext")
        if content_type.upper() != "PLAINTEXT":
            raise _invalid_argument(f"Only '[PLAINTEXT]' content types are supported. '{content_type}' is "
                                    "given instead")
        try:
            self.phone.system.clipboard = base64.b64decode(str(payload.get("content", "")), validate=True).decode()
        except (ValueError, UnicodeDecodeError):
            raise _invalid_argument("The content must be a valid base64-encoded string") from None
        return None

    def _click(self, params, payload):
        x, y = _centre(self._live(params))
        self.phone.system.tap(x, y)
        return None

    def _focus(self, node: etree._Element) -> None:
        x, y = _centre(node)
        self.phone.system.tap(x, y)

    def _send_keys(self, params, payload):
        text = payload.get("text")
        if text is None and isinstance(payload.get("value"), list):
            text = "".join(payload["value"])
        if not isinstance(text, str):
            raise _invalid_argument()
        system = self.phone.system
        if ":id" in params:
            # ElementHelpers.setText: ACTION_SET_TEXT replaces the field's text. The phone
            # does it with its own input: focus the field, select all, type over it.
            self._focus(self._live(params))
            system.key_combination(["CTRL_LEFT", "A"])
            if text:
                system.input_text(text)
            else:
                system.key("DEL")
        else:
            system.input_text(text)
        return None

    def _clear(self, params, payload):
        self._focus(self._live(params))
        self.phone.system.key_combination(["CTRL_LEFT", "A"])
        self.phone.system.key("DEL")
        return None

    # -- device commands --------------------------------------------------------------------
    def _back(self, params, payload):
        self.phone.system.key("BACK")
        return None

    def _press_keycode(self, params, payload):
        keycode = payload.get("keycode")
        if not isinstance(keycode, int) or isinstance(keycode, bool):
            raise _invalid_argument()
        name = canonical_key(str(keycode))
        if name is None:
            raise WebDriverError("invalid element state",
                                 f"Cannot generate key press event for key code {keycode}", 400)
        self.phone.system.key(name)
        return None

    def _actions(self, params, payload):
        """W3C actions (handler/W3CActions.java): each pointer sequence becomes the phone's gesture.

        A pointer that goes down and up within the touch slop is a tap, or a long press when
        it was held for the long-press timeout; one that moved is a swipe from where it went
        down to where it went up, over the time it was down. Key sources type their keyDown
        values. Only the gestures the phone's input models (one finger) are performed.
        """
        sources = payload.get("actions")
        if not isinstance(sources, list):
            raise _invalid_argument("'actions' must be a list")
        for source in sources:
            if not isinstance(source, dict) or not isinstance(source.get("actions"), list):
                raise _invalid_argument()
            if source.get("type") == "pointer":
                self._pointer(source["actions"])
            elif source.get("type") == "key":
                self._keys(source["actions"])
            elif source.get("type") not in ("none", None):
                raise _invalid_argument(f"Unknown input source type '{source.get('type')}'")
        return None

    def _pointer(self, actions: list) -> None:
        system = self.phone.system
        x = y = 0
        down: tuple[int, int] | None = None
        held_ms = 0
        moved = False
        for action in actions:
            kind = action.get("type") if isinstance(action, dict) else None
            if kind == "pointerMove":
                origin = action.get("origin", "viewport")
                dx, dy = int(action.get("x", 0)), int(action.get("y", 0))
                if isinstance(origin, dict):
                    ox, oy = _centre(self._live({":id": origin.get(W3C_ELEMENT_KEY) or origin.get(JWP_ELEMENT_KEY)}))
                    x, y = ox + dx, oy + dy
                elif origin == "pointer":
                    x, y = x + dx, y + dy
                else:
                    x, y = dx, dy
                if down is not None:
                    held_ms += int(action.get("duration", 0) or 0)
                    moved = moved or abs(x - down[0]) > TOUCH_SLOP or abs(y - down[1]) > TOUCH_SLOP
            elif kind == "pointerDown":
                down, held_ms, moved = (x, y), 0, False
            elif kind == "pause":
                if down is not None:
                    held_ms += int(action.get("duration", 0) or 0)
            elif kind == "pointerUp":
                if down is None:
                    continue
                if moved:
                    system.swipe(down[0], down[1], x, y, max(held_ms, 1))
                elif held_ms >= LONG_PRESS_MS:
                    system.long_press(down[0], down[1], held_ms)
                else:
                    system.tap(down[0], down[1])
                down = None
            elif kind not in ("pointerCancel",):
                raise _invalid_argument(f"Unknown pointer action type '{kind}'")

    # -- alerts (utils/AlertHelpers.java) -------------------------------------------------------
    def _alert(self) -> tuple[etree._Element, str]:
        """The screen and the alert type on it: "regular" (an AlertDialog) or "permission"."""
        root = self._tree()
        ids = [n.get("resource-id", "") for n in root.iter()]
        if any(_ALERT_TITLE.fullmatch(rid) for rid in ids):
            return root, "regular"
        if any(_PERMISSION_MESSAGE.fullmatch(rid) for rid in ids):
            return root, "permission"
        raise WebDriverError("no such alert", "No alert is present on the screen", 404)

    def _alert_button(self, action: str, label: str | None) -> etree._Element:
        root, kind = self._alert()
        if kind == "regular":
            buttons = {n.get("resource-id"): n for n in root.iter() if _ALERT_BUTTON.fullmatch(n.get("resource-id", ""))}
            found = None
            if buttons and label is not None:
                found = next((b for b in buttons.values() if b.get("text") == label), None)
            elif buttons:
                first = min(int(rid[len("android:id/button"):]) for rid in buttons)
                # accept: the lowest-numbered button (button1, positive); dismiss: the next one
                index = first if action == "accept" or len(buttons) == 1 else first + 1
                found = buttons.get(f"android:id/button{index}")
        else:
            buttons = [n for n in root.iter() if _PERMISSION_BUTTON.fullmatch(n.get("resource-id", ""))]
            wanted = _ALLOW_BUTTON if action == "accept" else _DENY_BUTTON
            if buttons and label is not None:
                found = next((b for b in buttons if b.get("text") == label), None)
            elif len(buttons) > 1:
                found = next((b for b in buttons if wanted.fullmatch(b.get("resource-id", ""))),
                             buttons[1] if action == "accept" else buttons[0])
            else:
                found = buttons[0] if buttons else None
        if found is None:
            raise WebDriverError("invalid element state", "The expected button cannot be detected on the alert", 400)
        return found

    def _accept_alert(self, params, payload):
        self.phone.system.tap(*_centre(self._alert_button("accept", payload.get("buttonLabel"))))
        return None

    def _dismiss_alert(self, params, payload):
        self.phone.system.tap(*_centre(self._alert_button("dismiss", payload.get("buttonLabel"))))
        return None

    def _alert_text(self, params, payload):
        root, kind = self._alert()
        content = next((n for n in root.iter() if n.get("resource-id") == "android:id/content"), None)
        if content is None:
            raise WebDriverError("no such alert", "No alert is present on the screen", 404)
        skip = _ALERT_BUTTON if kind == "regular" else _PERMISSION_BUTTON
        texts = [n.get("text", "") for n in content.iterdescendants()
                 if _ANY_ID.fullmatch(n.get("resource-id", "")) and not skip.fullmatch(n.get("resource-id", ""))
                 and n.get("text", "").strip()]
        return "\n".join(texts)

    def _gesture_point(self, payload) -> tuple[int, int]:
        """utils/gestures/Click.perform: the element's centre, or an offset from its top left or the screen's."""
        origin = payload.get("origin")
        node = None
        if isinstance(origin, dict):
            node = self._live({":id": origin.get(W3C_ELEMENT_KEY) or origin.get(JWP_ELEMENT_KEY)
                               or origin.get("element")})
        elif isinstance(payload.get("locator"), dict):
            locator = payload["locator"]
            found = self._find(locator.get("strategy"), locator.get("selector"), None, multiple=False)
            if not found:
                raise _no_such_element()
            node = found[0]
        offset = payload.get("offset")
        if node is None:
            if not isinstance(offset, dict):
                raise _invalid_argument("Click offset coordinates must be provided if element is not set")
            return int(offset.get("x", 0)), int(offset.get("y", 0))
        if not isinstance(offset, dict):
            return _centre(node)
        left, top, _, _ = _bounds(node)
        return left + int(offset.get("x", 0)), top + int(offset.get("y", 0))

    def _gesture_click(self, params, payload):
        self.phone.system.tap(*self._gesture_point(payload))
        return None

    def _gesture_double_click(self, params, payload):
        x, y = self._gesture_point(payload)
        self.phone.system.tap(x, y)
        self.phone.system.tap(x, y)
        return None

    def _gesture_long_click(self, params, payload):
        x, y = self._gesture_point(payload)
        duration = payload.get("duration")
        if duration is None:
            self.phone.system.long_press(x, y)
        else:
            self.phone.system.long_press(x, y, int(duration))
        return None

    def _gesture_swipe(self, params, payload):
        """utils/gestures/Swipe: across ``percent`` of the element's (or area's) size, in ``direction``."""
        origin, area = payload.get("origin"), payload.get("area")
        if isinstance(origin, dict):
            left, top, right, bottom = _bounds(self._live(
                {":id": origin.get(W3C_ELEMENT_KEY) or origin.get(JWP_ELEMENT_KEY)}))
        elif isinstance(area, dict):
            left, top = int(area.get("left", 0)), int(area.get("top", 0))
            right, bottom = left + int(area.get("width", 0)), top + int(area.get("height", 0))
        else:
            raise _invalid_argument("Either swipe element or area must be provided")
        direction = str(payload.get("direction", "")).lower()
        percent = float(payload.get("percent", 0) or 0)
        if direction not in ("up", "down", "left", "right") or not 0 < percent <= 1:
            raise _invalid_argument("Swipe direction must be one of up, down, left, right and its percent "
                                    "a number in (0, 1]")
        cx, cy = (left + right) // 2, (top + bottom) // 2
        dx = int((right - left) * percent / 2) * {"left": -1, "right": 1}.get(direction, 0)
        dy = int((bottom - top) * percent / 2) * {"up": -1, "down": 1}.get(direction, 0)
        self.phone.system.swipe(cx - dx, cy - dy, cx + dx, cy + dy, 300)
        return None

    def _keys(self, actions: list) -> None:
        system = self.phone.system
        for action in actions:
            if not isinstance(action, dict) or action.get("type") not in ("keyDown", "keyUp", "pause"):
                raise _invalid_argument()
            if action["type"] != "keyDown":
                continue
            value = str(action.get("value", ""))
            key = _W3C_KEYS.get(value)
            if key is not None:
                system.key(key)
            elif value and all(ch in VIRTUAL_KEYBOARD_CHARS for ch in value):
                system.input_text(value)

    def _window_size(self, params, payload):
        return {"width": self.phone.system.width, "height": self.phone.system.height}

    def _screenshot(self, params, payload):
        return base64.b64encode(self.phone.system.screenshot_png()).decode()


_ALERT_TITLE = re.compile(r".+:id/(alertTitle|custom)")
_PERMISSION_MESSAGE = re.compile(r".+:id/permission_message")
_ALERT_BUTTON = re.compile(r"android:id/button\d+")
_PERMISSION_BUTTON = re.compile(r".+:id/permission_\w+_button")
_ALLOW_BUTTON = re.compile(r"(.*[^a-z])allow([^a-z].*)", re.I)
_DENY_BUTTON = re.compile(r"(.*[^a-z])deny([^a-z].*)", re.I)
_ANY_ID = re.compile(r".+:id/.+")

#: WebDriver's key codepoints (W3C "keys" table) -> Android key names
_W3C_KEYS = {"\ue003": "DEL", "\ue004": "TAB", "\ue006": "ENTER", "\ue007": "ENTER", "\ue00c": "ESCAPE",
             "\ue012": "DPAD_LEFT", "\ue013": "DPAD_UP", "\ue014": "DPAD_RIGHT", "\ue015": "DPAD_DOWN",
             "\ue017": "FORWARD_DEL", "\ue011": "MOVE_HOME", "\ue010": "MOVE_END"}


def _tag_name(class_name: str) -> str:
    """AccessibilityNodeInfoDumper.toXmlNodeName: the class name as an XML element name."""
    name = re.sub(r"[$@#&]", ".", class_name)
    name = re.sub(r"\.+", ".", name).strip(".")
    name = re.sub(r"[^A-Za-z0-9\-._]", "_", name)
    if name and not (name[0].isalpha() or name[0] == "_"):
        name = "_" + name
    return name or "android.view.View"


def _path_of(node: etree._Element) -> tuple[int, ...]:
    path = []
    while node.getparent() is not None:
        parent = node.getparent()
        path.append(parent.index(node))
        node = parent
    return tuple(reversed(path))


def _bounds(node: etree._Element) -> tuple[int, int, int, int]:
    match = _BOUNDS.fullmatch(node.get("bounds", ""))
    if match is None:
        return 0, 0, 0, 0
    left, top, right, bottom = (int(v) for v in match.groups())
    return left, top, right, bottom


def _centre(node: etree._Element) -> tuple[int, int]:
    left, top, right, bottom = _bounds(node)
    return (left + right) // 2, (top + bottom) // 2


def _by_name(element: _Element) -> str:
    """How By.toString names a locator in the server's messages (model/By.java)."""
    kind = {"id": "By.id", "xpath": "By.xpath", "accessibility id": "By.accessibilityId",
            "class name": "By.className", "-android uiautomator": "By.androidUiAutomator"}[element.strategy]
    return f"{kind}: {element.selector}"


# -- Appium's UiAutomator2 server -------------------------------------------------------------------
UIA2_COMPONENT = "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner"
UIA2_TEST_CLASS = "io.appium.uiautomator2.server.test.AppiumUiAutomator2Server"


@runner(UIA2_COMPONENT)
def _start_uia2_server(phone: "PhoneContext", inv: Invocation, extras: dict[str, str]) -> Program:
    """`am instrument -w` of the server's test APK: AppiumUiAutomator2Server#startServer."""
    entry = phone.packages.installed[SERVER_PACKAGE]  # am_instrument checked the target is installed
    program = Program(phone, SERVER_PACKAGE)
    program.print(f"\n{UIA2_TEST_CLASS}:")
    started = phone.clock_ms()
    server = UiAutomator2Server(phone, entry.info.version_name, entry.info.version_code)

    def after_response() -> None:
        if server.shutdown_requested and program.running:  # ServerInstrumentation.stop()
            finish_test(program, phone, UIA2_TEST_CLASS, started)

    async def serve(conn) -> None:
        await serve_http(conn, server.handle, after_response)

    program.listen(f"tcp:{DEVICE_PORT}", serve)
    return program

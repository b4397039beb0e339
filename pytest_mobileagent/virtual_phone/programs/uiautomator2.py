"""uiautomator2's on-device server (u2.jar, ``com.wetest.uia2.Main``) as the phone runs it.

The uiautomator2 Python client (3.7.1, jar 0.4.1) pushes ``u2.jar`` to
/data/local/tmp, starts ``CLASSPATH=/data/local/tmp/u2.jar app_process /
com.wetest.uia2.Main -p 9008`` in an ``adb shell`` it keeps open, and talks
HTTP to device port 9008 through adb's ``tcp:9008`` service: ``GET /ping``
answers ``pong``, ``POST /jsonrpc/0`` runs the JSON-RPC methods of the jar's
``AutomatorService`` (openatx/android-uiautomator-server-jar: Main.java,
AutomatorHttpServer.java on NanoHTTPD 2.3.1, AutomatorServiceImpl.java on
jsonrpc4j 1.5.0).

What the server does, it does through the phone as UiAutomation does: it
reads the active window's nodes (what `uiautomator dump` shows), injects
touches at their centres, performs ACTION_SET_TEXT, presses keys. Errors are
the jar's: an exception becomes ``{"code": -32001, "message": <exception
class>, "data": <message or stack trace>}`` (Main's ErrorResolver); a method
the phone does not model answers jsonrpc4j's ``-32601 "method not found"``.

Selectors follow the server's two paths: a selector without index, instance
or child/sibling is a BySelector (UiObject2: exact, case-sensitive
substring/prefix matches); otherwise a UiSelector (QueryController:
``textContains``/``StartsWith`` ignore case, ``index`` is the position among
the parent's children, ``instance`` counts matches in depth-first order, a
child or sibling selector searches below the match or below its parent).
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import errno
import io
import json
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..framework.ui import dump as ui_dump
from ..framework.ui.accessibility_class import accessibility_class_name
from ..kernel.context import PhoneContext
from ..shell.app_process import APP_PROCESS_MAINS
from ..shell.keycodes import KEYCODES
from ..shell.program import Program

if TYPE_CHECKING:
    from ..kernel.sockets import SocketConnection
    from ..shell.interpreter import Invocation

__all__ = ["DEFAULT_PORT", "main"]

DEFAULT_PORT = 9008
#: Main.java's error code for every exception a method throws
CUSTOM_ERROR_CODE = -32001
NOT_FOUND_EXCEPTION = "androidx.test.uiautomator.UiObjectNotFoundException"
#: how often UiAutomator re-reads the screen while waiting for a selector
#: (QueryController's WAIT_FOR_SELECTOR_POLL is 1000 ms; Until.* conditions
#: are re-checked on every accessibility event). The virtual phone changes
#: only when something acts on it, so a short poll only checks sooner.
WAIT_POLL_S = 0.05
_HELP = ("usage: uiautomator2-server\n"
         " -h,--help         Print this help message\n"
         " -p,--port <arg>   Port to listen on (1-65535, default: 9008)\n")


# -- the program --------------------------------------------------------------------------
def main(inv: "Invocation", args: list[str]) -> int:
    """``com.wetest.uia2.Main.main``: parse ``-p``, listen, serve until killed."""
    port_text = str(DEFAULT_PORT)
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in ("-h", "--help"):
            inv.out(_HELP)
            return 0
        if arg in ("-p", "--port") or arg.startswith("--port="):
            if "=" in arg:
                port_text = arg.split("=", 1)[1]
            elif rest:
                port_text = rest.pop(0)
            else:  # commons-cli MissingArgumentException
                inv.err("Missing argument for option: p\n")
                inv.out(_HELP)
                return 1
        elif arg.startswith("-p") and len(arg) > 2:
            port_text = arg[2:]
        elif arg.startswith("-"):
            inv.err(f"Unrecognized option: {arg}\n")
            inv.out(_HELP)
            return 1
    try:
        port = int(port_text)
    except ValueError:
        inv.err(f"Invalid port: {port_text}. Must be an integer between 1 and 65535.\n")
        return 1
    if not 1 <= port <= 65535:
        inv.err(f"Invalid port: {port_text}. Must be between 1 and 65535.\n")
        return 1

    program = Program(inv.phone, "app_process")
    program.print("[server] INFO: [UiAutomator2Server] Starting Server\n")
    if not inv.fs.exists("/data/local/tmp/u2"):  # Main.setupTmpdir
        inv.fs.mkdir("/data/local/tmp/u2", parents=True)
    program.print("[server] INFO: tmpdir is /data/local/tmp/u2\n")
    server = AutomatorServer(inv.phone, program)
    try:
        program.listen(f"tcp:{port}", server.serve_http)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        # NanoHTTPD.start() rethrows the bind failure; Main prints it and exits 1.
        inv.out(b"".join(_drain(program)))
        inv.err("java.net.BindException: bind failed: EADDRINUSE (Address already in use)\n")
        return 1
    program.print(f"[server] INFO: http server listening on *:{port}\n")
    inv.session.hold(program)
    return 0


def _drain(program: Program) -> list[bytes]:
    out: list[bytes] = []
    program.on_output(out.append)
    return out


# -- HTTP (NanoHTTPD) -----------------------------------------------------------------------
@dataclass
class _Request:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


class _HttpReader:
    """Reads HTTP/1.1 requests from a phone socket connection."""

    MAX_HEADER = 64 * 1024

    def __init__(self, conn: "SocketConnection"):
        self.conn = conn
        self.buffer = b""

    async def _fill(self) -> bool:
        chunk = await self.conn.read()
        self.buffer += chunk
        return bool(chunk)

    async def request(self) -> _Request | None:
        while b"\r\n\r\n" not in self.buffer:
            if len(self.buffer) > self.MAX_HEADER or not await self._fill():
                return None
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("iso-8859-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) < 2:
            return None
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        size = int(headers.get("content-length", "0") or 0)
        while len(self.buffer) < size:
            if not await self._fill():
                return None
        body, self.buffer = self.buffer[:size], self.buffer[size:]
        path, _, query = parts[1].partition("?")
        return _Request(parts[0].upper(), path, query, headers, body)


def _response(phone: "PhoneContext", status: str, mime: str, body: bytes, *, chunked: bool = False) -> bytes:
    """NanoHTTPD 2.3.1's Response.send: status line (with its trailing space), headers, body."""
    date = email.utils.formatdate(phone.clock_ms() / 1000, usegmt=True)
    head = [f"HTTP/1.1 {status} ", f"Content-Type: {mime}", f"Date: {date}", "Connection: keep-alive"]
    if chunked:
        head.append("Transfer-Encoding: chunked")
        body = f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n" if body else b"0\r\n\r\n"
    else:
        head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


# -- the accessibility node tree UiAutomation sees -------------------------------------------------
@dataclass(eq=False)
class Node:
    """One AccessibilityNodeInfo of the active window, read under the UI lock."""

    view: Any
    index: int
    depth: int
    parent: "Node | None"
    text: str
    resource_id: str
    class_name: str
    package: str
    desc: str
    hint: str
    checkable: bool
    checked: bool
    clickable: bool
    enabled: bool
    focusable: bool
    focused: bool
    scrollable: bool
    long_clickable: bool
    password: bool
    selected: bool
    bounds: tuple[int, int, int, int]       # the view's rect on screen
    visible_bounds: tuple[int, int, int, int]
    children: list["Node"] = field(default_factory=list)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.visible_bounds
        return (left + right) // 2, (top + bottom) // 2


def read_nodes(phone: "PhoneContext", compressed: bool) -> Node | None:
    """The active window's node tree (None for a window with nothing on screen)."""
    def read(root, package) -> Node | None:
        def node(view, index: int, depth: int, parent: Node | None) -> Node:
            made = Node(
                view=view, index=index, depth=depth, parent=parent, text=view.dump_text(),
                resource_id=ui_dump.resource_id(view, package),
                class_name=accessibility_class_name(view.class_name, package), package=package,
                desc=view.desc or "", hint=getattr(view, "hint", "") or "", checkable=view.checkable,
                checked=view.checked, clickable=view.clickable, enabled=view.enabled, focusable=view.focusable,
                focused=view.focused, scrollable=view.scrollable, long_clickable=view.long_clickable,
                password=view.password, selected=view.selected, bounds=tuple(view.rect),
                visible_bounds=tuple(view.clip))
            made.children = [node(child, i, depth + 1, made)
                             for i, child in enumerate(ui_dump._shown_children(view, compressed))]
            return made

        return node(root, 0, 0, None) if root is not None and root.clip is not None else None

    return phone.system.read_active_window(read)


def hierarchy_xml(root: Node | None, max_depth: int) -> str:
    """AccessibilityNodeInfoDumper's XML (the jar's own): the dump's attributes plus
    visible-to-user, drawing-order, hint and display-id, and NAF on unlabelled clickables."""
    esc = ui_dump._escape

    def b(value: bool) -> str:
        return "true" if value else "false"

    out = [ui_dump.HEADER]

    def emit(node: Node, depth: int, level: int) -> None:
        naf = ' NAF="true"' if _is_naf(node) else ""
        left, top, right, bottom = node.visible_bounds
        attrs = (f'{naf} index="{node.index}" text="{esc(node.text)}" resource-id="{node.resource_id}" '
                 f'class="{node.class_name}" package="{node.package}" content-desc="{esc(node.desc)}" '
                 f'checkable="{b(node.checkable)}" checked="{b(node.checked)}" clickable="{b(node.clickable)}" '
                 f'enabled="{b(node.enabled)}" focusable="{b(node.focusable)}" focused="{b(node.focused)}" '
                 f'scrollable="{b(node.scrollable)}" long-clickable="{b(node.long_clickable)}" '
                 f'password="{b(node.password)}" selected="{b(node.selected)}" visible-to-user="true" '
                 f'bounds="[{left},{top}][{right},{bottom}]" drawing-order="{node.index + 1}" '
                 f'hint="{esc(node.hint)}" display-id="0"')
        pad = "  " * depth
        children = node.children if level > 0 else []
        if not children:
            out.append(f"{pad}<node{attrs} />\n")
            return
        out.append(f"{pad}<node{attrs}>\n")
        for child in children:
            emit(child, depth + 1, level - 1)
        out.append(f"{pad}</node>\n")

    if root is not None:
        emit(root, 1, max_depth)
    out.append(ui_dump.FOOTER)
    return "".join(out)


def _is_naf(node: Node) -> bool:
    """AccessibilityNodeInfoDumper.nafCheck: a clickable, enabled node nothing labels.

    List-like containers are excluded (NAF_EXCLUDED_CLASSES); a child with a
    text or content description labels its parent.
    """
    if node.class_name in ("android.widget.GridView", "android.widget.GridLayout",
                           "android.widget.ListView", "android.widget.TableLayout"):
        return False
    if not (node.clickable and node.enabled and not node.desc and not node.text):
        return False
    return not any(child.desc or child.text for child in node.walk() if child is not node)


# -- selectors ---------------------------------------------------------------------------------
_MASK = {
    "text": 0x01, "textContains": 0x02, "textMatches": 0x04, "textStartsWith": 0x08,
    "className": 0x10, "classNameMatches": 0x20, "description": 0x40, "descriptionContains": 0x80,
    "descriptionMatches": 0x0100, "descriptionStartsWith": 0x0200, "checkable": 0x0400, "checked": 0x0800,
    "clickable": 0x1000, "longClickable": 0x2000, "scrollable": 0x4000, "enabled": 0x8000,
    "focusable": 0x010000, "focused": 0x020000, "selected": 0x040000, "packageName": 0x080000,
    "packageNameMatches": 0x100000, "resourceId": 0x200000, "resourceIdMatches": 0x400000,
    "index": 0x800000, "instance": 0x01000000,
}
#: UiSelector.dumpToString names, in the order of its SELECTOR_* keys
_UI_NAMES = [
    ("text", "TEXT"), ("textStartsWith", "START_TEXT"), ("textContains", "CONTAINS_TEXT"),
    ("className", "CLASS"), ("description", "DESCRIPTION"), ("descriptionStartsWith", "START_DESCRIPTION"),
    ("descriptionContains", "CONTAINS_DESCRIPTION"), ("index", "INDEX"), ("instance", "INSTANCE"),
    ("enabled", "ENABLED"), ("focused", "FOCUSED"), ("focusable", "FOCUSABLE"), ("scrollable", "SCROLLABLE"),
    ("clickable", "CLICKABLE"), ("checked", "CHECKED"), ("selected", "SELECTED"),
    ("packageName", "PACKAGE_NAME"), ("longClickable", "LONG_CLICKABLE"), ("textMatches", "TEXT_REGEX"),
    ("classNameMatches", "CLASS_REGEX"), ("descriptionMatches", "DESCRIPTION_REGEX"),
    ("packageNameMatches", "PACKAGE_NAME_REGEX"), ("resourceId", "RESOURCE_ID"), ("checkable", "CHECKABLE"),
    ("resourceIdMatches", "RESOURCE_ID_REGEX"),
]
_STRING_FIELDS = {"text": "text", "className": "class_name", "description": "desc",
                  "packageName": "package", "resourceId": "resource_id"}
_BOOL_FIELDS = {"checkable": "checkable", "checked": "checked", "clickable": "clickable",
                "longClickable": "long_clickable", "scrollable": "scrollable", "enabled": "enabled",
                "focusable": "focusable", "focused": "focused", "selected": "selected"}


class SelectorError(ValueError):
    """A selector the server cannot read (jackson fails to map it)."""


class Selector:
    """The jar's Selector bean: criteria under a mask, plus a child/sibling chain."""

    def __init__(self, raw: Any):
        if not isinstance(raw, dict):
            raise SelectorError("not a selector object")
        try:
            self.mask = int(raw.get("mask", 0))
        except (TypeError, ValueError):
            raise SelectorError("mask is not a number") from None
        self.values = {key: raw.get(key) for key, bit in _MASK.items() if self.mask & bit}
        kinds = raw.get("childOrSibling") or []
        subs = raw.get("childOrSiblingSelector") or []
        self.chain = [(str(kind).lower(), Selector(sub)) for kind, sub in zip(kinds, subs)]

    def has(self, key: str) -> bool:
        return key in self.values

    def by_selector_usable(self) -> bool:
        """Selector.toUiObject2 != null: no index/instance, no chain, some criterion."""
        return (not self.chain and not self.has("index") and not self.has("instance")
                and any(key not in ("index", "instance") for key in self.values))

    def ui_string(self) -> str:
        """UiSelector.toString of this selector (the data of UiObjectNotFoundException)."""
        parts = [f"{name}={_java_str(self.values[key])}" for key, name in _UI_NAMES if self.has(key)]
        for kind, sub in self.chain:
            parts.append(("CHILD=" if kind == "child" else "PARENT=") + sub.ui_string())
        return "UiSelector[" + ", ".join(parts) + "]"

    # -- matching ------------------------------------------------------------------------------
    def matches(self, node: Node, *, ignore_case: bool) -> bool:
        """The selector's own criteria (not instance) on one node.

        ``ignore_case``: UiSelector's contains/startsWith (QueryController);
        BySelector's are case-sensitive patterns.
        """
        for key, value in self.values.items():
            if key in _STRING_FIELDS:
                if getattr(node, _STRING_FIELDS[key]) != str(value):
                    return False
            elif key in _BOOL_FIELDS:
                if getattr(node, _BOOL_FIELDS[key]) != bool(value):
                    return False
            elif key in ("textContains", "descriptionContains", "textStartsWith", "descriptionStartsWith"):
                have = node.text if key.startswith("text") else node.desc
                want = str(value)
                if ignore_case:
                    have, want = have.lower(), want.lower()
                if not (want in have if key.endswith("Contains") else have.startswith(want)):
                    return False
            elif key.endswith("Matches"):
                attr = {"textMatches": "text", "classNameMatches": "class_name", "descriptionMatches": "desc",
                        "packageNameMatches": "package", "resourceIdMatches": "resource_id"}[key]
                try:
                    if re.fullmatch(str(value), getattr(node, attr), re.DOTALL) is None:
                        return False
                except re.error:
                    return False
            elif key == "index" and ignore_case:
                if node.index != int(value):
                    return False
        return True

    def find_all(self, root: Node | None) -> list[Node]:
        """Every node the selector selects, in depth-first order (instance ignored)."""
        if root is None:
            return []
        ui = not self.by_selector_usable()
        found = [node for node in root.walk() if self.matches(node, ignore_case=ui)]
        for kind, sub in self.chain:
            found = _chain_step(found, kind, sub)
        return found

    def find(self, root: Node | None) -> Node | None:
        """The node UiObject / UiObject2 acts on: the instance-th match (the first by default)."""
        found = self.find_all(root)
        last = self.chain[-1][1] if self.chain else self
        instance = int(last.values.get("instance", 0) or 0) if last.has("instance") else 0
        return found[instance] if 0 <= instance < len(found) else None


def _chain_step(parents: list[Node], kind: str, sub: Selector) -> list[Node]:
    out: list[Node] = []
    seen: set[int] = set()
    for parent in parents:
        scope = parent if kind == "child" else parent.parent
        if scope is None:
            continue
        candidates = [n for n in scope.walk() if n is not scope and n is not parent]
        matched = [n for n in candidates if sub.matches(n, ignore_case=True)]
        if sub.has("instance"):
            instance = int(sub.values["instance"] or 0)
            matched = matched[instance:instance + 1]
        for node in matched:
            if id(node) not in seen:
                seen.add(id(node))
                out.append(node)
    return out


def _java_str(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- JSON-RPC -------------------------------------------------------------------------------------
class RpcError(Exception):
    """A Java exception thrown by a method: Main's ErrorResolver turns it into -32001."""

    def __init__(self, exception: str, data: str):
        super().__init__(data)
        self.exception = exception
        self.data = data


class _NoSuchMethod(Exception):
    pass


_PRESS_KEYS = {
    "home": "HOME", "back": "BACK", "left": "DPAD_LEFT", "right": "DPAD_RIGHT", "up": "DPAD_UP",
    "down": "DPAD_DOWN", "center": "DPAD_CENTER", "menu": "MENU", "search": "SEARCH", "enter": "ENTER",
    "delete": "DEL", "del": "DEL", "recent": "APP_SWITCH", "volume_up": "VOLUME_UP",
    "volume_down": "VOLUME_DOWN", "volume_mute": "VOLUME_MUTE", "camera": "CAMERA", "power": "POWER",
}
_META_KEYS = ((0x1000, "CTRL_LEFT"), (0x01, "SHIFT_LEFT"), (0x02, "ALT_LEFT"), (0x10000, "META_LEFT"))


class AutomatorServer:
    """AutomatorServiceImpl over one phone; one instance per running server."""

    def __init__(self, phone: "PhoneContext", program: Program):
        self.phone = phone
        self.program = program
        #: UiAutomation's compressed-layout flag: dumpWindowHierarchy(compressed) sets it for later finds
        self.compressed = False
        self.toast_seen = phone.system.toasts[0]
        self.last_toast: str | None = None
        self._touch_down: tuple[float, float, float] | None = None

    # -- HTTP ---------------------------------------------------------------------------------
    async def serve_http(self, conn: "SocketConnection") -> None:
        """NanoHTTPD's keep-alive loop over one connection (AutomatorHttpServer.serve)."""
        reader = _HttpReader(conn)
        while True:
            request = await reader.request()
            if request is None:
                return
            reply = await self._route(request)
            await conn.write(reply)
            if request.path == "/stop":
                self.program.exit(0)
                return

    async def _route(self, request: _Request) -> bytes:
        phone = self.phone
        if request.path == "/stop":
            return _response(phone, "200 OK", "text/html", b"Server stopped!!!")
        if request.path == "/ping":
            return _response(phone, "200 OK", "text/html", b"pong")
        if request.path == "/screenshot/0":
            params = dict(p.partition("=")[::2] for p in request.query.split("&") if p)
            png = self._screenshot("PNG", _number(params.get("scale"), float, 1.0),
                                   _number(params.get("quality"), int, 100))
            return _response(phone, "200 OK", "image/png", png, chunked=True)
        if request.path == "/jsonrpc/0":
            payload = request.query.encode() if request.query else request.body
            if not payload:
                return _response(phone, "500 Internal Server Error", "text/plain", b"Invalid http post data!")
            body = await self._jsonrpc(payload)
            return _response(phone, "200 OK", "application/json", body)
        return _response(phone, "404 Not Found", "text/plain", b"Not Found!!!")

    async def _jsonrpc(self, payload: bytes) -> bytes:
        """jsonrpc4j's JsonRpcBasicServer.handleRequest for one request object."""
        try:
            request = json.loads(payload)
        except ValueError:
            return _rpc_error(None, -32700, "JSON parse error")
        if not isinstance(request, dict) or not isinstance(request.get("method"), str):
            return _rpc_error(request.get("id") if isinstance(request, dict) else None, -32600, "invalid request")
        rpc_id = request.get("id")
        params = request.get("params")
        args = params if isinstance(params, list) else ([] if not params else None)
        if args is None:  # named parameters: the jar's methods have no @JsonRpcParam names
            return _rpc_error(rpc_id, -32601, "method not found")
        try:
            result = await self.call(request["method"], args)
        except _NoSuchMethod:
            return _rpc_error(rpc_id, -32601, "method not found")
        except SelectorError:
            return _rpc_error(rpc_id, -32602, "method parameters invalid")
        except RpcError as exc:
            return _rpc_error(rpc_id, CUSTOM_ERROR_CODE, exc.exception, exc.data)
        return json.dumps({"jsonrpc": "2.0", "id": rpc_id, "result": result}, ensure_ascii=False).encode()

    # -- methods ----------------------------------------------------------------------------------
    async def call(self, method: str, args: list) -> Any:
        """Run one AutomatorService method, picking the overload by the arguments given."""
        handler = _METHODS.get((method, len(args)))
        if handler is None:
            raise _NoSuchMethod(method)
        return await handler(self, *args)

    def _nodes(self) -> Node | None:
        return read_nodes(self.phone, self.compressed)

    def _find(self, raw) -> Node | None:
        return Selector(raw).find(self._nodes())

    def _must_find(self, raw) -> Node:
        selector = Selector(raw)
        node = selector.find(self._nodes())
        if node is None:
            raise RpcError(NOT_FOUND_EXCEPTION, selector.ui_string())
        return node

    async def _wait(self, predicate: Callable[[], bool], timeout_ms) -> bool:
        """UiDevice.wait / UiObject.waitForExists: re-check until true or the time is up.

        The host's time bounds the polling (another client may change the screen meanwhile);
        a wait that runs out took its timeout on the phone's clock too (kernel/clock.py).
        """
        timeout_ms = max(0, int(timeout_ms))
        deadline = time.monotonic() + timeout_ms / 1000
        phone_deadline = self.phone.clock_ms() + timeout_ms
        seen_version = None
        while True:
            version = self.phone.system.version
            if version != seen_version:
                seen_version = version
                if predicate():
                    return True
            if time.monotonic() >= deadline:
                self.phone.advance_clock(max(0, phone_deadline - self.phone.clock_ms()))
                return False
            await asyncio.sleep(WAIT_POLL_S)

    def _tap(self, x: int, y: int, long_ms: int | None = None) -> bool:
        system = self.phone.system
        if x < 0 or y < 0 or x >= system.width or y >= system.height:
            return False
        with self.phone._lock:
            if long_ms is None:
                system.tap(x, y)
            else:
                system.swipe(x, y, x, y, duration_ms=long_ms)
        return True

    def _key(self, name: str) -> bool:
        with self.phone._lock:
            self.phone.system.key(name)
        return True

    def _screenshot(self, fmt: str, scale: float, quality: int) -> bytes:
        from PIL import Image  # Pillow is heavy: loaded for the first screenshot, as ui/render.py does

        image = Image.open(io.BytesIO(self.phone.system.screenshot_png())).convert("RGB")
        if scale and scale != 1.0 and scale > 0:
            image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))))
        out = io.BytesIO()
        if fmt == "JPEG":
            image.save(out, "JPEG", quality=max(0, min(100, int(quality))))
        else:
            image.save(out, "PNG")
        return out.getvalue()

    def device_info(self) -> dict:
        system, props = self.phone.system, self.phone.props
        density = system.density / 160
        package = system.read_active_window(lambda root, package: package)
        return {
            "currentPackageName": package,
            "displayWidth": system.width, "displayHeight": system.height, "displayRotation": 0,
            "displaySizeDpX": round(system.width / density), "displaySizeDpY": round(system.height / density),
            "productName": props.get("ro.product.name", ""), "naturalOrientation": True,
            "sdkInt": int(props.get("ro.build.version.sdk", "34")), "screenOn": True,
        }

    def obj_info(self, node: Node, from_ui_object: bool) -> dict:
        """ObjInfo: UiObject2's (bounds are the visible bounds, with resourceName) or UiObject's.

        UiObject returns "" for a missing text or description (safeStringReturn),
        UiObject2 returns null.
        """
        def rect(r):
            return {"top": r[1], "bottom": r[3], "left": r[0], "right": r[2]}

        return {
            "bounds": rect(node.bounds if from_ui_object else node.visible_bounds),
            "visibleBounds": rect(node.visible_bounds),
            "childCount": len(node.children),
            "className": node.class_name,
            "contentDescription": node.desc or ("" if from_ui_object else None),
            "packageName": node.package,
            "text": node.text or ("" if from_ui_object else None),
            "checkable": node.checkable, "checked": node.checked, "clickable": node.clickable,
            "enabled": node.enabled, "focusable": node.focusable, "focused": node.focused,
            "longClickable": node.long_clickable, "scrollable": node.scrollable, "selected": node.selected,
            "resourceName": None if from_ui_object else (node.resource_id or None),
        }

    def take_toast(self) -> None:
        """The server's accessibility listener records each toast as it appears."""
        count, text = self.phone.system.toasts
        if count != self.toast_seen:
            self.toast_seen = count
            self.last_toast = text


def _number(text, kind, default):
    try:
        return kind(text) if text is not None else default
    except ValueError:
        return default


def _rpc_error(rpc_id, code: int, message: str, data: str | None = None) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return json.dumps({"jsonrpc": "2.0", "id": rpc_id, "error": error}, ensure_ascii=False).encode()


# -- the method table: (name, argument count) -> coroutine --------------------------------------------
_METHODS: dict[tuple[str, int], Callable] = {}


def _method(name: str, arity: int):
    def register(fn):
        _METHODS[(name, arity)] = fn
        return fn
    return register


def _int(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SelectorError("not a number")
    return int(value)


@_method("ping", 0)
async def _ping(server):
    return "pong"


@_method("deviceInfo", 0)
async def _device_info(server):
    return server.device_info()


@_method("getLastToast", 0)
async def _get_last_toast(server):
    server.take_toast()
    return server.last_toast


@_method("clearLastToast", 0)
async def _clear_last_toast(server):
    server.take_toast()
    server.last_toast = None


@_method("click", 2)
async def _click(server, a, b):
    if isinstance(a, dict):  # click(Selector, corner)
        node = server._must_find(a)
        left, top, right, bottom = node.visible_bounds
        corner = str(b).lower()
        # UiObject.clickTopLeft / clickBottomRight: 5 px inside the corner
        x, y = ((left + 5, top + 5) if corner in ("tl", "topleft")
                else (right - 5, bottom - 5) if corner in ("br", "bottomright") else node.center())
        return server._tap(x, y)
    return server._tap(_int(a), _int(b))


@_method("click", 3)
async def _click_long(server, x, y, milliseconds):
    return server._tap(_int(x), _int(y), long_ms=_int(milliseconds))


@_method("click", 1)
async def _click_selector(server, selector):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("click")
    node = server._must_find(selector)
    return server._tap(*node.center())


@_method("longClick", 1)
async def _long_click_selector(server, selector):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("longClick")
    node = server._must_find(selector)
    return server._tap(*node.center(), long_ms=1000)


@_method("swipe", 5)
async def _swipe(server, x1, y1, x2, y2, steps):
    system = server.phone.system
    with server.phone._lock:
        # UiDevice.swipe: steps are injected about 5 ms apart
        system.swipe(_int(x1), _int(y1), _int(x2), _int(y2), duration_ms=max(1, _int(steps)) * 5)
    return True


@_method("drag", 5)
async def _drag(server, x1, y1, x2, y2, steps):
    return await _swipe(server, x1, y1, x2, y2, steps)


@_method("swipePoints", 2)
async def _swipe_points(server, segments, segment_steps):
    points = [(_int(segments[i]), _int(segments[i + 1])) for i in range(0, len(segments) - 1, 2)]
    if len(points) < 2:
        return False
    steps = max(1, _int(segment_steps)) * (len(points) - 1)
    return await _swipe(server, *points[0], *points[-1], steps)


@_method("injectInputEvent", 4)
async def _inject(server, action, x, y, meta_state):
    action, now = _int(action), time.monotonic()
    if action == 0:  # ACTION_DOWN
        server._touch_down = (float(x), float(y), now)
        return True
    if action == 2:  # ACTION_MOVE
        return server._touch_down is not None
    if action == 1 and server._touch_down is not None:  # ACTION_UP: the gesture as a whole
        x0, y0, t0 = server._touch_down
        server._touch_down = None
        with server.phone._lock:
            # The host held the finger down between its DOWN and UP requests: the gesture's
            # length is the host's (kernel/clock.py: the phone's clock does not see host time).
            server.phone.system.swipe(int(x0), int(y0), int(x), int(y), duration_ms=int((now - t0) * 1000),
                                      timed=False)
        return True
    return False


@_method("dumpWindowHierarchy", 1)
async def _dump1(server, compressed):
    return await _dump3(server, compressed, 50, False)


@_method("dumpWindowHierarchy", 2)
async def _dump2(server, compressed, max_depth):
    return await _dump3(server, compressed, max_depth, False)


@_method("dumpWindowHierarchy", 3)
async def _dump3(server, compressed, max_depth, root_in_active):
    server.compressed = bool(compressed)
    return hierarchy_xml(server._nodes(), _int(max_depth))


@_method("takeScreenshot", 2)
async def _take_screenshot(server, scale, quality):
    jpeg = server._screenshot("JPEG", float(scale), _int(quality))
    return base64.encodebytes(jpeg).decode()  # android.util.Base64.DEFAULT: 76-column lines


@_method("openNotification", 0)
async def _open_notification(server):
    """UiDevice.openNotification: UiAutomation.performGlobalAction(GLOBAL_ACTION_NOTIFICATIONS),
    which pulls SystemUI's shade down (framework/ui/shade.py); performGlobalAction answers true."""
    server.phone.system.expand_panel(settings=False)
    return True


@_method("openQuickSettings", 0)
async def _open_quick_settings(server):
    """UiDevice.openQuickSettings: performGlobalAction(GLOBAL_ACTION_QUICK_SETTINGS)."""
    server.phone.system.expand_panel(settings=True)
    return True


@_method("pressKey", 1)
async def _press_key(server, key):
    name = _PRESS_KEYS.get(str(key).lower())
    return server._key(name) if name else False


@_method("pressKeyCode", 1)
async def _press_key_code(server, code):
    return await _press_key_code_meta(server, code, 0)


@_method("pressKeyCode", 2)
async def _press_key_code_meta(server, code, meta_state):
    name = KEYCODES.get(_int(code))
    if name is None:
        return True  # injected; nothing on the phone listens for it
    modifiers = [key for bit, key in _META_KEYS if _int(meta_state) & bit]
    with server.phone._lock:
        if modifiers:
            server.phone.system.key_combination(modifiers + [name])
        else:
            server.phone.system.key(name)
    return True


@_method("wakeUp", 0)
async def _wake_up(server):
    return None


@_method("isScreenOn", 0)
async def _is_screen_on(server):
    return True


@_method("waitForIdle", 1)
async def _wait_for_idle(server, timeout):
    return None  # the virtual phone is idle whenever a request is served


@_method("exist", 1)
async def _exist(server, selector):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("exist")
    sel = Selector(selector)
    root = server._nodes()
    if not sel.chain and not sel.has("index"):
        # device.findObject(toBySelector()): BySelector has no instance, so it is ignored
        return any(sel.matches(node, ignore_case=False) for node in (root.walk() if root else ()))
    return sel.find(root) is not None


@_method("count", 1)
async def _count(server, selector):
    sel = Selector(selector)
    last = sel.chain[-1][1] if sel.chain else sel
    if last.has("instance"):
        return 1 if sel.find(server._nodes()) is not None else 0
    return len(sel.find_all(server._nodes()))


@_method("objInfo", 1)
async def _obj_info(server, selector):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("objInfo")
    sel = Selector(selector)
    node = server._must_find(selector)
    return server.obj_info(node, from_ui_object=not sel.by_selector_usable())


@_method("objInfoOfAllInstances", 1)
async def _obj_info_all(server, selector):
    sel = Selector(selector)
    return [server.obj_info(node, from_ui_object=True) for node in sel.find_all(server._nodes())]


@_method("getText", 1)
async def _get_text(server, selector):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("getText")
    return server._must_find(selector).text


@_method("setText", 2)
async def _set_text(server, selector, text):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("setText")
    sel = Selector(selector)
    node = server._must_find(selector)
    if sel.by_selector_usable():
        # UiObject2: click() to focus, then ACTION_SET_TEXT on the same (re-found) node
        server._tap(*node.center())
        node = sel.find(server._nodes())
        if node is None:
            return True  # the click changed the screen: UiObject2.setText logs a warning
        server.phone.system.set_text_by_accessibility(node.view, "" if text is None else str(text))
        return True
    return server.phone.system.set_text_by_accessibility(node.view, "" if text is None else str(text))


@_method("clearTextField", 1)
async def _clear_text_field(server, selector):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("clearTextField")
    node = server._must_find(selector)
    server.phone.system.set_text_by_accessibility(node.view, "")
    return None


@_method("waitForExists", 2)
async def _wait_for_exists(server, selector, timeout):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("waitForExists")
    sel = Selector(selector)
    return await server._wait(lambda: sel.find(server._nodes()) is not None, timeout)


@_method("waitUntilGone", 2)
async def _wait_until_gone(server, selector, timeout):
    if not isinstance(selector, dict):
        raise _NoSuchMethod("waitUntilGone")
    sel = Selector(selector)
    return await server._wait(lambda: sel.find(server._nodes()) is None, timeout)


async def _scroll(server, selector, vertical, forward: bool, steps) -> bool:
    """UiScrollable.scrollForward/Backward: one swipe across the middle 80% of the view."""
    node = server._must_find(selector)
    left, top, right, bottom = node.visible_bounds
    before = server.phone.system.version
    if vertical:
        margin = (bottom - top) // 10
        x = (left + right) // 2
        y1, y2 = (bottom - margin, top + margin) if forward else (top + margin, bottom - margin)
        await _swipe(server, x, y1, x, y2, steps)
    else:
        margin = (right - left) // 10
        y = (top + bottom) // 2
        x1, x2 = (right - margin, left + margin) if forward else (left + margin, right - margin)
        await _swipe(server, x1, y, x2, y, steps)
    return server.phone.system.version != before


@_method("scrollForward", 3)
async def _scroll_forward(server, selector, vertical, steps):
    return await _scroll(server, selector, bool(vertical), True, _int(steps))


@_method("scrollBackward", 3)
async def _scroll_backward(server, selector, vertical, steps):
    return await _scroll(server, selector, bool(vertical), False, _int(steps))


@_method("scrollToEnd", 4)
async def _scroll_to_end(server, selector, vertical, max_swipes, steps):
    for _ in range(max(0, _int(max_swipes))):
        if not await _scroll(server, selector, bool(vertical), True, _int(steps)):
            break
    return True


@_method("scrollToBeginning", 4)
async def _scroll_to_beginning(server, selector, vertical, max_swipes, steps):
    for _ in range(max(0, _int(max_swipes))):
        if not await _scroll(server, selector, bool(vertical), False, _int(steps)):
            break
    return True


@_method("scrollTo", 3)
async def _scroll_to(server, selector, target, vertical):
    """UiScrollable.scrollIntoView: scroll forward until the target shows (30 swipes at most)."""
    wanted = Selector(target)
    for _ in range(30):
        if wanted.find(server._nodes()) is not None:
            return True
        if not await _scroll(server, selector, bool(vertical), True, 55):
            break
    return wanted.find(server._nodes()) is not None


@_method("getClipboard", 0)
async def _get_clipboard(server):
    return server.phone.system.clipboard


@_method("setClipboard", 2)
async def _set_clipboard(server, label, text):
    server.phone.system.clipboard = None if text is None else str(text)
    return None


@_method("clearInputText", 0)
async def _clear_input_text(server):
    # Ctrl+A then DEL, as the jar injects them
    with server.phone._lock:
        server.phone.system.key_combination(["CTRL_LEFT", "A"])
        server.phone.system.key("DEL")
    return None


@_method("pasteClipboard", 0)
async def _paste_clipboard(server):
    # Ctrl+V, as the jar injects it: the focused field pastes the primary clip
    with server.phone._lock:
        server.phone.system.key_combination(["CTRL_LEFT", "V"])
    return None


APP_PROCESS_MAINS["com.wetest.uia2.Main"] = main  # what `app_process` runs (shell/app_process.py)

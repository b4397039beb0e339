"""The live screen: what the phone shows, refreshed when it changes.

A screenshot is a full PNG (tens of kB, a few ms to encode on the phone);
the view hierarchy is a cheap text dump (cheaper still from the listener app,
which on a real phone skips uiautomator's wait for idle). So a background
thread compares hierarchies, and takes a screenshot only when the dump changed, when the studio
has just acted on the phone, or when an app event arrived (a click, a window
change: the listener's stream, the same one the plugin reads). Pixels that
change without any view changing (an animation, the status bar's clock) are
caught by a full screenshot compare every :data:`FRAME_CHECK` seconds.
Every new screen is published to the page through a :class:`~.web.Broadcast`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import struct
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..errors import MobileAgentError
from ..judge import Node, parse_hierarchy
from .locate import selectors_for
from .web import Broadcast

if TYPE_CHECKING:
    from ..device import Device

__all__ = ["LiveScreen", "Snapshot", "node_dict"]

log = logging.getLogger("pytest_mobileagent.studio")

POLL = 0.1  # seconds between dumps when nothing prompts one sooner
FRAME_CHECK = 2.0  # seconds between full screenshot compares (changes no dump shows)
ERROR_BACKOFF = 1.0  # seconds between tries while the device does not answer


class Snapshot:
    """One observed screen: its hierarchy, its PNG and the parsed views."""

    def __init__(self, xml: str, png: bytes, nodes: list[Node], taken_at: float):
        self.xml, self.png, self.nodes, self.taken_at = xml, png, nodes, taken_at
        self.width, self.height = _png_size(png)

    @property
    def package(self) -> str:
        """The package of the window on top (the root view's)."""
        return self.nodes[0].package if self.nodes else ""


def _png_size(png: bytes) -> tuple[int, int]:
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
        return 0, 0
    return struct.unpack(">II", png[16:24])


def node_dict(index: int, node: Node, selector: Any) -> dict[str, Any]:
    """A view as the page shows it, with the golden selector that finds it."""
    return {
        "i": index, "depth": node.depth, "id": node.id, "text": node.text, "desc": node.desc,
        "cls": node.cls, "package": node.package, "bounds": list(node.bounds),
        "clickable": node.clickable, "long_clickable": node.long_clickable, "checkable": node.checkable,
        "checked": node.checked, "enabled": node.enabled, "focused": node.focused,
        "scrollable": node.scrollable, "selected": node.selected,
        "selector": selector.code() if selector is not None else None,
        "unique": bool(selector and selector.unique),
    }


class LiveScreen:
    """Watches one device's screen from a background thread; see the module docstring."""

    def __init__(self, device: "Device", *, poll: float = POLL, frame_check: float = FRAME_CHECK,
                 hierarchy: "Callable[[], str] | None" = None):
        """``hierarchy`` reads the view hierarchy XML (default: ``device.dump_hierarchy``)."""
        self.device = device
        self.read_hierarchy = hierarchy or device.dump_hierarchy
        self.poll = poll
        self.frame_check = frame_check
        self.updates = Broadcast()  # value: the page's JSON of the latest screen
        self.selector_package = ""  # the package short ids resolve against ("" : the app on top)
        self.snapshot: Snapshot | None = None
        self._nudge = threading.Event()
        self._stop = threading.Event()
        self._read_lock = threading.Lock()  # one reader of the device at a time
        self._last_frame = 0.0
        self._error: str | None = None
        self._thread: threading.Thread | None = None

    # -- control ------------------------------------------------------------------
    def start(self) -> "LiveScreen":
        self.refresh(force=True)
        self._thread = threading.Thread(target=self._run, name="mobileagent-studio-screen", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._nudge.set()
        self.updates.close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Leave the device alone for the block (a replay's pytest run owns it then)."""
        with self._read_lock:
            yield

    def nudge(self) -> None:
        """Look again now (an action was sent, an event arrived)."""
        self._nudge.set()

    # -- observing -----------------------------------------------------------------
    def refresh(self, force: bool = False) -> Snapshot:
        """Dump now; take and publish a screenshot if the screen changed (or ``force``)."""
        with self._read_lock:
            xml = self.read_hierarchy()
            current = self.snapshot
            frame_due = time.monotonic() - self._last_frame >= self.frame_check
            if current is not None and xml == current.xml and not force and not frame_due:
                return current
            png = self.device.screenshot_png()
            self._last_frame = time.monotonic()
            if current is not None and xml == current.xml and png == current.png and self._error is None:
                return current
            snapshot = Snapshot(xml, png, parse_hierarchy(xml), time.time())
            self.snapshot = snapshot
            self._error = None
            self.updates.publish(self._page_state(snapshot))
            return snapshot

    def republish(self) -> None:
        """Send the current screen again (its selectors depend on the recording's app)."""
        if self.snapshot is not None:
            self.updates.publish(self._page_state(self.snapshot))

    def _page_state(self, snapshot: Snapshot) -> str:
        package = self.selector_package or snapshot.package
        selectors = selectors_for(snapshot.nodes, package)
        return json.dumps({
            "taken_at": snapshot.taken_at, "width": snapshot.width, "height": snapshot.height,
            "package": snapshot.package, "selector_package": package, "error": None,
            "nodes": [node_dict(i, n, s) for i, (n, s) in enumerate(zip(snapshot.nodes, selectors))],
        })

    def _run(self) -> None:
        while not self._stop.is_set():
            self._nudge.wait(self.poll if self._error is None else ERROR_BACKOFF)
            self._nudge.clear()
            if self._stop.is_set():
                return
            try:
                self.refresh()
            except (MobileAgentError, OSError, TimeoutError) as exc:
                message = f"{type(exc).__name__}: {exc}"
                if message != self._error:
                    log.warning("studio: cannot read the screen: %s", message)
                    self._error = message
                    self.updates.publish(json.dumps({"error": message, "nodes": []}))

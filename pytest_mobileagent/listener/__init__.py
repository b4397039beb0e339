"""The listener app shipped with the plugin: its APK, names and source digest.

The APK is built from ``listener_apk/`` by ``listener_apk/build.sh --ship``,
which also writes the digest of the sources it was built from next to it; CI
rebuilds and compares, so the shipped APK never lags behind its source.
"""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

__all__ = ["APK_PATH", "BUSY", "HELLO", "PACKAGE", "PROTOCOL", "SERVICE", "SOCKET_NAME", "SOURCE_DIGEST_PATH",
           "ListenerRefused", "handshake", "read_hello", "shipped_digest", "source_digest"]

#: The listener's package name.
PACKAGE = "io.github.mobileagent.listener"
#: Its accessibility service, as ``enabled_accessibility_services`` names it.
SERVICE = f"{PACKAGE}/{PACKAGE}.ListenerService"
#: The abstract socket the listener serves on (``localabstract:mobileagent-listener``).
SOCKET_NAME = "mobileagent-listener"
#: The listener protocol this plugin speaks (listener_apk/README.md): the listener serves, the host dials.
PROTOCOL = 2
#: What a client writes first, and the listener's answer begins with (listener_apk/README.md).
HELLO = b'{"req":"hello","protocol":%d}\n' % PROTOCOL
#: The APK inside the installed Python package.
APK_PATH = Path(__file__).with_name("listener.apk")
SOURCE_DIGEST_PATH = Path(__file__).with_name("listener.apk.source-sha256")

# What build.sh hashes: everything the APK is built from.
_SOURCE_ITEMS = ("AndroidManifest.xml", "VERSION", "build.sh", "debug.keystore", "res", "src")


def source_digest(source_dir: str | Path) -> str:
    """The digest of ``listener_apk/``'s sources, computed as build.sh does.

    build.sh runs ``sha256sum`` over the files in byte order of their paths and
    hashes that listing; this repeats it exactly.
    """
    root = Path(source_dir)
    files: list[str] = []
    for item in _SOURCE_ITEMS:
        path = root / item
        if path.is_file():
            files.append(item)
        elif path.is_dir():
            files.extend(p.relative_to(root).as_posix() for p in path.rglob("*") if p.is_file())
    listing = "".join(
        f"{hashlib.sha256((root / name).read_bytes()).hexdigest()}  {name}\n"
        for name in sorted(files, key=lambda n: n.encode())
    )
    return hashlib.sha256(listing.encode()).hexdigest()


def shipped_digest() -> str:
    """The source digest recorded when the shipped APK was built."""
    return SOURCE_DIGEST_PATH.read_text().strip()


class ListenerRefused(ValueError):
    """The listener answered with a refusal; ``reason`` is its own words."""

    def __init__(self, reason: str):
        super().__init__(f"the listener refused the connection: {reason}")
        self.reason = reason


#: The refusal of a listener that serves another client now: it answers, and works.
BUSY = "another client is connected"


def handshake(sock: socket.socket, timeout: float = 5.0) -> dict:
    """Say hello on a fresh stream to the listener's socket; its hello (a dict).

    ValueError says why not: :class:`ListenerRefused` with its refusal, or
    another protocol, or no hello.
    For one-off checks (``mobileagent-setup``); the event server does the same
    without blocking.
    """
    sock.settimeout(timeout)
    sock.sendall(HELLO)
    line = bytearray()
    while not line.endswith(b"\n") and len(line) < 4096:
        chunk = sock.recv(4096 - len(line))
        if not chunk:
            break
        line += chunk
    return read_hello(bytes(line).split(b"\n", 1)[0])


def read_hello(line: bytes) -> dict:
    """The listener's first line, read as its hello (a dict of protocol ``PROTOCOL``).

    ValueError says why not, in words for the user: :class:`ListenerRefused`
    with its refusal, another protocol, or a first line that is no hello.
    """
    try:
        obj = json.loads(line)
    except ValueError:
        obj = None
    kind = obj.get("type") if isinstance(obj, dict) else None
    if kind == "refused":
        raise ListenerRefused(str(obj.get("reason")))
    if kind != "hello":
        raise ValueError(f"the listener's socket did not answer with a hello (first line {line[:80]!r}); "
                         "install this plugin's listener with mobileagent-setup")
    if obj.get("protocol") != PROTOCOL:
        raise ValueError(f"the listener on the device speaks protocol {obj.get('protocol')!r}, this plugin "
                         f"needs {PROTOCOL}: install this plugin's listener with mobileagent-setup")
    return obj

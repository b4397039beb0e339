"""The listener app shipped with the plugin: its APK, names and source digest.

The APK is built from ``listener_apk/`` by ``listener_apk/build.sh --ship``,
which also writes the digest of the sources it was built from next to it; CI
rebuilds and compares, so the shipped APK never lags behind its source.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["APK_PATH", "PACKAGE", "SERVICE", "SOURCE_DIGEST_PATH", "shipped_digest", "source_digest"]

#: The listener's package name.
PACKAGE = "io.github.mobileagent.listener"
#: Its accessibility service, as ``enabled_accessibility_services`` names it.
SERVICE = f"{PACKAGE}/{PACKAGE}.ListenerService"
SOCKET_NAME = "mobileagent-listener"
PROTOCOL = 2
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

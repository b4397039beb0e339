"""The media scanner's side of the shell: the broadcast that asks for a scan.

`am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d
file:///sdcard/Download/cat.jpg` reaches MediaProvider's MediaScannerReceiver,
whose intent filter takes only `file:` URIs; it scans that file (or that
folder's tree) on shared storage and ignores anything else, as the real
receiver does.  The broadcast itself always "completes" (result=0): a
receiver that ignores an intent reports nothing back to `am`.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from ..framework.broadcasts import BROADCAST_RECEIVERS

__all__ = ["ACTION_MEDIA_SCANNER_SCAN_FILE", "scan_file_uri"]

ACTION_MEDIA_SCANNER_SCAN_FILE = "android.intent.action.MEDIA_SCANNER_SCAN_FILE"


def scan_file_uri(media_store, uri: str | None) -> int:
    """Scan what a `file://` URI names; returns the number of changed rows (0 if ignored)."""
    if not uri:
        return 0
    parts = urlsplit(uri)
    if parts.scheme != "file" or not parts.path:
        return 0  # the receiver's filter matches the file scheme only
    return media_store.scan(unquote(parts.path))


def _on_scan_file(phone, intent) -> None:
    store = phone.system.media_store
    if store is not None:
        scan_file_uri(store, intent.data)


BROADCAST_RECEIVERS[ACTION_MEDIA_SCANNER_SCAN_FILE] = _on_scan_file

"""MediaProvider's query side for the shell: `content query --uri content://media/...`.

The rows are the media store's (media_store.py).  What the caller sees
follows MediaProvider.getWhereClauseForMatchExclude: published rows, plus
the pending rows FUSE inserted for files the caller itself created -- the
shell (`com.android.shell`) sees the files it pushed before any scan, with
is_pending=1.  Collections (MediaStore.Files / Images / Audio / Video /
Downloads) select rows by media type or folder, `/ID` one row.  `content
delete` removes the rows and their files, as MediaProvider.delete does;
insert and update are not modelled (files arrive through shared storage).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from typing import TYPE_CHECKING, Iterable

from ..media_store import COLUMNS, EXTERNAL_ROOT, MEDIA_TYPES
from .base import ProviderError

if TYPE_CHECKING:
    from ..media_store import MediaStore

__all__ = ["MediaQueryProvider"]

SHELL_PACKAGE = "com.android.shell"
_ALL_COLUMNS = COLUMNS + ("is_pending", "owner_package_name", "volume_name")
#: content://media/<volume>/<collection>[/ID]
_URI = re.compile(r"content://media/(external|external_primary)/"
                  r"(file|images/media|audio/media|video/media|downloads)(?:/(\d+))?/?$")
_MEDIA_TYPE_OF = {"images/media": "image", "audio/media": "audio", "video/media": "video"}


class MediaQueryProvider:
    """The `media` authority for `content query` (read-only, see the module docstring)."""

    authority = "media"
    package = "com.android.providers.media.module"

    def __init__(self, store: "MediaStore"):
        self.store = store
        self.generation = 0
        self._lock = threading.Lock()

    def query(self, uri: str, projection: Iterable[str] | None = None, where: str | None = None,
              sort: str | None = None) -> tuple[list[str], list[tuple]]:
        m = _URI.match(uri)
        if m is None:
            raise ProviderError(f"java.lang.IllegalArgumentException: Unknown URL {uri}")
        collection, row_id = m.group(2), m.group(3)
        wanted = list(projection) if projection else list(_ALL_COLUMNS)
        for name in wanted:
            if name not in _ALL_COLUMNS and name != "*":
                raise ProviderError(f"java.lang.IllegalArgumentException: Invalid column {name}")
        rows = []
        for item in self.store.query(include_pending=True):
            if item.pending and item.owner_package_name != SHELL_PACKAGE:
                continue  # someone else's FUSE-pending file
            kind = _MEDIA_TYPE_OF.get(collection)
            if kind is not None and item.media_type != kind:
                continue
            if collection == "downloads" and not item.path.startswith(EXTERNAL_ROOT + "/Download/"):
                continue
            if row_id is not None and item._id != int(row_id):
                continue
            values = [MEDIA_TYPES[item.media_type] if c == "media_type" else
                      "external_primary" if c == "volume_name" else item.column(c) for c in _ALL_COLUMNS]
            rows.append(values)
        with self._lock:
            db = sqlite3.connect(":memory:")
            try:
                db.execute(f"CREATE TABLE files ({', '.join(_ALL_COLUMNS)})")
                db.executemany(f"INSERT INTO files VALUES ({', '.join('?' * len(_ALL_COLUMNS))})", rows)
                sql = f"SELECT {', '.join(wanted)} FROM files"
                if where:
                    sql += f" WHERE {where}"
                if sort:
                    sql += f" ORDER BY {sort}"
                try:
                    cursor = db.execute(sql)
                except sqlite3.Error as exc:
                    raise ProviderError(f"android.database.sqlite.SQLiteException: {exc} (code 1 SQLITE_ERROR)") \
                        from None
                return [d[0] for d in cursor.description], [tuple(r) for r in cursor.fetchall()]
            finally:
                db.close()

    def delete(self, uri: str, where: str | None = None) -> int:
        """MediaProvider.delete: the matching rows go, and their files with them."""
        columns, rows = self.query(uri, ["_id", "_data"], where)
        for _row_id, path in rows:
            try:
                self.store.fs.remove(path)  # the FUSE listener drops the row
            except OSError:
                self.store.file_deleted(path)  # no file left: only the row goes
        self.generation += 1
        return len(rows)

    def _refuse(self, uri: str, *_args, **_kwargs):
        raise ProviderError("java.lang.UnsupportedOperationException: the virtual phone's MediaProvider "
                            "takes new and changed files from shared storage (push, cp, mv), not from insert "
                            "or update")

    insert = update = _refuse

    def clear(self) -> None:
        """`pm clear` of MediaProvider's package empties its database (scans rebuild it)."""
        self.store.clear()

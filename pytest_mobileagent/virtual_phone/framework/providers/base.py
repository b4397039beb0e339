"""A content provider of the virtual phone: SQLite tables behind `content://` URIs.

Android's system providers keep their data in SQLite databases and hand the
caller's `selection` and `sortOrder` to SQLite unchanged, so the virtual
phone does the same with Python's `sqlite3` (an in-memory database per
provider): a `--where` clause behaves as on a phone, errors included.

A provider maps URI paths to a table it reads (often a view joining
tables) and a table it writes, and may react to writes (the contacts
provider aggregates raw contacts, the telephony provider keeps its
threads up to date).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["ContentProvider", "ProviderError", "Route"]


class ProviderError(Exception):
    """What the provider throws, as the Java exception line Android prints ("java.lang...: message")."""


@dataclass(frozen=True)
class Route:
    """One URI pattern of a provider: `path` may end in "/#" (a row id)."""

    path: str
    read: str                       # table or view that queries read
    write: str | None = None        # table written by insert/update/delete (None: read-only)
    defaults: tuple[tuple[str, Any], ...] = ()   # values an insert through this URI implies
    where: str = ""                 # selection this URI implies (e.g. "type=1" for sms/inbox)


class ContentProvider:
    """Base of the phone's SQLite-backed providers (see the module docstring)."""

    #: the provider's authority ("com.android.contacts") and the package `pm clear` resets
    authority: str = ""
    package: str = ""
    #: statements creating the schema of a fresh database
    SCHEMA: str = ""
    ROUTES: tuple[Route, ...] = ()

    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self.clock_ms = clock_ms
        self._lock = threading.RLock()
        #: incremented by every change; apps re-read when it moved
        self.generation = 0
        self._open()

    def _open(self) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.executescript(self.SCHEMA)

    def clear(self) -> None:
        """Delete all data (`pm clear <package>`)."""
        with self._lock:
            self.db.close()
            self._open()
            self.generation += 1

    # -- routing -----------------------------------------------------------------------------
    def route(self, uri: str) -> tuple[Route, int | None]:
        """The route of a `content://authority/path` URI and the row id it names, if any."""
        match = re.fullmatch(r"content://([^/?#]+)/?([^?#]*)(?:\?[^#]*)?", uri)
        if match is None or match.group(1) != self.authority:
            raise ProviderError(f"java.lang.IllegalArgumentException: Unknown URL {uri}")
        path = match.group(2).rstrip("/")
        for route in self.ROUTES:
            if route.path == "#":  # the authority's own rows: content://sms/5
                if path.isdigit():
                    return route, int(path)
            elif route.path.endswith("/#"):
                stem = route.path[:-2]
                if path.startswith(stem + "/") and path[len(stem) + 1:].isdigit():
                    return route, int(path[len(stem) + 1:])
            elif path == route.path:
                return route, None
        raise ProviderError(f"java.lang.IllegalArgumentException: Unknown URL {uri}")

    # -- the four operations -------------------------------------------------------------------
    def query(self, uri: str, projection: Iterable[str] | None = None, where: str | None = None,
              sort: str | None = None) -> tuple[list[str], list[tuple]]:
        """(column names, rows) as a Cursor would give them."""
        with self._lock:
            route, row_id = self.route(uri)
            columns = self.columns(route.read)
            wanted = list(projection) if projection else columns
            for name in wanted:
                if name not in columns and name != "*":
                    raise ProviderError(f"java.lang.IllegalArgumentException: Invalid column {name}")
            sql = f"SELECT {', '.join(_quote(c) for c in wanted)} FROM {route.read}"
            sql += self._where(route, row_id, where)
            if sort:
                sql += f" ORDER BY {sort}"
            cursor = self._execute(sql)
            return [d[0] for d in cursor.description], [tuple(row) for row in cursor.fetchall()]

    def insert(self, uri: str, values: dict[str, Any]) -> str:
        """Insert a row; returns the new row's URI."""
        with self._lock:
            route, row_id = self.route(uri)
            if route.write is None or row_id is not None:
                raise ProviderError(f"java.lang.UnsupportedOperationException: Unknown uri: {uri}")
            values = {**dict(route.defaults), **values}
            self._check_columns(route.write, values)
            values = self.before_insert(route, values)
            new_id = self._insert_row(route.write, values)
            self.after_change(route.write, [new_id])
            self.generation += 1
            return f"content://{self.authority}/{route.path.removesuffix('/#')}/{new_id}"

    def update(self, uri: str, values: dict[str, Any], where: str | None = None) -> int:
        with self._lock:
            route, row_id = self.route(uri)
            if route.write is None:
                raise ProviderError(f"java.lang.UnsupportedOperationException: Unknown uri: {uri}")
            self._check_columns(route.write, values)
            ids = self._ids(route, row_id, where)
            if ids and values:
                assignments = ", ".join(f"{_quote(k)} = ?" for k in values)
                marks = ", ".join("?" * len(ids))
                self._execute(f"UPDATE {route.write} SET {assignments} WHERE _id IN ({marks})",
                              [*values.values(), *ids])
                self.after_change(route.write, ids, values)
                self.generation += 1
            return len(ids)

    def delete(self, uri: str, where: str | None = None) -> int:
        with self._lock:
            route, row_id = self.route(uri)
            if route.write is None:
                raise ProviderError(f"java.lang.UnsupportedOperationException: Unknown uri: {uri}")
            ids = self._ids(route, row_id, where)
            if ids:
                self.before_delete(route.write, ids)
                self._execute(f"DELETE FROM {route.write} WHERE _id IN ({', '.join('?' * len(ids))})", ids)
                self.after_change(route.write, ids, deleted=True)
                self.generation += 1
            return len(ids)

    # -- hooks for subclasses --------------------------------------------------------------------
    def before_insert(self, route: Route, values: dict[str, Any]) -> dict[str, Any]:
        return values

    def before_delete(self, table: str, ids: list[int]) -> None:
        pass

    def after_change(self, table: str, ids: list[int], values: dict[str, Any] | None = None,
                     deleted: bool = False) -> None:
        pass

    # -- helpers -----------------------------------------------------------------------------------
    def columns(self, table: str) -> list[str]:
        return [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]

    def _check_columns(self, table: str, values: dict[str, Any]) -> None:
        known = self.columns(table)
        for name in values:
            if name not in known:
                raise ProviderError(
                    f"android.database.sqlite.SQLiteException: table {table} has no column named {name} "
                    "(code 1 SQLITE_ERROR)")

    def _insert_row(self, table: str, values: dict[str, Any]) -> int:
        if not values:
            return self._execute(f"INSERT INTO {table} DEFAULT VALUES").lastrowid
        names = ", ".join(_quote(k) for k in values)
        marks = ", ".join("?" * len(values))
        return self._execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", list(values.values())).lastrowid

    def _where(self, route: Route, row_id: int | None, where: str | None) -> str:
        clauses = [c for c in (route.where, f"_id = {row_id}" if row_id is not None else "", where) if c]
        return " WHERE " + " AND ".join(f"({c})" for c in clauses) if clauses else ""

    def _ids(self, route: Route, row_id: int | None, where: str | None) -> list[int]:
        table = route.write or route.read
        return [row[0] for row in self._execute(f"SELECT _id FROM {table}{self._where(route, row_id, where)}")]

    def _execute(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, list(params))
        except sqlite3.Error as exc:
            raise ProviderError(f"android.database.sqlite.SQLiteException: {exc} (code 1 SQLITE_ERROR): , "
                                f"while compiling: {sql}") from None

    def rows(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Read rows for the apps (no routing; the apps are the provider's trusted callers here)."""
        with self._lock:
            return self._execute(sql, params).fetchall()


def _quote(name: str) -> str:
    return name if name == "*" else '"' + name.replace('"', '""') + '"'

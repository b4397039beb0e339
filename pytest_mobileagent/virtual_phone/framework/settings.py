"""Settings' one store and SettingsProvider, the `settings` authority of `content`.

Android keeps system, secure and global settings in SettingsProvider
(frameworks/base packages/SettingsProvider, SettingsProvider.java and
SettingsState.java); `settings get/put` and `content query --uri
content://settings/...` both go through it, so they report the same facts.
Here the phone's settings tables are `SettingsTable`s (dicts that keep each
setting's row id, SettingsState's ``mNextId``), and `SettingsProvider` answers
the content URIs over those same tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from .providers import ProviderError

__all__ = ["SettingsProvider", "SettingsTable", "settings_tables"]

#: SettingsProvider.ALL_COLUMNS (Settings.NameValueTable._ID, NAME, VALUE)
ALL_COLUMNS = ("_id", "name", "value")

#: SettingsProvider.Arguments' four selections it understands (any other is refused)
_WITH_PARAM = (re.compile(r"\s*name\s*=\s*\?\s*"), re.compile(r"\s*\(\s*name\s*=\s*\?\s*\)\s*"))
_NO_PARAM = (re.compile(r"\s*name\s*=\s*['\"].*['\"]\s*", re.S), re.compile(r"\s*\(\s*name\s*=\s*['\"].*['\"]\s*\)\s*", re.S))


def java_hash(text: str) -> int:
    """String.hashCode as a signed 32-bit int (over UTF-16 code units)."""
    value = 0
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        value = (31 * value + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


class SettingsTable(dict):
    """One settings table (SettingsState): name -> value, each row with the id its last write got.

    SettingsState gives a setting a fresh id (``String.valueOf(mNextId++)``) whenever it is
    inserted or its value changes; the names are kept in an ArrayMap, which orders its keys by
    hash code, the order SettingsProvider's getAll*Settings cursor lists them in.
    """

    def __init__(self, values: Mapping[str, str] = ()) -> None:
        super().__init__()
        self._ids: dict[str, int] = {}
        self._next_id = 1
        self.update(values)

    def __setitem__(self, name: str, value: str) -> None:
        if name not in self or self[name] != value:
            self._ids[name] = self._next_id
            self._next_id += 1
        super().__setitem__(name, value)

    def update(self, *args, **kwargs) -> None:  # dict.update bypasses __setitem__
        for name, value in dict(*args, **kwargs).items():
            self[name] = value

    def setdefault(self, name: str, value: str = None):
        if name not in self:
            self[name] = value
        return self[name]

    def pop(self, name: str, *default):
        self._ids.pop(name, None)
        return super().pop(name, *default)

    def __delitem__(self, name: str) -> None:
        self._ids.pop(name, None)
        super().__delitem__(name)

    def __reduce__(self):
        """Pickle (phone snapshots) values, row ids and the next id together: pickle would set a
        dict subclass's items before its attributes."""
        return (_restore_table, (dict(self), dict(self._ids), self._next_id))

    def row_id(self, name: str) -> int:
        return self._ids[name]

    def names_in_map_order(self) -> list[str]:
        """The names as ArrayMap.keySet iterates them: by String.hashCode, ties in insertion order."""
        return sorted(self, key=java_hash)


def _restore_table(values: dict[str, str], ids: dict[str, int], next_id: int) -> SettingsTable:
    table = SettingsTable()
    dict.update(table, values)
    table._ids, table._next_id = ids, next_id
    return table


def settings_tables(tables: Mapping[str, Mapping[str, str]]) -> dict[str, SettingsTable]:
    """The phone's settings store: one SettingsTable per namespace."""
    return {namespace: SettingsTable(values) for namespace, values in tables.items()}


class SettingsProvider:
    """The `settings` authority (SettingsProvider.query/insert/update/delete) over the one store.

    ``on_change`` runs after a write (services bound by secure settings rebind, as after
    `settings put`).
    """

    authority = "settings"
    package = "com.android.providers.settings"

    def __init__(self, tables: Mapping[str, SettingsTable], on_change: Callable[[], None]) -> None:
        self.tables = tables
        self.on_change = on_change
        self.generation = 0

    # -- SettingsProvider.Arguments ---------------------------------------------------------
    def _segments(self, uri: str) -> list[str]:
        match = re.fullmatch(r"content://settings(/[^?#]*)?(?:\?[^#]*)?", uri)
        if match is None:
            raise ProviderError(f"java.lang.IllegalArgumentException: Unknown URL {uri}")
        return [s for s in (match.group(1) or "").split("/") if s]

    def _table(self, uri: str, segments: list[str]) -> SettingsTable:
        """getValidTableOrThrow (DatabaseHelper.isValidTable: system, secure, global)."""
        if not segments:
            raise ProviderError(f"java.lang.IllegalArgumentException: Invalid URI:{uri}")
        table = self.tables.get(segments[0])
        if table is None:
            raise ProviderError(f"java.lang.IllegalArgumentException: Bad root path: {segments[0]}")
        return table

    def _arguments(self, uri: str, where: str | None, support_all: bool) -> tuple[SettingsTable, str | None]:
        """(table, name) as SettingsProvider.Arguments reads a URI and selection (`content`
        passes no selection arguments, so ``name=?`` dereferences a null array)."""
        segments = self._segments(uri)
        if len(segments) == 1:
            if where is not None and any(p.fullmatch(where) for p in _WITH_PARAM):
                raise ProviderError("java.lang.NullPointerException: Attempt to get length of null array")
            if where is not None and any(p.fullmatch(where) for p in _NO_PARAM):
                start = max(where.find("'"), where.find('"')) + 1
                end = max(where.rfind("'"), where.rfind('"'))
                return self._table(uri, segments), where[start:end]
            if support_all and where is None:
                return self._table(uri, segments), None
        elif len(segments) == 2 and where is None:
            return self._table(uri, segments), segments[1]
        raise ProviderError(
            "java.lang.IllegalArgumentException: Supported SQL:\n"
            "  uri content://some_table/some_property with null where and where args\n"
            "  uri content://some_table with query name=? and single name as arg\n"
            "  uri content://some_table with query name=some_name and null args\n"
            f"  but got - uri:{uri}, where:{where} whereArgs:null")

    # -- ContentProvider ----------------------------------------------------------------------
    def query(self, uri: str, projection: Iterable[str] | None = None, where: str | None = None,
              sort: str | None = None) -> tuple[list[str], list[tuple]]:
        """One row for a named setting (none if unset), else every row; ``sort`` is ignored,
        as SettingsProvider.query ignores its order argument."""
        table, name = self._arguments(uri, where, support_all=True)
        columns = list(projection) if projection else list(ALL_COLUMNS)
        for column in columns:  # normalizeProjection
            if column not in ALL_COLUMNS:
                raise ProviderError(f"java.lang.IllegalArgumentException: Invalid column: {column}")
        names = table.names_in_map_order() if name is None else [name] if name in table else []
        cells = {"_id": lambda n: str(table.row_id(n)), "name": lambda n: n, "value": lambda n: table[n]}
        return columns, [tuple(cells[c](n) for c in columns) for n in names]

    def insert(self, uri: str, values: Mapping[str, object]) -> None:
        table = self._table(uri, self._segments(uri))
        name = values.get("name")
        if not name:  # isKeyValid: nothing is inserted
            return
        self._write(table, str(name), values.get("value"))

    def update(self, uri: str, values: Mapping[str, object], where: str | None) -> None:
        table, name = self._arguments(uri, where, support_all=False)
        if not values.get("name"):  # update() reads the name from the values, then checks it
            return
        if name in table:  # updateSetting: only an existing setting changes
            self._write(table, name, values.get("value"))

    def delete(self, uri: str, where: str | None) -> None:
        table, name = self._arguments(uri, where, support_all=False)
        if name and name in table:
            table.pop(name)
            self._changed()

    def clear(self) -> None:
        """`pm clear com.android.providers.settings` leaves the settings alone: SettingsRegistry
        keeps them in /data/system/users/<user>/settings_*.xml, not in the package's data."""

    def _write(self, table: SettingsTable, name: str, value: object) -> None:
        if value is None:
            # the store holds strings (`settings get` prints them); a null row is not modelled
            raise ProviderError("java.lang.UnsupportedOperationException: the virtual phone stores no null setting values")
        table[name] = str(value)
        self._changed()

    def _changed(self) -> None:
        self.generation += 1
        self.on_change()

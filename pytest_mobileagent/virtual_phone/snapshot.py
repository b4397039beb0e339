"""Whole-phone snapshots: what ``adb emu avd snapshot save/load`` does to an emulator.

A snapshot holds everything the phone is -- files, settings, properties,
permissions, the clock, every app's data and the UI down to the open dialog
and the text in a field -- as bytes. Loading it puts the phone back exactly
there; the phone object itself (and every adb connection to it) stays.

The state is pickled with two twists:

* live objects are kept by reference, not copied: the phone itself (so bound
  methods such as ``phone.clock_ms`` stay bound to it), its locks, classes,
  plain functions, code objects and module dictionaries;
* functions with a closure (the UI's many ``lambda: self.open(note)``
  handlers) are copied together with their closed-over values, so a restored
  view's click handler acts on the restored app, not on the one it replaced.

Event sinks (the host connections streaming accessibility events) and the
socket table (programs' listening sockets and their open connections) are not
part of a phone's state and are left as they are; once loaded, the services the
system binds (accessibility services: the listener app's socket) follow the
loaded packages and settings, as after `settings put`.
"""

from __future__ import annotations

import io
import pickle
import sqlite3
import sys
import threading
import types
from typing import TYPE_CHECKING, Any

from .framework.active_services import system_state_changed

if TYPE_CHECKING:
    from .phone import VirtualPhone

__all__ = ["PhoneSnapshot", "load_snapshot", "save_snapshot"]

_LOCK_TYPES = (type(threading.Lock()), type(threading.RLock()))
#: Attributes of VirtualPhone that are connections, not state.
_NOT_STATE = frozenset({"_event_sinks", "_lock", "sockets"})


class PhoneSnapshot:
    """A phone's state at one moment (opaque bytes; ``len()`` is their size)."""

    def __init__(self, data: bytes):
        self.data = data

    def __len__(self) -> int:
        return len(self.data)


def _make_function(code, globals_ref, name, defaults, kwdefaults, cell_values, qualname, attrs):
    cells = tuple(types.CellType(value) for value in cell_values)
    function = types.FunctionType(code, globals_ref, name, defaults, cells)
    function.__kwdefaults__ = kwdefaults
    function.__qualname__ = qualname
    function.__dict__.update(attrs)
    return function


def _restore_database(image: bytes, row_factory, isolation_level):
    database = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=isolation_level)
    database.deserialize(image)
    database.row_factory = row_factory
    return database


class _Pickler(pickle.Pickler):
    def __init__(self, file, phone: "VirtualPhone"):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._live: dict[int, Any] = {id(phone): phone}
        self._module_dicts = {id(m.__dict__): m.__dict__ for m in list(sys.modules.values())
                              if m is not None and hasattr(m, "__dict__")}

    def persistent_id(self, obj: Any) -> Any:
        key = id(obj)
        if key in self._live:
            return key
        # Shared, not copied: code objects and classes (which pickle cannot always
        # name: some are made at run time) are immutable here, and so are functions
        # without a closure; sharing one is as good as a copy.
        if (isinstance(obj, (_LOCK_TYPES, types.CodeType, type, types.ModuleType, types.BuiltinFunctionType))
                or (isinstance(obj, types.FunctionType) and not obj.__closure__)
                or (type(obj) is dict and key in self._module_dicts)):
            self._live[key] = obj
            return key
        return None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, sqlite3.Connection):
            # The content providers' in-memory databases, copied as SQLite's own image.
            return _restore_database, (obj.serialize(), obj.row_factory, obj.isolation_level)
        if isinstance(obj, types.FunctionType) and obj.__closure__:
            try:
                values = [cell.cell_contents for cell in obj.__closure__]
            except ValueError:
                raise pickle.PicklingError(f"{obj.__qualname__}: a closure cell is still empty") from None
            return _make_function, (obj.__code__, obj.__globals__, obj.__name__, obj.__defaults__,
                                    obj.__kwdefaults__, values, obj.__qualname__, dict(obj.__dict__))
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, live: dict[int, Any]):
        super().__init__(file)
        self._live = live

    def persistent_load(self, pid: Any) -> Any:
        return self._live[pid]


def save_snapshot(phone: "VirtualPhone") -> PhoneSnapshot:
    """The phone's whole state now."""
    with phone._lock, phone.system._lock:
        state = {k: v for k, v in phone.__dict__.items() if k not in _NOT_STATE}
        buffer = io.BytesIO()
        pickler = _Pickler(buffer, phone)
        pickler.dump(state)
        snapshot = PhoneSnapshot(buffer.getvalue())
        # The live objects are the same for every load of this snapshot.
        snapshot._live = pickler._live  # type: ignore[attr-defined]
        return snapshot


def load_snapshot(phone: "VirtualPhone", snapshot: PhoneSnapshot) -> None:
    """Put the phone back into the state ``snapshot`` holds."""
    live = getattr(snapshot, "_live", None)
    if live is None or live.get(id(phone)) is not phone:
        raise ValueError("this snapshot was taken of another phone")
    with phone._lock, phone.system._lock:
        state = _Unpickler(io.BytesIO(snapshot.data), live).load()
        phone.__dict__.update(state)
        system_state_changed(phone)

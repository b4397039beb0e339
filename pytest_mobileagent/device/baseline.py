"""The device-wide part of the reset: what ``pm clear`` of one app leaves behind.

``pm clear`` empties an app's private data, but not what lives outside it:
shared storage (files a seed pushed or an agent created, and MediaStore's rows
for them), Android's settings tables, and the other apps' tasks in the
recent-apps stack. One task's leftovers there change the next task's screen
(an mp3 left in ``Download`` is one more album in the Music Player).

:class:`DeviceBaseline` makes every task start from the same device state,
with commands a real phone accepts:

- At the run's first reset on a device it empties the shared-storage folders
  the run's tasks declare as theirs (``@task(storage=...)``), then records the
  baseline: every path under ``/sdcard`` (``find -print0``, skipping ``Android/``,
  the apps' private folders that ``pm clear`` owns) and the ``system``,
  ``secure`` and ``global`` settings tables (``settings list``).
- Before every task it compares the device with the baseline: paths added
  since are removed (``rm -rf``), baseline folders that went missing are made
  again, settings changed since are put back (``settings put``/``delete``), and
  when storage changed, MediaStore rescans the volume (``content call --uri
  content://media --method scan_volume --arg external_primary``, how Android 11+
  reconciles its database: MediaStore.scanVolume). It force-stops every app of
  the run, which removes their tasks from the recent-apps stack
  (ActivityTaskManagerService.onForceStopPackage finishes their activities).

The comparison is one shell round trip per task; fixing, a second one only when
something differs.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from pytest_mobileagent.errors import AdbCommandError

if TYPE_CHECKING:
    from .device import Device

__all__ = ["DeviceBaseline", "RestoreReport", "STORAGE_ROOT", "storage_folder"]

STORAGE_ROOT = "/sdcard"
SETTINGS_NAMESPACES = ("system", "secure", "global")
# Apps' private external folders (Android/data, Android/media, Android/obb) belong to
# the apps: `pm clear` empties them, and on Android 11+ the shell cannot list them all.
_PRIVATE = ("/sdcard/Android",)
_MARKER = "--mobileagent-baseline--"
_SCAN = "content call --uri content://media --method scan_volume --arg external_primary"


@dataclass
class RestoreReport:
    """What one restore found changed since the baseline (empty: nothing)."""

    removed: list[str] = field(default_factory=list)
    recreated: list[str] = field(default_factory=list)
    settings: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.removed or self.recreated or self.settings)


def _normal(path: str) -> str:
    # toybox joins a walked path to the argument as given: `/sdcard/` may give `/sdcard//x`.
    return re.sub(r"/+", "/", path).rstrip("/") or "/"


def _private(path: str) -> bool:
    return any(path == p or path.startswith(p + "/") for p in _PRIVATE)


def storage_folder(folder: str) -> str:
    """A declared storage folder: a path below /sdcard, normalised; ValueError otherwise."""
    path = _normal(posixpath.normpath(folder if folder.startswith("/") else f"{STORAGE_ROOT}/{folder}"))
    for alias in ("/storage/emulated/0", "/storage/self/primary"):
        if path == alias or path.startswith(alias + "/"):
            path = STORAGE_ROOT + path[len(alias):]
    if not path.startswith(STORAGE_ROOT + "/") or _private(path):
        raise ValueError(f"storage folder {folder!r} is not a folder of shared storage (below {STORAGE_ROOT}/, "
                         "outside Android/)")
    return path


class DeviceBaseline:
    """The device state every task of the run starts from (see the module docstring).

    ``storage``: the shared-storage folders the run's tasks own (emptied once,
    before the baseline is recorded); ``packages``: the run's apps, force-stopped
    before every task.
    """

    def __init__(self, device: "Device", *, storage: Iterable[str] = (), packages: Iterable[str] = ()):
        self.device = device
        self.storage = sorted({storage_folder(f) for f in storage})
        self.packages = sorted(set(packages))
        self._paths: set[str] | None = None
        self._dirs: set[str] = set()
        self._settings: dict[str, dict[str, str]] = {}

    def _query(self) -> tuple[set[str], set[str], dict[str, dict[str, str]]]:
        """(paths, folders, settings tables) as the device has them now, in one round trip.

        The settings tables come first, one line per setting; the two listings last, each
        path ended by NUL (``find -print0``): a file name may hold a newline, never a NUL, so
        a listing read line by line would split such a name into paths that are not there.
        (toybox ``toys/posix/find.c``: ``-print0`` is ``do_print(new, s[5] ? 0 : '\\n')``.)
        """
        skip = " -o ".join(f"-path {p} -o -path {p.replace('/sdcard', '/sdcard/')}" for p in _PRIVATE)
        parts = []
        for namespace in SETTINGS_NAMESPACES:
            parts += [f"settings list {namespace}", f"echo {_MARKER}"]
        parts += [f"find {STORAGE_ROOT}/ -mindepth 1 \\( {skip} \\) -prune -o -type d -print0",
                  f"echo {_MARKER}",
                  f"find {STORAGE_ROOT}/ -mindepth 1 \\( {skip} \\) -prune -o ! -type d -print0"]
        out = self.device.shell_result("; ".join(parts), timeout=60).output
        sections = out.split(_MARKER + "\n", len(SETTINGS_NAMESPACES))
        # The listings' separator follows a NUL (or opens an empty listing): no path holds one.
        dir_list, sep, file_list = ("\0" + sections[-1]).partition(f"\0{_MARKER}\n")
        if len(sections) != 1 + len(SETTINGS_NAMESPACES) or not sep:
            raise AdbCommandError(f"{self.device.serial}: cannot read shared storage and settings: "
                                  f"{out.strip()[:300]!r}")
        dirs = {_normal(p) for p in dir_list.split("\0") if p}
        files = {_normal(p) for p in file_list.split("\0") if p}
        dirs = {d for d in dirs if not _private(d) and d != STORAGE_ROOT}
        files = {f for f in files if not _private(f)}
        settings = {}
        for namespace, text in zip(SETTINGS_NAMESPACES, sections):
            table: dict[str, str] = {}
            for line in text.splitlines():
                key, sep, value = line.partition("=")
                if sep:
                    table[key] = value
            settings[namespace] = table
        return dirs | files, dirs, settings

    def capture(self) -> None:
        """Empty the declared folders, then record the baseline."""
        if self.storage:
            quoted = " ".join(shlex.quote(f) for f in self.storage)
            self.device.shell(f"rm -rf {quoted}; mkdir -p {quoted}; {_SCAN}", timeout=60)
        self._paths, self._dirs, self._settings = self._query()

    @property
    def captured(self) -> bool:
        return self._paths is not None

    def restore(self) -> RestoreReport:
        """Bring the device back to the baseline (capturing it first if not yet done)."""
        report = RestoreReport()
        stops = "; ".join(f"am force-stop {p}" for p in self.packages)
        if not self.captured:
            if stops:
                self.device.shell(stops)
            self.capture()
            return report
        if stops:
            self.device.shell(stops)
        paths, _dirs, settings = self._query()
        assert self._paths is not None
        added = sorted(paths - self._paths)
        # Only the topmost of the added paths: rm -rf takes what is below them.
        topmost = [p for p in added if posixpath.dirname(p) not in paths - self._paths]
        missing = sorted(d for d in self._dirs if d not in paths)
        commands = []
        if topmost:
            commands.append("rm -rf " + " ".join(shlex.quote(p) for p in topmost))
            report.removed = topmost
        if missing:
            commands.append("mkdir -p " + " ".join(shlex.quote(d) for d in missing))
            report.recreated = missing
        for namespace in SETTINGS_NAMESPACES:
            before, now = self._settings.get(namespace, {}), settings.get(namespace, {})
            for key in sorted(set(before) | set(now)):
                if before.get(key) == now.get(key):
                    continue
                report.settings.append(f"{namespace}/{key}")
                if key in before:
                    commands.append(f"settings put {namespace} {shlex.quote(key)} {shlex.quote(before[key])}")
                else:
                    commands.append(f"settings delete {namespace} {shlex.quote(key)}")
        if topmost or missing:
            commands.append(_SCAN)
        if commands:
            self.device.shell("; ".join(commands), timeout=60)
        return report

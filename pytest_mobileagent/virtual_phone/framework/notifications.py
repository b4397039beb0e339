"""NotificationManagerService: the notifications posted on the phone, one list for every reader.

`cmd notification post` (NotificationShellCmd.doNotify) posts here; `cmd notification list`,
`dumpsys notification` and SystemUI's notification shade (ui/shade.py) read the same records,
so the shade shows exactly what the dumps list.  The formats follow frameworks/base
services/core/java/com/android/server/notification: a record's key is StatusBarNotification's
(``user|pkg|id|tag|uid``), Notification.toString gives its one-line form, NotificationRecord's
dump its first lines and extras.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable

from .services import DUMPSYS_HANDLERS

__all__ = ["IMPORTANCE_DEFAULT", "NotificationManager", "NotificationRecord"]

#: NotificationManager.IMPORTANCE_DEFAULT (the shell's channel); LOW and below are "Silent" in the shade
IMPORTANCE_DEFAULT = 3


@dataclass
class NotificationRecord:
    """One posted notification (the fields the shade and the dumps show)."""

    package: str
    uid: int
    id: int
    tag: str | None
    text: str | None
    title: str | None = None
    channel: str = "shell_cmd"
    importance: int = IMPORTANCE_DEFAULT
    posted_ms: int = 0
    style: str | None = None
    #: FLAG_ONGOING_EVENT / FLAG_NO_CLEAR: "Clear all" leaves it
    ongoing: bool = False

    @property
    def key(self) -> str:
        """StatusBarNotification.key(): user|pkg|id|tag|uid (a null tag prints as "null")."""
        return f"0|{self.package}|{self.id}|{self.tag}|{self.uid}"

    def notification_string(self) -> str:
        """Notification.toString (a built notification with no sound, vibration or category)."""
        flags = 0x2 if self.ongoing else 0
        return (f"Notification(channel={self.channel} shortcut=null contentView=null vibrate=null sound=null "
                f"defaults=0x0 flags=0x{flags:x} color=0x00000000 vis=PRIVATE)")

    def record_string(self) -> str:
        """NotificationRecord.toString."""
        return (f"NotificationRecord(0x{zlib.crc32(self.key.encode()) & 0xFFFFFFF:08x}: pkg={self.package} "
                f"user=UserHandle{{0}} id={self.id} tag={self.tag} importance={self.importance} "
                f"key={self.key}: {self.notification_string()})")


class NotificationManager:
    """The posted notifications (whoever changes them from outside the UI redraws the screen:
    AndroidSystem.notify_data_changed)."""

    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self._clock_ms = clock_ms
        self._records: dict[str, NotificationRecord] = {}

    def post(self, record: NotificationRecord) -> NotificationRecord:
        """enqueueNotificationWithTag: a record with the same key is updated in place."""
        record.posted_ms = self._clock_ms()
        self._records.pop(record.key, None)
        self._records[record.key] = record
        return record

    def cancel(self, key: str) -> bool:
        return self._records.pop(key, None) is not None

    def cancel_all_clearable(self) -> None:
        """NotificationManagerService.onClearAll (the shade's "Clear all"): ongoing ones stay."""
        for key in [k for k, r in self._records.items() if not r.ongoing]:
            del self._records[key]

    def cancel_package(self, package: str) -> None:
        """The package was force-stopped or removed: its notifications go (cancelAllNotificationsInt)."""
        for key in [k for k, r in self._records.items() if r.package == package]:
            del self._records[key]

    def records(self) -> list[NotificationRecord]:
        """Newest first, the order the shade sorts a section in (by post time; posted in the
        same millisecond: the later post first)."""
        return sorted(reversed(list(self._records.values())), key=lambda r: -r.posted_ms)

    def get(self, key: str) -> NotificationRecord | None:
        return self._records.get(key)

    def keys(self) -> list[str]:
        """`cmd notification list`: mNotificationsByKey's keys (in posting order)."""
        return list(self._records)


def dump_record(record: NotificationRecord, prefix: str) -> str:
    """A record as `dumpsys notification` lists it: NotificationRecord.toString, then some of the
    fields NotificationRecord.dump prints and its extras (android.title, android.text); its other
    fields (icons, channel details, ranking) are not modelled."""
    lines = [f"{prefix}{record.record_string()}",
             f"{prefix}  uid={record.uid} userId=0",
             f"{prefix}  opPkg={record.package}",
             f"{prefix}  key={record.key}",
             f"{prefix}  importance={record.importance}",
             f"{prefix}  extras={{"]
    if record.title is not None:
        lines.append(f"{prefix}    android.title=String ({record.title})")
    if record.text is not None:
        lines.append(f"{prefix}    android.text=String ({record.text})")
    lines.append(f"{prefix}  }}")
    return "\n".join(lines) + "\n"


def _dump(target, args: list[str]) -> int:
    """`dumpsys notification`: NotificationManagerService.dumpImpl's header and Notification List."""
    records = target.phone.system.notifications.records()
    out = ["Current Notification Manager state:\n"]
    if records:
        out.append("  Notification List:\n")
        out += [dump_record(r, "    ") for r in reversed(records)]
    target.out("".join(out))
    return 0


DUMPSYS_HANDLERS[("notification", "*")] = _dump

"""The SMS provider (`content://sms`, `content://mms-sms`, package com.android.providers.telephony).

Messages live in `sms` (type 1 inbox, 2 sent, 3 draft, 4 outbox, 5 failed,
6 queued); `content://sms/inbox` and `content://sms/sent` read and insert
with their type implied.  As on Android, a message inserted without a
`thread_id` is filed into the thread of its address (one thread per
recipient, created on first use), and the `threads` rows (date, snippet,
message count, read, archived) follow the messages; a thread without
messages is removed.  Blocked numbers (`content://com.android.blockednumber/
blocked`, package com.android.providers.blockednumber) are their own
provider, as on Android.
"""

from __future__ import annotations

from typing import Any

from .base import ContentProvider, ProviderError, Route

__all__ = ["TYPE_FAILED", "TYPE_INBOX", "TYPE_OUTBOX", "TYPE_SENT", "BlockedNumberProvider", "MmsSmsProvider", "SmsProvider"]

TYPE_INBOX, TYPE_SENT, TYPE_DRAFT, TYPE_OUTBOX, TYPE_FAILED = 1, 2, 3, 4, 5

SCHEMA = """
CREATE TABLE sms (
    _id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER, address TEXT, person INTEGER, date INTEGER,
    date_sent INTEGER DEFAULT 0, protocol INTEGER, read INTEGER DEFAULT 0, status INTEGER DEFAULT -1,
    type INTEGER, reply_path_present INTEGER, subject TEXT, body TEXT, service_center TEXT,
    locked INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1, error_code INTEGER DEFAULT 0, creator TEXT,
    seen INTEGER DEFAULT 0);
CREATE TABLE canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT);
CREATE TABLE threads (
    _id INTEGER PRIMARY KEY AUTOINCREMENT, date INTEGER DEFAULT 0, message_count INTEGER DEFAULT 0,
    recipient_ids TEXT, snippet TEXT, snippet_cs INTEGER DEFAULT 0, read INTEGER DEFAULT 1,
    archived INTEGER DEFAULT 0, type INTEGER DEFAULT 0, error INTEGER DEFAULT 0,
    has_attachment INTEGER DEFAULT 0);
CREATE VIEW sms_conversations AS
    SELECT thread_id, COUNT(*) AS msg_count, (SELECT body FROM sms AS s WHERE s.thread_id = sms.thread_id
        ORDER BY date DESC, _id DESC LIMIT 1) AS snippet
    FROM sms GROUP BY thread_id;
"""


class SmsProvider(ContentProvider):
    """Telephony's SMS tables and their threads (see the module docstring)."""

    authority = "sms"
    package = "com.android.providers.telephony"
    SCHEMA = SCHEMA
    ROUTES = (
        Route("", "sms", "sms"),
        Route("#", "sms", "sms"),
        Route("inbox", "sms", "sms", (("type", TYPE_INBOX),), f"type = {TYPE_INBOX}"),
        Route("inbox/#", "sms", "sms", (("type", TYPE_INBOX),), f"type = {TYPE_INBOX}"),
        Route("sent", "sms", "sms", (("type", TYPE_SENT),), f"type = {TYPE_SENT}"),
        Route("sent/#", "sms", "sms", (("type", TYPE_SENT),), f"type = {TYPE_SENT}"),
        Route("draft", "sms", "sms", (("type", TYPE_DRAFT),), f"type = {TYPE_DRAFT}"),
        Route("draft/#", "sms", "sms", (("type", TYPE_DRAFT),), f"type = {TYPE_DRAFT}"),
        Route("outbox", "sms", "sms", (("type", TYPE_OUTBOX),), f"type = {TYPE_OUTBOX}"),
        Route("outbox/#", "sms", "sms", (("type", TYPE_OUTBOX),), f"type = {TYPE_OUTBOX}"),
        Route("failed", "sms", "sms", (("type", TYPE_FAILED),), f"type = {TYPE_FAILED}"),
        Route("failed/#", "sms", "sms", (("type", TYPE_FAILED),), f"type = {TYPE_FAILED}"),
        Route("conversations", "sms_conversations", None),
    )

    def route(self, uri: str):
        # content://sms and content://sms/ both name the whole table.
        if uri.rstrip("/") == "content://sms":
            return self.ROUTES[0], None
        return super().route(uri)

    def before_insert(self, route: Route, values: dict[str, Any]) -> dict[str, Any]:
        values.setdefault("date", self.clock_ms())
        values.setdefault("type", TYPE_INBOX)
        if values["type"] != TYPE_INBOX:
            values.setdefault("read", 1)
            values.setdefault("seen", 1)
        if values.get("thread_id") is None:
            values["thread_id"] = self.thread_id_for(str(values.get("address") or ""))
        return values

    def after_change(self, table: str, ids: list[int], values: dict[str, Any] | None = None,
                     deleted: bool = False) -> None:
        self.refresh_threads()

    # -- threads ---------------------------------------------------------------------------------
    def thread_id_for(self, address: str) -> int:
        """Android's Threads.getOrCreateThreadId for one recipient."""
        row = self._execute("SELECT _id FROM canonical_addresses WHERE address = ?", [address]).fetchone()
        recipient = row[0] if row else self._execute("INSERT INTO canonical_addresses (address) VALUES (?)",
                                                     [address]).lastrowid
        thread = self._execute("SELECT _id FROM threads WHERE recipient_ids = ?", [str(recipient)]).fetchone()
        if thread is not None:
            return thread[0]
        return self._execute("INSERT INTO threads (date, recipient_ids) VALUES (?, ?)",
                             [self.clock_ms(), str(recipient)]).lastrowid

    def refresh_threads(self) -> None:
        self._execute("""
            UPDATE threads SET
                message_count = (SELECT COUNT(*) FROM sms WHERE sms.thread_id = threads._id),
                snippet = (SELECT body FROM sms WHERE sms.thread_id = threads._id ORDER BY date DESC, _id DESC LIMIT 1),
                date = COALESCE((SELECT MAX(date) FROM sms WHERE sms.thread_id = threads._id), date),
                read = (SELECT COUNT(*) FROM sms WHERE sms.thread_id = threads._id AND read = 0) = 0""")
        self._execute("DELETE FROM threads WHERE message_count = 0")

    def set_archived(self, thread_id: int, archived: bool) -> None:
        with self._lock:
            self._execute("UPDATE threads SET archived = ? WHERE _id = ?", [int(archived), thread_id])
            self.generation += 1

    def delete_thread(self, thread_id: int) -> None:
        with self._lock:
            self._execute("DELETE FROM sms WHERE thread_id = ?", [thread_id])
            self.refresh_threads()
            self.generation += 1


class MmsSmsProvider(ContentProvider):
    """`content://mms-sms/conversations`: the threads of the SMS provider, read-only here."""

    authority = "mms-sms"
    package = "com.android.providers.telephony"

    def __init__(self, sms: SmsProvider) -> None:
        self.sms = sms
        super().__init__(sms.clock_ms)

    def _open(self) -> None:
        # Shares the SMS provider's database, as both live in mmssms.db on Android.
        self.db = self.sms.db
        self._lock = self.sms._lock

    def clear(self) -> None:
        self._open()

    ROUTES = (Route("conversations", "threads", None), Route("conversations/#", "threads", None),
              Route("canonical-addresses", "canonical_addresses", None))


class BlockedNumberProvider(ContentProvider):
    """BlockedNumberContract: numbers the phone blocks."""

    authority = "com.android.blockednumber"
    package = "com.android.providers.blockednumber"
    SCHEMA = ("CREATE TABLE blocked (_id INTEGER PRIMARY KEY AUTOINCREMENT, original_number TEXT NOT NULL, "
              "e164_number TEXT);")
    ROUTES = (Route("blocked", "blocked", "blocked"), Route("blocked/#", "blocked", "blocked"))

    def before_insert(self, route: Route, values: dict[str, Any]) -> dict[str, Any]:
        if not values.get("original_number"):
            raise ProviderError("java.lang.IllegalArgumentException: Missing a required column original_number")
        return values

"""The contacts provider (`content://com.android.contacts`, package com.android.providers.contacts).

A subset of Android's ContactsContract: `raw_contacts` (one per account
entry), `data` (typed rows: names, phone numbers, emails ... keyed by
`mimetype`) and `contacts` (the aggregates, created and kept up to date by
the provider, never inserted directly).  Every raw contact gets a contact of
its own (the phone does not merge look-alike contacts).  Display names
follow Android's choice: the structured name, else the phone number, else
the email address.
"""

from __future__ import annotations

from typing import Any

from .base import ContentProvider, ProviderError, Route

__all__ = ["MIME_EMAIL", "MIME_NAME", "MIME_NOTE", "MIME_PHONE", "ContactsProvider"]

MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
MIME_NOTE = "vnd.android.cursor.item/note"

_DATA_COLUMNS = ", ".join(f"data{i} TEXT" for i in range(1, 16))

SCHEMA = f"""
CREATE TABLE raw_contacts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT, contact_id INTEGER, account_name TEXT, account_type TEXT,
    data_set TEXT, sourceid TEXT, version INTEGER NOT NULL DEFAULT 1, dirty INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0, starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
    times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER, custom_ringtone TEXT,
    send_to_voicemail INTEGER NOT NULL DEFAULT 0, display_name TEXT, display_name_alt TEXT,
    display_name_source INTEGER NOT NULL DEFAULT 0, sort_key TEXT);
CREATE TABLE contacts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT, name_raw_contact_id INTEGER, display_name TEXT, display_name_alt TEXT,
    lookup TEXT, photo_id INTEGER, photo_uri TEXT, starred INTEGER NOT NULL DEFAULT 0,
    pinned INTEGER NOT NULL DEFAULT 0, has_phone_number INTEGER NOT NULL DEFAULT 0,
    in_visible_group INTEGER NOT NULL DEFAULT 1, times_contacted INTEGER NOT NULL DEFAULT 0,
    last_time_contacted INTEGER, custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0,
    contact_last_updated_timestamp INTEGER);
CREATE TABLE data (
    _id INTEGER PRIMARY KEY AUTOINCREMENT, raw_contact_id INTEGER NOT NULL, mimetype TEXT NOT NULL,
    is_primary INTEGER NOT NULL DEFAULT 0, is_super_primary INTEGER NOT NULL DEFAULT 0,
    data_version INTEGER NOT NULL DEFAULT 0, {_DATA_COLUMNS});
CREATE VIEW view_data AS
    SELECT data.*, raw_contacts.contact_id AS contact_id, raw_contacts.account_name AS account_name,
           raw_contacts.account_type AS account_type, contacts.display_name AS display_name,
           contacts.starred AS starred, contacts.has_phone_number AS has_phone_number,
           contacts.lookup AS lookup
    FROM data JOIN raw_contacts ON data.raw_contact_id = raw_contacts._id
    LEFT JOIN contacts ON raw_contacts.contact_id = contacts._id;
CREATE VIEW view_phones AS SELECT * FROM view_data WHERE mimetype = '{MIME_PHONE}';
CREATE VIEW view_emails AS SELECT * FROM view_data WHERE mimetype = '{MIME_EMAIL}';
"""


class ContactsProvider(ContentProvider):
    """ContactsContract's raw_contacts, data and contacts tables (see the module docstring)."""

    authority = "com.android.contacts"
    package = "com.android.providers.contacts"
    SCHEMA = SCHEMA
    ROUTES = (
        Route("raw_contacts", "raw_contacts", "raw_contacts"),
        Route("raw_contacts/#", "raw_contacts", "raw_contacts"),
        Route("data", "view_data", "data"),
        Route("data/#", "view_data", "data"),
        Route("data/phones", "view_phones", None),
        Route("data/emails", "view_emails", None),
        Route("contacts", "contacts", "contacts"),
        Route("contacts/#", "contacts", "contacts"),
    )

    def before_insert(self, route: Route, values: dict[str, Any]) -> dict[str, Any]:
        if route.write == "contacts":
            raise ProviderError("java.lang.UnsupportedOperationException: Aggregate contacts are created "
                                "automatically")
        if route.write == "data":
            for required in ("raw_contact_id", "mimetype"):
                if values.get(required) in (None, ""):
                    raise ProviderError(f"java.lang.IllegalArgumentException: {required} is required")
            raw = self._execute("SELECT _id FROM raw_contacts WHERE _id = ? AND deleted = 0",
                                [values["raw_contact_id"]]).fetchone()
            if raw is None:
                raise ProviderError("java.lang.IllegalArgumentException: Raw contact id "
                                    f"{values['raw_contact_id']} is not a valid raw contact")
            if values["mimetype"] == MIME_NAME and not values.get("data1"):
                given, family = values.get("data2") or "", values.get("data3") or ""
                values["data1"] = " ".join(p for p in (given, family) if p) or None
            elif values["mimetype"] == MIME_NAME and not (values.get("data2") or values.get("data3")):
                # Like Android's NameSplitter: a display name alone is split into given and family name.
                given, _, family = str(values["data1"]).strip().partition(" ")
                values["data2"], values["data3"] = given or None, family.strip() or None
        return values

    def before_delete(self, table: str, ids: list[int]) -> None:
        if table == "raw_contacts":
            marks = ", ".join("?" * len(ids))
            self._execute(f"DELETE FROM data WHERE raw_contact_id IN ({marks})", ids)
        elif table == "contacts":
            # Deleting an aggregate deletes its raw contacts and their data.
            marks = ", ".join("?" * len(ids))
            raws = [r[0] for r in self._execute(f"SELECT _id FROM raw_contacts WHERE contact_id IN ({marks})", ids)]
            if raws:
                raw_marks = ", ".join("?" * len(raws))
                self._execute(f"DELETE FROM data WHERE raw_contact_id IN ({raw_marks})", raws)
                self._execute(f"DELETE FROM raw_contacts WHERE _id IN ({raw_marks})", raws)

    def after_change(self, table: str, ids: list[int], values: dict[str, Any] | None = None,
                     deleted: bool = False) -> None:
        if table == "raw_contacts":
            if deleted:
                self._execute("DELETE FROM contacts WHERE _id NOT IN (SELECT contact_id FROM raw_contacts "
                              "WHERE contact_id IS NOT NULL)")
                return
            for raw_id in ids:
                self._aggregate(raw_id)
        elif table == "data":
            marks = ", ".join("?" * len(ids))
            raws = {row[0] for row in self._execute(
                f"SELECT DISTINCT raw_contact_id FROM data WHERE _id IN ({marks})", ids)}
            if deleted or not raws:
                raws = {row[0] for row in self._execute("SELECT _id FROM raw_contacts")}
            for raw_id in raws:
                self._aggregate(raw_id)
        elif table == "contacts" and values and "starred" in values and not deleted:
            marks = ", ".join("?" * len(ids))
            self._execute(f"UPDATE raw_contacts SET starred = ? WHERE contact_id IN ({marks})",
                          [values["starred"], *ids])

    def _aggregate(self, raw_id: int) -> None:
        """Create or refresh the contact of one raw contact (names, starred, has_phone_number)."""
        raw = self._execute("SELECT * FROM raw_contacts WHERE _id = ?", [raw_id]).fetchone()
        if raw is None:
            return
        name = self._best_name(raw_id)
        has_phone = self._execute("SELECT COUNT(*) FROM data WHERE raw_contact_id = ? AND mimetype = ?",
                                  [raw_id, MIME_PHONE]).fetchone()[0] > 0
        now = self.clock_ms()
        self._execute("UPDATE raw_contacts SET display_name = ?, display_name_alt = ?, sort_key = ?, "
                      "version = version + 1, dirty = 1 WHERE _id = ?", [name, name, name, raw_id])
        contact_id = raw["contact_id"]
        if contact_id is None or self._execute("SELECT 1 FROM contacts WHERE _id = ?",
                                               [contact_id]).fetchone() is None:
            contact_id = self._execute(
                "INSERT INTO contacts (name_raw_contact_id, lookup) VALUES (?, ?)",
                [raw_id, f"0r{raw_id}"]).lastrowid
            self._execute("UPDATE raw_contacts SET contact_id = ? WHERE _id = ?", [contact_id, raw_id])
        self._execute("UPDATE contacts SET display_name = ?, display_name_alt = ?, starred = ?, has_phone_number = ?, "
                      "contact_last_updated_timestamp = ? WHERE _id = ?",
                      [name, name, raw["starred"], int(has_phone), now, contact_id])

    def _best_name(self, raw_id: int) -> str | None:
        for mimetype in (MIME_NAME, MIME_PHONE, MIME_EMAIL):
            row = self._execute("SELECT data1 FROM data WHERE raw_contact_id = ? AND mimetype = ? AND data1 != '' "
                                "ORDER BY _id LIMIT 1", [raw_id, mimetype]).fetchone()
            if row is not None:
                return row[0]
        return None

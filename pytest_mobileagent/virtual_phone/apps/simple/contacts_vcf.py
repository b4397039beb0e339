"""Simple Contacts' VcfExporter (6.22.7): contacts written as vCard 4.0 the way ez-vcard 0.11.3 writes them.

VcfExporter.exportContacts builds one ``VCard`` per contact (FN, N, NICKNAME, TEL, EMAIL, ... CATEGORIES,
in that order) and hands them to ``Ezvcard.write(cards).version(V4_0).go(out)``.  ez-vcard's
StreamWriter.prepare puts ``PRODID:ez-vcard 0.11.3`` first; VCardWriter._write writes BEGIN, VERSION and
the properties, N with its trailing semicolons (4.0), TEL as text (no VALUE parameter: TelephoneScribe's
default type is text); the phone number's type is a TYPE parameter (getPhoneNumberTypeLabel: CELL, HOME,
WORK...).  Values escape backslash, comma and semicolon (VCardPropertyScribe.escape) and newlines;
vinnie's writer ends lines with CRLF and folds them at 75 characters.  The phone's contacts hold names,
numbers, emails and groups, so only those properties appear.
"""

from __future__ import annotations

from typing import Iterable

from . import contacts_data as cd

__all__ = ["vcard_text"]

PRODID = "ez-vcard 0.11.3"  # gradle/libs.versions.toml at 6.22.7: ezvcard = "0.11.3"
#: VcfExporter.getPhoneNumberTypeLabel / getEmailTypeLabel (Phone.TYPE_* / Email.TYPE_* -> helpers/Constants.kt)
PHONE_TYPE_LABELS = {2: "CELL", 1: "HOME", 3: "WORK", 12: "MAIN", 4: "WORK;FAX", 5: "HOME;FAX", 6: "PAGER",
                     7: "OTHER"}
EMAIL_TYPE_LABELS = {1: "HOME", 2: "WORK", 4: "MOBILE", 3: "OTHER"}


def _escape(value: str) -> str:
    return (value.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _param(value: str) -> str:
    """vinnie's new-syntax parameter value: quoted when it holds ``,``, ``;`` or ``:``."""
    return f'"{value}"' if any(c in value for c in ",;:") else value


def _fold(line: str) -> str:
    """FoldedLineWriter: lines longer than 75 characters continue on lines that start with a space."""
    parts = [line[:75]]
    rest = line[75:]
    while rest:
        parts.append(" " + rest[:74])
        rest = rest[74:]
    return "\r\n".join(parts) + "\r\n"


def _card(contact: cd.Contact, groups: Iterable[cd.Group]) -> list[str]:
    lines = ["BEGIN:VCARD", "VERSION:4.0", f"PRODID:{PRODID}"]
    formatted = " ".join(p for p in (contact.first_name, contact.middle_name, contact.surname) if p)
    lines.append(f"FN:{_escape(formatted)}")
    # StructuredName: family; given; additional names; prefixes; suffixes (the empty prefix and suffix added)
    lines.append(f"N:{_escape(contact.surname)};{_escape(contact.first_name)};{_escape(contact.middle_name)};;")
    for number, kind in contact.numbers:
        lines.append(f"TEL;TYPE={_param(PHONE_TYPE_LABELS.get(kind, 'OTHER'))}:{_escape(number)}")
    for email, kind in contact.emails:
        lines.append(f"EMAIL;TYPE={_param(EMAIL_TYPE_LABELS.get(kind, 'OTHER'))}:{_escape(email)}")
    titles = [g.title for g in groups if contact.id in g.members]
    if titles:
        lines.append("CATEGORIES:" + ",".join(_escape(t) for t in titles))
    lines.append("END:VCARD")
    return lines


def vcard_text(contacts: Iterable[cd.Contact], groups: Iterable[cd.Group] = ()) -> str:
    """The file VcfExporter writes for `contacts` (``groups`` give each contact's CATEGORIES)."""
    groups = list(groups)
    return "".join(_fold(line) for contact in contacts for line in _card(contact, groups))

"""What Simple Contacts Pro reads from and writes to the phone's contacts provider.

The contacts themselves live in the system provider (`providers/contacts.py`),
shared with every app; this module turns its rows into the app's `Contact`
objects and writes the app's edits back as ContactsContract rows, the way
the app's ContactsHelper does.  The app's own preferences (sorting, filter,
shown fields) are in `ContactsPrefs`, reset by `pm clear`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image

from ...framework.providers.contacts import MIME_EMAIL, MIME_NAME, MIME_PHONE, ContactsProvider

__all__ = [
    "EMAIL_TYPES",
    "PHONE_STORAGE",
    "PHONE_TYPES",
    "PRIVATE_STORAGE",
    "Contact",
    "ContactsPrefs",
    "Group",
    "delete_contact",
    "load_contacts",
    "save_contact",
    "set_starred",
]

PHONE_STORAGE = "Phone storage"
PRIVATE_STORAGE = "Phone storage (not visible by other apps)"

#: ContactsContract.CommonDataKinds.Phone.TYPE_* -> label, in the order of the app's type dialog
PHONE_TYPES = {2: "Mobile", 1: "Home", 3: "Work", 12: "Main", 4: "Work Fax", 5: "Home Fax", 6: "Pager", 7: "Other"}
EMAIL_TYPES = {1: "Home", 2: "Work", 4: "Mobile", 3: "Other"}

#: Commons' helpers/Constants.kt (73d78e5cd3): the tab bits of Config.showTabs, and defaultTab's values
TAB_LAST_USED, TAB_CONTACTS, TAB_FAVORITES, TAB_GROUPS = 0, 1, 2, 8
ALL_TABS_MASK = TAB_CONTACTS | TAB_FAVORITES | TAB_GROUPS
ON_CLICK_CALL_CONTACT, ON_CLICK_VIEW_CONTACT, ON_CLICK_EDIT_CONTACT = 1, 2, 3
#: ids of groups the app keeps in its own database start here (Commons' FIRST_GROUP_ID)
FIRST_GROUP_ID = 10000

SORT_FIRST_NAME, SORT_MIDDLE_NAME, SORT_SURNAME, SORT_FULL_NAME, SORT_DATE_CREATED = range(5)

#: the "Manage shown contact fields" check boxes: (id suffix, label, shown by default)
VISIBLE_FIELDS = (
    ("prefix", "Prefix", False), ("first_name", "First name", True), ("middle_name", "Middle name", False),
    ("surname", "Surname", True), ("suffix", "Suffix", False), ("nickname", "Nickname", False),
    ("phone_numbers", "Phone numbers", True), ("emails", "Emails", True), ("addresses", "Addresses", True),
    ("ims", "Instant messaging (IM)", False), ("events", "Events (birthdays, anniversaries)", True),
    ("notes", "Notes", True), ("ringtone", "Ringtone", False), ("organization", "Organization", False),
    ("websites", "Websites", False), ("groups", "Groups", True), ("contact_source", "Contact source", True),
)


@dataclass
class ContactsPrefs:
    """The app's preferences (its shared_prefs file on a phone)."""

    sorting: int = SORT_FIRST_NAME
    ascending: bool = True
    #: contact sources the filter dialog unchecked
    ignored_sources: set[str] = field(default_factory=set)
    shown_fields: set[str] = field(default_factory=lambda: {f for f, _, on in VISIBLE_FIELDS if on})
    font_size: str = "Medium"
    checkboxes: dict[str, bool] = field(default_factory=lambda: {
        "merge_duplicate_contacts": True, "show_call_confirmation": False, "show_private_contacts": True,
        "show_dialpad_button": True, "show_only_contacts_with_numbers": False,
        "show_contact_thumbnails": True, "show_phone_numbers": False, "start_name_with_surname": False})
    last_tab: int = 0
    #: Config.showTabs (ManageVisibleTabsDialog), BaseConfig.defaultTab, Config.onContactClick
    show_tabs: int = ALL_TABS_MASK
    default_tab: int = TAB_LAST_USED
    on_contact_click: int = ON_CLICK_VIEW_CONTACT
    #: Config.isCustomOrderSelected: the Favorites tab sorted "Custom" (its dragged order)
    custom_order_selected: bool = False
    #: Config.autoBackup, autoBackupContactSources, autoBackupFilename (ManageAutoBackupsDialog)
    auto_backup: bool = False
    backup_sources: set[str] = field(default_factory=set)
    backup_filename: str = ""
    #: groups in the app's own database (the phone has no Google account, so CreateNewGroupDialog
    #: creates every group under the private source: LocalContactsHelper / GroupsDao)
    groups: list["Group"] = field(default_factory=list)

    def new_group(self, title: str) -> "Group":
        group = Group(max((g.id for g in self.groups), default=FIRST_GROUP_ID - 1) + 1, title)
        self.groups.append(group)
        return group


@dataclass
class Group:
    """A contact group: its title and the raw contact ids in it."""

    id: int
    title: str
    members: list[int] = field(default_factory=list)


@dataclass
class Contact:
    """One raw contact as the app shows it."""

    id: int                  # the raw contact id (what "Date created" sorts by)
    contact_id: int
    first_name: str = ""
    middle_name: str = ""
    surname: str = ""
    numbers: list[tuple[str, int]] = field(default_factory=list)   # (number, type)
    emails: list[tuple[str, int]] = field(default_factory=list)
    starred: bool = False
    source: str = PHONE_STORAGE

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.middle_name, self.surname) if p)

    def shown_name(self, surname_first: bool = False) -> str:
        if surname_first and self.surname:
            return " ".join(p for p in (self.surname, self.first_name, self.middle_name) if p)
        return self.name or (self.numbers[0][0] if self.numbers else self.emails[0][0] if self.emails else "")

    def sort_key(self, sorting: int) -> tuple:
        by = {SORT_FIRST_NAME: self.first_name, SORT_MIDDLE_NAME: self.middle_name,
              SORT_SURNAME: self.surname, SORT_FULL_NAME: self.name}.get(sorting)
        if by is None:
            return (self.id,)
        return ((by or self.shown_name()).casefold(), self.id)


def load_contacts(provider: ContactsProvider) -> list[Contact]:
    """Every visible raw contact with its name, numbers and emails, by raw contact id."""
    contacts: dict[int, Contact] = {}
    for raw in provider.rows("SELECT _id, contact_id, account_name, starred FROM raw_contacts WHERE deleted = 0 "
                             "ORDER BY _id"):
        contacts[raw["_id"]] = Contact(raw["_id"], raw["contact_id"] or 0, starred=bool(raw["starred"]),
                                       source=raw["account_name"] or PHONE_STORAGE)
    for row in provider.rows("SELECT raw_contact_id, mimetype, data1, data2, data3, data5 FROM data ORDER BY _id"):
        contact = contacts.get(row["raw_contact_id"])
        if contact is None:
            continue
        if row["mimetype"] == MIME_NAME:
            contact.first_name = row["data2"] or ""
            contact.surname = row["data3"] or ""
            contact.middle_name = row["data5"] or ""
            if not (contact.first_name or contact.surname) and row["data1"]:
                contact.first_name = row["data1"]
        elif row["mimetype"] == MIME_PHONE and row["data1"]:
            contact.numbers.append((row["data1"], _int(row["data2"], 2)))
        elif row["mimetype"] == MIME_EMAIL and row["data1"]:
            contact.emails.append((row["data1"], _int(row["data2"], 1)))
    return list(contacts.values())


def _int(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def save_contact(provider: ContactsProvider, contact: Contact) -> int:
    """Insert (id 0) or replace the contact's rows; returns its raw contact id."""
    base = "content://com.android.contacts"
    if contact.id == 0:
        uri = provider.insert(f"{base}/raw_contacts", {"account_name": None, "account_type": None,
                                                          "starred": int(contact.starred)})
        contact.id = int(uri.rsplit("/", 1)[1])
    else:
        provider.delete(f"{base}/data", f"raw_contact_id = {contact.id} AND mimetype IN "
                                        f"('{MIME_NAME}', '{MIME_PHONE}', '{MIME_EMAIL}')")
    if contact.name:
        provider.insert(f"{base}/data", {"raw_contact_id": contact.id, "mimetype": MIME_NAME,
                                         "data1": contact.name, "data2": contact.first_name or None,
                                         "data3": contact.surname or None, "data5": contact.middle_name or None})
    for number, kind in contact.numbers:
        provider.insert(f"{base}/data", {"raw_contact_id": contact.id, "mimetype": MIME_PHONE, "data1": number,
                                         "data2": kind})
    for email, kind in contact.emails:
        provider.insert(f"{base}/data", {"raw_contact_id": contact.id, "mimetype": MIME_EMAIL, "data1": email,
                                         "data2": kind})
    return contact.id


def delete_contact(provider: ContactsProvider, contact: Contact) -> None:
    provider.delete(f"content://com.android.contacts/raw_contacts/{contact.id}")


def set_starred(provider: ContactsProvider, contact: Contact, starred: bool) -> None:
    provider.update(f"content://com.android.contacts/raw_contacts/{contact.id}", {"starred": int(starred)})


#: CommonDataKinds.Photo.CONTENT_ITEM_TYPE
MIME_PHOTO = "vnd.android.cursor.item/photo"
#: ContactsContract.DisplayPhoto.THUMBNAIL_MAX_DIM as ContactsProvider2 reports it by default (96 px,
#: PhotoProcessor's default thumbnail size): Commons' getPhotoThumbnailSize reads it
THUMBNAIL_MAX_DIM = 96


def set_photo(provider: ContactsProvider, contact: Contact, jpeg: bytes) -> None:
    """Commons' ContactsHelper.addPhoto (73d78e5cd3): the photo's bitmap scaled to a
    THUMBNAIL_MAX_DIM square (Bitmap.createScaledBitmap, unfiltered), JPEG at quality 80
    (Bitmap.getByteArray), in a Photo data row's Photo.PHOTO (data15) of the raw contact.
    The full-size display photo (addFullSizePhoto, RawContacts.DisplayPhoto) is not kept.
    ValueError when the bytes are not an image."""
    try:
        with Image.open(io.BytesIO(jpeg)) as image:
            thumb = image.convert("RGB").resize((THUMBNAIL_MAX_DIM, THUMBNAIL_MAX_DIM), Image.NEAREST)
    except (OSError, Image.DecompressionBombError) as exc:
        raise ValueError(f"not an image: {exc}") from exc
    out = io.BytesIO()
    thumb.save(out, "JPEG", quality=80)
    base = "content://com.android.contacts"
    provider.delete(f"{base}/data", f"raw_contact_id = {contact.id} AND mimetype = '{MIME_PHOTO}'")
    provider.insert(f"{base}/data", {"raw_contact_id": contact.id, "mimetype": MIME_PHOTO,
                                     "data15": out.getvalue()})

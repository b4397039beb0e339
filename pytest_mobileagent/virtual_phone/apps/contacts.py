"""Simple Contacts Pro (`com.simplemobiletools.contacts.pro`) for the virtual phone.

Screens, ids, texts and order follow the DroidTask recordings of the app
(July 2023) and, where none shows a screen (the filter dialog), the app's
and the Simple Mobile Tools commons library's sources:

* MainActivity: the search bar with Sort by / Filter actions and the
  overflow menu (import, export, Settings, About), the Contacts, Favorites
  and Groups tabs, the contact list (with its letter fast scroller), the FAB
  and the dialpad button; Sort by, Filter (contact sources with counts,
  "Phone storage" among them) and their Cancel / OK.
* ViewContactActivity: photo area, favourite toggle, name, numbers, emails,
  source; Edit / Share / Delete (with "Are you sure you want to proceed with
  the deletion?") and "Manage shown contact fields".
* EditContactActivity: first name, surname, numbers with type, emails with
  type, ...; Save rejects a contact with nothing filled in.
* SettingsActivity (font size, shown fields, its check boxes incl. the
  dialpad button), and the shared About screen.

The contacts are the phone's: the app reads and writes the system contacts
provider (`contacts_data.py`), so `content insert` seeds show up here and
the SMS app sees the names.
"""

from __future__ import annotations

from collections.abc import Callable

from ..intents import ACTION_CALL, ACTION_DIAL, ACTION_SEND, ACTION_SENDTO, Intent
from ..ui.views import (
    ACCENT,
    MATCH,
    TEXT_SECONDARY,
    WRAP,
    CheckBox,
    Column,
    Divider,
    EditText,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    MenuItem,
    RadioButton,
    RadioGroup,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from . import contacts_data as cd
from .base import AboutActivity, Activity, App, Dialog, settings_checkbox
from .menus import ACTION_MODE, FDROID_HIDDEN, menu
from .simple_commons import action_mode_bar
from .commons_dialogs import radio_dialog
from .search_menu import SearchMenu
from .simple_commons import CustomizationActivity

APP = "contacts"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.contacts.pro"
READ_CONTACTS = "android.permission.READ_CONTACTS"
WRITE_CONTACTS = "android.permission.WRITE_CONTACTS"
CALL_PHONE = "android.permission.CALL_PHONE"
TABS = (("Contacts", "person"), ("Favorites", "star"), ("Groups", "group"))
TABS_H = dp(64)
FONT_SIZES = ("Small", "Medium", "Large", "Extra large")
DELETE_CONFIRMATION = "Are you sure you want to proceed with the deletion?"
#: the edit form asks about unsaved changes again only after this long (SAVE_DISCARD_PROMPT_INTERVAL)
SAVE_PROMPT_INTERVAL_MS = 1000


def _provider(activity: Activity):
    return activity.host.providers.contacts


def _contacts(activity: Activity) -> list[cd.Contact]:
    """The phone's contacts, as far as the app may read them (none without READ_CONTACTS)."""
    if not activity.host.has_permission(PACKAGE, READ_CONTACTS):
        return []
    return cd.load_contacts(_provider(activity))


def _find_contact(activity: Activity, raw_id: int) -> cd.Contact | None:
    return next((c for c in _contacts(activity) if c.id == raw_id), None)


def request_contacts_permission(activity: Activity) -> None:
    """The system's permission request (GrantPermissionsActivity) over the app; Deny or BACK refuse."""
    activity.request_permissions((READ_CONTACTS, WRITE_CONTACTS), "Allow Contacts to access your contacts?",
                                 "person", None)


def start_call(activity: Activity, number: str) -> None:
    """startCallIntent (the app's extensions/Activity.kt): with CALL_PHONE (asked for first) ACTION_CALL,
    refused ACTION_DIAL, of tel:<number>; Commons' launchActivityIntent toasts "No app found"."""
    def call(granted: bool) -> None:
        if not activity.start_intent(Intent(ACTION_CALL if granted else ACTION_DIAL, data=f"tel:{number}")):
            activity.toast("No app found")

    activity.request_permissions((CALL_PHONE,), "Allow Contacts to make and manage phone calls?", "call", call)


def share_contact(activity: Activity, contact: cd.Contact) -> None:
    """shareContacts: the contact exported to "<name>.vcf" in the app's cache, shared with Commons'
    sharePathIntent (ACTION_SEND of text/x-vcard in Intent.createChooser(.., "Share via"))."""
    uri = f"content://{PACKAGE}.provider/cache/{contact.shown_name()}.vcf"
    activity.start_intent(Intent(ACTION_SEND, mime_type="text/x-vcard", chooser=True, title="Share via",
                                 extras={"uri": uri}))


def _message_dialog(message: str, on_yes: Callable[[], object]) -> Dialog:
    """The commons ConfirmationDialog: a message with No / Yes."""
    return Dialog(
        body=lambda: ScrollView(TextView(message, "message", width=MATCH, padding=(dp(24), dp(20))),
                                id="message_scrollview", height=WRAP, focusable=False),
        positive=("Yes", lambda _d: on_yes()), negative="No")


def show_visible_fields_dialog(activity: Activity) -> None:
    """"Manage shown contact fields": check boxes saved by OK."""
    prefs: cd.ContactsPrefs = activity.data

    def body() -> View:
        boxes = [CheckBox(label, "manage_ringtone" if key == "ringtone" else f"manage_visible_fields_{key}",
                          checked=key in prefs.shown_fields, padding=(dp(40), dp(12), 0, dp(12)))
                 for key, label, _ in cd.VISIBLE_FIELDS]
        return ScrollView(Column(*boxes, id="manage_visible_fields_holder", padding=(dp(16), dp(16), dp(16), 0)),
                          id="manage_visible_fields_scroll_view", height=WRAP, focusable=False)

    def ok(d: Dialog) -> None:
        shown = set()
        for key, _label, _default in cd.VISIBLE_FIELDS:
            box = d.find("manage_ringtone" if key == "ringtone" else f"manage_visible_fields_{key}")
            if box is not None and box.checked:
                shown.add(key)
        prefs.shown_fields = shown

    activity.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))


# ---------------------------------------------------------------------------
# MainActivity


class MainActivity(Activity):
    """The tabs with the contact list, its search bar, sorting and filter."""

    name = "com.simplemobiletools.contacts.pro.activities.MainActivity"

    def on_create(self) -> None:
        self.search = SearchMenu(self)
        self.tab = self.data.last_tab
        self.selected: list[int] = []  # ContactsAdapter's selection (raw contact ids), in the order picked
        if not self.host.has_permission(PACKAGE, READ_CONTACTS):
            request_contacts_permission(self)

    def on_back(self) -> bool:
        if self.selected:  # BACK first ends the selection (the action mode)
            self.selected = []
            return True
        if self.search.open or self.search.query:  # BACK first closes the search
            self.search.close()
            return True
        return False

    # -- data -------------------------------------------------------------------------
    def visible_contacts(self) -> list[cd.Contact]:
        prefs: cd.ContactsPrefs = self.data
        contacts = [c for c in _contacts(self) if c.source not in prefs.ignored_sources]
        if prefs.checkboxes["show_only_contacts_with_numbers"]:
            contacts = [c for c in contacts if c.numbers]
        contacts.sort(key=lambda c: c.sort_key(prefs.sorting), reverse=not prefs.ascending)
        return contacts

    def _matches(self, contact: cd.Contact) -> bool:
        query = self.search.query.strip().casefold()
        if not query:
            return True
        return query in contact.shown_name().casefold() or any(
            query.replace(" ", "") in n.replace(" ", "") for n, _ in contact.numbers)

    # -- screen ----------------------------------------------------------------------------
    def build(self) -> View:
        # MainActivity.refreshMenuItems: no Sort / Filter on the Groups tab, the view type on Favorites
        # (list view: no column count), the dialpad item only when the dialpad button is off (it is on).
        groups, favorites = self.tab == 2, self.tab == 1
        items = menu(APP, "menu", {
            "sort": self.show_sort_dialog, "filter": self.show_filter_dialog, "change_view_type": None,
            "import_contacts": self.no_app, "export_contacts": self.no_app,
            "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(AboutActivity)},
            hide=["dialpad", "column_count", *FDROID_HIDDEN, *(("sort", "filter") if groups else ()),
                  *(() if favorites else ("change_view_type",))])
        fragment = (self._contacts_fragment, self._favorites_fragment, self._groups_fragment)[self.tab]()
        header = self._selection_bar() if self.selected else self.search.build(items)
        pager = FrameLayout(fragment, id="view_pager", class_name="androidx.viewpager.widget.ViewPager",
                            height=MATCH, margin=(0, 0, 0, TABS_H))
        holder_children: list[View] = [pager]
        if self.data.checkboxes["show_dialpad_button"]:
            holder_children.append(ImageView("main_dialpad_button", icon="dialpad", desc="Dialpad", tint=ACCENT,
                                             width=dp(60), height=dp(60), layout_gravity="bottom|center_horizontal",
                                             margin=(0, 0, 0, TABS_H + dp(16)), on_click=self.launch_dialpad))
        holder_children.append(self._tabs())
        return Column(
            header,
            FrameLayout(*holder_children, id="main_holder", class_name="android.view.ViewGroup", weight=1,
                        height=MATCH),
            id="main_coordinator", class_name="android.view.ViewGroup", height=MATCH)

    def _tabs(self) -> View:
        tabs = []
        for index, (label, icon) in enumerate(TABS):
            selected = index == self.tab
            color = ACCENT if selected else TEXT_SECONDARY
            tabs.append(LinearLayout(
                LinearLayout(ImageView("tab_item_icon", icon=icon, tint=color, width=dp(28), height=dp(28),
                                       layout_gravity="center_horizontal", selected=selected),
                             TextView(label, "tab_item_label", size=sp(12), color=color, selected=selected,
                                      layout_gravity="center_horizontal"),
                             id="tab_item_holder", width=WRAP, selected=selected, layout_gravity="center_horizontal",
                             padding=(0, dp(12), 0, 0)),
                width=MATCH, weight=1, height=TABS_H, selected=selected, key=f"tab-{label}",
                on_click=None if selected else (lambda i=index: self.select_tab(i))))
        return FrameLayout(LinearLayout(*tabs, orientation="horizontal"), id="main_tabs_holder",
                           class_name="android.widget.HorizontalScrollView", height=TABS_H, layout_gravity="bottom",
                           bg=(250, 250, 250))

    def _fragment(self, id: str, content: list[View], fab_desc: str, fab_action) -> View:
        return FrameLayout(
            RelativeLayout(*content, id="fragment_wrapper", height=MATCH),
            ImageButton("fragment_fab", icon="plus", desc=fab_desc, width=dp(56), height=dp(56),
                        layout_gravity="bottom|end", margin=dp(16), bg=ACCENT, radius=dp(28), tint=(255, 255, 255),
                        on_click=fab_action),
            id=id, class_name="android.view.ViewGroup", height=MATCH)

    def _placeholders(self, text: str, action_text: str, action) -> list[View]:
        return [Column(
            TextView(text, "fragment_placeholder", width=MATCH, gravity="center", color=TEXT_SECONDARY,
                     padding=(dp(24), dp(24), dp(24), dp(8))),
            TextView(action_text, "fragment_placeholder_2", color=ACCENT, layout_gravity="center_horizontal",
                     padding=(dp(16), dp(16)), on_click=action),
            class_name="android.widget.RelativeLayout")]

    def _list(self, contacts: list[cd.Contact]) -> list[View]:
        prefs: cd.ContactsPrefs = self.data
        surname_first = prefs.checkboxes["start_name_with_surname"]
        rows = []
        for contact in contacts:
            texts: list[View] = [TextView(contact.shown_name(surname_first), "item_contact_name", size=sp(17),
                                          max_lines=1, width=MATCH)]
            if prefs.checkboxes["show_phone_numbers"] and contact.numbers:
                texts.append(TextView(contact.numbers[0][0], "item_contact_number", color=TEXT_SECONDARY,
                                      size=sp(14), width=MATCH))
            rows.append(FrameLayout(
                RelativeLayout(
                    Row(ImageView("item_contact_image", icon="person", width=dp(48), height=dp(48),
                                  margin=(dp(16), 0, dp(16), 0)),
                        Column(*texts, weight=1, width=MATCH), gravity="center_vertical"),
                    id="item_contact_holder", padding=(0, dp(8))),
                id="item_contact_frame", key=f"contact-{contact.id}", min_height=dp(64),
                selected=contact.id in self.selected, bg=(255, 236, 229) if contact.id in self.selected else None,
                on_click=lambda c=contact: self.tap_contact(c), on_long_click=lambda c=contact: self.select(c)))
        self.shown = [c.id for c in contacts]
        letters = []
        for contact in contacts:
            letter = (contact.shown_name(surname_first)[:1] or "#").upper()
            if letter not in letters:
                letters.append(letter)
        return [
            RecyclerView(*rows, id="fragment_list", height=MATCH),
            LinearLayout(TextView("\n".join(letters), size=sp(12), color=TEXT_SECONDARY, gravity="center"),
                         id="letter_fastscroller", width=dp(32), layout_gravity="end", on_click=lambda: None),
        ]

    def _contacts_fragment(self) -> View:
        contacts = [c for c in self.visible_contacts() if self._matches(c)]
        content = self._list(contacts) if contacts else self._placeholders(
            "No contacts found", "Change filter", self.show_filter_dialog)
        return self._fragment("contacts_fragment", content, "Create new contact", self.new_contact)

    def _favorites_fragment(self) -> View:
        contacts = [c for c in self.visible_contacts() if c.starred and self._matches(c)]
        content = self._list(contacts) if contacts else self._placeholders(
            "Seems like you haven't added any favorite contacts yet.", "Add favorites",
            lambda: self.toast("No contacts found"))
        return self._fragment("favorites_fragment", content, "Add favorites",
                              lambda: self.toast("No contacts found"))

    def _groups_fragment(self) -> View:
        content = self._placeholders("There are no contact groups on the device", "Create group", self.no_app)
        return self._fragment("groups_fragment", content, "Create group", self.no_app)

    # -- selection (ContactsAdapter's action mode) ----------------------------------------------
    def select(self, contact: cd.Contact) -> None:
        if contact.id not in self.selected:
            self.selected.append(contact.id)

    def tap_contact(self, contact: cd.Contact) -> None:
        if not self.selected:
            self.open_contact(contact)
        elif contact.id in self.selected:
            self.selected.remove(contact.id)
        else:
            self.selected.append(contact.id)

    def _chosen(self) -> list[cd.Contact]:
        by_id = {c.id: c for c in _contacts(self)}
        return [by_id[i] for i in self.selected if i in by_id]

    def _selection_bar(self) -> View:
        """cab.xml as ContactsAdapter.prepareActionMode shows it on the Contacts or Favorites tab."""
        shown = getattr(self, "shown", [])
        self.selected = [i for i in self.selected if i in shown]
        if not self.selected:
            return self.search.build([])
        one, favorites = len(self.selected) == 1, self.tab == 1

        def select_all() -> None:
            self.selected = list(shown)

        def edit() -> None:
            contact_id = self.selected[0]
            self.selected = []
            self.start(EditContactActivity, contact_id=contact_id)

        items = menu(APP, "cab", {
            "cab_edit": edit, "cab_add_to_favorites": lambda: self._star(True), "cab_add_to_group": None,
            "cab_share": self.no_app, "cab_send_sms_to_contacts": self.no_app,
            "cab_send_email_to_contacts": self.no_app, "cab_create_shortcut": None,
            "cab_select_all": select_all, "cab_delete": self._confirm_delete_selected,
            "cab_remove": lambda: self._star(False)},
            hide=[*(() if one else ("cab_edit", "cab_create_shortcut")),
                  *(("cab_add_to_favorites", "cab_delete") if favorites else ("cab_remove",))],
            kind=ACTION_MODE)
        every = len(self.selected) >= len(shown)
        return action_mode_bar(self, f"{len(self.selected)} / {len(shown)}", items,
                               on_close=self.selected.clear, on_title=self.selected.clear if every else select_all)

    def _star(self, starred: bool) -> None:
        for contact in self._chosen():
            cd.set_starred(_provider(self), contact, starred)
        self.selected = []

    def _confirm_delete_selected(self) -> None:
        """ContactsAdapter.askConfirmDelete: the name of one contact, or "N contacts"."""
        chosen = self._chosen()
        what = f'"{chosen[0].shown_name()}"' if len(chosen) == 1 else f"{len(chosen)} contacts"

        def delete() -> None:
            for contact in chosen:
                cd.delete_contact(_provider(self), contact)
            self.selected = []

        self.show_dialog(_message_dialog(f"Are you sure you want to delete {what}?", delete))

    # -- behaviour -------------------------------------------------------------------------------
    def no_app(self) -> None:
        self.toast("No valid app found")

    def launch_dialpad(self) -> None:
        """MainActivity.launchDialpad: ACTION_DIAL with no number; "No app found" without a dialer."""
        if not self.start_intent(Intent(ACTION_DIAL)):
            self.toast("No app found")

    def select_tab(self, index: int) -> None:
        self.tab = index
        self.data.last_tab = index

    def open_contact(self, contact: cd.Contact) -> None:
        self.start(ViewContactActivity, contact_id=contact.id)

    def new_contact(self) -> None:
        self.start(EditContactActivity, contact_id=0)

    def show_sort_dialog(self) -> None:
        prefs: cd.ContactsPrefs = self.data
        options = (("first_name", "First name"), ("middle_name", "Middle name"), ("surname", "Surname"),
                   ("full_name", "Full name"), ("date_created", "Date created"))

        def body() -> View:
            return ScrollView(Column(
                RadioGroup(*[RadioButton(label, f"sorting_dialog_radio_{key}") for key, label in options],
                           id="sorting_dialog_radio_sorting", checked_index=prefs.sorting),
                Divider("divider", margin=(0, dp(8))),
                RadioGroup(RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                           RadioButton("Descending", "sorting_dialog_radio_descending"),
                           id="sorting_dialog_radio_order", checked_index=0 if prefs.ascending else 1),
                id="sorting_dialog_holder", padding=(dp(16), dp(16))),
                id="sorting_dialog_scrollview", height=WRAP, focusable=False)

        def ok(d: Dialog) -> None:
            prefs.sorting = max(0, d.find("sorting_dialog_radio_sorting").checked_index)
            prefs.ascending = d.find("sorting_dialog_radio_order").checked_index != 1

        self.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))

    def show_filter_dialog(self) -> None:
        prefs: cd.ContactsPrefs = self.data
        contacts = _contacts(self)
        sources = [cd.PHONE_STORAGE, cd.PRIVATE_STORAGE]
        chosen = {s: s not in prefs.ignored_sources for s in sources}

        def toggle(source: str) -> None:
            chosen[source] = not chosen[source]

        def body() -> View:
            rows = []
            for source in sources:
                count = sum(1 for c in contacts if c.source == source)
                rows.append(RelativeLayout(
                    CheckBox(f"{source} ({count})", "filter_contact_source_checkbox", checked=chosen[source],
                             clickable=False, focusable=False),
                    id="filter_contact_source_holder", padding=(dp(16), dp(4)), key=source,
                    on_click=lambda s=source: toggle(s)))
            return RecyclerView(*rows, id="filter_contact_sources_list", height=WRAP, padding=(0, dp(8)))

        def ok(_d: Dialog) -> None:
            prefs.ignored_sources = {s for s, on in chosen.items() if not on}

        self.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))


# ---------------------------------------------------------------------------
# contact details and editing


def _contact_toolbar(activity: Activity, items: list[MenuItem], on_nav=None) -> View:
    return LinearLayout(
        activity.toolbar("contact_toolbar", items=items, on_nav=on_nav or activity.finish, bg=None),
        id="contact_appbar", margin=(0, dp(8), 0, 0))


class ViewContactActivity(Activity):
    """One contact's details, with the favourite toggle and Edit / Share / Delete."""

    name = "com.simplemobiletools.contacts.pro.activities.ViewContactActivity"

    def on_create(self) -> None:
        self.contact_id = int(self.extras.get("contact_id", 0))

    def build(self) -> View:
        contact = _find_contact(self, self.contact_id)
        if contact is None:  # deleted meanwhile (e.g. through adb): nothing left to show
            return Column(_contact_toolbar(self, []), height=MATCH)
        shown = self.data.shown_fields
        # menu_view_contact; Open with is for non-private contacts (all of the phone's are).
        items = menu(APP, "menu_view_contact", {
            "edit": lambda: self.start(EditContactActivity, contact_id=contact.id),
            "share": lambda: share_contact(self, contact), "delete": lambda: self.confirm_delete(contact),
            "open_with": lambda: self.toast("No valid app found"),
            "manage_visible_fields": lambda: show_visible_fields_dialog(self)})
        body: list[View] = [
            ImageView("contact_photo", icon="person", desc="Change photo", width=MATCH, height=dp(300),
                      bg=(230, 230, 230), tint=(180, 180, 180)),
            Row(ImageView("contact_toggle_favorite", icon="star" if contact.starred else "star_outline",
                          desc="Toggle favorite", tint=ACCENT, on_click=lambda: self.toggle_favorite(contact),
                          on_long_click=lambda: self.toast("Toggle favorite")),
                View(width=MATCH, weight=1),
                LinearLayout(
                    ImageView("contact_send_email", icon="email", desc="Send email", on_click=self.no_app,
                              on_long_click=lambda: self.toast("Send email")) if contact.emails else None,
                    ImageView("contact_start_call", icon="call", desc="Call contact",
                              on_click=lambda: start_call(self, contact.numbers[0][0]),
                              on_long_click=lambda: self.toast("Call contact")) if contact.numbers else None,
                    ImageView("contact_send_sms", icon="sms", desc="Send SMS", on_click=self.send_sms,
                              on_long_click=lambda: self.toast("Send SMS")) if contact.numbers else None,
                    id="contact_actions_holder", orientation="horizontal", width=WRAP),
                margin=(dp(8), -dp(56), dp(8), 0)),
        ]
        body.append(self._section("contact_name_image", TextView(
            contact.shown_name(), "contact_name", size=sp(22), width=MATCH, on_long_click=lambda: None)))
        if contact.numbers and "phone_numbers" in shown:
            body.append(self._section("contact_numbers_image", Column(*[
                RelativeLayout(Row(TextView(number, "contact_number", size=sp(17), weight=1, width=MATCH),
                                   TextView(cd.PHONE_TYPES.get(kind, "Other"), "contact_number_type",
                                            color=TEXT_SECONDARY)),
                               id="contact_number_holder", key=f"n{i}", padding=(dp(4), dp(12)),
                               on_click=self.no_app, on_long_click=lambda: None)
                for i, (number, kind) in enumerate(contact.numbers)], id="contact_numbers_holder")))
        if contact.emails and "emails" in shown:
            body.append(self._section("contact_emails_image", Column(*[
                RelativeLayout(Row(TextView(email, "contact_email", size=sp(17), weight=1, width=MATCH),
                                   TextView(cd.EMAIL_TYPES.get(kind, "Other"), "contact_email_type",
                                            color=TEXT_SECONDARY)),
                               id="contact_email_holder", key=f"e{i}", padding=(dp(4), dp(12)),
                               on_click=self.no_app, on_long_click=lambda: None)
                for i, (email, kind) in enumerate(contact.emails)], id="contact_emails_holder")))
        if "contact_source" in shown:
            body.append(self._section("contact_source_image", LinearLayout(RelativeLayout(
                TextView(contact.source, "contact_source", size=sp(17), width=MATCH, padding=(0, dp(12)),
                         on_click=lambda: None, on_long_click=lambda: None),
                id="contact_source_holder"), id="contact_sources_holder")))
        return RelativeLayout(
            ScrollView(Column(*body, id="contact_holder"), id="contact_scrollview", height=MATCH),
            _contact_toolbar(self, items),
            id="contact_wrapper", height=MATCH)

    @staticmethod
    def _section(icon_id: str, content: View) -> View:
        return Row(ImageView(icon_id, icon="dot", width=dp(40), height=dp(40), margin=(dp(12), 0, dp(8), 0)),
                   Column(content, weight=1, width=MATCH), gravity="center_vertical")

    def no_app(self) -> None:
        self.toast("No valid app found")

    def send_sms(self) -> None:
        """Commons' launchSendSMSIntent: ACTION_SENDTO smsto:<number>; "No app found" when nothing answers."""
        contact = _find_contact(self, self.contact_id)
        number = contact.numbers[0][0] if contact is not None and contact.numbers else ""
        if not self.start_intent(Intent(ACTION_SENDTO, data=f"smsto:{number}")):
            self.toast("No app found")

    def toggle_favorite(self, contact: cd.Contact) -> None:
        cd.set_starred(_provider(self), contact, not contact.starred)

    def confirm_delete(self, contact: cd.Contact) -> None:
        def delete() -> None:
            cd.delete_contact(_provider(self), contact)
            self.finish()

        self.show_dialog(_message_dialog(DELETE_CONFIRMATION, delete))


class EditContactActivity(Activity):
    """The new / edit contact form; Save writes the contact to the phone's contacts."""

    name = "com.simplemobiletools.contacts.pro.activities.EditContactActivity"
    soft_input_mode = "adjustResize"  # AndroidManifest.xml (6.22.7)

    def on_create(self) -> None:
        raw_id = int(self.extras.get("contact_id", 0))
        found = _find_contact(self, raw_id) if raw_id else None
        if found is not None:
            self.set_soft_input_mode("stateAlwaysHidden")  # setupEditContact
        self.contact = found or cd.Contact(0, 0)
        self.first_name = self.contact.first_name
        self.surname = self.contact.surname
        self.numbers = [list(n) for n in self.contact.numbers] or [["", 2]]
        self.emails = [list(e) for e in self.contact.emails] or [["", 1]]
        self.starred = self.contact.starred
        self.original = self._fields()
        self.last_prompt_ms = -SAVE_PROMPT_INTERVAL_MS

    def _fields(self) -> tuple:
        return (self.first_name.strip(), self.surname.strip(), tuple((n.strip(), k) for n, k in self.numbers),
                tuple((e.strip(), k) for e, k in self.emails), self.starred)

    def on_back(self) -> bool:
        """Unsaved changes: ask "Save before exit?" (again only after a second, as the app does)."""
        now = _provider(self).clock_ms()
        if self._fields() == self.original or now - self.last_prompt_ms <= SAVE_PROMPT_INTERVAL_MS:
            return False
        self.last_prompt_ms = now
        self.show_dialog(Dialog(
            body=lambda: ScrollView(TextView("You have unsaved changes. Save before exit?", "message", width=MATCH,
                                             padding=(dp(24), dp(20))),
                                    id="message_scrollview", height=WRAP, focusable=False),
            positive=("Save", lambda _d: self.save()), negative=("Discard", lambda _d: self.finish())))
        return True

    def navigate_up(self) -> None:
        if not self.on_back():
            self.finish()

    def build(self) -> View:
        shown = self.data.shown_fields
        # menu_edit_contact; EditContactActivity hides Delete, Share and Open with for a new contact.
        items = menu(APP, "menu_edit_contact", {
            "save": self.save, "share": self._share, "delete": self.confirm_delete,
            "open_with": lambda: self.toast("No valid app found"),
            "manage_visible_fields": lambda: show_visible_fields_dialog(self)},
            hide=() if self.contact.id else ("delete", "share", "open_with"))
        body: list[View] = [
            ImageView("contact_photo", icon="person", desc="Change photo", width=MATCH, height=dp(300),
                      bg=(230, 230, 230), tint=(180, 180, 180), on_click=lambda: self.toast("No valid app found")),
            Row(ImageView("contact_toggle_favorite", icon="star" if self.starred else "star_outline",
                          desc="Toggle favorite", tint=ACCENT, on_click=self.toggle_favorite,
                          on_long_click=lambda: self.toast("Toggle favorite")),
                View(width=MATCH, weight=1),
                ImageView("contact_change_photo", icon="camera", desc="Change photo",
                          on_click=lambda: self.toast("No valid app found"),
                          on_long_click=lambda: self.toast("Change photo")),
                margin=(dp(8), -dp(56), dp(8), 0)),
        ]
        names: list[View] = []
        if "first_name" in shown:
            names.append(EditText(self.first_name, "contact_first_name", hint="First name", key="first",
                                  on_text_changed=lambda t: setattr(self, "first_name", t)))
        if "surname" in shown:
            names.append(EditText(self.surname, "contact_surname", hint="Surname", key="surname",
                                  on_text_changed=lambda t: setattr(self, "surname", t)))
        body.append(self._section("contact_name_image", Column(*names)))
        if "phone_numbers" in shown:
            body.append(self._entries("numbers", "number", "Number", self.numbers, cd.PHONE_TYPES))
        if "emails" in shown:
            body.append(self._entries("emails", "email", "Email", self.emails, cd.EMAIL_TYPES))
        if "addresses" in shown:
            body.append(self._section("contact_addresses_image", LinearLayout(RelativeLayout(Row(
                EditText("", "contact_address", hint="Address", weight=1, key="address"),
                TextView("Home", "contact_address_type", on_click=lambda: None, padding=(dp(8), dp(12)))),
                id="contact_address_holder"), id="contact_addresses_holder")))
        if "events" in shown:
            body.append(self._section("contact_events_image", LinearLayout(RelativeLayout(Row(
                TextView("Unknown", "contact_event", weight=1, width=MATCH, on_click=lambda: None,
                         padding=(dp(4), dp(12))),
                TextView("Birthday", "contact_event_type", on_click=lambda: None, padding=(dp(8), dp(12)))),
                id="contact_event_holder"), id="contact_events_holder")))
        if "notes" in shown:
            body.append(self._section("contact_notes_image", EditText("", "contact_notes", hint="Notes",
                                                                      key="notes", single_line=False)))
        if "groups" in shown:
            body.append(self._section("contact_groups_image", LinearLayout(RelativeLayout(
                TextView("No groups", "contact_group", width=MATCH, on_click=lambda: None, padding=(dp(4), dp(12))),
                id="contact_group_holder"), id="contact_groups_holder")))
        if "contact_source" in shown:
            body.append(self._section("contact_source_image", TextView(
                self.contact.source, "contact_source", width=MATCH, on_click=lambda: None, padding=(dp(4), dp(12)))))
        return RelativeLayout(
            ScrollView(Column(*body, id="contact_holder", padding=(0, 0, 0, dp(24))), id="contact_scrollview",
                       height=MATCH),
            _contact_toolbar(self, items, on_nav=self.navigate_up),
            id="contact_wrapper", height=MATCH)

    @staticmethod
    def _section(icon_id: str, content: View) -> View:
        return Row(ImageView(icon_id, icon="dot", width=dp(40), height=dp(40), margin=(dp(12), 0, dp(8), 0)),
                   Column(content, weight=1, width=MATCH, margin=(0, 0, dp(16), 0)), gravity="center_vertical")

    def _entries(self, plural: str, single: str, hint: str, entries: list[list], types: dict[int, str]) -> View:
        rows = []
        for index, entry in enumerate(entries):
            def changed(text: str, entry=entry) -> None:
                entry[0] = text
            rows.append(RelativeLayout(Row(
                EditText(entry[0], f"contact_{single}", hint=hint, weight=1, key=f"{single}-{index}",
                         on_text_changed=changed),
                TextView(types.get(entry[1], "Other"), f"contact_{single}_type", padding=(dp(8), dp(12)),
                         on_click=lambda entry=entry: self.choose_type(entry, types))),
                id=f"contact_{single}_holder", key=f"{single}-holder-{index}"))
        return Column(
            self._section(f"contact_{plural}_image", LinearLayout(*rows, id=f"contact_{plural}_holder")),
            ImageView(f"contact_{plural}_add_new", icon="plus", layout_gravity="center_horizontal",
                      on_click=lambda: entries.append(["", next(iter(types))])))

    def choose_type(self, entry: list, types: dict[int, str]) -> None:
        labels = tuple(types.values()) + ("Custom",)

        def pick(label: str) -> None:
            for kind, name in types.items():
                if name == label:
                    entry[1] = kind

        current = types.get(entry[1], "")
        radio_dialog(self, list(labels), labels.index(current) if current in labels else -1,
                     lambda index: pick(labels[index]))

    def toggle_favorite(self) -> None:
        self.starred = not self.starred

    def _share(self) -> None:
        share_contact(self, self.contact)

    def save(self) -> None:
        numbers = [(n.strip(), k) for n, k in self.numbers if n.strip()]
        emails = [(e.strip(), k) for e, k in self.emails if e.strip()]
        first, surname = self.first_name.strip(), self.surname.strip()
        if not (first or surname or numbers or emails):
            self.toast("At least 1 field has to be filled out")
            return
        contact = self.contact
        contact.first_name, contact.surname = first, surname
        contact.numbers, contact.emails, contact.starred = numbers, emails, self.starred
        cd.save_contact(_provider(self), contact)
        if self.starred != bool(_find_contact(self, contact.id).starred):
            cd.set_starred(_provider(self), contact, self.starred)
        self.finish()

    def confirm_delete(self) -> None:
        def delete() -> None:
            cd.delete_contact(_provider(self), self.contact)
            self.finish()

        self.show_dialog(_message_dialog(DELETE_CONFIRMATION, delete))


# ---------------------------------------------------------------------------
# SettingsActivity


class SettingsActivity(Activity):
    """The app's settings, as recorded: font size, shown fields, check boxes."""

    name = "com.simplemobiletools.contacts.pro.activities.SettingsActivity"

    SECTIONS = (
        ("GENERAL", "settings_general_settings", (
            ("merge_duplicate_contacts", "Merge duplicate contacts"),
            ("show_call_confirmation", "Show a call confirmation dialog before initiating a call"),
            ("show_private_contacts",
             "Show private contacts to Simple Dialer, Simple SMS Messenger and Simple Calendar Pro"))),
        ("MAIN SCREEN", "settings_main_screen", (
            ("show_dialpad_button", "Show a dialpad button on the main screen"),
            ("show_only_contacts_with_numbers", "Show only contacts with phone numbers"))),
        ("LIST VIEW", "settings_list_view", (
            ("show_contact_thumbnails", "Show contact thumbnails"),
            ("show_phone_numbers", "Show phone numbers"),
            ("start_name_with_surname", "Start name with surname"))),
    )

    def build(self) -> View:
        prefs: cd.ContactsPrefs = self.data
        blocks: list[View] = [
            self._label("COLOR CUSTOMIZATION", "settings_color_customization_section_label"),
            self._row("settings_color_customization", "Customize colors", class_name="android.view.ViewGroup",
                      on_click=lambda: self.start(CustomizationActivity)),
            Divider("settings_color_customization_divider"),
        ]
        for heading, prefix, boxes in self.SECTIONS:
            blocks.append(self._label(heading, f"{prefix}_label"))
            if prefix == "settings_general_settings":
                blocks.append(self._row("settings_font_size", "Font size", prefs.font_size, self.choose_font_size))
                blocks.append(self._row("settings_manage_contact_fields", "Manage shown contact fields",
                                        on_click=lambda: show_visible_fields_dialog(self)))
            if prefix == "settings_main_screen":
                blocks.append(self._row("settings_manage_shown_tabs", "Manage shown tabs"))
                blocks.append(self._row("settings_default_tab", "Tab to open at app start", "Last used one"))
                blocks.append(self._row("settings_on_contact_click", "On contact click", "View contact details"))
            for key, label in boxes:
                blocks.append(settings_checkbox(f"settings_{key}", label, prefs.checkboxes[key],
                                                lambda value, k=key: prefs.checkboxes.__setitem__(k, value)))
            if prefix != "settings_list_view":
                blocks.append(Divider(f"{prefix}_divider"))
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name="android.view.ViewGroup", height=MATCH)

    @staticmethod
    def _label(text: str, id: str) -> View:
        return TextView(text, id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                        padding=(dp(22), dp(24), dp(16), dp(12)))

    @staticmethod
    def _row(prefix: str, label: str, value: str | None = None, on_click=None,
             class_name: str = "android.widget.RelativeLayout") -> View:
        children = [TextView(label, f"{prefix}_label", size=sp(16))]
        if value is not None:
            children.append(TextView(value, prefix, color=TEXT_SECONDARY, size=sp(14), width=MATCH))
        return Column(*children, id=f"{prefix}_holder", class_name=class_name, padding=(dp(22), dp(16)),
                      on_click=on_click or (lambda: None))

    def choose_font_size(self) -> None:
        radio_dialog(self, list(FONT_SIZES), FONT_SIZES.index(self.data.font_size),
                     lambda index: setattr(self.data, "font_size", FONT_SIZES[index]))


# ---------------------------------------------------------------------------
# the app


class ContactsApp(App):
    """Simple Contacts Pro: its preferences; the contacts are the phone's (system provider)."""

    package = PACKAGE
    label = "Contacts"
    activities = (MainActivity, ViewContactActivity, EditContactActivity, SettingsActivity, CustomizationActivity)

    def new_data(self) -> cd.ContactsPrefs:
        return cd.ContactsPrefs()


__all__ = ["ContactsApp", "EditContactActivity", "MainActivity", "SettingsActivity", "ViewContactActivity"]

"""Simple Contacts Pro 6.22.7 (`com.simplemobiletools.contacts.pro`) for the virtual phone.

Screens, ids, texts and order follow the release's sources (layouts, menus,
strings and activities at tag 6.22.7, with Simple-Commons 73d78e5cd3) as
Android 14 shows them; the DroidTask recordings (July 2023, an older
release on Android 11) fill in what the sources leave to the platform:

* MainActivity: the search bar with Sort by / Filter actions and the
  overflow menu (import, export, Settings, About), the Contacts, Favorites
  and Groups tabs (those "Manage shown tabs" keeps; the start one as "Tab to
  open at app start" says), the contact list (Commons' ConstraintLayout row,
  the letter fast scroller), the groups list, the FAB and the dialpad
  button; Sort by, Filter, Export contacts, Create a new group, Add favorites.
* ViewContactActivity: photo area, favourite toggle, name, numbers, emails,
  source; Edit / Share / Delete (with "Are you sure you want to proceed with
  the deletion?") and "Manage shown contact fields".
* EditContactActivity: first name, surname, numbers with type, emails with
  type, groups (SelectGroupsDialog), ...; Save rejects a contact with nothing
  filled in.
* GroupContactsActivity: a group's contacts, "Add contacts", Send SMS / email.
* SettingsActivity (every row of the release on Android 14) and the shared
  Customize colors and About screens.

The contacts are the phone's: the app reads and writes the system contacts
provider (`contacts_data.py`), so `content insert` seeds show up here and
the SMS app sees the names.  Groups live in the app's own data, as the
release keeps groups created under its private source.
"""
from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from ...framework.intents import (ACTION_CALL, ACTION_CREATE_DOCUMENT, ACTION_DIAL, ACTION_GET_CONTENT, ACTION_SEND,
                                  ACTION_SENDTO, ACTION_VIEW, Intent, IntentFilter)
from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT,
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
from .contacts_vcf import vcard_text
from ...framework.app import RESULT_OK, Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..commons.commons_app import CommonsApp
from ..commons.commons_compose import AboutActivity
from ..commons.commons_dialogs import radio_dialog
from ..commons.commons_files import filename_problem
from ..commons.search_menu import SearchMenu
from ..commons.simple_commons import CustomizationActivity, action_mode_bar, launch_change_app_language

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

#: MediaStore.ACTION_IMAGE_CAPTURE and Intent.ACTION_PICK (EditContactActivity.startTakePhotoIntent /
#: startChoosePhotoIntent)
ACTION_IMAGE_CAPTURE = "android.media.action.IMAGE_CAPTURE"
ACTION_PICK = "android.intent.action.PICK"
#: startCropPhotoIntent's action (the camera apps' crop intent, which Simple Gallery's EditActivity takes)
ACTION_CROP = "com.android.camera.action.CROP"
#: MediaStore.EXTRA_OUTPUT
EXTRA_OUTPUT = "output"
#: EditContactActivity's request codes
INTENT_TAKE_PHOTO, INTENT_CHOOSE_PHOTO, INTENT_CROP_PHOTO = 1, 2, 3
#: AndroidManifest.xml (6.22.7): androidx FileProvider "${applicationId}.provider"; res/xml/provider_paths.xml
#: <cache-path name="cache_files" path="my_cache/"> (where Commons' getCachePhoto puts the photos)
FILE_PROVIDER = ("com.simplemobiletools.contacts.pro.provider", {"cache_files": "cache/my_cache"})
#: StructuredPostal.TYPE_HOME / TYPE_WORK / TYPE_OTHER, in showAddressTypePicker's order (then Custom)
ADDRESS_TYPE_HOME = 1
ADDRESS_TYPES = {1: "Home", 2: "Work", 3: "Other"}
#: CommonDataKinds.Event types in showEventTypePicker's order (ContactActivity.getEventTextId's strings)
EVENT_TYPE_BIRTHDAY = 3
EVENT_TYPES = {1: "Anniversary", 3: "Birthday", 2: "Other"}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _today(activity: Activity) -> dt.date:
    return dt.datetime.fromtimestamp(_provider(activity).clock_ms() / 1000, dt.timezone.utc).date()


def _event_text(tag: str, today: dt.date) -> str:
    """Commons' String.getDateTimeFromDateString(showYearsSince = true): DateFormat.MEDIUM of the locale
    (en-US "MMM d, y") and the years since, or "MMM d" for a tag without its year ("--MM-dd")."""
    if tag.startswith("--"):
        month, day = int(tag[2:4]), int(tag[5:7])
        return f"{_MONTHS[month - 1][:3]} {day}"
    date = dt.date.fromisoformat(tag)
    years = today.year - date.year - ((today.month, today.day) < (date.month, date.day))
    return f"{_MONTHS[date.month - 1][:3]} {date.day}, {date.year} ({years})"


def show_date_picker_dialog(activity: Activity, tag: str, on_pick: Callable[[str], object]) -> None:
    """MyDatePickerDialog (dialog_date_picker.xml): the framework's DatePicker in calendar mode, "Hide year",
    OK / Cancel and no title.  It starts at the tag's date (today when empty); OK hands back the tag
    ("yyyy-MM-dd", or "--MM-dd" with Hide year checked).

    The DatePicker's views are the framework's (date_picker_material.xml: the header with year and date,
    the ViewAnimator ``animator`` holding the DayPickerView with its ViewPager, SimpleMonthView and the
    prev / next month buttons); SimpleMonthView's days are virtual views with the day as text and
    "dd MMMM yyyy" as description (SimpleMonthView.MonthViewTouchHelper.getDayDescription).
    """
    today = _today(activity)
    hide_year = tag.startswith("--")
    if not tag:
        day = today
    elif hide_year:
        day = dt.date(today.year, int(tag[2:4]), int(tag[5:7]))
    else:
        day = dt.date.fromisoformat(tag)
    state = {"day": day, "month": day.replace(day=1), "hide_year": hide_year}

    def turn(step: int) -> None:
        month = state["month"]
        index = month.year * 12 + month.month - 1 + step
        state["month"] = dt.date(index // 12, index % 12 + 1, 1)

    def body() -> View:
        chosen, month = state["day"], state["month"]
        # DatePickerCalendarDelegate: the year, then DateFormat.getBestDateTimePattern(locale, "EMMMd")
        header = LinearLayout(
            TextView(str(chosen.year), "android:id/date_picker_header_year", size=sp(16), color=(255, 230, 220)),
            TextView(f"{chosen.strftime('%a')}, {_MONTHS[chosen.month - 1][:3]} {chosen.day}",
                     "android:id/date_picker_header_date", size=sp(30), color=(255, 255, 255)),
            id="android:id/date_picker_header", bg=ACCENT, padding=(dp(24), dp(16)), width=MATCH)
        first = month.weekday()  # Monday 0; the en-US week starts on Sunday
        lead = (first + 1) % 7
        days = [None] * lead + [month.replace(day=n) for n in range(1, 32)
                                if n <= 28 or _valid(month.year, month.month, n)]
        weeks = [days[i:i + 7] for i in range(0, len(days), 7)]

        def pick(d: dt.date) -> None:
            state["day"] = d

        grid = [Row(*[TextView(str(d.day) if d else "", size=sp(14), width=MATCH, weight=1, gravity="center",
                               height=dp(40), selected=d == chosen, bg=ACCENT if d == chosen else None,
                               radius=dp(20), color=(255, 255, 255) if d == chosen else TEXT,
                               desc=f"{d.day:02d} {_MONTHS[d.month - 1]} {d.year}" if d else "",
                               key=f"d-{d.isoformat()}" if d else None,
                               on_click=(lambda d=d: pick(d)) if d else None)
                      for d in week + [None] * (7 - len(week))], width=MATCH) for week in weeks]
        pager = FrameLayout(
            Column(TextView(f"{_MONTHS[month.month - 1]} {month.year}", size=sp(15), bold=True, width=MATCH,
                            gravity="center", padding=(0, dp(14))),
                   *grid, id="android:id/month_view", class_name="android.view.View", width=MATCH),
            id="android:id/day_picker_view_pager", class_name="com.android.internal.widget.ViewPager", width=MATCH)
        day_picker = FrameLayout(
            pager,
            ImageButton("android:id/prev", icon="back", desc="Previous month", on_click=lambda: turn(-1)),
            ImageButton("android:id/next", icon="forward", desc="Next month", layout_gravity="end",
                        on_click=lambda: turn(1)),
            id="android:id/date_picker_day_picker", class_name="android.widget.DayPickerView", width=MATCH)
        picker = Column(header, FrameLayout(day_picker, id="android:id/animator",
                                            class_name="android.widget.ViewAnimator", width=MATCH),
                        id="date_picker", class_name="android.widget.DatePicker", width=MATCH)
        return RelativeLayout(Column(
            picker,
            CheckBox("Hide year", "hide_year", checked=state["hide_year"], width=MATCH,
                     padding=(dp(8), dp(8), dp(16), dp(8)), margin=(dp(16), 0, 0, 0),
                     on_checked_change=lambda on: state.__setitem__("hide_year", on)),
            width=MATCH), id="dialog_holder", width=MATCH)

    def ok(_d: Dialog) -> None:
        chosen = state["day"]
        on_pick(f"--{chosen.month:02d}-{chosen.day:02d}" if state["hide_year"] else chosen.isoformat())

    activity.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))


def _valid(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


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


def contact_row(contact: cd.Contact, prefs: cd.ContactsPrefs, *, selected: bool = False, on_click=None,
                on_long_click=None) -> View:
    """ContactsAdapter's row: Commons' item_contact_with(out)_number.xml (73d78e5cd3), a ConstraintLayout
    `item_contact_frame` with the image, the name and (with "Show phone numbers") the number as its children."""
    texts: list[View] = [TextView(contact.shown_name(prefs.checkboxes["start_name_with_surname"]),
                                  "item_contact_name", size=sp(17), max_lines=1, width=MATCH)]
    if prefs.checkboxes["show_phone_numbers"]:
        texts.append(TextView(contact.numbers[0][0] if contact.numbers else "", "item_contact_number",
                              color=TEXT_SECONDARY, size=sp(14), max_lines=1, width=MATCH))
    names = Column(*texts, weight=1, width=MATCH, padding=(dp(8), 0, dp(16), 0))
    names.in_dump = False  # the constraint chain, no view of its own
    return Row(
        ImageView("item_contact_image", icon="person", width=dp(48), height=dp(48), margin=(dp(4), 0, 0, 0),
                  visible=prefs.checkboxes["show_contact_thumbnails"]),
        names,
        id="item_contact_frame", class_name="androidx.constraintlayout.widget.ConstraintLayout",
        key=f"contact-{contact.id}", min_height=dp(64), gravity="center_vertical", padding=(dp(12), dp(8)),
        selected=selected, bg=(255, 236, 229) if selected else None, on_click=on_click, on_long_click=on_long_click)


def generic_contact_click(activity: Activity, contact: cd.Contact) -> None:
    """Activity.kt handleGenericContactClick: what "On contact click" in the settings says."""
    action = activity.data.on_contact_click
    if action == cd.ON_CLICK_CALL_CONTACT:
        # callContact: a call intent, answered by the phone's dialer (not on this phone)
        activity.toast("No valid app found" if contact.numbers else "No phone number found")
    elif action == cd.ON_CLICK_EDIT_CONTACT:
        activity.start(EditContactActivity, contact_id=contact.id)
    else:
        activity.start(ViewContactActivity, contact_id=contact.id)


def show_create_group_dialog(activity: Activity, on_created: Callable[[], object] | None = None) -> None:
    """CreateNewGroupDialog (dialog_create_new_group.xml): "Create a new group", a Title field, OK / Cancel.

    With no Google account on the phone the only source is the private one, so OK creates the group
    at once (no "Create group under account" choice); an empty name keeps the dialog open.
    """
    prefs: cd.ContactsPrefs = activity.data

    def body() -> View:
        return Column(
            FrameLayout(EditText("", "group_name", hint="Title", autofocus=True, key="group_name"),
                        id="group_name_hint", class_name="com.google.android.material.textfield.TextInputLayout"),
            id="dialog_holder", padding=(dp(16), dp(16), dp(16), 0))

    def ok(d: Dialog) -> bool:
        name = d.find("group_name").text
        if not name:
            activity.toast("Please enter a name")
            return False
        prefs.new_group(name)
        if on_created is not None:
            on_created()
        return True

    activity.show_dialog(Dialog("Create a new group", body, positive=("OK", ok), negative="Cancel"))


def show_select_contacts_dialog(activity: Activity, contacts: list[cd.Contact], checked: list[int],
                                on_done: Callable[[list[cd.Contact], list[cd.Contact]], object]) -> None:
    """SelectContactsDialog (dialog_select_contact.xml, item_add_favorite_with(out)_number.xml): every
    contact with a check box; OK reports the newly checked and the unchecked ones."""
    prefs: cd.ContactsPrefs = activity.data
    chosen = set(checked)

    def toggle(contact_id: int) -> None:
        chosen.symmetric_difference_update({contact_id})

    def row(contact: cd.Contact) -> View:
        texts: list[View] = [TextView(contact.shown_name(prefs.checkboxes["start_name_with_surname"]),
                                      "contact_name", size=sp(17), max_lines=1, width=MATCH)]
        if prefs.checkboxes["show_phone_numbers"]:
            texts.append(TextView(contact.numbers[0][0] if contact.numbers else "", "contact_number",
                                  color=TEXT_SECONDARY, size=sp(14), width=MATCH))
        return FrameLayout(
            RelativeLayout(Row(
                ImageView("contact_tmb", icon="person", width=dp(48), height=dp(48),
                          visible=prefs.checkboxes["show_contact_thumbnails"]),
                Column(*texts, weight=1, width=MATCH, padding=(dp(8), 0)),
                CheckBox("", "contact_checkbox", checked=contact.id in chosen, clickable=False, focusable=False),
                gravity="center_vertical"), id="contact_holder", padding=(dp(12), dp(8))),
            id="contact_frame", key=f"select-{contact.id}", on_click=lambda c=contact.id: toggle(c))

    def body() -> View:
        letters: list[str] = []
        for contact in contacts:
            letter = (contact.shown_name()[:1] or "#").upper()
            if letter not in letters:
                letters.append(letter)
        children: list[View] = [RecyclerView(*[row(c) for c in contacts], id="select_contact_list", height=WRAP)]
        if contacts:
            children.append(LinearLayout(TextView("\n".join(letters), size=sp(12), color=TEXT_SECONDARY),
                                         id="letter_fastscroller", width=dp(32), layout_gravity="end"))
        else:
            children.append(TextView("No contacts found", "select_contact_placeholder", width=MATCH,
                                     gravity="center", padding=dp(16)))
        return RelativeLayout(*children, id="select_contact_holder", height=WRAP)

    def ok(_d: Dialog) -> None:
        on_done([c for c in contacts if c.id in chosen and c.id not in checked],
                [c for c in contacts if c.id in checked and c.id not in chosen])

    activity.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))


# ---------------------------------------------------------------------------
# MainActivity


#: the bit of Config.showTabs that shows each of TABS
TAB_BITS = (cd.TAB_CONTACTS, cd.TAB_FAVORITES, cd.TAB_GROUPS)


def contact_source_rows(contacts, chosen: dict[str, bool]) -> list[View]:
    """Commons' FilterContactSourcesAdapter rows ("<source> (<count>)") whose taps toggle ``chosen``."""
    def toggle(source: str) -> None:
        chosen[source] = not chosen[source]

    return [RelativeLayout(
        CheckBox(f"{source} ({sum(1 for c in contacts if c.source == source)})",
                 "filter_contact_source_checkbox", checked=on, clickable=False, focusable=False),
        id="filter_contact_source_holder", padding=(dp(16), dp(4)), key=source,
        on_click=lambda s=source: toggle(s)) for source, on in chosen.items()]


class MainActivity(Activity):
    """The tabs with the contact list, its search bar, sorting and filter."""

    name = "com.simplemobiletools.contacts.pro.activities.MainActivity"

    def on_create(self) -> None:
        self.search = SearchMenu(self)
        self.shown_tabs = self.data.show_tabs
        self.tab = min(self._start_tab(), len(self._tab_kinds()) - 1)
        self.selected: list[int] = []  # ContactsAdapter's selection (raw contact ids), in the order picked
        self.selected_groups: list[int] = []  # GroupsAdapter's selection (group ids)
        if not self.host.has_permission(PACKAGE, READ_CONTACTS):
            request_contacts_permission(self)

    def _tab_kinds(self) -> list[int]:
        """Indexes into TABS of the tabs Config.showTabs shows, in order (the ViewPager's pages)."""
        return [index for index, bit in enumerate(TAB_BITS) if self.shown_tabs & bit]

    def _start_tab(self) -> int:
        """MainActivity.getDefaultTab: the page the app opens on."""
        prefs: cd.ContactsPrefs = self.data
        mask = prefs.show_tabs
        if prefs.default_tab == cd.TAB_LAST_USED:
            return prefs.last_tab
        if prefs.default_tab == cd.TAB_CONTACTS:
            return 0
        if prefs.default_tab == cd.TAB_FAVORITES:
            return 1 if mask & cd.TAB_CONTACTS else 0
        if not mask & cd.TAB_GROUPS:
            return 0
        return bool(mask & cd.TAB_CONTACTS) + bool(mask & cd.TAB_FAVORITES)

    def on_resume(self) -> None:
        # MainActivity.onResume: changed shown tabs restart the activity on the first page
        if self.shown_tabs != self.data.show_tabs:
            self.data.last_tab = 0
            self.shown_tabs = self.data.show_tabs
            self.tab = 0

    def on_back(self) -> bool:
        if self.selected or self.selected_groups:  # BACK first ends the selection (the action mode)
            self.selected = []
            self.selected_groups = []
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
        kinds = self._tab_kinds()
        kind = kinds[self.tab]
        groups, favorites = kind == 2, kind == 1
        items = menu(APP, "menu", {
            "sort": self.show_sort_dialog, "filter": self.show_filter_dialog, "change_view_type": None,
            "import_contacts": self.import_contacts, "export_contacts": self.show_export_dialog,
            "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(AboutActivity)},
            hide=["dialpad", "column_count", *FDROID_HIDDEN, *(("sort", "filter") if groups else ()),
                  *(() if favorites else ("change_view_type",))])
        fragment = (self._contacts_fragment, self._favorites_fragment, self._groups_fragment)[kind]()
        if self.selected_groups and groups:
            header = self._group_selection_bar()
        else:
            self.selected_groups = []
            header = self._selection_bar() if self.selected else self.search.build(items)
        pager = FrameLayout(fragment, id="view_pager", class_name=MY_VIEW_PAGER,
                            height=MATCH, margin=(0, 0, 0, TABS_H))
        holder_children: list[View] = [pager]
        if self.data.checkboxes["show_dialpad_button"]:
            holder_children.append(ImageView("main_dialpad_button", icon="dialpad", desc="Dialpad", tint=ACCENT,
                                             width=dp(60), height=dp(60), layout_gravity="bottom|center_horizontal",
                                             margin=(0, 0, 0, TABS_H + dp(16)), on_click=self.launch_dialpad))
        if len(kinds) > 1:  # MainActivity.setupTabs: main_tabs_holder is gone with one tab
            holder_children.append(self._tabs(kinds))
        return Column(
            header,
            FrameLayout(*holder_children, id="main_holder", class_name=CONSTRAINT_LAYOUT, weight=1,
                        height=MATCH),
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _tabs(self, kinds: list[int]) -> View:
        tabs = []
        for index, kind in enumerate(kinds):
            label, icon = TABS[kind]
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
            rows.append(contact_row(contact, prefs, selected=contact.id in self.selected,
                                    on_click=lambda c=contact: self.tap_contact(c),
                                    on_long_click=lambda c=contact: self.select(c)))
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
            "Seems like you haven't added any favorite contacts yet.", "Add favorites", self.add_favorites)
        return self._fragment("favorites_fragment", content, "Add favorites", self.add_favorites)

    def _groups_fragment(self) -> View:
        """GroupsFragment (fragment_layout.xml): the groups by title, each "Title (members)"."""
        prefs: cd.ContactsPrefs = self.data
        query = self.search.query.strip().casefold()
        groups = sorted(prefs.groups, key=lambda g: g.title.casefold())
        if query:
            groups = [g for g in groups if query in g.title.casefold()]
        if not prefs.groups:
            content = self._placeholders("There are no contact groups on the device", "Create group",
                                         lambda: show_create_group_dialog(self))
        else:
            existing = {c.id for c in _contacts(self)}
            self.shown_groups = [g.id for g in groups]
            rows = [FrameLayout(
                RelativeLayout(
                    ImageView("group_tmb", icon="group", width=dp(48), height=dp(48),
                              visible=prefs.checkboxes["show_contact_thumbnails"]),
                    TextView(f"{group.title} ({sum(1 for m in group.members if m in existing)})", "group_name",
                             size=sp(17), max_lines=1, width=MATCH, padding=(dp(64), 0, dp(16), 0),
                             gravity="center_vertical"),
                    id="group_holder", min_height=dp(64), padding=(dp(12), dp(8), dp(16), dp(8))),
                id="group_frame", key=f"group-{group.id}", selected=group.id in self.selected_groups,
                bg=(255, 236, 229) if group.id in self.selected_groups else None,
                on_click=lambda g=group: self.tap_group(g),
                on_long_click=lambda g=group: self._select_group(g.id)) for group in groups]
            content = [FrameLayout(RecyclerView(*rows, id="fragment_list", height=MATCH), id="fragment_fastscroller",
                                   class_name="com.qtalk.recyclerviewfastscroller.RecyclerViewFastScroller",
                                   height=MATCH)]
        return self._fragment("groups_fragment", content, "Create group", lambda: show_create_group_dialog(self))

    # -- GroupsAdapter's selection ------------------------------------------------------------------
    def tap_group(self, group: cd.Group) -> None:
        if not self.selected_groups:
            self.start(GroupContactsActivity, group_id=group.id)
        elif group.id in self.selected_groups:
            self.selected_groups.remove(group.id)
        else:
            self.selected_groups.append(group.id)

    def _select_group(self, group_id: int) -> None:
        if group_id not in self.selected_groups:
            self.selected_groups.append(group_id)

    def _group_selection_bar(self) -> View:
        """cab_groups.xml as GroupsAdapter.prepareActionMode shows it: Rename for one group only."""
        shown = getattr(self, "shown_groups", [])
        self.selected_groups = [i for i in self.selected_groups if i in shown]
        if not self.selected_groups:
            return self.search.build([])

        def select_all() -> None:
            self.selected_groups = list(shown)

        items = menu(APP, "cab_groups", {"cab_rename": self._rename_group, "cab_select_all": select_all,
                                         "cab_delete": self._confirm_delete_groups},
                     hide=() if len(self.selected_groups) == 1 else ("cab_rename",), kind=ACTION_MODE)
        every = len(self.selected_groups) >= len(shown)
        return action_mode_bar(self, f"{len(self.selected_groups)} / {len(shown)}", items,
                               on_close=self.selected_groups.clear,
                               on_title=self.selected_groups.clear if every else select_all)

    def _rename_group(self) -> None:
        """RenameGroupDialog: "Rename", the title field holding the group's title."""
        group = next((g for g in self.data.groups if g.id == self.selected_groups[0]), None)
        if group is None:
            return

        def body() -> View:
            return Column(FrameLayout(EditText(group.title, "rename_group_title", hint="Title", autofocus=True,
                                               key="rename_group_title"),
                                      id="rename_group_hint",
                                      class_name="com.google.android.material.textfield.TextInputLayout"),
                          id="rename_group_holder", padding=(dp(16), dp(16), dp(16), 0))

        def ok(d: Dialog) -> bool:
            title = d.find("rename_group_title").text.strip()
            problem = filename_problem(title)
            if problem:
                self.toast(problem)
                return False
            group.title = title
            self.selected_groups = []
            return True

        self.show_dialog(Dialog("Rename", body, positive=("OK", ok), negative="Cancel"))

    def _confirm_delete_groups(self) -> None:
        """GroupsAdapter.askConfirmDelete: the group's title, or "N groups"."""
        chosen = [g for g in self.data.groups if g.id in self.selected_groups]
        what = f'"{chosen[0].title}"' if len(chosen) == 1 else f"{len(chosen)} groups"

        def delete() -> None:
            self.data.groups = [g for g in self.data.groups if g not in chosen]
            self.selected_groups = []

        self.show_dialog(_message_dialog(f"Are you sure you want to delete {what}?", delete))

    def add_favorites(self) -> None:
        """FavoritesFragment.showAddFavoritesDialog: every contact, the starred ones checked."""
        contacts = self.visible_contacts()

        def done(added: list[cd.Contact], removed: list[cd.Contact]) -> None:
            for contact in added:
                cd.set_starred(_provider(self), contact, True)
            for contact in removed:
                cd.set_starred(_provider(self), contact, False)

        show_select_contacts_dialog(self, contacts, [c.id for c in contacts if c.starred], done)

    # -- selection (ContactsAdapter's action mode) ----------------------------------------------
    def select(self, contact: cd.Contact) -> None:
        if contact.id not in self.selected:
            self.selected.append(contact.id)

    def tap_contact(self, contact: cd.Contact) -> None:
        if not self.selected:
            generic_contact_click(self, contact)
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
        one, favorites = len(self.selected) == 1, self._tab_kinds()[self.tab] == 1

        def select_all() -> None:
            self.selected = list(shown)

        def edit() -> None:
            contact_id = self.selected[0]
            self.selected = []
            self.start(EditContactActivity, contact_id=contact_id)

        items = menu(APP, "cab", {
            "cab_edit": edit, "cab_add_to_favorites": lambda: self._star(True), "cab_add_to_group": self._add_to_group,
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

    def _add_to_group(self) -> None:
        """ContactsAdapter.addToGroup: the stored groups and "Create a new group" as a radio list (none checked);
        picking one puts the selected contacts in it."""
        prefs: cd.ContactsPrefs = self.data
        chosen = [c.id for c in self._chosen()]
        groups = list(prefs.groups)

        def add_to(group: cd.Group) -> None:
            group.members.extend(i for i in chosen if i not in group.members)

        def pick(index: int) -> None:
            if index < len(groups):
                add_to(groups[index])
                self.selected = []
                return
            before = {g.id for g in prefs.groups}

            def created() -> None:
                for group in prefs.groups:
                    if group.id not in before:
                        add_to(group)
                self.selected = []

            show_create_group_dialog(self, created)

        radio_dialog(self, [g.title for g in groups] + ["Create a new group"], -1, pick)

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

    def import_contacts(self) -> None:
        """MainActivity.tryImportContacts on Android 10+: the system's file picker for a vCard
        (ACTION_GET_CONTENT of text/x-vcard, CATEGORY_OPENABLE), DocumentsUI's PickActivity here;
        ActivityNotFoundException toasts Commons' system_service_disabled.

        The picker's recents list media files only, so it offers no vCard to pick and BACK cancels
        (RESULT_CANCELED: onActivityResult does nothing); ImportContactsDialog is not modelled.
        """
        if not self.start_intent(Intent(ACTION_GET_CONTENT, mime_type="text/x-vcard")):
            self.toast("System service for selecting files and folders is unavailable")

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
        """ChangeSortingDialog; on the Favorites tab it offers "Custom" too (showCustomSorting), which hides the
        order choice. Custom is the favourites' dragged order (Config.favoritesContactsOrder): with none
        dragged yet the list keeps the order it has."""
        prefs: cd.ContactsPrefs = self.data
        custom = self._tab_kinds()[self.tab] == 1
        options = [("first_name", "First name"), ("middle_name", "Middle name"), ("surname", "Surname"),
                   ("full_name", "Full name"), ("date_created", "Date created")]
        if custom:
            options.append(("custom", "Custom"))
        state = {"custom": custom and prefs.custom_order_selected}

        def checked(index: int) -> None:
            state["custom"] = custom and index == len(options) - 1

        def body() -> View:
            return ScrollView(Column(
                RadioGroup(*[RadioButton(label, f"sorting_dialog_radio_{key}") for key, label in options],
                           id="sorting_dialog_radio_sorting", on_checked_change=checked,
                           checked_index=len(options) - 1 if state["custom"] else prefs.sorting),
                Divider("divider", margin=(0, dp(8)), visible=not state["custom"]),
                RadioGroup(RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                           RadioButton("Descending", "sorting_dialog_radio_descending"),
                           id="sorting_dialog_radio_order", checked_index=0 if prefs.ascending else 1,
                           visible=not state["custom"]),
                id="sorting_dialog_holder", padding=(dp(16), dp(16))),
                id="sorting_dialog_scrollview", height=WRAP, focusable=False)

        def ok(d: Dialog) -> None:
            if custom:
                prefs.custom_order_selected = state["custom"]
                if state["custom"]:
                    return
            prefs.sorting = max(0, d.find("sorting_dialog_radio_sorting").checked_index)
            prefs.ascending = d.find("sorting_dialog_radio_order").checked_index != 1

        self.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))

    def show_export_dialog(self) -> None:
        """ExportContactsDialog as MainActivity.tryExportContacts opens it on Android 10+ (hidePath: no folder
        field): "Export contacts", the file name contacts_<date>, the contact sources with their counts.

        OK asks the system for a document (ACTION_CREATE_DOCUMENT of text/x-vcard, EXTRA_TITLE
        "<name>.vcf", CATEGORY_OPENABLE): DocumentsUI's save screen.  Its result comes back to
        onActivityResult(PICK_EXPORT_FILE_INTENT), which writes the contacts of the checked sources into
        the document (exportContactsTo: VcfExporter, contacts_vcf.py).
        """
        contacts = _contacts(self)
        sources = [cd.PHONE_STORAGE, cd.PRIVATE_STORAGE]
        chosen = {s: s not in self.data.ignored_sources for s in sources}
        # Context.getCurrentFormattedDateTime: yyyy_MM_dd_HH_mm_ss
        stamp = time.strftime("%Y_%m_%d_%H_%M_%S", time.gmtime(_provider(self).clock_ms() / 1000))

        def body() -> View:
            rows = contact_source_rows(contacts, chosen)
            return ScrollView(Column(
                FrameLayout(EditText(f"contacts_{stamp}", "export_contacts_filename", hint="Filename (without .vcf)",
                                     key="export_filename"),
                            id="export_contacts_filename_hint",
                            class_name="com.google.android.material.textfield.TextInputLayout"),
                Divider("export_contacts_divider", margin=(0, dp(16), 0, dp(8))),
                TextView("Include contact sources", "export_contacts_pick_sources_label", color=ACCENT, size=sp(14),
                         padding=(dp(4), dp(8))),
                RecyclerView(*rows, id="export_contacts_list", height=WRAP),
                id="export_contacts_holder", padding=(dp(16), dp(16), dp(16), 0)),
                id="export_contacts_scrollview", height=WRAP, focusable=False)

        def ok(d: Dialog) -> bool:
            name = d.find("export_contacts_filename").text.strip()
            problem = filename_problem(name)
            if problem:
                self.toast(problem)
                return False
            ignored = {s for s, on in chosen.items() if not on}
            intent = Intent(ACTION_CREATE_DOCUMENT, mime_type="text/x-vcard",
                            extras={"title": f"{name}.vcf",
                                    "on_result": lambda path: self._export_contacts_to(path, ignored)})
            if not self.start_intent(intent):
                self.toast("No valid app found")  # Commons' R.string.no_app_found (ActivityNotFoundException)
            return True

        self.show_dialog(Dialog("Export contacts", body, positive=("OK", ok), negative="Cancel"))

    def _export_contacts_to(self, path: str | None, ignored: set[str]) -> None:
        """onActivityResult(PICK_EXPORT_FILE_INTENT) -> exportContactsTo: the contacts outside the unchecked
        sources (ContactsHelper.getContacts), written to the document by VcfExporter, with its toasts."""
        if path is None:  # RESULT_CANCELED: nothing is written
            return
        contacts = [c for c in _contacts(self) if c.source not in ignored]
        if not contacts:
            self.toast("No entries for exporting have been found")
            return
        self.toast("Exporting…")
        self.host.fs.write_file(path, vcard_text(contacts, self.data.groups).encode("utf-8"))
        store = getattr(self.host, "media_store", None)
        if store is not None:  # the write goes through MediaProvider, which indexes the document
            store.scan(path)
        self.toast("Exporting successful")

    def show_filter_dialog(self) -> None:
        prefs: cd.ContactsPrefs = self.data
        contacts = _contacts(self)
        sources = [cd.PHONE_STORAGE, cd.PRIVATE_STORAGE]
        chosen = {s: s not in prefs.ignored_sources for s in sources}

        def body() -> View:
            return RecyclerView(*contact_source_rows(contacts, chosen), id="filter_contact_sources_list", height=WRAP, padding=(0, dp(8)))

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
        intent = self.extras.get("intent")
        if not self.contact_id and intent is not None and intent.data and "/lookup/" in intent.data:
            # initContact for a view intent (QUICK_CONTACT / VIEW of a lookup URI): the contact whose
            # lookup key the URI names (ContactsHelper.getContactWithLookupKey)
            key = intent.data.split("/lookup/", 1)[1].split("/", 1)[0]
            rows = _provider(self).rows("SELECT name_raw_contact_id FROM contacts WHERE lookup = ?", [key])
            self.contact_id = int(rows[0]["name_raw_contact_id"]) if rows else 0
            if not self.contact_id:
                self.toast("An unknown error occurred")
                self.host.defer(self.finish)

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
        groups = sorted((g for g in self.data.groups if contact.id in g.members), key=lambda g: g.title)
        if groups and "groups" in shown:  # setupGroups: item_view_group.xml per group, by title
            body.append(self._section("contact_groups_image", LinearLayout(*[
                TextView(g.title, "contact_group", size=sp(17), width=MATCH, padding=(0, dp(12)), key=f"group-{g.id}",
                         on_long_click=lambda: None) for g in groups], id="contact_groups_holder")))
        if "contact_source" in shown:
            body.append(self._section("contact_source_image", LinearLayout(RelativeLayout(
                TextView(contact.source, "contact_source", size=sp(17), width=MATCH, padding=(0, dp(12)),
                         on_click=lambda: None, on_long_click=lambda: None),
                id="contact_source_holder"), id="contact_sources_holder")))
        return RelativeLayout(
            ScrollView(Column(*body, id="contact_holder", class_name="android.widget.RelativeLayout"),
                       id="contact_scrollview", height=MATCH),
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
        self.group_ids = [g.id for g in self.data.groups if self.contact.id and self.contact.id in g.members]
        # the empty address and event rows of the form (their values are not stored with the contact here)
        self.address = ["", ADDRESS_TYPE_HOME]
        self.event = ["", EVENT_TYPE_BIRTHDAY]  # the date tag (yyyy-MM-dd or --MM-dd), the type
        #: ContactActivity.currentContactPhotoPath: the photo's URI once a crop returned (a contact's
        #: stored photo is not loaded into the form here)
        self.photo_uri = ""
        #: lastPhotoIntentUri: where the camera, then the crop, is asked to write
        self.last_photo_uri: str | None = None
        self.original = self._fields()
        self.last_prompt_ms = -SAVE_PROMPT_INTERVAL_MS

    def _fields(self) -> tuple:
        # hasContactChanged compares fillContactValues(), whose photoUri is currentContactPhotoPath
        return (self.first_name.strip(), self.surname.strip(), tuple((n.strip(), k) for n, k in self.numbers),
                tuple((e.strip(), k) for e, k in self.emails), self.starred, tuple(self.group_ids), self.photo_uri)

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
        # updateContactPhoto shows the photo (centerCrop) and the bottom shadow; showPhotoPlaceholder the
        # person icon without the shadow.  The photo's pixels are not drawn: a dark frame stands for them.
        photo = (ImageView("contact_photo", desc="Change photo", width=MATCH, height=dp(300), bg=(30, 30, 30),
                           on_click=self.try_set_photo) if self.photo_uri else
                 ImageView("contact_photo", icon="person", desc="Change photo", width=MATCH, height=dp(300),
                           bg=(230, 230, 230), tint=(180, 180, 180), on_click=self.try_set_photo))
        body: list[View] = [
            photo,
            *([ImageView("contact_photo_bottom_shadow", width=MATCH, height=dp(180), margin=(0, -dp(180), 0, 0))]
              if self.photo_uri else []),
            Row(ImageView("contact_toggle_favorite", icon="star" if self.starred else "star_outline",
                          desc="Toggle favorite", tint=ACCENT, on_click=self.toggle_favorite,
                          on_long_click=lambda: self.toast("Toggle favorite")),
                View(width=MATCH, weight=1),
                ImageView("contact_change_photo", icon="camera", desc="Change photo",
                          on_click=self.try_set_photo,
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
                TextView(ADDRESS_TYPES[self.address[1]], "contact_address_type", padding=(dp(8), dp(12)),
                         on_click=lambda: self.choose_type(self.address, ADDRESS_TYPES))),
                id="contact_address_holder"), id="contact_addresses_holder")))
        if "events" in shown:
            body.append(self._section("contact_events_image", LinearLayout(RelativeLayout(Row(
                TextView(_event_text(self.event[0], _today(self)) if self.event[0] else "Unknown", "contact_event",
                         weight=1, width=MATCH, on_click=self.pick_event_date, padding=(dp(4), dp(12))),
                TextView(EVENT_TYPES[self.event[1]], "contact_event_type", padding=(dp(8), dp(12)),
                         on_click=self.choose_event_type)),
                id="contact_event_holder"), id="contact_events_holder")))
        if "notes" in shown:
            body.append(self._section("contact_notes_image", EditText("", "contact_notes", hint="Notes",
                                                                      key="notes", single_line=False)))
        if "groups" in shown:
            # setupGroups / setupGroupsPicker (item_edit_group.xml): a row per group with its remove button,
            # or the "No groups" picker; each opens SelectGroupsDialog
            titles = {g.id: g.title for g in self.data.groups}
            chosen = [gid for gid in self.group_ids if gid in titles]
            rows = [RelativeLayout(Row(
                TextView(titles[gid], "contact_group", weight=1, width=MATCH, padding=(dp(4), dp(12))),
                ImageView("contact_group_remove", icon="close", width=dp(32), height=dp(32),
                          on_click=lambda gid=gid: self.group_ids.remove(gid))),
                id="contact_group_holder", key=f"group-{gid}", on_click=self.select_groups) for gid in chosen]
            if not rows:
                rows = [RelativeLayout(TextView("No groups", "contact_group", width=MATCH, padding=(dp(4), dp(12)),
                                                color=TEXT_SECONDARY, on_click=self.select_groups),
                                       id="contact_group_holder")]
            body.append(self._section("contact_groups_image", LinearLayout(*rows, id="contact_groups_holder")))
        if "contact_source" in shown:
            body.append(self._section("contact_source_image", TextView(
                self.contact.source, "contact_source", width=MATCH, on_click=self.choose_source,
                padding=(dp(4), dp(12)))))
        return RelativeLayout(
            ScrollView(Column(*body, id="contact_holder", class_name="android.widget.RelativeLayout",
                              padding=(0, 0, 0, dp(24))), id="contact_scrollview",
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

    def choose_event_type(self) -> None:
        """showEventTypePicker: Anniversary, Birthday, Other (RadioGroupDialog, the current one checked)."""
        kinds = list(EVENT_TYPES)
        radio_dialog(self, [EVENT_TYPES[k] for k in kinds], kinds.index(self.event[1]),
                     lambda index: self.event.__setitem__(1, kinds[index]))

    def pick_event_date(self) -> None:
        """The event field opens MyDatePickerDialog at its date (today when unset)."""
        show_date_picker_dialog(self, self.event[0], lambda tag: self.event.__setitem__(0, tag))

    def choose_source(self) -> None:
        """showContactSourcePicker: a RadioGroupDialog of the saveable contact sources, the contact's checked."""
        sources = [cd.PHONE_STORAGE, cd.PRIVATE_STORAGE]
        current = sources.index(self.contact.source) if self.contact.source in sources else -1
        radio_dialog(self, sources, current, lambda index: setattr(self.contact, "source", sources[index]))

    def try_set_photo(self) -> None:
        """trySetPhoto: Take photo (startTakePhotoIntent: MediaStore.ACTION_IMAGE_CAPTURE for a result, its
        EXTRA_OUTPUT a new cache photo's URI) or Choose photo (ACTION_PICK of image/*, whose result is not
        modelled); "Remove photo" once a photo is set (showPhotoPlaceholder).  Either intent finding no
        activity toasts Commons' no_app_found."""
        def pick(index: int) -> None:
            if index == 2:
                self.photo_uri = ""
                return
            if index == 0:
                self.last_photo_uri = self._cache_photo_uri()
                intent = Intent(ACTION_IMAGE_CAPTURE, extras={EXTRA_OUTPUT: self.last_photo_uri})
                started = self.start_intent_for_result(intent, INTENT_TAKE_PHOTO)
            else:
                started = self.start_intent(Intent(ACTION_PICK, mime_type="image/*"))
            if not started:
                self.toast("No valid app found")

        items = ["Take photo", "Choose photo"] + (["Remove photo"] if self.photo_uri else [])
        radio_dialog(self, items, -1, pick)

    def _cache_photo_uri(self) -> str:
        """getCachePhotoUri(): Commons' getCachePhoto creates cache/my_cache/Photo_<currentTimeMillis>.jpg
        (File.createNewFile), shared through the app's FileProvider as .../cache_files/<name>."""
        uri = f"content://{FILE_PROVIDER[0]}/cache_files/Photo_{_provider(self).clock_ms()}.jpg"
        self.host.file_providers.create(uri)
        return uri

    def on_activity_result(self, request_code: int, result_code: int, data) -> None:
        """onActivityResult: a photo taken goes to the crop (startCropPhotoIntent); a crop done sets the
        photo (updateContactPhoto(lastPhotoIntentUri)).  Any other result (BACK, Cancel) changes nothing."""
        if result_code != RESULT_OK:
            return
        if request_code == INTENT_TAKE_PHOTO:
            self.start_crop_photo(self.last_photo_uri)
        elif request_code == INTENT_CROP_PHOTO:
            self.photo_uri = self.last_photo_uri or ""

    def start_crop_photo(self, primary_uri: str | None) -> None:
        """startCropPhotoIntent (6.22.7): com.android.camera.action.CROP of the photo (image/*) for a result,
        its EXTRA_OUTPUT a new cache photo, a 512x512 square (aspectX = aspectY = 1), "crop" = "true"."""
        if primary_uri is None:
            self.toast("An unknown error occurred")
            return
        try:
            photo = self.read_uri(primary_uri)
        except FileNotFoundError:
            photo = b""
        if not photo:
            # MediaStore.Images.Media.getBitmap of an empty file gives no bitmap and the backup URI (the
            # result's data) is null for a camera shot: getBitmap(null) throws and showErrorToast shows it;
            # the model's camera always writes its shot, so this is not reached through it
            return
        self.last_photo_uri = self._cache_photo_uri()
        intent = Intent(ACTION_CROP, data=primary_uri, mime_type="image/*", extras={
            EXTRA_OUTPUT: self.last_photo_uri, "outputX": 512, "outputY": 512, "aspectX": 1, "aspectY": 1,
            "crop": "true", "scale": "true", "scaleUpIfNeeded": "true"})
        if not self.start_intent_for_result(intent, INTENT_CROP_PHOTO):
            self.toast("No valid app found")

    def toggle_favorite(self) -> None:
        self.starred = not self.starred

    def _share(self) -> None:
        share_contact(self, self.contact)

    def select_groups(self) -> None:
        """SelectGroupsDialog (dialog_select_groups.xml): a box per stored group by title, then
        "Create a new group", which adds the new group checked; OK sets the contact's groups."""
        prefs: cd.ContactsPrefs = self.data
        checked = set(self.group_ids)

        def toggle(gid: int) -> None:
            checked.symmetric_difference_update({gid})

        def create() -> None:
            before = {g.id for g in prefs.groups}

            def created() -> None:
                checked.update(g.id for g in prefs.groups if g.id not in before)

            show_create_group_dialog(self, created)

        def body() -> View:
            rows: list[View] = [RelativeLayout(
                CheckBox(group.title, "item_checkbox", checked=group.id in checked, clickable=False, focusable=False),
                id="item_checkbox_holder", key=f"group-{group.id}", padding=(dp(16), dp(4)),
                on_click=lambda gid=group.id: toggle(gid)) for group in sorted(prefs.groups, key=lambda g: g.title)]
            rows.append(TextView("Create a new group", "item_textview", width=MATCH, padding=(dp(20), dp(16)),
                                 on_click=create))
            return ScrollView(Column(*rows, id="dialog_groups_holder", padding=(0, dp(8))),
                              id="dialog_radio_holder", height=WRAP, focusable=False)

        def ok(_d: Dialog) -> None:
            self.group_ids = [g.id for g in sorted(prefs.groups, key=lambda g: g.title) if g.id in checked]

        self.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))

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
        if self.photo_uri:
            # getPhotoUpdateStatus: PHOTO_ADDED (the form starts without the stored photo); ContactsHelper's
            # addPhoto / addFullSizePhoto read the photo through its URI into the contact's Photo row
            try:
                cd.set_photo(_provider(self), contact, self.read_uri(self.photo_uri))
            except (FileNotFoundError, ValueError):
                pass  # MediaStore.Images.Media.getBitmap throws; ContactsHelper catches it (showErrorToast)
        if self.starred != bool(_find_contact(self, contact.id).starred):
            cd.set_starred(_provider(self), contact, self.starred)
        for group in self.data.groups:  # ContactsHelper.addContactsToGroup / removeContactsFromGroup
            if group.id in self.group_ids and contact.id not in group.members:
                group.members.append(contact.id)
            elif group.id not in self.group_ids and contact.id in group.members:
                group.members.remove(contact.id)
        self.finish()

    def confirm_delete(self) -> None:
        def delete() -> None:
            cd.delete_contact(_provider(self), self.contact)
            self.finish()

        self.show_dialog(_message_dialog(DELETE_CONFIRMATION, delete))


# ---------------------------------------------------------------------------
# GroupContactsActivity


class GroupContactsActivity(Activity):
    """One group's contacts (activity_group_contacts.xml): Ringtone / Send SMS / Send email to group,
    "Add contacts" (SelectContactsDialog over every contact, the members checked)."""

    name = "com.simplemobiletools.contacts.pro.activities.GroupContactsActivity"

    def on_create(self) -> None:
        self.group_id = int(self.extras.get("group_id", 0))
        self.selected: list[int] = []  # ContactsAdapter's selection (LOCATION_GROUP_CONTACTS)

    def on_back(self) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False

    def _group(self) -> cd.Group | None:
        return next((g for g in self.data.groups if g.id == self.group_id), None)

    def _members(self, group: cd.Group) -> list[cd.Contact]:
        prefs: cd.ContactsPrefs = self.data
        members = [c for c in _contacts(self) if c.id in group.members]
        members.sort(key=lambda c: c.sort_key(prefs.sorting), reverse=not prefs.ascending)
        return members

    def build(self) -> View:
        group = self._group()
        title = group.title if group is not None else ""
        members = self._members(group) if group is not None else []
        items = menu(APP, "menu_group", {
            "assign_ringtone_to_group": None,  # the system ringtone picker (RingtoneManager.ACTION_RINGTONE_PICKER)
            "send_sms_to_group": lambda: self.send_to_group(members, sms=True),
            "send_email_to_group": lambda: self.send_to_group(members, sms=False)})
        self.selected = [i for i in self.selected if i in {c.id for c in members}]
        if members:
            content: list[View] = [FrameLayout(
                RecyclerView(*[contact_row(c, self.data, selected=c.id in self.selected,
                                           on_click=lambda c=c: self.tap_contact(c),
                                           on_long_click=lambda c=c: self.selected.append(c.id)
                                           if c.id not in self.selected else None)
                               for c in members], id="group_contacts_list", height=MATCH),
                id="group_contacts_fastscroller",
                class_name="com.qtalk.recyclerviewfastscroller.RecyclerViewFastScroller", height=MATCH)]
        else:
            content = [Column(
                TextView("This group is empty", "group_contacts_placeholder", width=MATCH, gravity="center",
                         color=TEXT_SECONDARY, padding=(dp(24), dp(24), dp(24), dp(8))),
                TextView("Add contacts", "group_contacts_placeholder_2", color=ACCENT,
                         layout_gravity="center_horizontal", padding=(dp(16), dp(16)), on_click=self.add_contacts),
                class_name="android.widget.RelativeLayout")]
        header = self._selection_bar(group, members) if self.selected else self.toolbar(
            "group_contacts_toolbar", title=title, items=items, back=True)
        return Column(
            header,
            FrameLayout(
                RelativeLayout(*content, id="group_contacts_wrapper", height=MATCH),
                ImageButton("group_contacts_fab", icon="plus", width=dp(56), height=dp(56),
                            layout_gravity="bottom|end", margin=dp(16), bg=ACCENT, radius=dp(28),
                            tint=(255, 255, 255), on_click=self.add_contacts),
                id="group_contacts_holder", class_name=COORDINATOR_LAYOUT, weight=1, height=MATCH),
            id="group_contacts_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def tap_contact(self, contact: cd.Contact) -> None:
        if not self.selected:
            generic_contact_click(self, contact)
        elif contact.id in self.selected:
            self.selected.remove(contact.id)
        else:
            self.selected.append(contact.id)

    def _selection_bar(self, group: cd.Group, members: list[cd.Contact]) -> View:
        """cab.xml as ContactsAdapter.prepareActionMode shows it for LOCATION_GROUP_CONTACTS: "Remove from group"."""
        chosen = [c for c in members if c.id in self.selected]

        def select_all() -> None:
            self.selected = [c.id for c in members]

        def edit() -> None:
            contact_id = self.selected[0]
            self.selected = []
            self.start(EditContactActivity, contact_id=contact_id)

        def remove() -> None:  # removeContacts -> removeFromGroup
            group.members = [m for m in group.members if m not in self.selected]
            self.selected = []

        def delete() -> None:
            def confirmed() -> None:
                for contact in chosen:
                    cd.delete_contact(_provider(self), contact)
                self.selected = []

            what = f'"{chosen[0].shown_name()}"' if len(chosen) == 1 else f"{len(chosen)} contacts"
            self.show_dialog(_message_dialog(f"Are you sure you want to delete {what}?", confirmed))

        items = menu(APP, "cab", {
            "cab_edit": edit, "cab_share": lambda: self.toast("No valid app found"),
            "cab_send_sms_to_contacts": lambda: self.send_to_group(chosen, sms=True),
            "cab_send_email_to_contacts": lambda: self.send_to_group(chosen, sms=False),
            "cab_select_all": select_all, "cab_delete": delete, "cab_remove": remove},
            hide=["cab_add_to_favorites", "cab_add_to_group", "cab_create_shortcut",
                  *(() if len(self.selected) == 1 else ("cab_edit",))], kind=ACTION_MODE)
        for item in items:
            if item.id == "cab_remove":
                item.title = "Remove from group"
        every = len(self.selected) >= len(members)
        return action_mode_bar(self, f"{len(self.selected)} / {len(members)}", items,
                               on_close=self.selected.clear, on_title=self.selected.clear if every else select_all)

    def add_contacts(self) -> None:
        group = self._group()
        if group is None:
            return
        contacts = _contacts(self)

        def done(added: list[cd.Contact], removed: list[cd.Contact]) -> None:
            gone = {c.id for c in removed}
            group.members = [m for m in group.members if m not in gone] + [c.id for c in added]

        show_select_contacts_dialog(self, contacts, [c.id for c in contacts if c.id in group.members], done)

    def send_to_group(self, members: list[cd.Contact], sms: bool) -> None:
        """sendSMSToContacts / sendEmailToContacts: "No contacts found" for an empty group."""
        if not members:
            self.toast("No contacts found")
        elif sms and self.host.app("com.simplemobiletools.smsmessenger") is not None:
            self.launch_app("com.simplemobiletools.smsmessenger")
        else:
            self.toast("No valid app found")


# ---------------------------------------------------------------------------
# SettingsActivity


class SettingsActivity(Activity):
    """The app's settings (activity_settings.xml and SettingsActivity.kt at 6.22.7, on Android 14)."""

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
        ("BACKUPS", "settings_backups", (("enable_automatic_backups", "Enable automatic backups"),)),
    )
    DEFAULT_TABS = ((cd.TAB_CONTACTS, "Contacts"), (cd.TAB_FAVORITES, "Favorites"), (cd.TAB_GROUPS, "Groups"),
                    (cd.TAB_LAST_USED, "Last used one"))
    ON_CLICK = ((cd.ON_CLICK_CALL_CONTACT, "Call contact"), (cd.ON_CLICK_VIEW_CONTACT, "View contact details"),
                (cd.ON_CLICK_EDIT_CONTACT, "Edit contact"))

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
                # setupLanguage: shown on Android 13+, it opens the system's per-app language screen
                # (Settings.ACTION_APP_LOCALE_SETTINGS)
                blocks.append(self._row("settings_language", "Language", "English",
                                        lambda: launch_change_app_language(self)))
                blocks.append(self._row("settings_font_size", "Font size", prefs.font_size, self.choose_font_size))
                blocks.append(self._row("settings_manage_contact_fields", "Manage shown contact fields",
                                        on_click=lambda: show_visible_fields_dialog(self)))
            if prefix == "settings_main_screen":
                blocks.append(self._row("settings_manage_shown_tabs", "Manage shown tabs",
                                        on_click=self.manage_shown_tabs))
                blocks.append(self._row("settings_default_tab", "Tab to open at app start",
                                        dict(self.DEFAULT_TABS)[prefs.default_tab], self.choose_default_tab))
                blocks.append(self._row("settings_on_contact_click", "On contact click",
                                        dict(self.ON_CLICK)[prefs.on_contact_click], self.choose_on_contact_click))
            for key, label in boxes:
                if key == "enable_automatic_backups":
                    blocks.append(settings_checkbox(f"settings_{key}", label, prefs.auto_backup,
                                                    lambda _value: self.toggle_automatic_backups()))
                    if prefs.auto_backup:  # setupManageAutomaticBackups: a one-line row, its text the label
                        blocks.append(RelativeLayout(
                            TextView("Manage automatic backups", "settings_manage_automatic_backups", size=sp(16)),
                            id="settings_manage_automatic_backups_holder", padding=(dp(22), dp(16)),
                            on_click=lambda: self.manage_automatic_backups(None)))
                    continue
                blocks.append(settings_checkbox(f"settings_{key}", label, prefs.checkboxes[key],
                                                lambda value, k=key: prefs.checkboxes.__setitem__(k, value)))
            if prefix == "settings_list_view":
                blocks.append(Divider("settings_tasks_divider"))
            elif prefix != "settings_backups":
                blocks.append(Divider(f"{prefix}_divider"))
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

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

    def toggle_automatic_backups(self) -> None:
        """Turning automatic backups on asks ManageAutoBackupsDialog first; off is at once."""
        prefs: cd.ContactsPrefs = self.data
        if prefs.auto_backup:
            prefs.auto_backup = False
        else:
            self.manage_automatic_backups(lambda: setattr(prefs, "auto_backup", True))

    def manage_automatic_backups(self, on_success) -> None:
        """ManageAutoBackupsDialog: "Manage automatic backups", the folder (BaseConfig.autoBackupFolder:
        Download, humanised), the file name pattern, the contact sources with their counts.

        Tapping the folder opens Commons' FilePickerDialog, and the file name's end icon the date pattern
        help (DateTimePatternInfoDialog); neither is modelled yet.
        """
        prefs: cd.ContactsPrefs = self.data
        contacts = _contacts(self)
        sources = [cd.PHONE_STORAGE, cd.PRIVATE_STORAGE]
        chosen = {s: not prefs.backup_sources or s in prefs.backup_sources for s in sources}

        def body() -> View:
            rows = contact_source_rows(contacts, chosen)
            return ScrollView(Column(
                FrameLayout(EditText("Internal/Download", "backup_contacts_folder", hint="Folder", focusable=False,
                                     key="backup_folder"),
                            id="backup_contacts_folder_hint",
                            class_name="com.google.android.material.textfield.TextInputLayout"),
                FrameLayout(EditText(prefs.backup_filename or "Contacts_%Y%M%D_%h%m%s", "backup_contacts_filename",
                                     hint="Filename (without .vcf)", key="backup_filename"),
                            id="backup_contacts_filename_hint",
                            class_name="com.google.android.material.textfield.TextInputLayout"),
                Divider("backup_contacts_divider", margin=(0, dp(16), 0, dp(8))),
                TextView("Include contact sources", "backup_contacts_pick_sources_label", color=ACCENT, size=sp(14),
                         padding=(dp(4), dp(8))),
                RecyclerView(*rows, id="backup_contact_sources_list", height=WRAP),
                id="backup_contacts_holder", padding=(dp(16), dp(16), dp(16), 0)),
                id="backup_contacts_scrollview", height=WRAP, focusable=False)

        def ok(d: Dialog) -> bool:
            name = d.find("backup_contacts_filename").text.strip()
            problem = filename_problem(name)
            if problem:
                self.toast(problem)
                return False
            selected = {s for s, on in chosen.items() if on}
            if not selected:
                self.toast("No entries for exporting have been found")
                return False
            prefs.backup_sources, prefs.backup_filename = selected, name
            if on_success is not None:
                on_success()
            return True

        self.show_dialog(Dialog("Manage automatic backups", body, positive=("OK", ok), negative="Cancel"))

    def manage_shown_tabs(self) -> None:
        """ManageVisibleTabsDialog: a box per tab; none checked means all (ALL_TABS_MASK)."""
        prefs: cd.ContactsPrefs = self.data
        boxes = (("contacts", "Contacts", cd.TAB_CONTACTS), ("favorites", "Favorites", cd.TAB_FAVORITES),
                 ("groups", "Groups", cd.TAB_GROUPS))

        def body() -> View:
            return ScrollView(Column(*[CheckBox(label, f"manage_visible_tabs_{key}", checked=bool(prefs.show_tabs & bit),
                                                padding=(dp(40), dp(12), 0, dp(12))) for key, label, bit in boxes],
                                     id="manage_visible_tabs_holder", padding=(dp(16), dp(16), dp(16), 0)),
                              id="manage_visible_tabs_scroll_view", height=WRAP, focusable=False)

        def ok(d: Dialog) -> None:
            result = sum(bit for key, _label, bit in boxes if d.find(f"manage_visible_tabs_{key}").checked)
            prefs.show_tabs = result or cd.ALL_TABS_MASK

        self.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))

    def choose_default_tab(self) -> None:
        values = [value for value, _ in self.DEFAULT_TABS]
        radio_dialog(self, [label for _, label in self.DEFAULT_TABS], values.index(self.data.default_tab),
                     lambda index: setattr(self.data, "default_tab", values[index]))

    def choose_on_contact_click(self) -> None:
        values = [value for value, _ in self.ON_CLICK]
        radio_dialog(self, [label for _, label in self.ON_CLICK], values.index(self.data.on_contact_click),
                     lambda index: setattr(self.data, "on_contact_click", values[index]))

    def choose_font_size(self) -> None:
        radio_dialog(self, list(FONT_SIZES), FONT_SIZES.index(self.data.font_size),
                     lambda index: setattr(self.data, "font_size", FONT_SIZES[index]))


# ---------------------------------------------------------------------------
# the app


class ContactsApp(CommonsApp):
    """Simple Contacts Pro: its preferences; the contacts are the phone's (system provider)."""

    package = PACKAGE
    label = "Contacts"
    activities = (MainActivity, ViewContactActivity, EditContactActivity, GroupContactsActivity, SettingsActivity,
                  CustomizationActivity)
    file_provider = FILE_PROVIDER

    # AndroidManifest.xml (6.22.7): ViewContactActivity views a contact for VIEW and QUICK_CONTACT
    intent_filters = (
        (ViewContactActivity.name, "", IntentFilter((ACTION_VIEW,), mime_types=(
            "vnd.android.cursor.dir/person", "vnd.android.cursor.dir/contact", "vnd.android.cursor.item/group",
            "vnd.android.cursor.item/person", "vnd.android.cursor.item/contact",
            "vnd.android.cursor.item/raw_contact"))),
        (ViewContactActivity.name, "", IntentFilter(
            ("com.android.contacts.action.QUICK_CONTACT", "android.provider.action.QUICK_CONTACT"),
            mime_types=("vnd.android.cursor.item/contact", "vnd.android.cursor.item/person"))),
    )

    def new_data(self) -> cd.ContactsPrefs:
        return cd.ContactsPrefs()


__all__ = ["ContactsApp", "EditContactActivity", "GroupContactsActivity", "MainActivity", "SettingsActivity",
           "ViewContactActivity"]

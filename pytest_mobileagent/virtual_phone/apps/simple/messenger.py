"""Simple SMS Messenger 5.19.3 (`com.simplemobiletools.smsmessenger`) for the virtual phone.

Screens, ids and texts follow the release's sources at the 5.19.3 tag and the
Simple-Commons commit it pins (b72ded2a75); the DroidTask recordings (July
2023, an older release) served where the source agrees with them:

* MainActivity: the search bar with Settings / About actions and "More
  options" (Show archived conversations), the conversation list (a long press
  selects: Delete, Archive ... with their confirmations), search results over
  the list, the FAB.
* NewConversationActivity: number field, confirm, the phone's contacts; it
  stays on the back stack under the thread it opens.
* ThreadActivity: messages with date headers, typing and sending (a sent SMS
  is stored in the phone's SMS provider as type 2), the attachment picker, the
  "Add Person" panel, a message's long press bar with Properties ("Message
  details"), Conversation details (ConversationDetailsActivity, rename).
* ArchivedConversationsActivity ("Archive"), SettingsActivity (the release's
  rows, Change date and time format, Export messages), Commons'
  ManageBlockedNumbersActivity (Compose: ``commons_blocked_numbers``), About.

As on Android 10+, the app works only as the default SMS app: without the
SMS role its start shows the role request ("Set SMS Messenger as your
default SMS app?"); `cmd role add-role-holder android.app.role.SMS
com.simplemobiletools.smsmessenger` grants it beforehand.  Messages,
threads (with their archived flag) and blocked numbers are the phone's
providers', shared with other apps.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ...framework.intents import (ACTION_DIAL, ACTION_GET_CONTENT, ACTION_SEND, ACTION_SEND_MULTIPLE, ACTION_SENDTO, ACTION_VIEW,
                       Intent, IntentFilter)
from ...framework.providers.telephony import TYPE_FAILED, TYPE_INBOX, TYPE_OUTBOX, TYPE_SENT
from ...framework.sms_dispatcher import RESULT_OK
from ...framework.roles import ROLE_SMS
from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
    Button,
    CheckBox,
    Column,
    Divider,
    EditText,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    MenuItem,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT
from ..commons.commons_app import CommonsApp
from ..commons.commons_compose import AboutActivity
from ..commons.commons_blocked_numbers import ManageBlockedNumbersActivity
from ..commons.commons_dialogs import radio_dialog
from ..commons.commons_files import filename_problem
from .contacts_data import load_contacts
from ..commons.date_time_format import show_date_time_dialog
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..system.settings_notifications import ACTION_APP_NOTIFICATION_SETTINGS, EXTRA_APP_PACKAGE
from ..commons.search_menu import SearchMenu
from ..commons.commons_security import password_protection_row
from ..commons.simple_commons import CustomizationActivity, action_mode_bar, launch_change_app_language

PACKAGE = "com.simplemobiletools.smsmessenger"
APP = "messenger"  # its menus in data/menus.json
FONT_SIZES = ("Small", "Medium", "Large", "Extra large")
#: SettingsActivity.setupLockScreenVisibility's items, by Config.lockScreenVisibilitySetting (1-3)
LOCK_SCREEN_VISIBILITY = ("Sender and message", "Sender only", "Nothing")
ACTION_QUICK_CONTACT = "android.provider.action.QUICK_CONTACT"  # ContactsContract.QuickContact
DAY_MS = 24 * 3600 * 1000


# ---------------------------------------------------------------------------
# reading the phone's SMS provider


class Thread:
    """A conversation: its thread row, address and messages (oldest first)."""

    def __init__(self, row, address: str, name: str) -> None:
        self.id = row["_id"]
        self.date = row["date"]
        self.snippet = row["snippet"] or ""
        self.archived = bool(row["archived"])
        self.read = bool(row["read"])
        self.address = address
        self.name = name


def _names_by_number(activity: Activity) -> dict[str, str]:
    names = {}
    for contact in load_contacts(activity.host.providers.contacts):
        for number, _kind in contact.numbers:
            names.setdefault(_digits(number), contact.shown_name())
    return names


def _digits(number: str) -> str:
    return "".join(c for c in number if c.isdigit() or c == "+")


def load_threads(activity: Activity) -> list[Thread]:
    """All threads, newest first, with the contact name of their number when the phone knows it."""
    sms = activity.host.providers.sms
    names = _names_by_number(activity)
    threads = []
    for row in sms.rows("SELECT threads.*, canonical_addresses.address AS address FROM threads LEFT JOIN "
                        "canonical_addresses ON canonical_addresses._id = CAST(threads.recipient_ids AS INTEGER) "
                        "ORDER BY threads.date DESC, threads._id DESC"):
        address = row["address"] or ""
        # Conversation.title: a title set through "Rename conversation" wins (usesCustomTitle)
        name = activity.data["conversation_titles"].get(row["_id"]) or names.get(_digits(address), address)
        threads.append(Thread(row, address, name))
    return threads


def load_messages(activity: Activity, thread_id: int):
    return activity.host.providers.sms.rows(
        "SELECT _id, address, body, date, type, read FROM sms WHERE thread_id = ? ORDER BY date, _id", [thread_id])


def format_time(ms: int) -> str:
    return time.strftime("%I:%M %p", time.gmtime(ms / 1000)).lstrip("0")


def format_short_date(ms: int, now_ms: int) -> str:
    """The list's date: the time for today, else day.month (the app's default dd.MM.yyyy format)."""
    if time.gmtime(ms / 1000)[:3] == time.gmtime(now_ms / 1000)[:3]:
        return format_time(ms)
    return time.strftime("%d.%m", time.gmtime(ms / 1000))


def _confirm(activity: Activity, message: str, on_yes: Callable[[], object]) -> None:
    """The commons ConfirmationDialog: the message with No / Yes."""
    activity.show_dialog(Dialog(
        body=lambda: ScrollView(TextView(message, "message", width=MATCH, padding=(dp(24), dp(20))),
                                id="message_scrollview", height=WRAP, focusable=False),
        positive=("Yes", lambda _d: on_yes()), negative="No"))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# ---------------------------------------------------------------------------
# the conversation lists (main screen and archive)


class _ConversationList(Activity):
    """What the main screen and the archive share: the list, its selection and their actions."""

    archived_list = False

    def on_create(self) -> None:
        self.selected: list[int] = []

    def on_back(self) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False

    def threads(self) -> list[Thread]:
        return [t for t in load_threads(self) if t.archived == self.archived_list]

    def conversation_rows(self, threads: list[Thread]) -> list[View]:
        now = self.host.providers.sms.clock_ms()
        rows = []
        for thread in threads:
            selected = thread.id in self.selected
            rows.append(FrameLayout(
                RelativeLayout(Row(
                    FrameLayout(ImageView("conversation_image", icon="person", width=dp(48), height=dp(48)),
                                RelativeLayout(id="pin_indicator_l", width=dp(48), height=dp(48)),
                                width=WRAP, margin=(dp(16), 0)),
                    Column(TextView(thread.name, "conversation_address", size=sp(18), bold=not thread.read,
                                    max_lines=1, width=MATCH),
                           TextView(thread.snippet, "conversation_body_short", color=TEXT_SECONDARY, max_lines=1,
                                    width=MATCH),
                           TextView(format_short_date(thread.date, now), "conversation_date", size=sp(13),
                                    color=TEXT_SECONDARY, width=MATCH),
                           weight=1, width=MATCH, margin=(0, 0, dp(16), 0)),
                    gravity="center_vertical"), id="conversation_holder", padding=(0, dp(16))),
                id="conversation_frame", key=f"thread-{thread.id}", selected=selected,
                bg=(255, 230, 220) if selected else None,
                on_click=lambda t=thread: self.conversation_clicked(t),
                on_long_click=lambda t=thread: self.toggle_selection(t)))
        return rows

    def conversation_clicked(self, thread: Thread) -> None:
        if self.selected:
            self.toggle_selection(thread)
        else:
            self.start(ThreadActivity, thread_id=thread.id, address=thread.address)

    def toggle_selection(self, thread: Thread) -> None:
        if thread.id in self.selected:
            self.selected.remove(thread.id)
        else:
            self.selected.append(thread.id)

    def selection_bar(self) -> View:
        """The action mode of ConversationsAdapter / ArchivedConversationsAdapter (their prepareActionMode)."""
        threads = {t.id: t for t in self.threads()}
        self.selected = [i for i in self.selected if i in threads]
        chosen = [threads[i] for i in self.selected]
        one = len(self.selected) == 1

        def select_all() -> None:
            self.selected.extend(i for i in threads if i not in self.selected)

        if self.archived_list:
            items = menu(APP, "cab_archived_conversations", {
                "cab_delete": self.confirm_delete, "cab_unarchive": lambda: self.set_archived(False),
                "cab_select_all": select_all}, kind=ACTION_MODE)
        else:
            # Conversations are one-to-one here (no group threads): the single-selection items show.
            items = menu(APP, "cab_conversations", {
                "cab_delete": self.confirm_delete, "cab_add_number_to_contact": self.no_app,
                "cab_dial_number": self.dial_selected, "cab_block_number": self.block_selected,
                "cab_archive": self.confirm_archive,
                "cab_copy_number": lambda: self.toast("Copied to clipboard"),
                "cab_mark_as_read": self.mark_read, "cab_mark_as_unread": self.mark_unread,
                "cab_pin_conversation": None, "cab_select_all": select_all},
                hide=[*(() if one else ("cab_add_number_to_contact", "cab_dial_number", "cab_copy_number")),
                      "cab_rename_conversation", "cab_unpin_conversation",
                      *(() if any(not t.read for t in chosen) else ("cab_mark_as_read",)),
                      *(() if any(t.read for t in chosen) else ("cab_mark_as_unread",))],
                kind=ACTION_MODE)
        return action_mode_bar(self, f"{len(self.selected)} / {len(threads)}", items,
                               on_close=self.selected.clear,
                               on_title=self.selected.clear if len(self.selected) == len(threads) else select_all)

    def no_app(self) -> None:
        self.toast("No valid app found")

    def dial_selected(self) -> None:
        """cab_dial_number: Commons' dialNumber, ACTION_DIAL with the conversation's tel: number."""
        address = next((t.address for t in self.threads() if t.id in self.selected), "")
        self.selected = []  # the action mode finishes
        _dial(self, address)

    def _conversations(self) -> str:
        return _count(len(self.selected), "conversation", "conversations")

    def confirm_delete(self) -> None:
        ids = list(self.selected)

        def delete() -> None:
            for thread_id in ids:
                self.host.providers.sms.delete_thread(thread_id)
            self.selected = []

        _confirm(self, f"Are you sure you want to delete {self._conversations()}?", delete)

    def confirm_archive(self) -> None:
        ids = list(self.selected)

        def archive() -> None:
            self.set_archived(True, ids)

        _confirm(self, f"Are you sure you want to archive {self._conversations()}?", archive)

    def set_archived(self, archived: bool, ids: list[int] | None = None) -> None:
        for thread_id in ids if ids is not None else list(self.selected):
            self.host.providers.sms.set_archived(thread_id, archived)
        self.selected = []

    def mark_read(self) -> None:
        for thread_id in self.selected:
            self.host.providers.sms.update("content://sms", {"read": 1}, f"thread_id = {thread_id}")
        self.selected = []

    def mark_unread(self) -> None:
        for thread_id in self.selected:
            self.host.providers.sms.update("content://sms", {"read": 0}, f"thread_id = {thread_id}")
        self.selected = []

    def block_selected(self) -> None:
        addresses = [t.address for t in self.threads() if t.id in self.selected]
        for address in addresses:
            self.host.providers.blocked.insert("content://com.android.blockednumber/blocked",
                                               {"original_number": address})
        self.selected = []


class MainActivity(_ConversationList):
    """The conversations, the search bar and the FAB; asks for the SMS role first."""

    name = "com.simplemobiletools.smsmessenger.activities.MainActivity"

    def on_create(self) -> None:
        super().on_create()
        self.search = SearchMenu(self)
        if not self.holds_role(ROLE_SMS):
            self.request_role()

    def request_role(self) -> None:
        """The system's RequestRoleActivity (shown here as a dialog over the app)."""
        def accept(_d: Dialog) -> None:
            self.host.roles.add(ROLE_SMS, self.app.package)

        def decline() -> None:
            if not self.holds_role(ROLE_SMS):
                self.finish()

        current = [p for p in self.host.roles.holders(ROLE_SMS)]
        self.show_dialog(Dialog(
            "Set SMS Messenger as your default SMS app?",
            body=lambda: Column(*[TextView(p, width=MATCH, padding=(dp(24), dp(8))) for p in current],
                                TextView("SMS Messenger", width=MATCH, padding=(dp(24), dp(12)), bold=True),
                                padding=(0, dp(8))),
            positive=("Set as default", accept), negative=("Cancel", lambda _d: decline()),
            cancelable=False))

    def on_back(self) -> bool:
        if super().on_back():
            return True
        if self.search.open or self.search.query:
            self.search.close()
            return True
        return False

    def build(self) -> View:
        if not self.holds_role(ROLE_SMS):
            return Column(id="main_coordinator", class_name="android.widget.ScrollView", height=MATCH)
        threads = self.threads()
        header = LinearLayout(self.selection_bar(), id="main_menu") if self.selected else self._search_bar()
        if threads:
            content: list[View] = [RelativeLayout(
                RecyclerView(*self.conversation_rows(threads), id="conversations_list", height=MATCH),
                id="conversations_fastscroller", height=MATCH)]
        else:
            content = [Column(
                TextView("No stored conversations have been found", "no_conversations_placeholder", width=MATCH,
                         gravity="center", color=TEXT_SECONDARY, padding=(dp(24), dp(32), dp(24), dp(8))),
                TextView("Start a conversation", "no_conversations_placeholder_2", color=ACCENT,
                         layout_gravity="center_horizontal", padding=(dp(16), dp(16)), on_click=self.new_conversation),
                class_name="android.widget.RelativeLayout")]
        holder = RelativeLayout(*content, id="main_holder", height=MATCH)
        wrapper: list[View] = [FrameLayout(holder, id="main_coordinator_wrapper", class_name=COORDINATOR_LAYOUT,
                                           height=MATCH)]
        if self.search.query.strip():
            wrapper.append(self._search_results())
        return FrameLayout(
            Column(
                header,
                FrameLayout(*wrapper, id="main_nested_scrollview", class_name="android.widget.RelativeLayout",
                            weight=1, height=MATCH),
                height=MATCH),
            ImageButton("conversations_fab", icon="plus", width=dp(56), height=dp(56), layout_gravity="bottom|end",
                        margin=dp(16), bg=ACCENT, radius=dp(28), tint=(255, 255, 255), on_click=self.new_conversation),
            id="main_coordinator", class_name="android.widget.ScrollView", height=MATCH)

    def _search_bar(self) -> View:
        # MainActivity.refreshMenuItems: the Recycle Bin entry needs config.useRecycleBin (off by default).
        items = menu(APP, "menu_main", {
            "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(AboutActivity),
            "show_archived": lambda: self.start(ArchivedConversationsActivity)},
            hide=["show_recycle_bin", *FDROID_HIDDEN])
        return self.search.build(items)

    def _search_results(self) -> View:
        """Conversations whose name or number match, then messages whose text matches (commons search)."""
        query = self.search.query.strip().casefold()
        now = self.host.providers.sms.clock_ms()
        results = []
        for thread in load_threads(self):
            if query in thread.name.casefold() or query in thread.address.casefold():
                results.append((thread, thread.name, thread.address, thread.date))
        for thread in load_threads(self):
            for message in load_messages(self, thread.id):
                if query in (message["body"] or "").casefold():
                    results.append((thread, thread.name, message["body"], message["date"]))
        rows = [RelativeLayout(
            Row(ImageView("search_result_image", icon="person", width=dp(48), height=dp(48), margin=(dp(16), 0)),
                Column(Row(TextView(title, "search_result_title", size=sp(18), weight=1, width=MATCH, max_lines=1),
                           TextView(time.strftime("%d.%m.%Y", time.gmtime(date / 1000)) if
                                    format_short_date(date, now) != format_time(date) else format_time(date),
                                    "search_result_date", size=sp(13), color=TEXT_SECONDARY)),
                       TextView(snippet, "search_result_snippet", color=TEXT_SECONDARY, max_lines=1, width=MATCH),
                       weight=1, width=MATCH, margin=(0, 0, dp(16), 0)),
                gravity="center_vertical"),
            id="search_result_holder", key=f"result-{i}", padding=(0, dp(8)),
            on_click=lambda t=thread: self.start(ThreadActivity, thread_id=t.id, address=t.address),
            on_long_click=lambda: None)
            for i, (thread, title, snippet, date) in enumerate(results)]
        if not rows:
            rows = [TextView("No items found.", "search_placeholder", width=MATCH, gravity="center",
                             color=TEXT_SECONDARY, padding=(dp(16), dp(24)))]
        results = RecyclerView(*rows, id="search_results_list", height=MATCH)
        # RecyclerView.onTouchEvent returns true whenever it has a layout manager: a tap on the list's empty
        # part stops there and never reaches the conversations drawn under search_holder.
        results.consumes_touch = True
        return RelativeLayout(results, id="search_holder", height=MATCH, bg=(255, 255, 255))

    def new_conversation(self) -> None:
        self.start(NewConversationActivity)


class ArchivedConversationsActivity(_ConversationList):
    """"Archive": the archived conversations, with Delete / Unarchive on selection."""

    name = "com.simplemobiletools.smsmessenger.activities.ArchivedConversationsActivity"
    title = "Archive"
    archived_list = True

    def build(self) -> View:
        threads = self.threads()
        header = self.selection_bar() if self.selected else self.toolbar(
            "archive_toolbar", title="Archive", back=True,
            items=menu(APP, "archive_menu", {"empty_archive": self.confirm_empty},
                       hide=() if threads else ["empty_archive"]))
        if threads:
            content: View = RelativeLayout(
                RecyclerView(*self.conversation_rows(threads), id="conversations_list", height=MATCH),
                id="conversations_fastscroller", height=MATCH)
        else:
            content = TextView("No archived conversations have been found", "no_conversations_placeholder",
                               width=MATCH, gravity="center", color=TEXT_SECONDARY,
                               padding=(dp(24), dp(32), dp(24), dp(8)))
        return Column(header, RelativeLayout(RelativeLayout(content, id="archive_holder", height=MATCH),
                                             id="archive_nested_scrollview", weight=1, height=MATCH),
                      id="archive_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def confirm_empty(self) -> None:
        def empty() -> None:
            for thread in self.threads():
                self.host.providers.sms.delete_thread(thread.id)
            self.toast("The archive has been emptied successfully")

        _confirm(self, "Are you sure you want to empty the archive? All archived conversations will be "
                       "permanently lost.", empty)


# ---------------------------------------------------------------------------
# new conversation and the thread


class NewConversationActivity(Activity):
    """Number entry with its confirm button, and the phone's contacts to pick from."""

    name = "com.simplemobiletools.smsmessenger.activities.NewConversationActivity"

    def on_create(self) -> None:
        # isThirdPartyIntent: SENDTO / SEND / VIEW with an sms:, smsto:, mms: or mmsto: number opens that
        # number's thread at once and finishes this screen
        intent = self.extras.get("intent")
        if intent is not None and intent.data and intent.action in (ACTION_SENDTO, ACTION_SEND, ACTION_VIEW):
            number = intent.data
            for prefix in ("sms:", "smsto:", "mms", "mmsto:"):
                number = number.removeprefix(prefix)
            self.host.defer(lambda: self._third_party(number.strip()))
        self.address = ""
        # onCreate: window.setSoftInputMode(SOFT_INPUT_STATE_ALWAYS_VISIBLE); the address field requests focus
        self.set_soft_input_mode("stateAlwaysVisible")

    def build(self) -> View:
        contacts = [c for c in load_contacts(self.host.providers.contacts) if c.numbers]
        query = self.address.strip().casefold()
        if query:
            contacts = [c for c in contacts if query in c.shown_name().casefold()
                        or any(query in n for n, _ in c.numbers)]
        contacts.sort(key=lambda c: c.shown_name().casefold())
        address_row = Row(
            EditText(self.address, "new_conversation_address", hint="Add Contact or Number…", weight=1, width=MATCH,
                     autofocus=True, on_text_changed=self.address_changed, key="address"),
            ImageView("new_conversation_confirm", icon="check", tint=ACCENT, desc="OK", on_click=self.confirm)
            if len(self.address) > 2 else None,  # beVisibleIf(searchString.length > 2)
            gravity="center_vertical", margin=(dp(16), dp(8)))
        rows = [RelativeLayout(
            Row(ImageView("item_contact_image", icon="person", width=dp(48), height=dp(48), margin=(dp(16), 0)),
                Column(TextView(c.shown_name(), "item_contact_name", size=sp(17), width=MATCH, max_lines=1),
                       TextView(c.numbers[0][0], "item_contact_number", color=TEXT_SECONDARY, width=MATCH),
                       weight=1, width=MATCH), gravity="center_vertical"),
            id="item_contact_holder", key=f"contact-{c.id}", padding=(0, dp(8)),
            on_click=lambda n=c.numbers[0][0]: self.open_thread(n)) for c in contacts]
        return Column(
            self.toolbar("new_conversation_toolbar", title="New conversation", back=True),
            RelativeLayout(Column(
                address_row,
                Divider("add_contact_divider"),
                RecyclerView(*rows, id="contacts_list", height=MATCH)), id="new_conversation_holder", height=MATCH,
                weight=1),
            id="new_conversation_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def address_changed(self, text: str) -> None:
        self.address = text

    def confirm(self) -> None:
        number = self.address.strip()
        if not number:
            return
        if any(c.isalpha() for c in number):  # isShortCodeWithLetters: the field is emptied
            self.address = ""
            self.find("new_conversation_address").text = ""
            self.toast("Can't reply to short codes like this")
            return
        self.open_thread(number)

    def _third_party(self, number: str) -> None:
        self.open_thread(number)
        self.finish()

    def open_thread(self, number: str) -> None:
        # launchThreadActivity (5.19.3) starts the thread without finishing this screen (only a third-party
        # SEND/SENDTO/VIEW intent finishes it): BACK from the thread returns here.
        sms = self.host.providers.sms
        existing = sms.rows("SELECT threads._id FROM threads JOIN canonical_addresses ON canonical_addresses._id = "
                            "CAST(threads.recipient_ids AS INTEGER) WHERE canonical_addresses.address = ?", [number])
        self.start(ThreadActivity, thread_id=existing[0][0] if existing else 0, address=number)


class ThreadActivity(Activity):
    """One conversation: its messages, the text field and Send; long press selects a message."""

    name = "com.simplemobiletools.smsmessenger.activities.ThreadActivity"
    soft_input_mode = "adjustResize"  # AndroidManifest.xml (5.19.3)

    def on_create(self) -> None:
        self.thread_id = int(self.extras.get("thread_id") or 0)
        self.address = str(self.extras.get("address") or "")
        self.draft = ""
        self.selected: list[int] = []
        self.picker_wanted = False  # isAttachmentPickerVisible
        self.adding_people = False  # thread_add_contacts shown ("Add Person")
        self.added: list[str] = []  # numbers added to the participants there (confirm_inserted_number)
        self.people_query = ""
        if self.thread_id:  # opening a conversation reads it
            self.host.providers.sms.update("content://sms", {"read": 1}, f"thread_id = {self.thread_id} AND read = 0")
        if not (load_messages(self, self.thread_id) if self.thread_id else []):
            # setupThread: no messages yet -> SOFT_INPUT_STATE_ALWAYS_VISIBLE, the message field requests focus
            self.set_soft_input_mode("stateAlwaysVisible")
            self.request_focus("thread_type_message")

    def on_back(self) -> bool:
        if self.selected:
            self.selected = []
            return True
        # onBackPressed: a shown attachment picker hides first
        shown, self.picker_wanted = self._picker_shown(), False
        return shown

    def _picker_shown(self) -> bool:
        """showOrHideAttachmentPicker: the picker stands in for the keyboard; it hides while the keyboard shows."""
        return self.picker_wanted and not self.window.ime_inset

    def toggle_attachment_picker(self) -> None:
        """thread_add_attachment: hide a shown picker and show the keyboard, else show it and hide the keyboard."""
        if self._picker_shown():
            self.picker_wanted = False
            self.request_focus("thread_type_message", show_keyboard=True)
        else:
            self.picker_wanted = True
            if self.host.ime.shown and self.host.ime.target is self.window:
                self.host.ime.hide()

    def _attachment_picker(self) -> list[View]:
        """layout_attachment_picker.xml: eight buttons in a Flow (a helper view without a node of its own)."""
        buttons = [("choose_photo", "Choose photo", "image"), ("choose_video", "Choose video", "video"),
                   ("take_photo", "Take photo", "camera"), ("record_video", "Record video", "video"),
                   ("record_audio", "Record audio", "mic"), ("pick_file", "Choose file", "file"),
                   ("pick_contact", "Choose contact", "person"), ("schedule_message", "Schedule message", "clock")]
        # setupAttachmentPickerView: each button starts another app through launchActivityForResult; the
        # contact picker and the schedule dialog are not modelled yet (their taps end here).
        intents = {
            "choose_photo": Intent(ACTION_GET_CONTENT, mime_type="*/*", extras={"mime_types": ("image/*",)}),
            "choose_video": Intent(ACTION_GET_CONTENT, mime_type="*/*", extras={"mime_types": ("video/*",)}),
            "take_photo": Intent("android.media.action.IMAGE_CAPTURE"),
            "record_video": Intent("android.media.action.VIDEO_CAPTURE"),
            "record_audio": Intent("android.provider.MediaStore.RECORD_SOUND"),
            "pick_file": Intent(ACTION_GET_CONTENT, mime_type="*/*", extras={"mime_types": ("*/*",)}),
        }
        cells = [Column(ImageView(f"{key}_icon", icon=icon, width=dp(40), height=dp(40), tint=(255, 255, 255),
                                  bg=ACCENT, radius=dp(20), layout_gravity="center_horizontal"),
                        TextView(label, f"{key}_text", size=sp(14), gravity="center",
                                 layout_gravity="center_horizontal",
                                 margin=(0, dp(8), 0, 0)),
                        id=key, width=dp(90), min_height=dp(96), padding=dp(8),
                        on_click=(lambda i=intents[key]: self.launch_for_result(i)) if key in intents else (
                            lambda: None))
                 for key, label, icon in buttons]
        rows = [Row(*cells[i:i + 4], gravity="center_horizontal", width=MATCH) for i in range(0, 8, 4)]
        return [Divider("attachment_picker_divider", class_name="android.view.View"),
                ScrollView(Column(*rows, id="attachment_picker", padding=(0, dp(16))), id="attachment_picker_holder",
                           height=WRAP, margin=(dp(4), 0))]

    def launch_for_result(self, intent: Intent) -> None:
        """ThreadActivity.launchActivityForResult: hide the keyboard and start the intent (launchGetContentIntent:
        ACTION_GET_CONTENT of */* with EXTRA_MIME_TYPES; the capture intents of MediaStore); no activity for it
        shows Commons' showErrorToast(no_app_found).  What the picker hands back is not attached yet."""
        if self.host.ime.shown and self.host.ime.target is self.window:
            self.host.ime.hide()
        if not self.start_intent(intent):
            self.toast("Error: No valid app found")

    def manage_people(self) -> None:
        """managePeople: toggle thread_add_contacts; shown, its field takes focus and the keyboard."""
        if self.adding_people:
            self.adding_people = False
            if self.host.ime.shown and self.host.ime.target is self.window:
                self.host.ime.hide()  # hideKeyboard()
        else:
            self.adding_people = True
            self.request_focus("add_contact_or_number", show_keyboard=True)

    def people_query_changed(self, text: str) -> None:
        self.people_query = text

    def add_inserted_number(self) -> None:
        """confirm_inserted_number: the typed number joins the participants (addSelectedContact); the field empties."""
        number = self.people_query
        self.people_query = ""
        self.find("add_contact_or_number").text = ""
        if number != self.address and number not in self.added:
            self.added.append(number)

    def confirm_people(self) -> None:
        """confirm_manage_contacts: the panel hides; other participants make another (group) thread, which
        ThreadActivity then opens (getThreadId of all numbers): group conversations are not modelled on this
        phone, so the added numbers are dropped."""
        self.adding_people = False
        self.added = []
        if self.host.ime.shown and self.host.ime.target is self.window:
            self.host.ime.hide()

    def _add_people_panel(self) -> View:
        """activity_thread.xml's thread_add_contacts: the participants as item_selected_contact chips (the first
        one cannot be removed), confirm_manage_contacts, the number field and its confirm_inserted_number."""
        def chip(name: str, number: str) -> View:
            return RelativeLayout(
                Row(TextView(name, "selected_contact_name", size=sp(14), color=(255, 255, 255), max_lines=1),
                    ImageView("selected_contact_remove", icon="close", tint=(255, 255, 255), width=dp(20),
                              height=dp(20), margin=(dp(4), 0, 0, 0),
                              on_click=lambda: self.added.remove(number) if number in self.added else None),
                    gravity="center_vertical", width=WRAP),
                id="selected_contact_holder", key=f"chip-{number}", width=WRAP, bg=ACCENT, radius=dp(16),
                padding=(dp(12), dp(6)), margin=(0, 0, dp(8), 0))

        chips = [chip(self._title(), self.address), *[chip(n, n) for n in self.added]]
        return Column(
            Row(LinearLayout(Row(*chips, width=MATCH), id="selected_contacts", weight=1, width=MATCH),
                ImageView("confirm_manage_contacts", icon="check", width=dp(48), height=dp(48),
                          on_click=self.confirm_people),
                gravity="center_vertical", width=MATCH, padding=(dp(16), dp(8), dp(8), dp(8))),
            Divider("message_divider_one", class_name="android.view.View"),
            Row(EditText(self.people_query, "add_contact_or_number", hint="Add Contact or Number…", weight=1,
                         width=MATCH, on_text_changed=self.people_query_changed, key="people"),
                ImageView("confirm_inserted_number", icon="check", desc="Confirm selection", width=dp(48),
                          height=dp(48), on_click=self.add_inserted_number) if len(self.people_query) > 2 else None,
                gravity="center_vertical", width=MATCH, padding=(dp(16), 0)),
            Divider("message_divider_two", class_name="android.view.View"),
            id="thread_add_contacts", class_name="android.widget.RelativeLayout")

    def _title(self) -> str:
        # setupThreadTitle: the conversation's title (a custom one after a rename), else the participant's
        custom = self.data["conversation_titles"].get(self.thread_id) if self.thread_id else None
        return custom or _names_by_number(self).get(_digits(self.address), self.address)

    def build(self) -> View:
        messages = load_messages(self, self.thread_id) if self.thread_id else []
        self.selected = [i for i in self.selected if any(m["_id"] == i for m in messages)]
        if self.selected:
            header = self._selection_bar(messages)
        else:
            header = self.toolbar("thread_toolbar", title=self._title(), back=True,
                                  items=self._menu(messages))
        items: list[View] = []
        last_date = None
        now = self.host.providers.sms.clock_ms()
        for message in messages:
            if last_date is None or message["date"] - last_date > 15 * 60 * 1000:
                stamp = format_time(message["date"]) if format_short_date(message["date"], now) == format_time(
                    message["date"]) else time.strftime("%d.%m, ", time.gmtime(message["date"] / 1000)) + \
                    format_time(message["date"])
                items.append(RelativeLayout(TextView(stamp, "thread_date_time", size=sp(13), color=TEXT_SECONDARY,
                                                     layout_gravity="center_horizontal", padding=(0, dp(4))),
                                            id="thread_date_time_holder", key=f"date-{message['_id']}",
                                            on_click=lambda: None, on_long_click=lambda: None))
            last_date = message["date"]
            sent = message["type"] != TYPE_INBOX
            selected = message["_id"] in self.selected
            items.append(LinearLayout(
                RelativeLayout(TextView(message["body"] or "", "thread_message_body", size=sp(16),
                                        color=(255, 255, 255) if sent else TEXT, bg=ACCENT if sent else (238, 238, 238),
                                        radius=dp(16), padding=(dp(12), dp(10)),
                                        layout_gravity="end" if sent else "start",
                                        on_click=lambda m=message["_id"]: self.message_clicked(m),
                                        on_long_click=lambda m=message["_id"]: self.toggle(m)),
                               id="thread_message_wrapper", margin=(dp(88) if sent else dp(16), dp(2),
                                                                    dp(16) if sent else dp(88), dp(2))),
                id="thread_message_holder", class_name=CONSTRAINT_LAYOUT, key=f"msg-{message['_id']}",
                bg=(255, 230, 220) if selected else None, long_clickable=True,
                on_long_click=lambda m=message["_id"]: self.toggle(m)))
            # getThreadItems: a failed message is followed by ThreadError ("Not sent. Touch to retry.", which
            # puts the text back in the field), one in the outbox by ThreadSending (item_thread_*.xml)
            if message["type"] == TYPE_FAILED:
                items.append(TextView("Not sent. Touch to retry.", "thread_error", width=MATCH, gravity="end",
                                      color=(211, 47, 47), size=sp(14), padding=(dp(16), 0, dp(16), dp(2)),
                                      key=f"error-{message['_id']}",
                                      on_click=lambda m=message: self.retry(m)))
            elif message["type"] == TYPE_OUTBOX:
                items.append(TextView("Sending…", "thread_sending", width=MATCH, gravity="end", size=sp(14),
                                      padding=(dp(16), 0, dp(16), dp(2)), key=f"sending-{message['_id']}"))
        if messages and messages[-1]["type"] == TYPE_SENT:
            items.append(RelativeLayout(ImageView("thread_success", icon="check", width=dp(16), height=dp(16),
                                                  layout_gravity="end", margin=(0, 0, dp(16), 0)),
                                        key="success", on_click=lambda: None, on_long_click=lambda: None))
        send_row = Row(
            ImageView("thread_add_attachment", icon="plus", desc="Attachment", on_click=self.toggle_attachment_picker),
            EditText(self.draft, "thread_type_message", hint="Type a message…", weight=1, width=MATCH,
                     single_line=False, on_text_changed=self.draft_changed, key="draft"),
            Button("SMS", "thread_send_message", desc="OK", bg=None, color=ACCENT if self.draft.strip() else
                   TEXT_SECONDARY, size=sp(12), on_click=self.send, long_clickable=True),
            gravity="center_vertical", width=MATCH)
        send_row.in_dump = False  # one ConstraintLayout: the row's views are its direct children
        # layout_thread_send_message_holder.xml, included as message_holder (5.19.3)
        send_holder = Column(send_row, *(self._attachment_picker() if self._picker_shown() else ()),
                             id="message_holder", class_name="androidx.constraintlayout.widget.ConstraintLayout")
        return Column(
            header,
            Column(self._add_people_panel() if self.adding_people else None,
                   RelativeLayout(RecyclerView(*items, id="thread_messages_list", height=MATCH,
                                               gravity="bottom"),
                                  id="thread_messages_fastscroller", weight=1, height=MATCH),
                   send_holder, id="thread_holder", class_name=CONSTRAINT_LAYOUT, weight=1, height=MATCH),
            id="thread_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _menu(self, messages) -> list[MenuItem]:
        """menu_thread as ThreadActivity.refreshMenuItems shows it (one participant, not in the Recycle Bin)."""
        thread = next((t for t in load_threads(self) if t.id == self.thread_id), None)
        archived = thread is not None and thread.archived
        named = _digits(self._title()) != _digits(self.address)
        return menu(APP, "menu_thread", {
            "delete": self.confirm_delete_all, "dial_number": lambda: _dial(self, self.address),
            "manage_people": self.manage_people, "archive": self.archive, "unarchive": self.unarchive,
            "conversation_details": self.show_conversation_details,
            "add_number_to_contact": self.no_app, "block_number": self.block, "mark_as_unread": self.mark_unread},
            hide=["restore", "rename_conversation",
                  *(() if messages else ("delete", "archive", "unarchive", "mark_as_unread")),
                  "unarchive" if not archived else "archive",
                  *(() if thread is not None else ("conversation_details",)),
                  *(("add_number_to_contact",) if named or not any(c.isdigit() for c in self.address) else ())])

    def _selection_bar(self, messages) -> View:
        """ThreadAdapter's action mode (cab_thread, its prepareActionMode)."""
        one = len(self.selected) == 1
        chosen = next((m for m in messages if m["_id"] == self.selected[0]), None) if one else None
        has_text = bool(chosen and chosen["body"])

        def select_all() -> None:
            self.selected.extend(m["_id"] for m in messages if m["_id"] not in self.selected)

        items = menu(APP, "cab_thread", {
            "cab_copy_to_clipboard": self.copy, "cab_share": self.no_app, "cab_delete": self.confirm_delete_selected,
            "cab_properties": self.show_properties, "cab_forward_message": self.no_app,
            "cab_select_text": self.no_app, "cab_select_all": select_all},
            hide=["cab_save_as", "cab_restore",
                  *(() if one and has_text else ("cab_copy_to_clipboard", "cab_share", "cab_select_text")),
                  *(() if one else ("cab_forward_message", "cab_properties"))],
            kind=ACTION_MODE)
        return action_mode_bar(self, f"{len(self.selected)} / {len(messages)}", items,
                               on_close=self.selected.clear,
                               on_title=self.selected.clear if len(self.selected) == len(messages) else select_all)

    # -- behaviour ----------------------------------------------------------------------------------
    def no_app(self) -> None:
        self.toast("No valid app found")

    def show_conversation_details(self) -> None:
        """ThreadActivity.showConversationDetails: ConversationDetailsActivity with THREAD_ID."""
        self.start(ConversationDetailsActivity, thread_id=self.thread_id)

    def draft_changed(self, text: str) -> None:
        self.draft = text
        self.message_to_resend = None  # the field's onTextChangeListener forgets the message to resend

    def retry(self, message: dict) -> None:
        """handleItemClick(ThreadError): the failed text back in the field, remembered as messageToResend."""
        self.draft = message["body"] or ""
        self.message_to_resend = message["_id"]

    def message_clicked(self, message_id: int) -> None:
        if self.selected:
            self.toggle(message_id)

    def toggle(self, message_id: int) -> None:
        if message_id in self.selected:
            self.selected.remove(message_id)
        else:
            self.selected.append(message_id)

    def send(self) -> None:
        """sendMessage -> SmsSender: the message is written to the outbox (insertSmsMessage, MESSAGE_TYPE_OUTBOX)
        and handed to the telephony stack; the sent intent's result (SmsStatusSentReceiver) makes it
        MESSAGE_TYPE_SENT, or MESSAGE_TYPE_FAILED with maybeShowErrorToast's "Couldn't send message, error
        code: N".  A short code may first need the user's confirmation (framework/sms_dispatcher.py),
        and the message waits in the outbox ("Sending…") meanwhile."""
        text = self.draft.strip()
        if not text:
            return
        sms = self.host.providers.sms
        resend = getattr(self, "message_to_resend", None)
        self.message_to_resend = None
        if resend is not None:  # insertSmsMessage(messageId): the failed row is written again, now in the outbox
            sms.update(f"content://sms/{resend}", {"body": self.draft, "type": TYPE_OUTBOX, "date": sms.clock_ms()})
            message_id = resend
        else:
            uri = sms.insert("content://sms/outbox", {"address": self.address, "body": self.draft})
            message_id = int(uri.rsplit("/", 1)[1])
        row = sms.rows("SELECT thread_id FROM sms WHERE _id = ?", [message_id])
        self.thread_id = row[0][0]
        self.draft = ""

        def sent(result: int) -> None:
            sms.update(f"content://sms/{message_id}", {"type": TYPE_SENT if result == RESULT_OK else TYPE_FAILED})
            if result != RESULT_OK:
                self.toast(f"Couldn't send message, error code: {result}")

        self.host.sms_dispatcher.send_text(self, self.address, sent)

    def copy(self) -> None:
        self.selected = []
        self.toast("Copied to clipboard")

    def show_properties(self) -> None:
        message = next((m for m in load_messages(self, self.thread_id) if m["_id"] == self.selected[0]), None)
        self.selected = []
        if message is None:
            return
        received = message["type"] == TYPE_INBOX
        when = time.strftime("%d.%m.%Y ", time.gmtime(message["date"] / 1000)) + format_time(message["date"])
        name = _names_by_number(self).get(_digits(message["address"] or ""), message["address"] or "")
        who = name if name == message["address"] else f"{name} ({message['address']})"
        properties = (("Sender" if received else "Receiver", who),
                      ("Received at" if received else "Sent at", when))
        self.show_dialog(Dialog("Message details", body=lambda: ScrollView(Column(*[
            LinearLayout(TextView(label, "property_label", bold=True, size=sp(14), width=MATCH),
                         TextView(value, "property_value", size=sp(16), width=MATCH),
                         id="property_holder", key=label, padding=(dp(24), dp(8)))
            for label, value in properties], id="properties_holder"), id="properties_scrollview", height=WRAP,
            focusable=False), positive="OK"))

    def confirm_delete_selected(self) -> None:
        ids = list(self.selected)

        def delete() -> None:
            for message_id in ids:
                self.host.providers.sms.delete(f"content://sms/{message_id}")
            self.selected = []

        _confirm(self, f"Are you sure you want to delete {_count(len(ids), 'item', 'items')}?", delete)

    def confirm_delete_all(self) -> None:
        def delete() -> None:
            if self.thread_id:
                self.host.providers.sms.delete_thread(self.thread_id)
            self.finish()

        _confirm(self, "Are you sure you want to delete all messages of this conversation?", delete)

    def archive(self, archived: bool = True) -> None:
        """ThreadActivity.archiveConversation / unarchiveConversation: update the thread, then finish."""
        if self.thread_id:
            self.host.providers.sms.set_archived(self.thread_id, archived)
        self.finish()

    def unarchive(self) -> None:
        self.archive(False)

    def block(self) -> None:
        self.host.providers.blocked.insert("content://com.android.blockednumber/blocked",
                                           {"original_number": self.address})
        self.toast(f"{self.address} has been blocked")

    def mark_unread(self) -> None:
        if self.thread_id:
            self.host.providers.sms.update("content://sms", {"read": 0}, f"thread_id = {self.thread_id}")
        self.finish()


class ConversationDetailsActivity(Activity):
    """The conversation's name (tap: "Rename conversation") and its members (5.19.3
    activity_conversation_details.xml; members are Commons' item_contact_with_number)."""

    name = "com.simplemobiletools.smsmessenger.activities.ConversationDetailsActivity"

    def on_create(self) -> None:
        self.thread_id = int(self.extras.get("thread_id") or 0)

    def _thread(self) -> Thread | None:
        return next((t for t in load_threads(self) if t.id == self.thread_id), None)

    def build(self) -> View:
        thread = self._thread()
        title = thread.name if thread else ""
        members = []
        if thread is not None:
            # ContactsAdapter: the participant's name and, joined by ", ", its numbers
            members.append(FrameLayout(
                Row(ImageView("item_contact_image", icon="person", width=dp(48), height=dp(48),
                              margin=(dp(4), 0, 0, 0), padding=dp(2)),
                    Column(TextView(thread.name, "item_contact_name", size=sp(18), max_lines=1, width=MATCH,
                                    padding=(dp(10), 0, dp(16), 0)),
                           TextView(thread.address, "item_contact_number", size=sp(14), color=TEXT_SECONDARY,
                                    max_lines=1, width=MATCH, padding=(dp(10), 0, dp(16), 0)),
                           weight=1, width=MATCH), gravity="center_vertical"),
                id="item_contact_frame", class_name="android.view.ViewGroup", key=f"member-{thread.address}",
                padding=(dp(12), dp(10)), on_click=lambda: self.open_member(thread.address)))
        return FrameLayout(
            self.toolbar("conversation_details_toolbar", title="Conversation details", back=True),
            Column(
                self._heading("Conversation name", "conversation_name_heading"),
                TextView(title, "conversation_name", size=sp(18), max_lines=1, width=MATCH,
                         padding=(dp(16), dp(20)), margin=(0, dp(4), 0, 0), on_click=self.rename),
                Divider("settings_conversation_name_divider"),
                self._heading("Members", "members_heading"),
                RecyclerView(*members, id="participants_recyclerview", height=MATCH, margin=(0, dp(12), 0, 0)),
                id="conversation_details_holder", margin=(0, dp(56), 0, 0), height=MATCH),
            id="conversation_details_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    @staticmethod
    def _heading(text: str, id: str) -> View:
        # MaterialSectionLabelStyle (Commons b72ded2a75 res/values/styles.xml): primary colour, 14sp,
        # textAllCaps.  textAllCaps installs AllCapsTransformationMethod, and TextView gives the
        # accessibility node its transformed text (getTextForAccessibility returns mTransformed), so
        # uiautomator reports "CONVERSATION NAME" / "MEMBERS", as the DroidTask recordings of 5.x show.
        return TextView(text.upper(), id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                        padding=(dp(16), dp(24), dp(16), dp(12)))

    def open_member(self, address: str) -> None:
        """setupParticipants' click: getContactFromAddress, then startContactDetailsIntent.  A contact of the
        phone's provider (not Simple Contacts' private one) opens through Commons' launchViewContactIntent:
        ContactsContract.QuickContact.ACTION_QUICK_CONTACT of its lookup URI (whose type the contacts
        provider reports as Contacts.CONTENT_ITEM_TYPE); launchActivityIntent toasts no_app_found when no
        activity takes it.  An address of no contact does nothing."""
        digits = "".join(ch for ch in address if ch.isdigit())
        contact = next((c for c in load_contacts(self.host.providers.contacts)
                        if any("".join(ch for ch in n if ch.isdigit()) == digits for n, _ in c.numbers)), None)
        if contact is None:
            return
        rows = self.host.providers.contacts.rows("SELECT lookup FROM contacts WHERE _id = ?", [contact.contact_id])
        if not rows:
            return
        uri = f"content://com.android.contacts/contacts/lookup/{rows[0]['lookup']}/{contact.contact_id}"
        if not self.start_intent(Intent(ACTION_QUICK_CONTACT, data=uri, mime_type="vnd.android.cursor.item/contact")):
            self.toast("No valid app found")

    def rename(self) -> None:
        """RenameConversationDialog: the field shows a custom title, hints the current one; empty is refused."""
        thread = self._thread()
        if thread is None:
            return
        custom = self.data["conversation_titles"].get(self.thread_id, "")

        def ok(d: Dialog) -> bool:
            new_title = d.find("rename_conv_edit_text").text
            if not new_title:
                self.toast("Please enter a name")  # commons R.string.empty_name
                return False
            self.data["conversation_titles"][self.thread_id] = new_title
            return True

        self.show_dialog(Dialog("Rename conversation", body=lambda: Column(
            LinearLayout(
                FrameLayout(EditText(custom, "rename_conv_edit_text", hint=thread.name, autofocus=True)),
                TextView("Only you can see this conversation name", "textinput_helper_text", size=sp(12),
                         color=TEXT_SECONDARY, width=MATCH, padding=(dp(16), dp(4))),
                id="rename_conv_input_layout", margin=(dp(20), dp(16), dp(20), 0)),
            class_name="android.view.ViewGroup", padding=(0, dp(8))),
            positive=("OK", ok), negative="Cancel"))


# ---------------------------------------------------------------------------
# settings and blocked numbers


class SettingsActivity(Activity):
    """The settings of 5.19.3 (activity_settings.xml, SettingsActivity.onResume) on Android 14, F-Droid build."""

    name = "com.simplemobiletools.smsmessenger.activities.SettingsActivity"

    CHECKBOXES = (("show_character_counter", "Show a character counter at writing messages"),
                  ("use_simple_characters", "Remove accents and diacritics at sending messages"),
                  ("send_on_enter", "Send message on pressing Enter"),
                  ("enable_delivery_reports", "Enable delivery reports"),
                  ("send_long_message_mms", "Send long messages as MMS"),
                  ("send_group_message_mms", "Send group messages as MMS"))

    def build(self) -> View:
        prefs = self.data

        def checkbox(key: str, label: str) -> View:
            return settings_checkbox(f"settings_{key}", label, prefs[key],
                                     lambda value, k=key: prefs.__setitem__(k, value))

        # Section labels are MaterialSectionLabelStyle (textAllCaps). Hidden on this phone: "Purchase Simple
        # Thank You" (the F-Droid build's pretend_thank_you_installed), "Use English language" (not on
        # Android 13+), "Empty the Recycle Bin" (only with useRecycleBin, off by default).
        blocks: list[View] = [
            self._label("COLOR CUSTOMIZATION", "settings_color_customization_section_label"),
            self._row("settings_color_customization", "Customize colors", class_name="android.view.ViewGroup",
                      on_click=lambda: self.start(CustomizationActivity)),
            Divider("settings_color_customization_divider"),
            self._label("GENERAL", "settings_general_settings_label"),
            self._row("settings_language", "Language", "English", lambda: launch_change_app_language(self)),
            self._row("settings_change_date_time_format", "Change date and time format", label_id=True,
                      on_click=self.change_date_time_format),
            self._row("settings_manage_blocked_numbers", "Manage blocked numbers", label_id=True,
                      on_click=lambda: self.start(ManageBlockedNumbersActivity)),
            self._row("settings_manage_blocked_keywords", "Manage blocked keywords", label_id=True),
            self._row("settings_font_size", "Font size", prefs["font_size"], self.choose_font_size),
            Divider("settings_general_settings_divider"),
            self._label("NOTIFICATIONS", "settings_notifications_label"),
            self._row("settings_customize_notifications", "Customize notifications",
                      on_click=self.customize_notifications),
            self._row("settings_lock_screen_visibility", "Lock screen notification visibility",
                      LOCK_SCREEN_VISIBILITY[prefs.get("lock_screen_visibility", 1) - 1],
                      self.choose_lock_screen_visibility),
            Divider("settings_notifications_divider"),
            self._label("OUTGOING MESSAGES", "settings_outgoing_messages_label"),
            *[checkbox(key, label) for key, label in self.CHECKBOXES],
            self._row("settings_mms_file_size_limit", "Resize sent MMS images", "600KB"),
            Divider("settings_outgoing_messages_divider"),
            self._label("RECYCLE BIN", "settings_recycle_bin_label"),
            checkbox("use_recycle_bin", "Move items into the Recycle Bin instead of deleting"),
            Divider("settings_recycle_bin_divider"),
            self._label("SECURITY", "settings_security_label"),
            password_protection_row(self, "settings_app_password_protection",
                                    "Password protect the whole application", "app"),
            Divider("settings_migrating_divider"),
            self._label("MIGRATING", "settings_migrating_label"),
            self._row("settings_export_messages", "Export messages", label_id=True, on_click=self.export_messages),
            self._row("settings_import_messages", "Import messages", label_id=True),
        ]
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def change_date_time_format(self) -> None:
        """Commons' ChangeDateTimeFormatDialog over BaseConfig's dateFormat / use24HourFormat."""
        config = self.app.base_config
        config.__dict__.setdefault("date_format", "%d.%m.%Y")
        config.__dict__.setdefault("use_24_hour", False)
        show_date_time_dialog(self, config)

    def export_messages(self) -> None:
        """ExportMessagesDialog: file name Messages_<now>, SMS / MMS boxes; OK hands the name to the system's
        CreateDocument picker (saveDocument.launch), which this phone does not have: the dialog closes."""
        prefs = self.data
        stamp = time.strftime("%Y_%m_%d_%H_%M_%S", time.gmtime(self.host.providers.sms.clock_ms() / 1000))

        def ok(d: Dialog) -> bool:
            prefs["export_sms"] = d.find("export_sms_checkbox").checked
            prefs["export_mms"] = d.find("export_mms_checkbox").checked
            name = d.find("export_messages_filename").text
            problem = filename_problem(name)
            if problem:
                self.toast(problem)
                return False
            return True

        self.show_dialog(Dialog("Export messages", body=lambda: ScrollView(LinearLayout(
            LinearLayout(FrameLayout(EditText(f"Messages_{stamp}", "export_messages_filename",
                                              hint="Filename (without .json)")),
                         id="export_messages_filename_hint", margin=(0, 0, 0, dp(12))),
            CheckBox("Export SMS", "export_sms_checkbox", checked=prefs["export_sms"]),
            CheckBox("Export MMS", "export_mms_checkbox", checked=prefs["export_mms"]),
            id="export_messages_holder", padding=(dp(20), dp(16), dp(20), 0)),
            id="export_messages_scrollview", height=WRAP, focusable=False),
            positive=("OK", ok), negative="Cancel"))

    @staticmethod
    def _label(text: str, id: str) -> View:
        return TextView(text, id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                        padding=(dp(22), dp(24), dp(16), dp(12)))

    @staticmethod
    def _row(prefix: str, label: str, value: str | None = None, on_click=None, *, label_id: bool = False,
             class_name: str = "android.widget.RelativeLayout") -> View:
        # Rows without a value name their only TextView after the row (as recorded).
        children = [TextView(label, prefix if label_id else f"{prefix}_label", size=sp(16))]
        if value is not None:
            children.append(TextView(value, prefix, color=TEXT_SECONDARY, size=sp(14), width=MATCH))
        return Column(*children, id=f"{prefix}_holder", class_name=class_name, padding=(dp(22), dp(16)),
                      on_click=on_click or (lambda: None))

    def customize_notifications(self) -> None:
        """Commons' BaseSimpleActivity.launchCustomizeNotificationsIntent: Settings' page of the app's
        notifications (Settings.ACTION_APP_NOTIFICATION_SETTINGS with EXTRA_APP_PACKAGE), a plain
        startActivity (no catch: the page always exists on Android 8+)."""
        self.start_intent(Intent(ACTION_APP_NOTIFICATION_SETTINGS, extras={EXTRA_APP_PACKAGE: self.app.package}))

    def choose_lock_screen_visibility(self) -> None:
        """setupLockScreenVisibility: Sender and message (LOCK_SCREEN_SENDER_MESSAGE = 1), Sender only (2),
        Nothing (3) in a RadioGroupDialog, Config.lockScreenVisibilitySetting checked (default 1)."""
        prefs = self.data
        radio_dialog(self, list(LOCK_SCREEN_VISIBILITY), prefs.get("lock_screen_visibility", 1) - 1,
                     lambda index: prefs.__setitem__("lock_screen_visibility", index + 1))

    def choose_font_size(self) -> None:
        prefs = self.data
        radio_dialog(self, list(FONT_SIZES), FONT_SIZES.index(prefs["font_size"]),
                     lambda index: prefs.__setitem__("font_size", FONT_SIZES[index]))


# ---------------------------------------------------------------------------
# the app


def _dial(activity: Activity, number: str) -> None:
    """Commons' Activity.dialNumber: ACTION_DIAL tel:<number>; "No app found" when nothing answers."""
    if not activity.start_intent(Intent(ACTION_DIAL, data=f"tel:{number}")):
        activity.toast("No app found")


class MessengerApp(CommonsApp):
    """Simple SMS Messenger: its preferences; messages are the phone's (telephony provider)."""

    package = PACKAGE
    label = "SMS Messenger"
    roles = frozenset({ROLE_SMS})
    activities = (MainActivity, NewConversationActivity, ThreadActivity, ArchivedConversationsActivity,
                  SettingsActivity, ManageBlockedNumbersActivity, CustomizationActivity, ConversationDetailsActivity)
    # AndroidManifest.xml: NewConversationActivity takes SEND/SENDTO/VIEW of sms:, smsto:, mms:, mmsto:,
    # and SEND / SEND_MULTIPLE of any type
    intent_filters = (
        (NewConversationActivity.name, "", IntentFilter((ACTION_SEND, ACTION_SENDTO, ACTION_VIEW),
                                                        schemes=("sms", "smsto", "mms", "mmsto"))),
        (NewConversationActivity.name, "", IntentFilter((ACTION_SEND,), mime_types=("*/*",))),
        (NewConversationActivity.name, "", IntentFilter((ACTION_SEND_MULTIPLE,), mime_types=("*/*",))),
    )

    def new_data(self) -> dict:
        return {"conversation_titles": {}, "font_size": "Medium", "show_character_counter": False,
                "use_simple_characters": False, "send_on_enter": False, "enable_delivery_reports": False,
                "send_long_message_mms": False, "send_group_message_mms": False, "use_recycle_bin": False,
                "app_password_protection": False, "export_sms": True, "export_mms": True}


__all__ = ["ArchivedConversationsActivity", "ConversationDetailsActivity", "MainActivity", "ManageBlockedNumbersActivity",
           "MessengerApp", "NewConversationActivity", "SettingsActivity", "ThreadActivity"]

"""System screens the apps reach: the share sheet, "Open with", the permission dialog, the dialer.

Each is drawn to its first screen with the package, activity and resource-ids
Android 14 reports (``dumpsys activity activities``, ``uiautomator dump``):

* The share sheet: ``com.android.intentresolver/.ChooserActivity`` (Android 14
  moved it out of the framework into the IntentResolver app, package
  com.android.intentresolver: packages/modules/IntentResolver AndroidManifest.xml).
  Its layouts (java/res/layout/chooser_grid.xml, chooser_grid_preview_text.xml,
  chooser_grid_preview_file.xml, chooser_headline_row.xml, resolve_grid_item.xml)
  use the framework's ids (``@androidprv:id/...`` -> ``android:id/...``) and a few
  of their own (``@+id/headline`` -> ``com.android.intentresolver:id/headline``).
  The headline is strings.xml's sharing_text / sharing_images / sharing_items.
* "Open with" and the other disambiguation dialogs: the framework's
  ``android/com.android.internal.app.ResolverActivity`` (PackageManagerService's
  resolve activity; frameworks/base core/res/res/layout/resolver_list.xml), with
  its ActionTitle ("Open with" for VIEW, "Complete action using" otherwise) and
  the "Just once" / "Always" buttons (button_once, button_always).
* The runtime-permission dialog: ``GrantPermissionsActivity`` of the permission
  controller.  On Google's images (the Android 14 Google APIs emulator image, and
  the phone of the DroidTask recordings) the module's package is
  com.google.android.permissioncontroller while its resource-ids keep the AOSP
  name (``com.android.permissioncontroller:id/permission_allow_button``): the
  APK is renamed, its resource table is not.  Layout: PermissionController's
  res/layout/grant_permissions.xml.
* The dialer: the emulator image's Phone app, AOSP Dialer (com.android.dialer,
  as the DroidTask recording's Google emulator image ran it), opens its dialpad
  with the number for ACTION_DIAL (DialtactsActivity's filters), and its
  ``com.android.incallui.InCallActivity`` shows an outgoing call for ACTION_CALL
  (Telecom's UserCallActivity places the call; the dialer's in-call UI is what
  the user sees).  Ids: Dialer's dialpad_view.xml / dialpad_fragment.xml and
  incall_contact_grid.xml.

BACK, or a tap above the share sheet's or the resolver's panel, dismisses them
(ResolverDrawerLayout); the permission dialog ignores taps beside it
(GrantPermissionsActivity sets setFinishOnTouchOutside(false)).
"""

from __future__ import annotations

from typing import Callable

from ...framework.intents import (ACTION_CALL, ACTION_DIAL, ACTION_SEND, ACTION_SEND_MULTIPLE, ACTION_VIEW,
                                  CHOOSER_ACTIVITY, GRANT_PERMISSIONS_ACTIVITY, RESOLVER_ACTIVITY, Intent,
                                  IntentFilter, Target, launch_target)
from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT_SECONDARY,
    WRAP,
    Button,
    Column,
    EditText,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    RecyclerView,
    RelativeLayout,
    Row,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.ui.window import NAV_BAR_H, STATUS_BAR_H, Window
from ...framework.app import Activity, App
from ..simple import contacts_data

__all__ = ["AndroidSystemApp", "ChooserActivity", "DialerApp", "GrantPermissionsActivity", "IntentResolverApp",
           "PermissionControllerApp", "ResolverActivity"]

# The framework starts the share sheet, "Open with" and the permission dialog by these components
# (framework/intents.py); the apps below are what answers them.
INTENT_RESOLVER = CHOOSER_ACTIVITY.package
PERMISSION_CONTROLLER = GRANT_PERMISSIONS_ACTIVITY.package
#: the permission controller's resource package (see the module docstring)
_PC_IDS = "com.android.permissioncontroller:id"
_SHEET_BG = (243, 237, 247)


class _TranslucentWindow(Window):
    """A translucent activity window (windowIsTranslucent): the app below stays drawn, dimmed."""

    scrim = True

    def decorate(self, content: View) -> View:
        # the DecorView: its LinearLayout, the content frame, the navigation bar's background
        return FrameLayout(LinearLayout(FrameLayout(content, id="android:id/content", height=MATCH), height=MATCH),
                           View("android:id/navigationBarBackground", height=NAV_BAR_H, layout_gravity="bottom"),
                           height=MATCH)


class _SystemActivity(Activity):
    translucent = True
    #: the id of the bottom sheet a touch beside which finishes the activity (ResolverDrawerLayout's
    #: onTouchEvent: a tap outside the sheet dismisses it); "" when such touches do nothing
    sheet_id = ""
    #: the extras it cannot work without (started bare, by `am start -n`, it finishes at once, as
    #: ChooserActivity does without EXTRA_INTENT and GrantPermissionsActivity without permissions)
    needs = "intent"

    def __init__(self, host, app: App, extras: dict | None = None) -> None:
        super().__init__(host, app, extras)
        self.window = _TranslucentWindow(app.package, self.title or app.label, self._build)
        self.window.outside_touch = self._outside_touch if self.sheet_id else None
        if self.needs not in self.extras:
            host.defer(self.finish)

    def _outside_touch(self, x: int, y: int) -> bool:
        sheet = self.window.find(self.sheet_id)
        if sheet is None or sheet.clip is None or y >= sheet.clip[1]:
            return False
        self.finish()
        return True

    def _build(self) -> View:
        return self.build() if self.needs in self.extras else FrameLayout(height=MATCH)


# -- the share sheet and "Open with" -----------------------------------------------------------
def _headline(intent: Intent) -> str:
    """ChooserContentPreviewUi's headline (IntentResolver strings.xml sharing_*)."""
    uris = intent.extras.get("uris") or ([intent.extras["uri"]] if intent.extras.get("uri") else [])
    if not uris:
        return "Sharing text"
    count = len(uris)
    mime = intent.mime_type or ""
    if mime.startswith("image/"):
        return "Sharing image" if count == 1 else f"Sharing {count} images"
    if mime.startswith("video/"):
        return "Sharing video" if count == 1 else f"Sharing {count} videos"
    return f"Sharing {count} item" if count == 1 else f"Sharing {count} items"


def _preview(intent: Intent) -> View:
    pkg = INTENT_RESOLVER
    headline = RelativeLayout(TextView(_headline(intent), f"{pkg}:id/headline", size=sp(18),
                                       padding=(0, 0, 0, dp(16))),
                              padding=(dp(16), 0))
    uris = intent.extras.get("uris") or ([intent.extras["uri"]] if intent.extras.get("uri") else [])
    if not uris:
        text = str(intent.extras.get("text", ""))
        return LinearLayout(
            headline,
            RelativeLayout(TextView(text, "android:id/content_preview_text", max_lines=3, width=MATCH),
                           id=f"{pkg}:id/text_preview_layout", padding=(dp(16), dp(16)),
                           margin=(dp(16), 0, dp(16), dp(8)), bg=(255, 255, 255), radius=dp(12),
                           min_height=dp(80)),
            id="android:id/content_preview_text_area")
    name = str(uris[0]).rstrip("/").rsplit("/", 1)[-1]
    more = [TextView(f"+ {len(uris) - 1} file" + ("s" if len(uris) > 2 else ""), f"{pkg}:id/content_preview_more_files",
                     size=sp(12), color=TEXT_SECONDARY)] if len(uris) > 1 else []
    return LinearLayout(
        headline,
        RelativeLayout(Row(ImageView(f"{pkg}:id/content_preview_file_icon", icon="note", width=dp(24), height=dp(24),
                                     margin=(0, 0, dp(16), 0)),
                           Column(TextView(name, f"{pkg}:id/content_preview_filename", bold=True, size=sp(12),
                                           max_lines=1), *more),
                           gravity="center_vertical"),
                       id="android:id/content_preview_file_layout", padding=(dp(16), dp(16)),
                       margin=(dp(16), 0, dp(16), dp(8)), bg=(255, 255, 255), radius=dp(12)),
        id="android:id/content_preview_file_area")


def _grid_item(target: Target, on_click: Callable[[], object]) -> View:
    """resolve_grid_item.xml: icon, the app label (text1) and the activity's own label (text2)."""
    return LinearLayout(
        ImageView("android:id/icon", icon=f"app:{target.label}", width=dp(56), height=dp(56),
                  layout_gravity="center_horizontal"),
        TextView(target.label, "android:id/text1", size=sp(12), gravity="center_horizontal", max_lines=1,
                 width=MATCH, padding=(0, dp(7), 0, 0)),
        TextView(target.sublabel, "android:id/text2", size=sp(12), color=TEXT_SECONDARY,
                 gravity="center_horizontal", max_lines=1, width=MATCH),
        width=MATCH, weight=1, gravity="center", min_height=dp(100), padding=(dp(4), dp(8), dp(4), dp(12)),
        on_click=on_click, focusable=True, key=f"{target.app.package}/{target.activity.name}")


class ChooserActivity(_SystemActivity):
    """The share sheet (Intent.createChooser): the content preview and the apps that take the intent."""

    name = CHOOSER_ACTIVITY.class_name
    title = "Share"
    sheet_id = "android:id/chooser_header"

    def build(self) -> View:
        intent: Intent = self.extras["intent"]
        targets: list[Target] = self.extras["targets"]
        rows = [Row(*[_grid_item(t, lambda t=t: self.choose(t)) for t in targets[i:i + 4]],
                    *[View(width=MATCH, weight=1) for _ in range(4 - len(targets[i:i + 4]))], width=MATCH)
                for i in range(0, len(targets), 4)]
        header = RelativeLayout(ImageView("android:id/drag", width=dp(24), height=dp(4), bg=(120, 120, 120),
                                          layout_gravity="center_horizontal", margin=(0, dp(12))),
                                id="android:id/chooser_header", width=MATCH)
        pager = FrameLayout(FrameLayout(FrameLayout(
            RecyclerView(_preview(intent), *rows, id="android:id/resolver_list", height=WRAP),
            id="android:id/profile_pager", class_name="com.android.internal.widget.ViewPager"),
            id="android:id/tabcontent"), id="android:id/profile_tabhost", class_name="android.widget.TabHost")
        sheet = Column(header, pager, width=MATCH, bg=_SHEET_BG, radius=dp(28), layout_gravity="bottom",
                       padding=(0, 0, 0, NAV_BAR_H))
        return FrameLayout(sheet, id="android:id/contentPanel", class_name="android.widget.ScrollView",
                           height=MATCH)

    def choose(self, target: Target) -> None:
        intent: Intent = self.extras["intent"]
        self.finish()  # ChooserActivity finishes as it starts the target (safelyStartActivity)
        launch_target(self.host, _live(self.extras.get("caller")), target, intent)


#: ResolverActivity.ActionTitle
_RESOLVER_TITLES = {ACTION_VIEW: "Open with", "android.intent.action.EDIT": "Edit with",
                    ACTION_SEND: "Share", ACTION_SEND_MULTIPLE: "Share",
                    "android.intent.action.SENDTO": "Send using"}


class ResolverActivity(_SystemActivity):
    """The framework's disambiguation dialog: pick an app, then "Just once" or "Always"."""

    name = RESOLVER_ACTIVITY.class_name
    title = "Complete action using"
    sheet_id = "android:id/title_container"

    def on_create(self) -> None:
        self.checked: Target | None = None

    def build(self) -> View:
        intent: Intent = self.extras["intent"]
        targets: list[Target] = self.extras["targets"]
        rows = [Row(ImageView("android:id/icon", icon=f"app:{t.label}", width=dp(40), height=dp(40),
                              margin=(dp(16), 0, dp(16), 0)),
                    Column(TextView(t.label, "android:id/text1", size=sp(16), max_lines=1),
                           *([TextView(t.sublabel, "android:id/text2", size=sp(14), color=TEXT_SECONDARY,
                                       max_lines=1)] if t.sublabel else []), weight=1),
                    gravity="center_vertical", min_height=dp(64), width=MATCH, selected=t is self.checked,
                    on_click=lambda t=t: self.tap(t), key=f"{t.app.package}/{t.activity.name}")
                for t in targets]
        chosen = self.checked is not None
        buttons = LinearLayout(
            View("android:id/resolver_button_bar_divider", height=1, bg=(200, 200, 200)),
            Row(View(weight=1),
                Button("Just once", "android:id/button_once", enabled=chosen, bg=None, color=ACCENT,
                       on_click=lambda: self.launch(always=False)),
                Button("Always", "android:id/button_always", enabled=chosen, bg=None, color=ACCENT,
                       on_click=lambda: self.launch(always=True)),
                id="android:id/button_bar", padding=(dp(8), dp(8)), width=MATCH),
            id="android:id/button_bar_container", width=MATCH)
        title = _RESOLVER_TITLES.get(intent.action, "Complete action using")
        sheet = Column(
            RelativeLayout(TextView(title, "android:id/title", size=sp(16), padding=(dp(24), dp(20))),
                           id="android:id/title_container", width=MATCH),
            View("android:id/divider", height=1, bg=(220, 220, 220)),
            FrameLayout(FrameLayout(FrameLayout(
                Column(*rows, id="android:id/resolver_list", class_name="android.widget.ListView", width=MATCH),
                id="android:id/profile_pager", class_name="com.android.internal.widget.ViewPager"),
                id="android:id/tabcontent"), id="android:id/profile_tabhost", class_name="android.widget.TabHost"),
            buttons, width=MATCH, bg=(255, 255, 255), layout_gravity="bottom", padding=(0, 0, 0, NAV_BAR_H))
        return FrameLayout(sheet, id="android:id/contentPanel", class_name="android.widget.ScrollView",
                           height=MATCH)

    def tap(self, target: Target) -> None:
        # ResolverActivity.onItemClick with the button bar shown: the first tap checks the row and
        # enables the buttons, a tap on the checked row starts it just once
        if self.checked is target:
            self.launch(always=False)
        else:
            self.checked = target

    def launch(self, always: bool) -> None:
        if self.checked is None:
            return
        intent: Intent = self.extras["intent"]
        if always:
            # "Always" makes the choice the preferred activity (PackageManager.addPreferredActivity)
            preferred = self.host.preferred_activities
            preferred[(intent.action, intent.scheme, (intent.mime_type or "").split("/")[0])] = self.checked
        target = self.checked
        self.finish()
        launch_target(self.host, _live(self.extras.get("caller")), target, intent)


def _live(caller: Activity | None) -> Activity | None:
    """The activity that asked, if it still runs (else the choice starts in a task of its own)."""
    return caller if caller is not None and not caller.finished else None


class IntentResolverApp(App):
    package = INTENT_RESOLVER
    label = "IntentResolver"
    activities = (ChooserActivity,)
    in_launcher = False
    version_name = "14"


class AndroidSystemApp(App):
    """The framework's own package "android" (its ResolverActivity)."""

    package = RESOLVER_ACTIVITY.package
    label = "Android System"
    activities = (ResolverActivity,)
    in_launcher = False
    version_name = "14"


# -- the runtime-permission dialog -----------------------------------------------------------
class _GrantWindow(_TranslucentWindow):
    """GrantPermissionsActivity's dialog-themed window: the screen less a margin, the card centred."""

    MARGIN = 28

    def decorate(self, content: View) -> View:
        return FrameLayout(FrameLayout(FrameLayout(content, id="android:id/content", height=MATCH), height=MATCH),
                           height=MATCH)

    def layout(self, root: View) -> None:
        width, height = self.width - 2 * self.MARGIN, self.height - STATUS_BAR_H - NAV_BAR_H
        root.measure(width, height, exact_w=width, exact_h=height)
        root.place(self.MARGIN, STATUS_BAR_H, (0, 0, self.width, self.height))
        self.frame = root.rect


class GrantPermissionsActivity(_SystemActivity):
    """"Allow <app> to ...?" with Allow / Deny; BACK refuses, as on Android."""

    name = GRANT_PERMISSIONS_ACTIVITY.class_name
    title = "Permission"

    needs = "permissions"

    def __init__(self, host, app: App, extras: dict | None = None) -> None:
        super().__init__(host, app, extras)
        self.window = _GrantWindow(app.package, self.title, self._build)

    def build(self) -> View:
        ids = _PC_IDS
        return FrameLayout(LinearLayout(LinearLayout(
            Column(ImageView(f"{ids}/permission_icon", icon=self.extras["icon"], tint=ACCENT, width=dp(24),
                             height=dp(24), layout_gravity="center_horizontal"),
                   TextView(self.extras["message"], f"{ids}/permission_message", size=sp(20), width=MATCH,
                            gravity="center", padding=(dp(24), dp(16))),
                   id=f"{ids}/content_container", padding=(dp(16), dp(16), dp(16), 0), width=MATCH),
            Column(Button("Allow", f"{ids}/permission_allow_button", width=MATCH, on_click=lambda: self.done(True)),
                   Button("Deny", f"{ids}/permission_deny_button", width=MATCH, on_click=lambda: self.done(False)),
                   padding=(dp(16), dp(8)), width=MATCH),
            id=f"{ids}/grant_dialog", bg=(255, 255, 255), radius=dp(28), width=MATCH, layout_gravity="center"),
            id=f"{ids}/grant_singleton", height=MATCH, gravity="center"),
            class_name="android.widget.ScrollView", height=MATCH)

    def on_back(self) -> bool:
        if self.needs in self.extras:
            self.done(False)
            return True
        return False

    def done(self, granted: bool) -> None:
        package, permissions = self.extras["package"], self.extras["permissions"]
        if granted:
            self.host.grant_permission(package, *permissions)
        self.finish()
        callback = self.extras["on_result"]
        if callback is not None:
            callback(granted)  # the app's onRequestPermissionsResult, once it is resumed


class PermissionControllerApp(App):
    package = PERMISSION_CONTROLLER
    label = "Permission controller"
    activities = (GrantPermissionsActivity,)
    in_launcher = False
    version_name = "14"


# -- the dialer ------------------------------------------------------------------------------------
DIALER = "com.android.dialer"
_DIAL_KEYS = (("1", "one", ""), ("2", "two", "ABC"), ("3", "three", "DEF"), ("4", "four", "GHI"),
              ("5", "five", "JKL"), ("6", "six", "MNO"), ("7", "seven", "PQRS"), ("8", "eight", "TUV"),
              ("9", "nine", "WXYZ"), ("*", "star", ""), ("0", "zero", "+"), ("#", "pound", ""))


class DialerMainActivity(Activity):
    """AOSP Dialer's main screen; for ACTION_DIAL it opens with the dialpad and the number in ``digits``."""

    name = "com.android.dialer.main.impl.MainActivity"
    title = "Phone"
    own_task = True  # launchMode singleTask (Dialer's AndroidManifest)

    def on_create(self) -> None:
        intent: Intent | None = self.extras.get("intent")
        self.dialpad = intent is not None and intent.action == ACTION_DIAL
        self.digits = intent.scheme_specific_part if intent is not None and intent.scheme == "tel" else ""

    def on_back(self) -> bool:
        if self.dialpad and self.extras.get("intent") is None:
            self.dialpad = False  # the dialpad opened from the app itself closes first
            return True
        return False

    def build(self) -> View:
        pkg = DIALER
        if not self.dialpad:
            return Column(Row(TextView("Phone", size=sp(22), bold=True, padding=(dp(16), 0)), height=dp(64),
                              id=f"{pkg}:id/toolbar", class_name="android.view.ViewGroup"),
                          TextView("No favourites yet", size=sp(16), color=TEXT_SECONDARY, width=MATCH,
                                   gravity="center", padding=(dp(24), dp(24)), weight=1),
                          ImageButton(f"{pkg}:id/fab", icon="dialpad", desc="key pad",
                                      layout_gravity="end", margin=dp(16), on_click=self.open_dialpad),
                          id=f"{pkg}:id/main_activity_coordinator", height=MATCH)
        keys = [LinearLayout(TextView(digit, f"{pkg}:id/dialpad_key_number", size=sp(30), gravity="center",
                                      width=MATCH),
                             TextView(letters, f"{pkg}:id/dialpad_key_letters", size=sp(12), color=TEXT_SECONDARY,
                                      gravity="center", width=MATCH),
                             id=f"{pkg}:id/{key_id}", desc=digit, width=MATCH, weight=1, min_height=dp(72),
                             gravity="center", on_click=lambda d=digit: self.press(d))
                for digit, key_id, letters in _DIAL_KEYS]
        grid = [Row(*keys[i:i + 3], width=MATCH) for i in range(0, 12, 3)]
        return Column(
            Row(EditText(id=f"{pkg}:id/digits", text=self.digits, single_line=True, size=sp(32), weight=1,
                         gravity="center", on_text_changed=lambda text: setattr(self, "digits", text)),
                ImageButton(f"{pkg}:id/deleteButton", icon="delete", desc="backspace", on_click=self.backspace),
                id=f"{pkg}:id/digits_container", width=MATCH, padding=(dp(16), dp(16)), gravity="center_vertical"),
            Column(*grid, id=f"{pkg}:id/dialpad", width=MATCH, weight=1),
            ImageButton(f"{pkg}:id/dialpad_floating_action_button", icon="call", desc="dial", bg=(30, 142, 62),
                        tint=(255, 255, 255), layout_gravity="center_horizontal", margin=dp(16),
                        on_click=self.dial),
            id=f"{pkg}:id/dialpad_view", height=MATCH)

    def open_dialpad(self) -> None:
        self.dialpad = True

    def press(self, digit: str) -> None:
        self.digits += digit

    def backspace(self) -> None:
        self.digits = self.digits[:-1]

    def dial(self) -> None:
        if self.digits:
            self.start(InCallActivity, intent=Intent(ACTION_CALL, data=f"tel:{self.digits}"))


class InCallActivity(Activity):
    """The dialer's in-call screen of an outgoing call: "Calling…", the callee, End call."""

    name = "com.android.incallui.InCallActivity"
    title = "Phone"
    own_task = True  # launchMode singleInstance (Dialer's AndroidManifest)

    def build(self) -> View:
        pkg = DIALER
        intent: Intent = self.extras["intent"]
        number = intent.scheme_specific_part
        return Column(
            LinearLayout(ImageView(f"{pkg}:id/contactgrid_avatar", icon="person", width=dp(88), height=dp(88),
                                   layout_gravity="center_horizontal"),
                         TextView("Calling…", f"{pkg}:id/contactgrid_status_text", size=sp(16), gravity="center",
                                  width=MATCH),
                         TextView(_caller_name(self, number), f"{pkg}:id/contactgrid_contact_name", size=sp(34),
                                  gravity="center", width=MATCH),
                         id=f"{pkg}:id/incall_contact_grid", padding=(0, dp(48), 0, 0), width=MATCH),
            View(weight=1, height=0),
            ImageButton(f"{pkg}:id/incall_end_call", icon="call", desc="End call", bg=(217, 48, 37),
                        tint=(255, 255, 255), layout_gravity="center_horizontal", margin=dp(24),
                        on_click=self.finish),
            id=f"{pkg}:id/incall_ui_container", height=MATCH, bg=(32, 33, 36))


def _caller_name(activity: Activity, number: str) -> str:
    """The contact's name for the number when the phone's contacts have it, else the number."""
    digits = "".join(c for c in number if c.isdigit())
    for contact in contacts_data.load_contacts(activity.host.providers.contacts):
        if digits and any("".join(c for c in n if c.isdigit()) == digits for n, _kind in contact.numbers):
            return contact.shown_name()
    return number


class DialerApp(App):
    """The emulator image's Phone app (AOSP Dialer): its dialpad and the in-call screen."""

    package = DIALER
    label = "Phone"
    activities = (DialerMainActivity, InCallActivity)
    version_name = "14"
    # Dialer's DialtactsActivity alias (targetActivity main.impl.MainActivity): DIAL with no data or
    # a tel: URI, VIEW tel:.  ACTION_CALL goes to Telecom's UserCallActivity, which places the call
    # and brings up the default dialer's InCallActivity: the screen the user sees.
    intent_filters = (
        ("com.android.dialer.main.impl.MainActivity", "", IntentFilter((ACTION_DIAL,))),
        ("com.android.dialer.main.impl.MainActivity", "", IntentFilter((ACTION_DIAL, ACTION_VIEW), schemes=("tel",))),
        ("com.android.incallui.InCallActivity", "", IntentFilter((ACTION_CALL,), schemes=("tel",))),
    )

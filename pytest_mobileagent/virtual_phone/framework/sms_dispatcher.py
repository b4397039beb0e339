"""The telephony stack's check before an SMS leaves: premium short codes (frameworks/opt/telephony).

SMSDispatcher.sendRawPdu calls ``checkDestination(trackers)`` before it hands a message to the radio:

* ``SmsUsageMonitor.checkDestination(destAddress, countryIso)`` sorts the destination (always allowing
  emergency numbers) with the country's row of ``frameworks/base/core/res/res/xml/sms_short_codes.xml``:
  free, then standard, then premium, then the country's short-code pattern
  (``ShortCodePatternMatcher.getNumberCategory``); a country without a row falls back to the generic rule
  (five digits or fewer: a possible premium short code).
* The country is the SIM's (``Settings.Global.SMS_SHORT_CODE_RULE`` defaults to PREMIUM_RULE_USE_SIM):
  ``TelephonyManager.getSimCountryIsoForPhone``, the ``gsm.sim.operator.iso-country`` property, "us" on
  the emulator, whose SIM is 310/260 (IMSI 310260000000000, MccTable: MCC 310 -> "us").
* Not a short code, a free or a standard one: the message goes.  Otherwise the app's premium SMS
  permission (``SmsUsageMonitor.getPremiumSmsPermission``; unknown counts as ask) decides: always allow
  sends, never allow fails it with RESULT_ERROR_SHORT_CODE_NEVER_ALLOWED, ask shows
  ``handleConfirmShortCode``'s dialog.
* The dialog is a TYPE_SYSTEM_ALERT AlertDialog of the phone process (com.android.phone) with
  ``sms_short_code_confirmation_dialog.xml``: "<app> would like to send a message to <number>.", "This
  may cause charges on your mobile account." (possible premium; a known premium code says "This will
  cause charges on your mobile account."), the "Remember my choice" check box, Send / Cancel
  (``ConfirmDialogListener``; checked, the buttons read Always Allow / Never Allow and the undo hint
  shows).  Send sends the message; Cancel, BACK or a touch outside stop it (EVENT_STOP_SENDING:
  RESULT_ERROR_SHORT_CODE_NOT_ALLOWED, or NEVER_ALLOWED when "Never Allow" was chosen).  A button press
  stores the permission (ALWAYS_ALLOW / NEVER_ALLOWED when remembered, else ASK_USER); cancelling stores
  nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, NamedTuple

from .app import Dialog
from .ui.views import MATCH, WRAP, CheckBox, ImageView, LinearLayout, Row, TextView, View, dp, sp
from .ui.window import PlatformDialogWindow

if TYPE_CHECKING:
    from .app import Activity

__all__ = ["PHONE_PACKAGE", "RESULT_ERROR_SHORT_CODE_NEVER_ALLOWED", "RESULT_ERROR_SHORT_CODE_NOT_ALLOWED",
           "RESULT_OK", "SmsDispatcher", "check_destination"]

PHONE_PACKAGE = "com.android.phone"

#: android.app.Activity.RESULT_OK and android.telephony.SmsManager's results
RESULT_OK = -1
RESULT_ERROR_SHORT_CODE_NOT_ALLOWED = 7
RESULT_ERROR_SHORT_CODE_NEVER_ALLOWED = 8

#: SmsManager.SMS_CATEGORY_*
NOT_SHORT_CODE, FREE_SHORT_CODE, STANDARD_SHORT_CODE, POSSIBLE_PREMIUM_SHORT_CODE, PREMIUM_SHORT_CODE = range(5)
#: SmsUsageMonitor.PREMIUM_SMS_PERMISSION_*
PERMISSION_UNKNOWN, PERMISSION_ASK_USER, PERMISSION_NEVER_ALLOW, PERMISSION_ALWAYS_ALLOW = range(4)


class ShortCodes(NamedTuple):
    """One <shortcode> row: pattern, premium, free and standard regexes (None when absent)."""

    pattern: str | None
    premium: str | None
    free: str | None
    standard: str | None


#: sms_short_codes.xml's row for the emulator's country (USA: 5-6 digits, its listed premium codes,
#: 44567 standard, the listed free codes such as T-Mobile's visual voicemail 122)
SHORT_CODES: dict[str, ShortCodes] = {
    "us": ShortCodes(
        pattern=r"\d{5,6}",
        premium=r"20433|21(?:344|472)|22715|23(?:333|847)|24(?:15|28)0|25209|27(?:449|606|663)|28498|305(?:00|83)|"
                r"32(?:340|941)|33(?:166|786|849)|34746|35(?:182|564)|37975|38(?:135|146|254)|41(?:366|463)|42335|"
                r"43(?:355|500)|44(?:578|711|811)|45814|46(?:157|173|327)|46666|47553|48(?:221|277|669)|"
                r"50(?:844|920)|51(?:062|368)|52944|54(?:723|892)|55928|56483|57370|59(?:182|187|252|342)|60339|"
                r"61(?:266|982)|62478|64(?:219|898)|65(?:108|500)|69(?:208|388)|70877|71851|72(?:078|087|465)|"
                r"73(?:288|588|882|909|997)|74(?:034|332|815)|76426|79213|81946|83177|84(?:103|685)|85797|"
                r"86(?:234|236|666)|89616|90(?:715|842|938)|91(?:362|958)|94719|95297|96(?:040|666|835|969)|"
                r"97(?:142|294|688)|99(?:689|796|807)",
        free=r"122|87902|21696|24614|28003|30356|33669|40196|41064|41270|43753|44034|46645|52413|56139|57969|61785|"
             r"66975|75136|76227|81398|83952|85140|86566|86799|95737|96684|99245",
        standard=r"44567"),
}
#: the emergency numbers PhoneNumberUtils.isEmergencyNumber knows without a SIM list (ril.ecclist empty)
EMERGENCY_NUMBERS = frozenset({"112", "911"})

STRINGS = {  # frameworks/base core/res/res/values/strings.xml
    "confirm_message": "{app} would like to send a message to {dest}.",  # sms_short_code_confirm_message
    "details": "This may cause charges on your mobile account.",  # sms_short_code_details
    "premium_details": "This will cause charges on your mobile account.",  # sms_premium_short_code_details
    "allow": "Send", "deny": "Cancel",  # sms_short_code_confirm_allow / _deny
    "always_allow": "Always Allow", "never_allow": "Never Allow",  # sms_short_code_confirm_always/never_allow
    "remember": "Remember my choice",  # sms_short_code_remember_choice
    # sms_short_code_remember_undo_instruction (its trailing unescaped quote is dropped by aapt)
    "undo": "You can change this later in Settings\u00a0>\u00a0Apps",
}


def network_portion(address: str) -> str:
    """PhoneNumberUtils.extractNetworkPortion: the dialable characters (digits, ``*``, ``#``, one leading ``+``)."""
    out = []
    for ch in address:
        if ch.isdigit() or ch in "*#" or (ch == "+" and not out):
            out.append(ch)
    return "".join(out)


def check_destination(dest: str, country_iso: str | None) -> int:
    """SmsUsageMonitor.checkDestination: the SMS category of `dest` in `country_iso`."""
    if dest in EMERGENCY_NUMBERS:
        return NOT_SHORT_CODE
    codes = SHORT_CODES.get((country_iso or "").lower())
    if codes is None:  # no pattern for the country: the generic rule
        return POSSIBLE_PREMIUM_SHORT_CODE if len(dest) <= 5 else NOT_SHORT_CODE

    def matches(regex: str | None) -> bool:
        return regex is not None and re.fullmatch(regex, dest) is not None

    if matches(codes.free):
        return FREE_SHORT_CODE
    if matches(codes.standard):
        return STANDARD_SHORT_CODE
    if matches(codes.premium):
        return PREMIUM_SHORT_CODE
    if matches(codes.pattern):
        return POSSIBLE_PREMIUM_SHORT_CODE
    return NOT_SHORT_CODE


class _ConfirmDialog(Dialog):
    """handleConfirmShortCode's AlertDialog: a system alert window of the phone process.

    Its buttons read Send / Cancel, or Always Allow / Never Allow while "Remember my choice" is checked.
    """

    def __init__(self, remembered: Callable[[], bool], **kw) -> None:
        super().__init__(**kw)
        self.remembered = remembered

    def _build(self) -> View | None:
        allow, deny = ("always_allow", "never_allow") if self.remembered() else ("allow", "deny")
        labels = {"android:id/button1": STRINGS[allow], "android:id/button2": STRINGS[deny]}
        self.specs = [(view_id, (labels[view_id], spec[1]) if spec else spec) for view_id, spec in self.specs]
        return super()._build()

    def _attach(self, activity: "Activity") -> None:
        self.activity = activity
        self.window = PlatformDialogWindow(PHONE_PACKAGE, self.title, self._build, buttons=[],
                                           cancelable=self.cancelable, message=self.message)
        self.window.dialog = self  # type: ignore[attr-defined]
        activity.host.show_window(activity, self.window)


class SmsDispatcher:
    """The phone's SMSDispatcher and SmsUsageMonitor: short-code checks and the apps' premium SMS permissions."""

    def __init__(self, system) -> None:
        self.system = system
        #: package -> PREMIUM_SMS_PERMISSION_* (SmsUsageMonitor's premium_sms_policy.xml)
        self.premium_permissions: dict[str, int] = {}

    def sim_country_iso(self) -> str:
        return getattr(self.system, "props", {}).get("gsm.sim.operator.iso-country", "")

    def send_text(self, activity: "Activity", dest_address: str, on_result: Callable[[int], object]) -> None:
        """Send a text from `activity`'s app to `dest_address`; `on_result(code)` is the sent intent's result."""
        package = activity.app.package
        dest = network_portion(dest_address)
        category = check_destination(dest, self.sim_country_iso())
        if category in (NOT_SHORT_CODE, FREE_SHORT_CODE, STANDARD_SHORT_CODE):
            on_result(RESULT_OK)
            return
        permission = self.premium_permissions.get(package, PERMISSION_UNKNOWN)
        if permission == PERMISSION_ALWAYS_ALLOW:
            on_result(RESULT_OK)
        elif permission == PERMISSION_NEVER_ALLOW:  # EVENT_SENDING_NOT_ALLOWED
            on_result(RESULT_ERROR_SHORT_CODE_NEVER_ALLOWED)
        else:
            self._confirm(activity, dest, category == PREMIUM_SHORT_CODE, on_result)

    def _confirm(self, activity: "Activity", dest: str, premium: bool, on_result: Callable[[int], object]) -> None:
        package = activity.app.package
        app = next((a for a in self.system.installed_apps() if a.package == package), None)
        label = app.label if app is not None else package  # getAppLabel falls back to the package name
        state = {"remember": False, "decided": False}

        def toggle() -> None:  # ConfirmDialogListener.onCheckedChanged
            state["remember"] = not state["remember"]

        def send(_d: Dialog) -> None:
            state["decided"] = True
            self.premium_permissions[package] = (PERMISSION_ALWAYS_ALLOW if state["remember"]
                                                 else PERMISSION_ASK_USER)
            on_result(RESULT_OK)  # EVENT_SEND_CONFIRMED_SMS

        def deny(_d: Dialog) -> None:
            state["decided"] = True
            self.premium_permissions[package] = (PERMISSION_NEVER_ALLOW if state["remember"]
                                                 else PERMISSION_ASK_USER)
            on_result(RESULT_ERROR_SHORT_CODE_NEVER_ALLOWED if state["remember"]
                      else RESULT_ERROR_SHORT_CODE_NOT_ALLOWED)

        def dismissed() -> None:  # onCancel: BACK or a touch outside; no permission is stored
            if not state["decided"]:
                state["decided"] = True
                on_result(RESULT_ERROR_SHORT_CODE_NOT_ALLOWED)

        def body() -> View:
            remember = state["remember"]
            rows = [
                Row(ImageView("android:id/sms_short_code_coins_icon", width=dp(16), height=dp(16),
                              padding=(dp(8), 0)),
                    TextView(STRINGS["premium_details" if premium else "details"],
                             "android:id/sms_short_code_detail_message", width=MATCH, size=sp(14)),
                    class_name="android.widget.TableRow", width=WRAP),
                Row(CheckBox("", "android:id/sms_short_code_remember_choice_checkbox", checked=remember,
                             on_click=toggle, width=dp(40), padding=(0, 0, dp(8), 0)),
                    TextView(STRINGS["remember"], "android:id/sms_short_code_remember_choice_text", size=sp(14)),
                    class_name="android.widget.TableRow", width=WRAP),
                Row(View("", width=dp(8), height=1),
                    TextView(STRINGS["undo"] if remember else "", "android:id/sms_short_code_remember_undo_instruction",
                             width=WRAP, size=sp(14), padding=(0, 0, 0, 32 if remember else 0)),
                    class_name="android.widget.TableRow", width=WRAP),
            ]
            return LinearLayout(
                TextView(STRINGS["confirm_message"].format(app=label, dest=dest),
                         "android:id/sms_short_code_confirm_message", width=MATCH, size=sp(18),
                         padding=(dp(16), dp(8), dp(16), dp(16))),
                LinearLayout(*rows, id="android:id/sms_short_code_detail_layout", width=WRAP,
                             class_name="android.widget.TableLayout", padding=(dp(16), 0, dp(16), 0)),
                id="android:id/parentPanel", margin=(dp(8), 0))

        activity.show_dialog(_ConfirmDialog(lambda: state["remember"], body=body,
                                            positive=(STRINGS["allow"], send), negative=(STRINGS["deny"], deny),
                                            on_dismiss=dismissed))

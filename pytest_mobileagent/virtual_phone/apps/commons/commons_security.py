"""Simple-Commons' password protection: SecurityDialog and the settings rows that open it.

Follows Simple-Commons (the commits the apps pin, e.g. 6a7777d740):
``dialogs/SecurityDialog.kt``, ``adapters/PasswordTypesAdapter.kt``,
``views/PinTab.kt``, ``views/PatternTab.kt``, ``interfaces/BaseSecurityTab.kt`` and
``layout/dialog_security.xml``, ``tab_pin.xml``, ``tab_pattern.xml``:

- with every tab (``SHOW_ALL_TABS``, protection off) the dialog's TabLayout
  (``dialog_tab_layout``) shows "Pattern" and "PIN"; the biometric tab only
  when ``isBiometricIdAvailable()``, and the reference emulator has no enrolled
  biometrics (BiometricManager.canAuthenticate is not BIOMETRIC_SUCCESS), so it
  has none.  With protection on, only the tab of the stored type shows and the
  TabLayout is gone;
- the PIN tab (``pin_lock_holder``): digits ``pin_0`` .. ``pin_9`` add to the PIN
  (at most 10, shown as stars in ``pin_lock_current_pin``), ``pin_c`` deletes the
  last digit, ``pin_ok`` confirms (PinTab.confirmPIN): an empty PIN toasts
  "Please enter a PIN"; a new PIN shorter than 4 toasts "PIN must be at least 4
  digits long"; a new PIN is asked twice ("Repeat PIN"); a mismatch shows
  "Wrong PIN" and starts over; the right PIN (a SHA-1 hex hash) succeeds;
- Cancel (or BACK) fails the dialog; success closes it and the row's handler
  (the apps' ``setup*PasswordProtection``) flips the protection, stores or clears
  the hash and, once protection is on, confirms "Password setup successfully.
  Please reinstall the app in case you forget it." (ConfirmationDialog, OK only).

Not modelled: drawing a pattern (PatternLockView takes a touch gesture across its
dots; the tab is shown, a tap on it does nothing), the 1 s after which "Wrong
PIN" turns back into "Enter PIN" (here it shows until the next key), and the
lock-out countdown after three wrong PINs of a stored password.
"""

from __future__ import annotations

import hashlib
from typing import Callable

from ...framework.ui.views import (MATCH, TEXT, WRAP, Column, ImageView, LinearLayout, RelativeLayout, ScrollView, TabLayout,
                        TextView, View, dp, sp)
from ...framework.app import Activity, Dialog, settings_checkbox
from .simple_commons import confirmation_dialog

__all__ = ["PROTECTION_PATTERN", "PROTECTION_PIN", "SHOW_ALL_TABS", "password_protection_row", "security_dialog"]

PROTECTION_PATTERN, PROTECTION_PIN, SHOW_ALL_TABS = 0, 1, -1
MINIMUM_PIN_LENGTH = 4
TAB_TITLES = {PROTECTION_PATTERN: "Pattern", PROTECTION_PIN: "PIN"}
PROTECTION_SET_UP = "Password setup successfully. Please reinstall the app in case you forget it."


def pin_hash(pin: str) -> str:
    """PinTab.getHashedPin: SHA-1 of the UTF-8 digits, lower-case hex."""
    return hashlib.sha1(pin.encode("utf-8")).hexdigest()


class _SecurityState:
    def __init__(self, required_hash: str, tab: int) -> None:
        self.required_hash = required_hash
        self.computed_hash = required_hash
        self.tab = tab
        self.pin = ""
        self.title = "Enter PIN"
        self.succeeded = False


def security_dialog(activity: Activity, required_hash: str, show_tab_index: int,
                    callback: Callable[[str, int, bool], object]) -> Dialog:
    """SecurityDialog(activity, requiredHash, showTabIndex, callback(hash, type, success))."""
    state = _SecurityState(required_hash, PROTECTION_PATTERN if show_tab_index == SHOW_ALL_TABS else show_tab_index)

    def dismissed() -> None:  # Cancel, BACK or a tap beside it: onCancelFail
        if not state.succeeded:
            callback("", 0, False)

    def received(hash_: str, type_: int) -> None:  # receivedHash
        state.succeeded = True
        dialog.dismiss()
        callback(hash_, type_, True)

    def add(digit: str) -> None:
        if len(state.pin) < 10:
            state.pin += digit
        state.title = state.title if state.title != "Wrong PIN" else "Enter PIN"

    def delete() -> None:
        state.pin = state.pin[:-1]

    def confirm() -> None:
        new_hash = pin_hash(state.pin)
        if not state.pin:
            activity.toast("Please enter a PIN")
        elif not state.computed_hash and len(state.pin) < MINIMUM_PIN_LENGTH:
            state.pin = ""
            activity.toast("PIN must be at least 4 digits long")
        elif not state.computed_hash:
            state.computed_hash, state.pin, state.title = new_hash, "", "Repeat PIN"
        elif state.computed_hash == new_hash:
            received(state.computed_hash, PROTECTION_PIN)
        else:
            state.pin, state.title = "", "Wrong PIN"
            if not state.required_hash:
                state.computed_hash = ""

    def key(id: str, text: str, on_click) -> View:
        return TextView(text, id, size=sp(24), gravity="center", weight=1, width=MATCH, height=dp(64),
                        on_click=on_click)

    def pin_tab() -> View:
        rows = [[str(d) for d in range(r, r + 3)] for r in (1, 4, 7)]
        grid = [LinearLayout(*[key(f"pin_{d}", d, lambda d=d: add(d)) for d in row], orientation="horizontal")
                for row in rows]
        grid.append(LinearLayout(
            key("pin_c", "C", delete), key("pin_0", "0", lambda: add("0")),
            ImageView("pin_ok", icon="check", tint=TEXT, weight=1, width=MATCH, height=dp(64), on_click=confirm),
            orientation="horizontal"))
        return RelativeLayout(Column(
            ImageView("pin_lock_icon", icon="lock", tint=TEXT, width=dp(48), height=dp(48),
                      layout_gravity="center_horizontal", margin=(0, dp(16), 0, 0)),
            TextView(state.title, "pin_lock_title", size=sp(18), gravity="center", width=MATCH,
                     padding=(dp(16), dp(16), dp(16), dp(8))),
            TextView("*" * len(state.pin), "pin_lock_current_pin", size=sp(22), gravity="center", width=MATCH,
                     padding=(0, dp(8))),
            Column(*grid, margin=(0, dp(16), 0, 0))), id="pin_lock_holder", class_name="android.widget.RelativeLayout")

    def pattern_tab() -> View:
        return RelativeLayout(Column(
            ImageView("pattern_lock_icon", icon="lock", tint=TEXT, width=dp(48), height=dp(48),
                      layout_gravity="center_horizontal", margin=(0, dp(16), 0, 0)),
            TextView("Insert pattern", "pattern_lock_title", size=sp(18), gravity="center", width=MATCH,
                     padding=(dp(16), dp(16), dp(16), dp(8))),
            View("pattern_lock_view", width=dp(280), height=dp(280), layout_gravity="center_horizontal")),
            id="pattern_lock_holder", class_name="android.widget.RelativeLayout")

    def select(index: int) -> None:
        state.tab = index

    def body() -> View:
        children: list[View] = []
        if show_tab_index == SHOW_ALL_TABS:
            tabs = [TAB_TITLES[PROTECTION_PATTERN], TAB_TITLES[PROTECTION_PIN]]
            children.append(TabLayout("dialog_tab_layout", tabs=tabs, selected=state.tab, on_select=select))
        page = pin_tab() if state.tab == PROTECTION_PIN else pattern_tab()
        children.append(LinearLayout(page, id="dialog_tab_view_pager",  # dialog_security.xml
                                     class_name="com.simplemobiletools.commons.views.MyDialogViewPager"))
        return ScrollView(RelativeLayout(Column(*children), id="dialog_holder", width=WRAP),
                          id="dialog_scrollview", height=WRAP, focusable=False)

    dialog = activity.show_dialog(Dialog(body=body, negative="Cancel", on_dismiss=dismissed))
    return dialog


def password_protection_row(activity: Activity, prefix: str, label: str, kind: str) -> View:
    """A settings check box row bound to Commons' BaseConfig ``is<Kind>PasswordProtectionOn``; its tap
    opens SecurityDialog as the apps' ``setup<Kind>PasswordProtection`` do (``kind``: "app", "hidden",
    "delete").  The config lives in ``app.base_config``, which ``pm clear`` resets."""
    config = activity.app.base_config
    on = getattr(config, f"{kind}_protection_on", False)

    def open_dialog() -> None:
        enabled = getattr(config, f"{kind}_protection_on", False)
        tab = getattr(config, f"{kind}_protection_type", PROTECTION_PATTERN) if enabled else SHOW_ALL_TABS

        def done(hash_: str, type_: int, success: bool) -> None:
            if not success:
                return
            setattr(config, f"{kind}_protection_on", not enabled)
            setattr(config, f"{kind}_password_hash", "" if enabled else hash_)
            setattr(config, f"{kind}_protection_type", type_)
            if not enabled:
                confirmation_dialog(activity, PROTECTION_SET_UP, lambda: None, positive="OK", negative=None)

        security_dialog(activity, getattr(config, f"{kind}_password_hash", ""), tab, done)

    return settings_checkbox(prefix, label, on, lambda _value: open_dialog())

"""Settings' per-app notification page (Settings.ACTION_APP_NOTIFICATION_SETTINGS).

Apps open it to let the user change their notifications (Simple-Commons'
BaseSimpleActivity.launchCustomizeNotificationsIntent: the action with
Settings.EXTRA_APP_PACKAGE).  Android 14's Settings answers with
``Settings$AppNotificationSettingsActivity`` (packages/apps/Settings,
AndroidManifest.xml), in the caller's task: BACK returns to the app.

Its first screen (res/xml/app_notification_settings.xml): the title
"Notifications" (notifications_title), the app's header, and the main switch
(SettingsMainSwitchPreference "block", settingslib's MainSwitchBar with
``switch_text`` / ``switch_widget``) titled by
BlockPreferenceController.getSwitchBarText: notification_app_switch_label,
"All %1$s notifications".  Turning it off blocks the app's notifications
(NotificationBackend.setNotificationsEnabledForPackage); the phone keeps that
per package until the switch is turned on again.

The page's further preferences (channels, bubbles, badge, the app link ...)
are not modelled.
"""

from __future__ import annotations

from ...framework.intents import IntentFilter
from ...framework.ui.views import MATCH, Column, ImageView, LinearLayout, Row, ScrollView, Switch, TextView, View, dp, sp
from ...framework.app import Activity

__all__ = ["ACTION_APP_NOTIFICATION_SETTINGS", "AppNotificationSettingsActivity", "notification_filters"]

ACTION_APP_NOTIFICATION_SETTINGS = "android.settings.APP_NOTIFICATION_SETTINGS"
EXTRA_APP_PACKAGE = "android.provider.extra.APP_PACKAGE"
PACKAGE = "com.android.settings"


def blocked_packages(host) -> set[str]:
    """The packages whose notifications the user turned off (NotificationManagerService keeps this
    per package; the phone keeps it on the system object)."""
    blocked = getattr(host, "notification_blocked_packages", None)
    if blocked is None:
        blocked = set()
        host.notification_blocked_packages = blocked
    return blocked


class AppNotificationSettingsActivity(Activity):
    """Settings' notification page of one app (EXTRA_APP_PACKAGE)."""

    name = "com.android.settings.Settings$AppNotificationSettingsActivity"
    title = "Notifications"

    def on_create(self) -> None:
        intent = self.extras.get("intent")
        self.target = str(intent.extras.get(EXTRA_APP_PACKAGE, "")) if intent is not None else ""
        if self.host.app(self.target) is None:
            # AppInfoBase / NotificationSettings.loadAppRow: no such package, the page finishes
            self.host.defer(self.finish)

    def toggle(self, on: bool) -> None:
        blocked = blocked_packages(self.host)
        if on:
            blocked.discard(self.target)
        else:
            blocked.add(self.target)

    def build(self) -> View:
        pkg = PACKAGE
        app = self.host.app(self.target)
        label = app.label if app is not None else self.target
        enabled = self.target not in blocked_packages(self.host)
        header = LinearLayout(
            ImageView(f"{pkg}:id/entity_header_icon", icon=f"app:{label}", width=dp(72), height=dp(72),
                      layout_gravity="center_horizontal"),
            TextView(label, f"{pkg}:id/entity_header_title", size=sp(24), gravity="center", width=MATCH),
            id=f"{pkg}:id/entity_header", width=MATCH, padding=(dp(16), dp(8)))
        switch_bar = LinearLayout(Row(
            TextView(f"All {label} notifications", f"{pkg}:id/switch_text", size=sp(20), weight=1, width=MATCH),
            Switch("", "android:id/switch_widget", checked=enabled, width=dp(52), clickable=False,
                   focusable=False),
            gravity="center_vertical", width=MATCH), width=MATCH, min_height=dp(72),
            padding=(dp(24), dp(16)), margin=(dp(16), 0), radius=dp(28), bg=(211, 227, 253),
            on_click=lambda: self.toggle(not enabled))
        return Column(
            Row(ImageView("", icon="back", desc="Navigate up", on_click=self.finish, padding=dp(16)),
                width=MATCH, height=dp(64), gravity="center_vertical"),
            TextView("Notifications", size=sp(36), width=MATCH, padding=(dp(24), dp(16))),
            ScrollView(Column(header, switch_bar, id=f"{pkg}:id/recycler_view", width=MATCH), height=MATCH,
                       weight=1),
            height=MATCH)


def notification_filters() -> tuple:
    """Settings' intent filter for the page (its AndroidManifest.xml)."""
    return ((AppNotificationSettingsActivity.name, "", IntentFilter((ACTION_APP_NOTIFICATION_SETTINGS,))),)

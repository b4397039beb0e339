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
"All %1$s notifications".

Since Android 13 an app's notifications are on exactly when it holds the
POST_NOTIFICATIONS runtime permission: NotificationBackend.loadAppRow's
``banned`` is !INotificationManager.areNotificationsEnabledForPackage, which
NotificationManagerService answers with PermissionHelper.hasPermission(uid), and
the switch's NotificationBackend.setNotificationsEnabledForPackage reaches
PermissionHelper.setNotificationPermission, which grants or revokes
POST_NOTIFICATIONS (flag USER_SET) - unless the package does not request it or
the grant is system-fixed ("Do not change the permission if the package doesn't
request it, do not change fixed permissions").  So the page reads and writes the
phone's runtime grants, the one record that `pm grant` / `pm revoke` change and
`dumpsys package` reports (an app targeting API 33+ that never asked starts
with its notifications off).  Platform apps (no manifest facts here) hold it as
a fixed grant: their switch shows on and cannot be turned off.

The page's further preferences (channels, bubbles, badge, the app link ...)
are not modelled.
"""

from __future__ import annotations

from ...framework.intents import IntentFilter
from ...framework.manifests import has_facts, requested_permissions
from ...framework.ui.views import MATCH, Column, ImageView, LinearLayout, Row, ScrollView, Switch, TextView, View, dp, sp
from ...framework.app import Activity

__all__ = ["ACTION_APP_NOTIFICATION_SETTINGS", "AppNotificationSettingsActivity", "notification_filters"]

ACTION_APP_NOTIFICATION_SETTINGS = "android.settings.APP_NOTIFICATION_SETTINGS"
EXTRA_APP_PACKAGE = "android.provider.extra.APP_PACKAGE"
PACKAGE = "com.android.settings"


POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS"


def _changeable(package: str) -> bool:
    """PermissionHelper.setNotificationPermission changes only a requested, not fixed grant."""
    return has_facts(package) and POST_NOTIFICATIONS in requested_permissions(package)


def notifications_enabled(host, package: str) -> bool:
    """NotificationManagerService.areNotificationsEnabledForPackage: the POST_NOTIFICATIONS grant
    (a platform app's is fixed, so always held)."""
    return not has_facts(package) or host.has_permission(package, POST_NOTIFICATIONS)


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
        if not _changeable(self.target):
            return
        if on:
            self.host.grant_permission(self.target, POST_NOTIFICATIONS)
        else:
            self.host.revoke_permission(self.target, POST_NOTIFICATIONS)

    def build(self) -> View:
        pkg = PACKAGE
        app = self.host.app(self.target)
        label = app.label if app is not None else self.target
        enabled = notifications_enabled(self.host, self.target)
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
            enabled=_changeable(self.target), on_click=lambda: self.toggle(not enabled))
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

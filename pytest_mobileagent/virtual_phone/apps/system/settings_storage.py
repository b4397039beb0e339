"""Settings > Storage (Settings$StorageDashboardActivity, StorageDashboardFragment).

What ACTION_INTERNAL_STORAGE_SETTINGS opens (File Manager's storage summary starts it).  Android 14's
res/xml/storage_dashboard_fragment.xml (packages/apps/Settings): the usage bar
(UsageProgressBarPreference "storage_summary", StorageUsageProgressBarPreferenceController:
"<used> used" over "Total <total>", StorageUtils.getStorageSummary with storage_usage_summary /
storage_total_summary), the "Storage manager" switch (toggle_asm, off), then the category items
(StorageItemPreference: Images, Videos, Audio, Apps, Games, Documents & other, System, Trash)
with their sizes, which StorageItemPreferenceController.updatePrivateStorageCategoryPreferencesOrder
sorts largest first.  Sizes are Formatter.formatBytes(FLAG_SHORTER); every number comes from
framework/storage_stats.py, the record `df` and `dumpsys diskstats` report.

Not modelled: the storage selection spinner (shown only with a second volume), the "Free up space"
card, the item pages the categories open.
"""

from __future__ import annotations

from ...framework.app import Activity
from ...framework.storage_stats import format_bytes_shorter, storage_summary
from ...framework.ui.views import (MATCH, TEXT_SECONDARY, Column, ImageView, LinearLayout, Row, ScrollView,
                                   Switch, TextView, View, dp, sp)

PACKAGE = "com.android.settings"

#: (key, title) in the XML's order (strings.xml: storage_images ... storage_trash)
CATEGORIES = (("pref_images", "Images"), ("pref_videos", "Videos"), ("pref_audio", "Audio"),
              ("pref_apps", "Apps"), ("pref_games", "Games"), ("pref_documents_and_other", "Documents & other"),
              ("pref_system", "System"), ("pref_trash", "Trash"))


def _size(size: int) -> str:
    value, unit = format_bytes_shorter(size)
    return f"{value} {unit}"


class StorageDashboardActivity(Activity):
    """The Storage page of the phone's internal shared storage."""

    name = "com.android.settings.Settings$StorageDashboardActivity"
    title = "Storage"

    def build(self) -> View:
        pkg = PACKAGE
        volume = storage_summary(self.host.fs)
        sizes = {"pref_images": volume.images, "pref_videos": volume.videos, "pref_audio": volume.audio,
                 "pref_apps": volume.apps, "pref_games": volume.games,
                 "pref_documents_and_other": volume.documents_and_other, "pref_system": volume.system,
                 "pref_trash": volume.trash}
        used_value, used_unit = format_bytes_shorter(volume.used)
        summary = LinearLayout(
            TextView(f"{used_value} {used_unit} used", f"{pkg}:id/usage_summary", size=sp(24), width=MATCH),
            TextView(f"Total {_size(volume.total)}", f"{pkg}:id/total_summary", color=TEXT_SECONDARY, width=MATCH),
            View("android:id/progress", height=dp(8), bg=(11, 87, 208), margin=(0, dp(8)),
                 class_name="android.widget.ProgressBar"),
            width=MATCH, padding=(dp(24), dp(16)))
        asm = LinearLayout(Row(
            TextView("Storage manager", "android:id/title", size=sp(20), weight=1, width=MATCH),
            Switch("", "android:id/switch_widget", checked=False, width=dp(52), clickable=False, focusable=False),
            gravity="center_vertical", width=MATCH), width=MATCH, padding=(dp(24), dp(16)))
        rows: list[View] = [summary, asm]
        ordered = sorted(CATEGORIES, key=lambda item: -sizes[item[0]])  # stable: ties keep the XML order
        for key, label in ordered:
            rows.append(LinearLayout(
                Row(TextView(label, "android:id/title", size=sp(20), weight=1, width=MATCH),
                    TextView(_size(sizes[key]), "android:id/summary", color=TEXT_SECONDARY),
                    width=MATCH),
                View("android:id/progress", height=dp(4), bg=(211, 227, 253), margin=(0, dp(8), 0, 0),
                     class_name="android.widget.ProgressBar"),
                width=MATCH, padding=(dp(24), dp(12))))
        return Column(
            Row(ImageView("", icon="back", desc="Navigate up", on_click=self.finish, padding=dp(16)),
                width=MATCH, height=dp(64), gravity="center_vertical"),
            TextView("Storage", size=sp(36), width=MATCH, padding=(dp(24), dp(16))),
            ScrollView(Column(*rows, id=f"{pkg}:id/recycler_view", width=MATCH), height=MATCH, weight=1),
            height=MATCH)

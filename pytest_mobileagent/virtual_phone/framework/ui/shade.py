"""SystemUI's notification shade: the NotificationShade window, pulled down over every app.

`cmd statusbar expand-notifications` (and UiAutomation's GLOBAL_ACTION_NOTIFICATIONS, which
uiautomator's UiDevice.openNotification performs) shows it with the quick settings collapsed
to their first row above the notifications; `expand-settings` (GLOBAL_ACTION_QUICK_SETTINGS,
UiDevice.openQuickSettings) shows the quick settings panel itself.  BACK, HOME and `cmd
statusbar collapse` close it.

The view tree follows SystemUI's (frameworks/base packages/SystemUI: res/layout
super_notification_shade.xml -> status_bar_expanded.xml: notification_panel,
notification_container_parent, qs_frame with quick_settings_container / header /
quick_qs_panel / expanded_qs_scroll_view / quick_settings_panel, notification_stack_scroller;
status_bar_notification_section_header.xml's header_label; status_bar_notification_footer.xml's
manage_text and dismiss_text; status_bar_no_notifications.xml's no_notifications,
"No notifications"), with the nesting, classes, texts and descriptions of the real shade dumps
in the DroidTask recordings (a Pixel image, July 2023): the tile switches read "On"/"Off" with
the tile's name as content-desc, each notification row holds android:id/app_name_text, title
and text.  The rows are the notifications NotificationManagerService holds (notifications.py),
newest first, "Silent" ones (importance below DEFAULT) in a section of their own.
"""

from __future__ import annotations

import time
from typing import Callable, Mapping

from .views import (
    MATCH,
    FrameLayout,
    ImageView,
    LinearLayout,
    RelativeLayout,
    ScrollView,
    TextView,
    WRAP,
    View,
    dp,
    sp,
)
from .window import HEIGHT, NAV_BAR_H, STATUS_BAR_H, WIDTH, Window

__all__ = ["SHADE_PACKAGE", "ShadeWindow", "tiles"]

SHADE_PACKAGE = "com.android.systemui"
_SYS = "com.android.systemui:id/"
_PANEL_BG = (32, 33, 36)
_STATUS_ICONS_H = dp(44)  # the date and battery row below the clock
_QQS_H = dp(64)  # the first row of tiles
_QS_PANEL_H = dp(48) + 2 * dp(112) + dp(16)  # brightness and two rows of large tiles
_ROW_HEADER_H = dp(28)
_LINE_H = dp(20)
_CARD_BG = (48, 49, 53)
_WHITE = (232, 234, 237)
_GREY = (189, 193, 198)

#: the first page of quick settings tiles as the recorded shade shows them: (label, content-desc,
#: namespace, setting it reflects, value meaning "on"); None: a tile not backed by a setting
_TILES = (
    ("Wi-Fi", "Wi-Fi,", "global", "wifi_on", "1"),
    ("Bluetooth", "Bluetooth.", "global", "bluetooth_on", "1"),
    ("Do Not Disturb", "Do Not Disturb.", "global", "zen_mode", None),
    ("Auto-rotate", "Auto-rotate screen", "system", "accelerometer_rotation", "1"),
    ("Battery Saver", "Battery Saver", "global", "low_power", "1"),
    ("Airplane mode", "Airplane mode", "global", "airplane_mode_on", "1"),
)


def _tile_on(settings: Mapping[str, Mapping[str, str]], namespace: str, name: str, on: str | None) -> bool:
    value = settings.get(namespace, {}).get(name, "0")
    return value != "0" if on is None else value == on  # zen_mode: any mode but ZEN_MODE_OFF (0)


def tiles(settings: Mapping[str, Mapping[str, str]]) -> list[tuple[str, str, bool]]:
    """(label, content-desc, on) of each tile, read from the settings store `settings get` reads."""
    return [(label, desc, _tile_on(settings, ns, name, on)) for label, desc, ns, name, on in _TILES]


class _Tile(LinearLayout):
    """A quick settings tile: a Switch whose text is its state, "On" or "Off" (QSTileViewImpl)."""

    CLASS = "android.widget.Switch"
    checkable = True

    def __init__(self, *children, state: bool, **kw) -> None:
        super().__init__(*children, **kw)
        self.checked = state

    def dump_text(self) -> str:
        return "On" if self.checked else "Off"


class _StackScroller(ScrollView):
    """NotificationStackScrollLayout: reported scrollable however few rows it holds (the recorded
    shades' notification_stack_scroller is scrollable="true" with three rows)."""

    scrollable = True


class ShadeWindow(Window):
    """The NotificationShade window (TYPE_NOTIFICATION_SHADE): full screen, above the apps."""

    #: the expanded shade's header takes the status bar's place (render.display_list)
    covers_status_bar = True

    def __init__(self, system, settings_view: bool) -> None:
        self.system = system
        #: True: the quick settings panel (expand-settings); False: the notifications
        self.settings_view = settings_view
        super().__init__(SHADE_PACKAGE, "NotificationShade", self._build, fullscreen=True)

    def decorate(self, content: View) -> View:
        return content  # SystemUI's own window: no app decor around it

    # -- building -------------------------------------------------------------------
    def _settings(self) -> Mapping[str, Mapping[str, str]]:
        return getattr(self.system, "settings", None) or {}

    def _toggle(self, namespace: str, name: str, on: str | None) -> Callable[[], None]:
        def toggle() -> None:
            table = self._settings().get(namespace)
            if table is not None:
                table[name] = "0" if _tile_on(self._settings(), namespace, name, on) else (on or "1")
        return toggle

    def _tile(self, index: int, large: bool) -> View:
        label, desc, namespace, name, on = _TILES[index]
        state = _tile_on(self._settings(), namespace, name, on)
        children: list[View] = [FrameLayout(ImageView("android:id/icon", icon="dot", width=dp(24), height=dp(24),
                                                      tint=(32, 33, 36) if state else _WHITE, layout_gravity="center"),
                                            class_name="android.view.ViewGroup", height=dp(32))]
        if large:
            children.append(LinearLayout(TextView(label, _SYS + "tile_label", size=sp(14), color=_WHITE,
                                                  gravity="center", width=MATCH, max_lines=1),
                                         id=_SYS + "label_group", class_name="android.widget.Button"))
        return _Tile(*children, state=state, desc=desc, weight=1, width=0,
                     height=dp(96) if large else dp(48), margin=(dp(4), 0), padding=(0, dp(8)),
                     on_click=self._toggle(namespace, name, on), bg=(138, 180, 248) if state else _CARD_BG,
                     radius=dp(24))

    def _header(self) -> View:
        """QuickStatusBarHeader: the clock in the status bar's place, the date and battery below
        it, and (notifications view) the first row of tiles, quick_qs_panel, below those."""
        now = time.gmtime(self.system.clock_ms() / 1000)
        hour12 = now.tm_hour % 12 or 12
        clock = TextView(time.strftime("%H:%M", now), _SYS + "clock", desc=f"{hour12}:{now.tm_min:02d} "
                         f"{'AM' if now.tm_hour < 12 else 'PM'}", size=sp(14), color=_WHITE, clickable=True,
                         width=WRAP)
        date = TextView(f"{time.strftime('%a, %b', now)} {now.tm_mday}", _SYS + "date", size=sp(14), color=_WHITE,
                        width=WRAP)
        battery = LinearLayout(TextView("100%", _SYS + "battery_percentage_view", size=sp(14), color=_WHITE,
                                        width=WRAP),
                               id=_SYS + "batteryRemainingIcon", desc="Battery 100 percent.", width=WRAP)
        children: list[View] = [
            FrameLayout(clock, id=_SYS + "quick_status_bar_system_icons", height=STATUS_BAR_H,
                        padding=(dp(20), dp(12), dp(20), 0)),
            LinearLayout(date, View(weight=1, width=0, height=dp(16)), battery, id=_SYS + "quick_qs_status_icons",
                         orientation="horizontal", height=_STATUS_ICONS_H, margin=(0, STATUS_BAR_H, 0, 0),
                         padding=(dp(20), 0))]
        if not self.settings_view:
            children.append(LinearLayout(*[self._tile(i, large=False) for i in range(len(_TILES))],
                                         id=_SYS + "quick_qs_panel", orientation="horizontal",
                                         padding=(dp(16), dp(8)), height=_QQS_H,
                                         margin=(0, STATUS_BAR_H + _STATUS_ICONS_H, 0, 0)))
        return RelativeLayout(*children, id=_SYS + "header")

    def _quick_settings_panel(self) -> View:
        rows = [LinearLayout(*[self._tile(i, large=True) for i in range(start, start + 3)],
                             orientation="horizontal", padding=(dp(16), dp(8)))
                for start in (0, 3)]
        brightness = RelativeLayout(View(_SYS + "slider", class_name="android.widget.SeekBar", height=dp(48),
                                         bg=(138, 180, 248), radius=dp(24)),
                                    id=_SYS + "brightness_slider", desc="Display brightness", padding=(dp(16), 0))
        page = LinearLayout(*rows, id=_SYS + "tile_page", class_name="android.view.ViewGroup")
        pager = FrameLayout(page, id=_SYS + "qs_pager", class_name="androidx.viewpager.widget.ViewPager")
        return ScrollView(LinearLayout(brightness, pager, id=_SYS + "quick_settings_panel"),
                          id=_SYS + "expanded_qs_scroll_view")

    def _row(self, record) -> View:
        """ExpandableNotificationRow: backgroundNormal under the expanded content, which holds the
        standard template's notification_header (icon, app name) and main column (title, text)."""
        app = self.system.app(record.package)
        app_name = app.label if app is not None else _LABELS.get(record.package, record.package)
        header = LinearLayout(
            FrameLayout(ImageView("android:id/icon", icon="dot", width=dp(16), height=dp(16), tint=_GREY),
                        id="android:id/header_icon_container", width=dp(24)),
            TextView(app_name, "android:id/app_name_text", size=sp(12), color=_GREY, width=WRAP),
            id="android:id/notification_header", class_name="android.view.ViewGroup", orientation="horizontal",
            height=_ROW_HEADER_H, padding=(dp(16), dp(8), dp(16), 0))
        column: list[View] = []
        if record.title is not None:
            column.append(LinearLayout(TextView(record.title, "android:id/title", size=sp(14), bold=True,
                                                color=_WHITE, max_lines=1, height=_LINE_H), id="android:id/line1"))
        if record.text is not None:
            column.append(TextView(record.text, "android:id/text", size=sp(14), color=_GREY, max_lines=1,
                                   height=_LINE_H))
        main = LinearLayout(*column, id="android:id/notification_main_column", padding=(dp(16), 0, dp(16), 0))
        height = _ROW_HEADER_H + len(column) * _LINE_H + dp(12)
        content = FrameLayout(LinearLayout(header, main), id="android:id/status_bar_latest_event_content",
                              height=height)
        return FrameLayout(View(_SYS + "backgroundNormal", height=height, bg=_CARD_BG, radius=dp(16)),
                           FrameLayout(content, id=_SYS + "expanded", height=height),
                           margin=(dp(4), dp(2)), key=record.key)

    def _section_header(self, label: str, clear_all: bool) -> View:
        children: list[View] = [FrameLayout(TextView(label, _SYS + "header_label", size=sp(14), color=_GREY,
                                                     clickable=True, padding=(dp(16), dp(16))), width=WRAP)]
        if clear_all:
            children.append(ImageView(_SYS + "btn_clear_all", icon="close", desc="Clear all silent notifications",
                                      width=dp(48), height=dp(48), on_click=self._clear_all))
        return FrameLayout(LinearLayout(*children, id=_SYS + "content", orientation="horizontal"))

    def _clear_all(self) -> None:
        self.system.notifications.cancel_all_clearable()
        self.system.collapse_panels()  # the panel closes once the stack is empty (clear-all animation)

    def _stack(self) -> View:
        records = self.system.notifications.records()
        alerting = [r for r in records if r.importance >= 3]
        silent = [r for r in records if r.importance < 3]
        children: list[View] = []
        if alerting:
            children.append(self._section_header("Notifications", clear_all=False))
            children += [self._row(r) for r in alerting]
        if silent:
            children.append(self._section_header("Silent", clear_all=True))
            children += [self._row(r) for r in silent]
        if records:
            children.append(FrameLayout(LinearLayout(
                TextView("Manage", _SYS + "manage_text", desc="Manage", class_name="android.widget.Button",
                         size=sp(14), color=_WHITE, padding=(dp(16), dp(16)), width=WRAP),
                View(weight=1, width=0),
                TextView("Clear all", _SYS + "dismiss_text", desc="Clear all notifications.",
                         class_name="android.widget.Button", size=sp(14), color=_WHITE, padding=(dp(16), dp(16)),
                         width=WRAP, on_click=self._clear_all),
                id=_SYS + "content", orientation="horizontal")))
        else:
            children.append(TextView("No notifications", _SYS + "no_notifications", size=sp(16), color=_GREY,
                                     gravity="center", padding=(0, dp(32))))
        return _StackScroller(LinearLayout(*children), id=_SYS + "notification_stack_scroller", height=MATCH)

    def _build(self) -> View:
        top = STATUS_BAR_H + _STATUS_ICONS_H
        qs_children: list[View] = [View(_SYS + "quick_settings_status_bar_background", height=STATUS_BAR_H),
                                   self._header()]
        if self.settings_view:
            panel = self._quick_settings_panel()
            panel.margin = (0, top, 0, 0)
            qs_children.append(panel)
        else:
            top += _QQS_H
        qs_children.append(FrameLayout(View(width=dp(46), height=dp(4), bg=_GREY, layout_gravity="center"),
                                       id=_SYS + "qs_drag_handle_view", height=dp(12), layout_gravity="bottom"))
        quick_settings = FrameLayout(*qs_children, id=_SYS + "quick_settings_container",
                                     height=top + (_QS_PANEL_H if self.settings_view else 0) + dp(12))
        panel_children: list[View] = [FrameLayout(quick_settings, id=_SYS + "qs_frame")]
        if not self.settings_view:
            panel_children.append(self._stack())
        container = LinearLayout(*panel_children, id=_SYS + "notification_container_parent", height=MATCH,
                                 padding=(0, 0, 0, NAV_BAR_H))
        return FrameLayout(View(_SYS + "scrim_behind", height=MATCH, bg=_PANEL_BG),
                           FrameLayout(container, id=_SYS + "notification_panel", height=MATCH),
                           width=WIDTH, height=HEIGHT)


#: labels of platform packages that post notifications but have no app model here
_LABELS = {"com.android.shell": "Shell", "android": "Android System"}

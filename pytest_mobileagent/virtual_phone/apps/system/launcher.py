"""The home screen: an icon with its label for every installed app, then the pinned shortcuts.

Modelled on AOSP Launcher3 (Quickstep) dumps: the workspace holds
`android.widget.TextView` icons whose text and content-desc are the app
label; tapping one launches the app (or brings its task back), as a real
home screen does.  Launcher3's AddItemActivity confirms an app's pinned
shortcut (ShortcutManager.requestPinShortcut, framework/shortcut_manager.py);
an accepted shortcut joins the workspace after the apps (ItemInstallQueue puts
it in the first free cell) and its tap starts the shortcut's intent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...framework.intents import IntentFilter
from ...framework.roles import ROLE_HOME
from ...framework.shortcut_manager import ACTION_CONFIRM_PIN_SHORTCUT, ShortcutInfo
from ...framework.ui.views import (MATCH, WRAP, Button, FrameLayout, ImageView, LinearLayout, ScrollView, TextView,
                                   View, ViewGroup, dp, sp)
from ...framework.app import Activity, App

PACKAGE = "com.android.launcher3"


class QuickstepLauncher(Activity):
    name = "com.android.launcher3.uioverride.QuickstepLauncher"
    fullscreen = True

    def build(self) -> View:
        apps = sorted((a for a in self.host.installed_apps() if a.in_launcher and a.package != PACKAGE),
                      key=lambda a: a.label.lower())
        icons = [
            TextView(app.label, desc=app.label, top_icon=f"app:{app.label}", icon_size=dp(56), size=sp(13),
                     color=(255, 255, 255), gravity="center_horizontal", max_lines=1, width=MATCH,
                     padding=(dp(4), dp(12), dp(4), dp(8)), key=app.package, long_clickable=True,
                     on_click=lambda p=app.package: self.launch_app(p))
            for app in apps
        ]
        # pinned shortcuts: BubbleTextView icons labelled with the short label
        icons += [
            TextView(s.short_label, desc=s.short_label, top_icon=f"app:{_app_label(self, s.package)}",
                     icon_size=dp(56), size=sp(13), color=(255, 255, 255), gravity="center_horizontal",
                     max_lines=1, width=MATCH, padding=(dp(4), dp(12), dp(4), dp(8)),
                     key=f"shortcut:{s.package}/{s.id}", long_clickable=True,
                     on_click=lambda s=s: self.host.start_cleared_task(s.component, dict(s.extras)))
            for s in self.data.pinned_shortcuts
        ]
        grid = ScrollView(_CellLayout(*icons, padding=(dp(8), dp(60), dp(8), 0)), id="workspace",
                          focusable=False)
        return FrameLayout(FrameLayout(grid, id="drag_layer", height=MATCH), id="launcher", height=MATCH,
                           bg=(38, 50, 56))


class _CellLayout(ViewGroup):
    """Launcher3's CellLayout: icons in cells of a 4-column grid."""

    COLUMNS = 4
    CELL_H = dp(104)

    def content_size(self, avail_w, avail_h):
        rows = (len(self.visible_children()) + self.COLUMNS - 1) // self.COLUMNS
        cell_w = avail_w // self.COLUMNS
        for child in self.visible_children():
            child.measure(cell_w, self.CELL_H, exact_w=cell_w, exact_h=self.CELL_H)
        return avail_w, rows * self.CELL_H

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        return View.measure(self, avail_w, avail_h, exact_w, exact_h)

    def place_children(self, clip):
        x0, y0, _, _ = self.rect
        pl, pt, pr, _ = self.padding
        cell_w = (self.mw - pl - pr) // self.COLUMNS
        for i, child in enumerate(self.visible_children()):
            row, col = divmod(i, self.COLUMNS)
            child.place(x0 + pl + col * cell_w, y0 + pt + row * self.CELL_H, clip)


def _app_label(activity: Activity, package: str) -> str:
    app = next((a for a in activity.host.installed_apps() if a.package == package), None)
    return app.label if app is not None else package


class AddItemActivity(Activity):
    """Launcher3's pin confirmation (dragndrop/AddItemActivity.java, layout/add_item_confirmation_activity.xml
    and widget_cell_content.xml at Android 14's udc-release) for a shortcut request.

    A bottom sheet: the app's label (``widget_appName``), "Touch & hold the widget to move it around the home
    screen" (``widget_drag_instruction``), the widget cell (``widget_cell``: the preview, the shortcut's label
    in ``widget_name`` described "<label> widget", its size "1 × 1" in ``widget_dims``; no description),
    then Cancel and "Add to home screen".  onPlaceAutomaticallyClick queues the shortcut for the
    workspace (ItemInstallQueue) and accepts the request; Cancel (onCancelClick) and BACK (onBackPressed)
    close the sheet; either way the activity finishes and the app is back.  Dragging the preview is not
    modelled.
    """

    name = "com.android.launcher3.dragndrop.AddItemActivity"

    def on_create(self) -> None:
        self.request: ShortcutInfo = self.extras["pin_request"]

    def add(self) -> None:
        pinned = self.data.pinned_shortcuts
        if not any(s.package == self.request.package and s.id == self.request.id for s in pinned):
            pinned.append(self.request)
        self.finish()

    def build(self) -> View:
        shortcut = self.request
        cell = LinearLayout(
            FrameLayout(ImageView("widget_preview", icon=f"app:{_app_label(self, shortcut.package)}", width=dp(56),
                                  height=dp(56), layout_gravity="center_horizontal"),
                        ImageView("widget_badge", width=WRAP, height=WRAP),
                        id="widget_preview_container", height=dp(72), margin=(0, dp(8)),
                        class_name="android.widget.FrameLayout"),
            TextView(shortcut.short_label, "widget_name", desc=f"{shortcut.short_label} widget", width=MATCH,
                     gravity="center_horizontal", max_lines=1, size=sp(14)),
            TextView("1 \u00d7 1", "widget_dims", desc="1 wide by 1 high", width=MATCH, gravity="center_horizontal",
                     size=sp(14)),
            id="widget_cell", focusable=True, gravity="center_horizontal", margin=(dp(16), 0))
        sheet = LinearLayout(
            TextView(_app_label(self, shortcut.package), "widget_appName", width=MATCH, gravity="center_horizontal",
                     size=sp(24), max_lines=1, margin=(dp(16), 0)),
            TextView("Touch & hold the widget to move it around the home screen", "widget_drag_instruction",
                     width=MATCH, gravity="center_horizontal", size=sp(14), padding=(0, dp(8), 0, 0),
                     margin=(dp(16), 0)),
            ScrollView(cell, id="widget_preview_scroll_view", height=WRAP, margin=(0, dp(16))),
            LinearLayout(Button("Cancel", on_click=self.finish, width=WRAP),
                         View("", width=dp(8), height=1),
                         Button("Add to home screen", on_click=self.add, width=WRAP),
                         id="actions_container", orientation="horizontal", gravity="center_vertical|end",
                         padding=(0, dp(8)), margin=(dp(16), 0)),
            id="add_item_bottom_sheet_content", padding=(0, dp(24)), bg=(255, 255, 255), radius=dp(24))
        return FrameLayout(LinearLayout(sheet, id="add_item_bottom_sheet", layout_gravity="bottom", height=WRAP),
                           id="add_item_drag_layer", height=MATCH)


@dataclass
class LauncherData:
    """The launcher's model (its launcher.db): the shortcuts pinned to the workspace."""

    pinned_shortcuts: list[ShortcutInfo] = field(default_factory=list)


class Launcher(App):
    package = PACKAGE
    label = "Launcher3"
    activities = (QuickstepLauncher, AddItemActivity)
    in_launcher = False
    roles = frozenset({ROLE_HOME})
    #: AndroidManifest-common.xml: AddItemActivity confirms CONFIRM_PIN_SHORTCUT (and CONFIRM_PIN_APPWIDGET)
    intent_filters = ((AddItemActivity.name, "",
                       IntentFilter((ACTION_CONFIRM_PIN_SHORTCUT, "android.content.pm.action.CONFIRM_PIN_APPWIDGET"))),)

    def new_data(self) -> LauncherData:
        return LauncherData()

"""The home screen: an icon with its label for every installed app.

Modelled on AOSP Launcher3 (Quickstep) dumps: the workspace holds
`android.widget.TextView` icons whose text and content-desc are the app
label; tapping one launches the app (or brings its task back), as a real
home screen does.
"""

from __future__ import annotations

from ...framework.roles import ROLE_HOME
from ...framework.ui.views import MATCH, FrameLayout, ScrollView, TextView, View, ViewGroup, dp, sp
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


class Launcher(App):
    package = PACKAGE
    label = "Launcher3"
    activities = (QuickstepLauncher,)
    in_launcher = False
    roles = frozenset({ROLE_HOME})

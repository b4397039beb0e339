"""Material's BottomSheetDialog, as apps show it (a BottomSheetDialogFragment's window).

``BottomSheetDialog.wrapInBottomSheet`` puts the content into
``design_bottom_sheet_dialog.xml``: a ``container`` FrameLayout (fitting the system
windows) holding the ``coordinator`` CoordinatorLayout, whose ``touch_outside`` view
covers the screen and cancels the dialog when tapped, and the ``design_bottom_sheet``
FrameLayout at the bottom with the content.  The ids are the Material library's,
merged into the app's package.
"""

from __future__ import annotations

from typing import Callable

from ...framework.ui.views import MATCH, WRAP, FrameLayout, View, dp
from ...framework.ui.window import NAV_BAR_H, STATUS_BAR_H, DialogWindow, Window
from ...framework.app import Dialog

__all__ = ["BottomSheetDialog"]


class _Sheet(FrameLayout):
    """``design_bottom_sheet``: not clickable, yet BottomSheetBehavior.onTouchEvent takes the touches on it,
    so a tap on the sheet's empty parts does not reach ``touch_outside`` beneath."""

    def handles_touch(self) -> bool:
        return self.enabled


class BottomSheetWindow(DialogWindow):
    """The dialog's full-screen window: the sheet at the bottom, the rest of the screen taps it away."""

    def decorate(self, content: View | None) -> View:
        pkg = self.package
        outside = View(f"{pkg}:id/touch_outside", height=MATCH, on_click=self._tap_outside)
        sheet = _Sheet(*([content] if content is not None else []), id=f"{pkg}:id/design_bottom_sheet",
                            height=WRAP, layout_gravity="bottom", bg=(255, 255, 255), radius=dp(16))
        coordinator = FrameLayout(outside, sheet, id=f"{pkg}:id/coordinator",
                                  class_name="android.view.ViewGroup", height=MATCH)
        container = FrameLayout(coordinator, id=f"{pkg}:id/container", height=MATCH,
                                padding=(0, STATUS_BAR_H, 0, NAV_BAR_H))
        return FrameLayout(FrameLayout(FrameLayout(container, id="android:id/content", height=MATCH),
                                       id=f"{pkg}:id/action_bar_root", height=MATCH), height=MATCH)

    layout = Window.layout  # full screen, unlike an AlertDialog's centred frame

    def _tap_outside(self) -> None:
        dialog = getattr(self, "dialog", None)
        if self.cancelable and dialog is not None:
            dialog.dismiss()


class BottomSheetDialog(Dialog):
    """A Dialog drawn as a bottom sheet: ``body`` builds the sheet's content; no title, no buttons."""

    def __init__(self, body: Callable[[], View], *, on_dismiss: Callable[[], object] | None = None) -> None:
        super().__init__(body=body, on_dismiss=on_dismiss)

    def _attach(self, activity) -> None:
        self.activity = activity
        self.window = BottomSheetWindow(activity.app.package, "", self._build, buttons=[], cancelable=self.cancelable)
        self.window.dialog = self  # type: ignore[attr-defined]
        activity.host.show_window(activity, self.window)

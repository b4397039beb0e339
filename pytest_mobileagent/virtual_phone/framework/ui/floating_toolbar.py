"""The floating text-selection toolbar: Android 14's FloatingToolbar.

A separate, non-focusable window above the selection holding one button per
action (editing.toolbar_items).  Being non-focusable, it is not the *active*
window, so `uiautomator dump` (which dumps the active window only) does not
show it on a phone either; screenshots do.
"""

from __future__ import annotations

from typing import Callable

from .editing import caret_position
from .views import MATCH, WRAP, EditText, LinearLayout, TextView, View, dp, sp
from .window import STATUS_BAR_H, Window

__all__ = ["SelectionToolbar"]

TOOLBAR_H = dp(48)
TOOLBAR_MARGIN = dp(8)       # floating_toolbar_vertical_margin: its gap to the selection
SCREEN_MARGIN = dp(16)       # floating_toolbar_horizontal_margin


class SelectionToolbar(Window):
    """The floating text-selection toolbar: one window above the selection.

    ``field`` returns the field it acts on (window, view) or None once it is
    gone; ``perform(action)`` runs an action.
    """

    kind = "popup"
    takes_focus = False  # FLAG_NOT_FOCUSABLE: the app window stays the active one

    def __init__(self, package: str, field: Callable[[], "tuple[Window, EditText] | None"],
                 items: Callable[[], list[str]], perform: Callable[[str], None]) -> None:
        super().__init__(package, "", self._build_toolbar)
        self.field = field
        self.items = items
        self.perform = perform

    def _build_toolbar(self) -> View:
        actions = self.items()
        buttons = []
        for i, action in enumerate(actions):
            side = (dp(18) if i == 0 else dp(11), dp(18) if i == len(actions) - 1 else dp(11))
            buttons.append(LinearLayout(
                TextView(action, "android:id/floating_toolbar_menu_item_text", size=sp(14),
                         class_name="android.widget.Button", max_lines=1, gravity="center",
                         padding=(side[0], 0, side[1], 0), height=MATCH),
                orientation="horizontal", gravity="center", desc=action, height=TOOLBAR_H,
                min_width=dp(48), width=WRAP, focusable=True, key=action,
                on_click=lambda a=action: self.perform(a)))
        return LinearLayout(*buttons, orientation="horizontal", height=TOOLBAR_H, width=WRAP)

    def decorate(self, content: View) -> View:
        return LinearLayout(content, id="android:id/floating_popup_container", width=WRAP, height=TOOLBAR_H,
                            bg=(255, 255, 255), radius=dp(8))

    def layout(self, root: View) -> None:
        root.measure(self.width - 2 * SCREEN_MARGIN, TOOLBAR_H)
        found = self.field()
        left = top = 0
        if found is not None:
            _, view = found
            start, end = view.selection()
            x1, y1, line_h = caret_position(view, start)
            x2, y2, _ = caret_position(view, end)
            centre = (x1 + x2) // 2 if y1 == y2 else (view.rect[0] + view.rect[2]) // 2
            left = centre - root.mw // 2
            top = y1 - TOOLBAR_MARGIN - TOOLBAR_H
            if top < STATUS_BAR_H:  # no room above: below the selection
                top = y2 + line_h + TOOLBAR_MARGIN
        left = max(SCREEN_MARGIN, min(left, self.width - SCREEN_MARGIN - root.mw))
        root.place(left, top, (0, 0, self.width, self.height))
        self.frame = root.rect

"""The commons `MySearchMenu`: a search field with the app's toolbar beside it.

Simple Mobile Tools apps from 2023 on put search in the top bar
(`top_app_bar_layout` > `top_toolbar_holder` > search icon, `top_toolbar_search`
EditText, `top_toolbar`), as the App Launcher recordings show.  Tapping the
field opens the search (the icon turns into a back arrow that closes it).
"""

from __future__ import annotations

from typing import Callable, Iterable

from ...framework.ui.views import MATCH, TEXT, WRAP, ActionMenuView, EditText, ImageView, LinearLayout, MenuItem, View, dp
from ...framework.ui.accessibility_class import MATERIAL_TOOLBAR

__all__ = ["SearchMenu"]


class SearchMenu:
    """State (open, query) and views of one activity's search menu."""

    def __init__(self, activity, on_change: Callable[[str], object] | None = None,
                 on_open: Callable[[], object] | None = None, on_close: Callable[[], object] | None = None):
        self.activity = activity
        self.open = False
        self.query = ""
        self.on_change = on_change
        self.on_open = on_open
        self.on_close = on_close
        self._generation = 0

    def opened(self) -> None:
        if not self.open:
            self.open = True
            if self.on_open is not None:
                self.on_open()

    def changed(self, text: str) -> None:
        self.opened()
        self.query = text
        if self.on_change is not None:
            self.on_change(text)

    def close(self) -> None:
        """Close the search: clear the field, drop its focus (commons `closeSearch`)."""
        if not self.open and not self.query:
            return
        self.open = False
        self.query = ""
        self._generation += 1  # a new key drops the typed text and the focus
        window = self.activity.window
        window.set_focus(None)
        if self.on_close is not None:
            self.on_close()
        if self.on_change is not None:
            self.on_change("")

    def build(self, items: Iterable[MenuItem]) -> View:
        menu = ActionMenuView(items, lambda anchor, overflow: self.activity.show_menu(overflow, anchor),
                              margin=(dp(16), 0, 0, 0))
        toolbar = LinearLayout(
            menu,
            orientation="horizontal", id="top_toolbar", class_name=MATERIAL_TOOLBAR, width=WRAP,
            height=MATCH, gravity="center_vertical")
        icon = ImageView("top_toolbar_search_icon", icon="back" if self.open else "search", tint=TEXT,
                         width=dp(40), height=dp(48),
                         on_click=self.close if self.open else self._focus_field)
        field = EditText(self.query, "top_toolbar_search", hint="Search", weight=1, width=MATCH,
                         on_text_changed=self.changed, on_click=self.opened, key=f"search-{self._generation}",
                         bg=None)
        holder = LinearLayout(icon, field, toolbar, orientation="horizontal", id="top_toolbar_holder",
                              class_name="android.widget.RelativeLayout", height=dp(48), gravity="center_vertical",
                              bg=(240, 240, 240), radius=dp(24), margin=(0, dp(8)))
        return LinearLayout(
            LinearLayout(holder, id="top_app_bar_layout", margin=(dp(16), 0)),
            id="main_menu")

    def _focus_field(self) -> None:
        field = self.activity.window.find("top_toolbar_search")
        if field is not None:
            self.activity.window.set_focus(field)
        self.opened()

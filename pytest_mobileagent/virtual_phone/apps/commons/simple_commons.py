"""Screens and widgets of the Simple Mobile Tools commons library, as the
Music Player and Voice Recorder models use them.

Ids, texts and nesting follow the recorded screens of those apps (DroidTask,
July 2023) and the commons sources where no recording shows a screen:

* the top search menu (`main_menu`: search field plus toolbar actions) and
  the bottom tab bar (`main_tabs_holder` with `tab_item_*`);
* settings rows (section labels, "label + value" rows, check box rows);
* `RadioGroupDialog` (`dialog_radio_group`): picking an option closes it;
* the contextual action bar of a list in selection mode (AppCompat's
  `action_mode_bar` with Commons' `actionbar_title`);
* `CustomizationActivity` ("Customize colors": the app-icon warning, the theme
  picker, the colour rows each theme shows, and Save); the About screen is
  Commons' Compose one (`commons_compose.AboutActivity`).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ...framework.intents import Intent
from ...framework.ui.views import (
    ACCENT,
    ActionMenuView,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
    Column,
    EditText,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    MenuItem,
    RadioButton,
    RadioGroup,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity, Dialog
from ...framework.ui.accessibility_class import COORDINATOR_LAYOUT, MATERIAL_TOOLBAR
from .color_picker import color_picker_dialog
from .line_color_picker import line_color_picker_dialog
from .commons_compose import AboutActivity
from ..menus import app_key, menu
from ..system.app_locale_picker import ACTION_APP_LOCALE_SETTINGS
from ..system.settings_notifications import ACTION_APP_NOTIFICATION_SETTINGS, EXTRA_APP_PACKAGE

__all__ = [
    "THEMES",
    "ActionMode",
    "action_mode_bar",
    "CustomizationActivity",
    "SimpleAboutActivity",
    "action_button",
    "bottom_tabs",
    "confirmation_dialog",
    "radio_group_dialog",
    "section_label",
    "top_search_menu",
    "value_row",
]

#: The theme picker's entries: Commons' ``predefinedThemes`` in insertion order, on Android 12+
#: (CustomizationActivity.setupThemes; the "Shared" theme only with Simple Thank You installed).
SYSTEM_THEME = "System default (Material You)"
AUTO_THEME = "Auto light / dark"
THEMES = (SYSTEM_THEME, AUTO_THEME, "Light", "Dark", "Dark red", "White", "Black & White", "Custom")
#: The predefined colour themes (picking one toasts the custom-theme hint once).
COLOR_THEMES = ("Light", "Dark", "Dark red", "White", "Black & White")
#: BaseConfig.isUsingSystemTheme defaults to isSPlus(): the system theme on Android 14.
DEFAULT_THEME = SYSTEM_THEME
#: setupThemes' MyTheme colours (Commons res/values/colors.xml): text, background, primary, app icon
THEME_COLORS = {
    "Light": (0x2D2D2D, 0xFFFFFF, 0xF57C00, 0xF57C00),
    "Dark": (0xEEEEEE, 0x2D2D2D, 0xF57C00, 0xF57C00),
    "Dark red": (0xEEEEEE, 0x2D2D2D, 0xD32F2F, 0xD32F2F),
    "White": (0x333333, 0xFFFFFF, 0xFFFFFF, 0xF57C00),
    "Black & White": (0xFFFFFF, 0x000000, 0x000000, 0x000000),
}
#: BaseConfig's defaults: default_text_color, default_background_color (the dark theme's), color_primary
DEFAULT_COLORS = {"text": 0xEEEEEE, "background": 0x2D2D2D, "primary": 0xF57C00, "accent": 0xF57C00,
                  "app_icon": 0xF57C00}
#: strings.xml `app_icon_color_warning`: its line break and indent collapse to one space, as aapt reads it.
APP_ICON_COLOR_WARNING = ("WARNING: Some launchers do not handle app icon customization properly. In case the icon "
                          "will disappear, try launching the app via Google Play or some widget, if available. "
                          "Once launched, just set back the default orange icon #F57C00. You might have to "
                          "reinstall the app in the worst case.")
TOOLBAR_H = dp(64)


def action_button(item: MenuItem) -> View:
    """A toolbar action: a Button without text whose content-desc is the item's title."""
    return ImageButton(item.id, icon=item.icon or "dot", desc=item.title, on_click=item.on_click,
                       width=dp(48), height=dp(48), class_name="android.widget.Button")


def toolbar_actions(activity: Activity, items: Sequence[MenuItem]) -> View:
    """The toolbar's ActionMenuView: AppCompat places the items; "More options" opens the rest."""
    return ActionMenuView(items, lambda anchor, overflow: activity.show_menu(overflow, anchor))


def top_search_menu(activity: Activity, *, query: str, on_query: Callable[[str], object],
                    items: Sequence[MenuItem], on_search_icon: Callable[[], object] | None = None) -> View:
    """The commons MySearchMenu: search icon, "Search" field and the toolbar's actions.

    Tapping the search icon puts the cursor in the field, as opening the search does.
    """

    def focus_field() -> None:
        field = activity.window.find("top_toolbar_search")
        if field is not None:
            activity.window.set_focus(field)

    return LinearLayout(
        LinearLayout(
            Row(
                ImageView("top_toolbar_search_icon", icon="search", tint=TEXT, width=dp(40), height=dp(48),
                          on_click=on_search_icon or focus_field),
                EditText(query, "top_toolbar_search", hint="Search", weight=1, width=MATCH,
                         on_text_changed=on_query, key="top_toolbar_search"),
                Row(toolbar_actions(activity, items), id="top_toolbar", width=WRAP,
                    class_name=MATERIAL_TOOLBAR, height=dp(48)),
                id="top_toolbar_holder", class_name="android.widget.RelativeLayout", height=dp(48),
                bg=(240, 240, 240), radius=dp(24), margin=(0, dp(8))),
            id="top_app_bar_layout", padding=(dp(16), 0)),
        id="main_menu", height=TOOLBAR_H)


class ActionMode:
    """A list's selection mode: selected keys and the contextual action bar replacing the toolbar.

    The bar is AppCompat's ActionBarContextView as Simple-Commons'
    MyRecyclerViewAdapter starts it: the close button
    (``action_mode_close_button``, content-desc "Done", abc_action_mode_done),
    the custom title view ``actionbar_title`` reading "selected / total"
    (tapping it selects all, or ends the mode when all are selected), and the
    menu's ActionMenuView, whose items AppCompat places.
    """

    def __init__(self) -> None:
        self.selected: list[str] = []

    @property
    def active(self) -> bool:
        return bool(self.selected)

    def toggle(self, key: str) -> None:
        if key in self.selected:
            self.selected.remove(key)
        else:
            self.selected.append(key)

    def finish(self) -> None:
        self.selected = []

    def bar(self, activity: Activity, total: int, items: Sequence[MenuItem],
            on_select_all: Callable[[], object] | None = None) -> View:
        every = len(self.selected) >= total
        return action_mode_bar(activity, f"{len(self.selected)} / {total}", items, on_close=self.finish,
                               on_title=self.finish if every else on_select_all)


def action_mode_bar(activity: Activity, title: str, items: Sequence[MenuItem], *,
                    on_close: Callable[[], object], on_title: Callable[[], object] | None = None) -> View:
    """AppCompat's ActionBarContextView with Commons' ``actionbar_title`` custom view.

    Layouts: abc_action_mode_bar (``action_mode_bar``), abc_action_mode_close_item_material
    (``action_mode_close_button``), Commons' res/layout/actionbar_title.xml.
    """
    return Row(
        ImageView("action_mode_close_button", desc="Done", icon="check", tint=TEXT, width=dp(56), height=dp(56),
                  on_click=on_close),
        TextView(title, "actionbar_title", size=sp(20), bold=True, max_lines=1, weight=1, width=MATCH,
                 on_click=on_title, clickable=True, gravity="center_vertical"),
        toolbar_actions(activity, items),
        id="action_mode_bar", class_name="android.view.ViewGroup", height=TOOLBAR_H, bg=(255, 236, 229),
        gravity="center_vertical")


def bottom_tabs(labels: Sequence[str], icons: Sequence[str], selected: int,
                on_select: Callable[[int], object]) -> View:
    """The bottom tab bar (`main_tabs_holder`): a selected tab is not clickable, the others are."""
    tabs = []
    for i, label in enumerate(labels):
        chosen = i == selected
        color = ACCENT if chosen else TEXT_SECONDARY
        holder = LinearLayout(
            ImageView("tab_item_icon", icon=icons[i], tint=color, width=dp(28), height=dp(28), selected=chosen,
                      layout_gravity="center_horizontal"),
            TextView(label, "tab_item_label", size=sp(12), color=color, max_lines=1, selected=chosen,
                     layout_gravity="center_horizontal"),
            id="tab_item_holder", width=WRAP, selected=chosen, layout_gravity="center_horizontal",
            padding=(0, dp(12), 0, 0))
        tabs.append(LinearLayout(holder, weight=1, width=MATCH, height=dp(64), selected=chosen,
                                 on_click=None if chosen else (lambda i=i: on_select(i)), key=f"tab-{label}"))
    return FrameLayout(LinearLayout(*tabs, orientation="horizontal"), id="main_tabs_holder",
                       class_name="android.widget.HorizontalScrollView", height=dp(64), bg=(245, 245, 245))


# ---------------------------------------------------------------------------
# settings rows and dialogs


def section_label(text: str, id: str) -> View:
    return TextView(text.upper(), id, color=ACCENT, bold=True, size=sp(14), width=MATCH,
                    padding=(dp(22), dp(24), dp(16), dp(12)))


def value_row(prefix: str, label: str, value: str | None, on_click: Callable[[], object], *,
              label_id: str | None = None, value_id: str | None = None,
              class_name: str = "android.widget.RelativeLayout") -> View:
    """A settings row: `<prefix>_holder` with a label and, below it, the current value.

    Rows built as a ConstraintLayout in the app dump as `android.view.ViewGroup`.
    """
    children = [TextView(label, label_id or f"{prefix}_label", size=sp(16))]
    if value is not None:
        children.append(TextView(value, value_id or prefix, color=TEXT_SECONDARY, size=sp(14), width=MATCH))
    return Column(*children, id=f"{prefix}_holder", class_name=class_name, padding=(dp(22), dp(16)),
                  on_click=on_click)


def radio_group_dialog(activity: Activity, options: Sequence[str], checked: int, on_pick: Callable[[int], object],
                       title: str = "") -> Dialog:
    """Commons RadioGroupDialog: tapping an option calls `on_pick(index)` and closes the dialog."""

    def pick(index: int) -> None:
        dialog.dismiss()
        on_pick(index)

    dialog = activity.show_dialog(Dialog(title, body=lambda: ScrollView(
        RadioGroup(*[RadioButton(o, on_click=lambda i=i: pick(i), margin=(dp(16), 0)) for i, o in enumerate(options)],
                   id="dialog_radio_group", checked_index=checked, padding=(0, dp(12))),
        id="dialog_radio_holder", height=WRAP, focusable=False)))
    return dialog


def confirmation_dialog(activity: Activity, message: str, on_yes: Callable[[], object], *,
                        positive: str = "Yes", negative: str | None = "No") -> Dialog:
    """Commons ConfirmationDialog: a message and Yes / No."""
    return activity.show_dialog(Dialog(
        body=lambda: ScrollView(TextView(message, "message", width=MATCH, padding=(dp(24), dp(20))),
                                id="message_scrollview", height=WRAP, focusable=False),
        positive=(positive, lambda _d: on_yes()), negative=negative))


# ---------------------------------------------------------------------------
# shared activities


#: The About screen the apps open (Commons' Compose AboutScreen, in base.py).
SimpleAboutActivity = AboutActivity


class CustomizationActivity(Activity):
    """Commons "Customize colors" (CustomizationActivity at the Commons commit the apps pin).

    Follows Simple-Commons 8e7dd4508e, ``activities/CustomizationActivity.kt`` and
    ``layout/activity_customization.xml``:

    - the themes are ``predefinedThemes`` in insertion order; on Android 12+
      (``isSPlus()``) the first is "System default (Material You)", and
      ``BaseConfig.isUsingSystemTheme`` defaults to ``isSPlus()``: a fresh app on
      Android 14 uses it;
    - ``updateAutoThemeFields``: the text and background color rows are gone
      under the system and auto themes, the primary color row under the system
      theme; ``handleAccentColorLayout``: the accent row shows for White and
      Black & White only;
    - the first tap on Theme (or App icon color) shows the app-icon warning
      (``ConfirmationDialog`` with OK only) until
      ``wasAppIconCustomizationWarningShown``; then the theme ``RadioGroupDialog``;
    - picking a predefined colour theme toasts "Changing a color will make it
      switch to Custom theme" once (``wasCustomThemeSwitchDescriptionShown``);
    - Save (``menu_customization``, ``ifRoom``) shows once something changed;
      BACK with unsaved changes asks "You have unsaved changes. Save before
      exit?" (``ConfirmationAdvancedDialog``: Save / Discard).

    The text, background and accent rows open Commons' ColorPickerDialog
    (color_picker.py), the primary and app icon rows its LineColorPickerDialog
    (line_color_picker.py; App icon color after the app-icon warning); OK with
    a new colour changes the row's swatch and the theme to the predefined one
    the colours match, else Custom, and Save keeps the colours in BaseConfig.
    Save does not switch the launcher icon's colour alias (checkAppIconColor).
    The theme, the colours and the two "shown once" flags live in
    ``app.base_config`` (Commons' BaseConfig), which ``pm clear`` resets, as it
    resets the app's shared preferences on a phone.
    """

    name = "com.simplemobiletools.commons.activities.CustomizationActivity"
    title = "Customize colors"

    def on_create(self) -> None:
        self.picked = self.saved_theme
        # initColorVariables: the colours BaseConfig holds
        self.colors = {k: self.saved_color(k) for k in DEFAULT_COLORS}
        self.colors_changed = False

    def saved_color(self, key: str) -> int:
        return getattr(self.app.base_config, f"{key}_color", DEFAULT_COLORS[key])

    @property
    def saved_theme(self) -> str:
        return getattr(self.app.base_config, "theme", DEFAULT_THEME)

    @property
    def unsaved(self) -> bool:
        return self.picked != self.saved_theme or self.colors_changed

    def on_back(self) -> bool:
        if not self.unsaved:
            return False

        def discard(_d: Dialog) -> None:
            self.finish()

        self.show_dialog(Dialog(
            body=lambda: ScrollView(TextView("You have unsaved changes. Save before exit?", "message", width=MATCH,
                                             padding=(dp(24), dp(20))), id="message_scrollview", height=WRAP,
                                    focusable=False),
            positive=("Save", lambda _d: self.save()), negative=("Discard", discard)))
        return True

    def save(self) -> None:
        """saveChanges: the theme and the current colours go to BaseConfig."""
        self.app.base_config.theme = self.picked
        for key, value in self.colors.items():
            setattr(self.app.base_config, f"{key}_color", value)
        self.finish()

    def pick_color(self, key: str) -> None:
        """pickTextColor / pickBackgroundColor / pickAccentColor / pickPrimaryColor / pickAppIconColor: the picker
        of the current colour;
        OK with a colour that differs (hasColorChanged: by more than 1) sets it, marks the screen changed
        and updateColorTheme(getCurrentThemeId()) names the theme the colours now match, else Custom."""
        def picked(positive: bool, color: int) -> None:
            if positive and abs(self.colors[key] - color) > 1:
                self.colors[key] = color
                self.colors_changed = True
                if key != "accent":  # pickAccentColor alone keeps the theme
                    self._update_color_theme(self._current_theme())

        if key in ("primary", "app_icon"):
            # pickPrimaryColor / pickAppIconColor: LineColorPickerDialog (the primary colour's has two lines)
            line_color_picker_dialog(self, self.colors[key], key == "primary", picked)
        else:
            color_picker_dialog(self, self.colors[key], picked)

    def _update_color_theme(self, theme: str) -> None:
        """updateColorTheme(themeId) after a colour change: a predefined theme's colours (its accent reset to
        color_primary); Custom keeps the colours and stores them as BaseConfig's custom colours."""
        self.picked = theme
        if theme in THEME_COLORS:
            self.colors["accent"] = DEFAULT_COLORS["accent"]
        elif theme == "Custom":
            self.app.base_config.custom_colors = dict(self.colors)

    def _current_theme(self) -> str:
        """getCurrentThemeId: the system or auto theme while it is the chosen one, else the predefined theme
        whose four colours match, else Custom."""
        if self.picked in (SYSTEM_THEME, AUTO_THEME):
            return self.picked
        c = self.colors
        for name, (text, background, primary, icon) in THEME_COLORS.items():
            if (c["text"], c["background"], c["primary"], c["app_icon"]) == (text, background, primary, icon):
                return name
        return "Custom"

    def after_icon_warning(self, then: Callable[[], object]) -> None:
        """The app-icon warning the first time Theme or App icon color is tapped, then `then`."""
        if getattr(self.app.base_config, "app_icon_warning_shown", False):
            then()
            return

        def acknowledged() -> None:
            self.app.base_config.app_icon_warning_shown = True
            then()

        confirmation_dialog(self, APP_ICON_COLOR_WARNING, acknowledged, positive="OK", negative=None)

    def pick_theme(self) -> None:
        def picked(index: int) -> None:
            self.picked = THEMES[index]
            # updateColorTheme: a predefined theme's colours become the current ones (the accent resets to
            # color_primary); Custom (useStored) takes BaseConfig's custom colours, which default to the saved
            if self.picked in THEME_COLORS:
                text, background, primary, icon = THEME_COLORS[self.picked]
                self.colors.update(text=text, background=background, primary=primary, accent=0xF57C00,
                                   app_icon=icon)
            elif self.picked == "Custom":  # useStored: BaseConfig.custom*Color, which default to the saved colours
                saved = {k: self.saved_color(k) for k in DEFAULT_COLORS}
                self.colors.update(getattr(self.app.base_config, "custom_colors", saved))
            if self.picked in COLOR_THEMES and not getattr(self.app.base_config, "custom_theme_hint_shown", False):
                self.app.base_config.custom_theme_hint_shown = True
                self.toast("Changing a color will make it switch to Custom theme")

        radio_group_dialog(self, THEMES, THEMES.index(self.picked) if self.picked in THEMES else -1, picked)

    def _color_row(self, prefix: str, label: str, key: str) -> View:
        """A colour row: its swatch shows the current colour (setupColorsPickers' setFillWithStroke)."""
        color = self.colors[key]
        picker = lambda: self.pick_color(key)  # noqa: E731
        return RelativeLayout(
            TextView(label, f"{prefix}_label", size=sp(16), layout_gravity="center_vertical"),
            ImageView(prefix, icon="dot", tint=((color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF),
                      width=dp(34), height=dp(34), layout_gravity="end|center_vertical"),
            id=f"{prefix}_holder", padding=(dp(16), dp(20)), on_click=picker)

    def build(self) -> View:
        # Commons' menu_customization; CustomizationActivity shows Save once something changed.
        items = menu(app_key(self.app.package), "menu_customization", {"save": self.save},
                     hide=() if self.unsaved else ("save",), commons=True)
        theme = self.picked
        rows: list[View] = [RelativeLayout(
            TextView("Theme", "customization_theme_label", size=sp(16), layout_gravity="center_vertical"),
            TextView(theme, "customization_theme", size=sp(16), layout_gravity="end|center_vertical"),
            id="customization_theme_holder", padding=(dp(16), dp(20)),
            on_click=lambda: self.after_icon_warning(self.pick_theme))]
        if theme not in (SYSTEM_THEME, AUTO_THEME):
            rows += [self._color_row("customization_text_color", "Text color", "text"),
                     self._color_row("customization_background_color", "Background color", "background")]
        if theme != SYSTEM_THEME:
            rows.append(self._color_row("customization_primary_color", "Primary color", "primary"))
        if theme in ("White", "Black & White"):
            rows.append(self._color_row("customization_accent_color", "Accent color of white theme" if theme == "White"
                                        else "Accent color of Black & White theme", "accent"))
        icon_row = self._color_row("customization_app_icon_color", "App icon color", "app_icon")
        icon_row.on_click = lambda: self.after_icon_warning(lambda: self.pick_color("app_icon"))
        rows.append(icon_row)
        return Column(
            self.toolbar("customization_toolbar", title="Customize colors", items=items, on_nav=self._up, cross=True),
            ScrollView(Column(*rows, id="customization_holder", class_name="android.widget.RelativeLayout"),
                       id="customization_nested_scrollview", weight=1),
            id="customization_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _up(self) -> None:
        if not self.on_back():
            self.finish()


def sorted_by(items: Iterable, key, descending: bool) -> list:
    """Items sorted by `key`, case-insensitively for text, reversed when `descending`."""
    def folded(item):
        value = key(item)
        return value.casefold() if isinstance(value, str) else value

    return sorted(items, key=folded, reverse=descending)


def launch_change_app_language(activity: Activity) -> None:
    """BaseSimpleActivity.launchChangeAppLanguageIntent, what every app's "Language" row does on Android 13+.

    It starts ``Settings.ACTION_APP_LOCALE_SETTINGS`` for ``package:<the app>``: Settings' app language
    screen (app_locale_picker.py); when nothing answers it falls back to openDeviceSettings
    (ACTION_APPLICATION_DETAILS_SETTINGS; the phone shows Settings' main screen).
    """
    if not activity.start_intent(Intent(ACTION_APP_LOCALE_SETTINGS, data=f"package:{activity.app.package}")):
        activity.launch_app("com.android.settings")


def launch_customize_notifications(activity: Activity) -> None:
    """BaseSimpleActivity.launchCustomizeNotificationsIntent: Settings' page of the app's notifications
    (Settings.ACTION_APP_NOTIFICATION_SETTINGS with EXTRA_APP_PACKAGE; settings_notifications.py)."""
    activity.start_intent(Intent(ACTION_APP_NOTIFICATION_SETTINGS, extras={EXTRA_APP_PACKAGE: activity.app.package}))

"""Settings' per-app language screen: ``com.android.settings/.localepicker.AppLocalePickerActivity``.

Simple-Commons' ``launchChangeAppLanguageIntent`` (the "Language" row every app's
settings show on Android 13+) starts ``Settings.ACTION_APP_LOCALE_SETTINGS`` with
``package:<the app>``; on Android 14 Settings answers with AppLocalePickerActivity
(packages/apps/Settings, src/com/android/settings/localepicker/AppLocalePickerActivity.java):

- without a ``package:`` URI it finishes at once; it shows for an app with a
  launcher entry and an ``android:localeConfig`` (AppLocaleUtil.canDisplayLocaleUi),
  which the ten apps have (Commons' ``res/xml/locale_config.xml``);
- its title is ``app_locale_picker_title`` ("App language"), the action bar's up
  button ("Navigate up") goes back;
- the list is the framework's LocalePickerWithRegion (frameworks/base
  core/java/com/android/internal/app/LocalePickerWithRegion.java and
  SuggestedLocaleAdapter.java) under a header, AppLocaleDetails' app entity header
  (the app's icon and label); its search action is the ``locale_search_menu`` item
  (menu/language_selection_list.xml, an always-shown SearchView);
- SuggestedLocaleAdapter: the "Suggested" section header
  (``language_picker_section_suggested``), "System default" (``system_locale_title``,
  in ``app_language_picker_current_locale_item`` with its check mark while the app
  has no language of its own), the phone's language the app supports ("English
  (United States)"), then "All languages" (``language_picker_section_all``) and one
  row per locale of the app's localeConfig (``language_picker_item``: TextView
  ``android:id/locale``), the names each language gives itself;
- tapping "System default" or the suggested language selects it
  (LocalePickerWithRegion.onListItemClick -> AppLocalePickerActivity.onLocaleSelected:
  LocaleManager.setApplicationLocales, then finish).

Not modelled: a language of "All languages" opens its region list
(LocalePickerWithRegion.createCountryPicker), which comes from the framework's
locale store; the phone has no per-app locale resources either, so the apps keep
their English texts.
"""

from __future__ import annotations

from ...framework.intents import IntentFilter
from ...framework.manifests import locales
from ...framework.ui.views import (
    ACCENT,
    MATCH,
    WRAP,
    Column,
    EditText,
    FrameLayout,
    ImageView,
    LinearLayout,
    ListView,
    Row,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity

__all__ = ["ACTION_APP_LOCALE_SETTINGS", "AppLocalePickerActivity", "APP_LOCALE_FILTER"]

ACTION_APP_LOCALE_SETTINGS = "android.settings.APP_LOCALE_SETTINGS"
SETTINGS = "com.android.settings"
#: the phone's language: the system default locale of the reference image
SYSTEM_LOCALE = ("en-US", "English (United States)")


class AppLocalePickerActivity(Activity):
    """AppLocalePickerActivity's first screen for the app named by the intent's ``package:`` URI."""

    name = "com.android.settings.localepicker.AppLocalePickerActivity"
    title = "App language"

    def on_create(self) -> None:
        intent = self.extras.get("intent")
        self.target = intent.scheme_specific_part if intent is not None and intent.scheme == "package" else ""
        self.query: str | None = None  # None: the SearchView is collapsed
        app = self.host.app(self.target) if self.target else None
        if app is None or not locales(self.target):
            # "There is no package name." / canDisplayLocaleUi() false: finish()
            self.host.defer(self.finish)
        self.target_label = app.label if app is not None else ""

    def on_back(self) -> bool:
        if self.query is not None:  # BACK collapses the expanded SearchView first
            self.query = None
            return True
        return False

    # -- actions ----------------------------------------------------------------------------------
    def select(self, tag: str) -> None:
        """onLocaleSelected: the app's locales ("" = follow the system), then finish()."""
        self.host.app_locales[self.target] = tag
        self.finish()

    def expand_search(self) -> None:
        self.query = ""
        self.request_focus("android:id/search_src_text", show_keyboard=True)

    def set_query(self, text: str) -> None:
        self.query = text

    # -- screen -----------------------------------------------------------------------------------
    def _matches(self, *names: str) -> bool:
        """SuggestedLocaleAdapter.FilterByNativeAndUiNames.wordMatches: a name, or a word of it,
        starts with the query (case-insensitive)."""
        if not self.query:
            return True
        query = self.query.casefold()
        return any(name.casefold().startswith(query) or any(word.startswith(query)
                                                             for word in name.casefold().split(" "))
                   for name in names)

    def _search(self) -> View:
        if self.query is None:
            return LinearLayout(
                ImageView("android:id/search_button", icon="search", desc="Search", width=dp(48), height=dp(48),
                          on_click=self.expand_search),
                id="android:id/search_bar", orientation="horizontal", width=WRAP)
        return LinearLayout(
            LinearLayout(
                EditText(self.query, "android:id/search_src_text", hint="Type language name", weight=1,
                         width=MATCH, on_text_changed=self.set_query, key="search_src_text"),
                ImageView("android:id/search_close_btn", icon="close", desc="Clear query", width=dp(48),
                          height=dp(48), on_click=lambda: self.set_query("")),
                id="android:id/search_plate", orientation="horizontal", weight=1, width=MATCH),
            id="android:id/search_bar", orientation="horizontal", weight=1, width=MATCH)

    @staticmethod
    def _header(text: str) -> View:
        return TextView(text, "android:id/language_picker_header", size=sp(14), bold=True, color=ACCENT,
                        height=dp(36), gravity="center_vertical", width=MATCH, padding=(dp(16), 0))

    @staticmethod
    def _row(text: str, on_click, key: str) -> View:
        return TextView(text, "android:id/locale", size=sp(16), width=MATCH, padding=(dp(18), dp(20)),
                        on_click=on_click, key=key)

    def _current_row(self, text: str, on_click, key: str) -> View:
        # app_language_picker_current_locale_item: the include's id renames language_picker_item's TextView
        return LinearLayout(
            FrameLayout(TextView(text, "android:id/language_picker_item", size=sp(16), width=MATCH,
                                 padding=(dp(18), dp(20))), weight=0.8, width=MATCH),
            LinearLayout(ImageView("android:id/imageView", icon="check", tint=ACCENT, width=dp(24), height=dp(24)),
                         weight=0.2, width=MATCH, gravity="center", min_height=dp(64)),
            orientation="horizontal", on_click=on_click, key=key)

    def build(self) -> View:
        current = self.host.app_locales.get(self.target, "")
        suggested: list[View] = []
        if self._matches(*SYSTEM_LOCALE[1:], "System default"):
            make = self._current_row if current == "" else self._row
            suggested.append(make("System default", lambda: self.select(""), "system"))
        if self._matches(SYSTEM_LOCALE[1], "English"):
            make = self._current_row if current == SYSTEM_LOCALE[0] else self._row
            suggested.append(make(SYSTEM_LOCALE[1], lambda: self.select(SYSTEM_LOCALE[0]), SYSTEM_LOCALE[0]))
        others = [self._row(entry["name"], None, entry["tag"])
                  for entry in sorted(locales(self.target), key=_collation_key)
                  if self._matches(entry["name"], entry["english"])]
        rows: list[View] = []
        if self.query is None:
            rows.append(_entity_header(self.target_label))
        # SuggestedLocaleAdapter.showHeaders: both sections present
        if suggested and others:
            rows += [self._header("Suggested"), *suggested, self._header("All languages"), *others]
        else:
            rows += suggested + others
        toolbar = Row(
            ImageView(icon="back", desc="Navigate up", width=dp(56), height=dp(56), on_click=self._up,
                      class_name="android.widget.ImageButton"),
            *([TextView("App language", size=sp(22), max_lines=1, weight=1, width=MATCH)]
              if self.query is None else []),
            self._search(),
            id=f"{SETTINGS}:id/action_bar", class_name="android.view.ViewGroup", height=dp(64),
            gravity="center_vertical")
        return Column(toolbar, ListView(*rows, id="android:id/list", weight=1),
                      id=f"{SETTINGS}:id/content_frame", class_name="android.widget.FrameLayout", height=MATCH)

    def _up(self) -> None:
        # onOptionsItemSelected(android.R.id.home): super.onBackPressed()
        if not self.on_back():
            self.finish()


def _entity_header(label: str) -> View:
    """AppLocaleDetails' EntityHeaderController header (settings_entity_header.xml): icon and app label."""
    return Column(
        ImageView(f"{SETTINGS}:id/entity_header_icon", icon="dot", width=dp(48), height=dp(48),
                  layout_gravity="center_horizontal"),
        TextView(label, f"{SETTINGS}:id/entity_header_title", size=sp(20), gravity="center", width=MATCH),
        id=f"{SETTINGS}:id/entity_header", padding=(dp(16), dp(16)), key="entity_header")


def _collation_key(entry: dict) -> tuple:
    """LocaleHelper.LocaleInfoComparator sorts by the names with ICU's collator: Latin letters by their
    base letter (accents second), then the other scripts in Unicode's script order, which is their
    code point order here except that Hangul comes before the Han ideographs."""
    import unicodedata

    name = entry["name"]
    first = name[:1]
    if "\uac00" <= first <= "\ud7a3":  # Hangul syllables: before Han (CJK) in the root collation
        rank = 0x4dff
    elif first.isascii() or unicodedata.name(first, "").startswith("LATIN"):
        rank = 0
    else:
        rank = ord(first)
    base = "".join(c for c in unicodedata.normalize("NFD", name.casefold()) if not unicodedata.combining(c))
    return rank, base, name


#: Settings' <intent-filter> for ACTION_APP_LOCALE_SETTINGS with a ``package:`` URI
APP_LOCALE_FILTER = (AppLocalePickerActivity.name, "", IntentFilter((ACTION_APP_LOCALE_SETTINGS,),
                                                                     schemes=("package",)))

"""Chrome (com.android.chrome), the reference image's browser: its first run and http(s) links.

Chrome's manifest (chromium chrome/android/java/AndroidManifest.xml) gives the VIEW intent
for http and https (categories DEFAULT, BROWSABLE) to the activity-alias
``com.google.android.apps.chrome.IntentDispatcher``; `cmd package resolve-activity` on a
Google emulator image names it (com.android.chrome/com.google.android.apps.chrome.IntentDispatcher).
Its target, ChromeLauncherActivity, only dispatches: the page opens in
``org.chromium.chrome.browser.ChromeTabbedActivity``, after the first-run screens
(FirstRunActivity: "Welcome to Chrome", "Accept & continue") until they were accepted once.

The tab shows the toolbar's omnibox, ``com.android.chrome:id/url_bar`` (an EditText), holding
the URL without its scheme (UrlBar's display text), over the page.  The phone has no network,
so every page is Chrome's net error page for ERR_INTERNET_DISCONNECTED (chromium
components/error_page/common/localized_error.cc: heading IDS_ERRORPAGES_HEADING_INTERNET_DISCONNECTED
"No internet", on Android the SUGGEST_OFFLINE_CHECKS list "Try:" turning off airplane mode,
turning on mobile data or Wi-Fi, checking the signal, then the error code).  The launcher
icon (``...chrome.Main``) opens the first-run screen until it was accepted, then a new tab.
Chrome's other screens (tabs, menus, settings) are not modelled.
"""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import urlsplit

from ...framework.app import Activity, App
from ...framework.intents import IntentFilter
from ...framework.ui.views import (
    MATCH,
    TEXT_SECONDARY,
    Button,
    Column,
    EditText,
    FrameLayout,
    ImageButton,
    Row,
    TextView,
    View,
    dp,
    sp,
)

__all__ = ["ChromeApp"]

PACKAGE = "com.android.chrome"
_ID = PACKAGE + ":id/"
TABBED = "org.chromium.chrome.browser.ChromeTabbedActivity"

#: the offline error page's texts (ERR_INTERNET_DISCONNECTED, SUGGEST_OFFLINE_CHECKS on Android)
OFFLINE_PAGE = ("No internet", "Try:", "Turning off airplane mode", "Turning on mobile data or Wi-Fi",
                "Checking the signal in your area", "ERR_INTERNET_DISCONNECTED")


def display_url(url: str) -> str:
    """The omnibox's text for a page: the URL without its http(s) scheme, a bare host without
    its trailing slash."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return url
    text = url.split("://", 1)[1]
    return text[:-1] if text.endswith("/") and parts.path == "/" and not parts.query else text


def _first_run_screen(activity: Activity) -> View:
    return Column(
        TextView("Welcome to Chrome", _ID + "title", size=sp(26), bold=True, width=MATCH, gravity="center",
                 padding=(dp(24), dp(80), dp(24), dp(16))),
        TextView("Browse the web on this phone.", _ID + "tos_and_privacy", size=sp(16), color=TEXT_SECONDARY,
                 width=MATCH, gravity="center", padding=(dp(24), dp(24))),
        Button("Accept & continue", _ID + "terms_accept", bg=(26, 115, 232), color=(255, 255, 255),
               layout_gravity="center_horizontal", margin=(0, dp(24)), on_click=activity.accept),
        id=_ID + "fre_content", height=MATCH)


class ChromeMain(Activity):
    """The launcher icon (com.google.android.apps.chrome.Main): the first-run screen, then a tab."""

    name = "com.google.android.apps.chrome.Main"
    title = "Chrome"

    def on_create(self) -> None:
        if self.data.first_run_done:
            self.finish()  # ChromeLauncherActivity only dispatches
            self.host.defer(lambda: self.host.push_activity(None, ChromeTabbedActivity, {}, app=self.app))

    def accept(self) -> None:
        self.data.first_run_done = True
        self.start(ChromeTabbedActivity)
        self.finish()

    def build(self) -> View:
        return _first_run_screen(self)


class FirstRunActivity(Activity):
    """org.chromium.chrome.browser.firstrun.FirstRunActivity, over the tab a link opened."""

    name = "org.chromium.chrome.browser.firstrun.FirstRunActivity"
    title = "Chrome"

    def accept(self) -> None:
        self.data.first_run_done = True
        self.finish()

    def on_back(self) -> bool:
        """BACK abandons the first run: Chrome closes with the tab waiting under it
        (FirstRunActivity's abort finishes the activity that launched the flow)."""
        tab = self.extras.get("tab")
        if tab is not None and not tab.finished:
            self.host.finish_activity(tab)
        return False

    def build(self) -> View:
        return _first_run_screen(self)


class IntentDispatcher(Activity):
    """The VIEW http(s) entry: hands the URL to the tabbed activity (in Chrome's task) and ends."""

    name = "com.google.android.apps.chrome.IntentDispatcher"
    title = "Chrome"

    def on_create(self) -> None:
        intent = self.extras.get("intent")
        url = getattr(intent, "data", None) or ""
        self.finish()
        self.host.defer(lambda: self.host.push_activity(None, ChromeTabbedActivity, {"url": url}, app=self.app))

    def build(self) -> View:
        return View()


class ChromeTabbedActivity(Activity):
    """A tab: the toolbar with the omnibox, and the page (offline: the net error page)."""

    name = TABBED
    title = "Chrome"

    def on_create(self) -> None:
        self.url = self.extras.get("url", "")
        if not self.data.first_run_done:
            self.host.defer(lambda: self.start(FirstRunActivity, tab=self))

    def build(self) -> View:
        url_bar = EditText(display_url(self.url), _ID + "url_bar", hint="Search or type URL", size=sp(16),
                           width=MATCH)
        toolbar = Row(
            ImageButton(_ID + "home_button", icon="home", desc="Home", width=dp(48), height=dp(48)),
            FrameLayout(url_bar, id=_ID + "location_bar", weight=1, width=0, bg=(241, 243, 244), radius=dp(24),
                        padding=(dp(16), 0)),
            ImageButton(_ID + "tab_switcher_button", icon="square", desc="Switch or close tabs", width=dp(48),
                        height=dp(48)),
            ImageButton(_ID + "menu_button", icon="more", desc="Customize and control Google Chrome",
                        width=dp(48), height=dp(48)),
            id=_ID + "toolbar", height=dp(56), padding=(dp(4), 0), class_name="android.view.ViewGroup")
        if self.url:
            heading, try_, *suggestions, code = OFFLINE_PAGE
            page = Column(
                TextView(heading, size=sp(24), bold=True, padding=(dp(24), dp(48), dp(24), dp(16))),
                TextView(try_, size=sp(16), color=TEXT_SECONDARY, padding=(dp(24), 0)),
                *[TextView(s, size=sp(16), color=TEXT_SECONDARY, padding=(dp(40), dp(4), dp(24), 0))
                  for s in suggestions],
                TextView(code, size=sp(12), color=TEXT_SECONDARY, padding=(dp(24), dp(16))),
                class_name="android.webkit.WebView", height=MATCH)
        else:  # a new tab: its page (the New Tab Page's content) is not modelled
            page = View(height=MATCH)
        return Column(FrameLayout(toolbar, id=_ID + "control_container"),
                      FrameLayout(page, id=_ID + "compositor_view_holder", height=MATCH),
                      id=_ID + "coordinator", height=MATCH)


class ChromeApp(App):
    """Chrome (com.android.chrome): first run, and a tab for each http(s) link (see the module)."""

    package = PACKAGE
    label = "Chrome"
    version_name = "14"
    activities = (ChromeMain, IntentDispatcher, ChromeTabbedActivity, FirstRunActivity)
    intent_filters = ((IntentDispatcher.name, "", IntentFilter(("android.intent.action.VIEW",),
                                                               schemes=("http", "https"))),)

    def new_data(self) -> SimpleNamespace:
        return SimpleNamespace(first_run_done=False)

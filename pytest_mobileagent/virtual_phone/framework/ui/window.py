"""Windows: an activity's screen, a dialog, a pop-up menu.

A window owns the view tree its builder returns, wrapped in the decor views
real Android adds (the same nodes, ids and nesting as in real dumps), lays it
out on the screen, keeps the state users put into views (typed text, cursor,
scroll offsets, unbound check boxes) across rebuilds, tracks focus, and
answers hit-tests.
"""

from __future__ import annotations

from typing import Callable

from .editing import caret_position
from .keyboard import parse_soft_input_mode
from .text import text_width
from .views import (
    MATCH,
    WRAP,
    EditText,
    FrameLayout,
    LinearLayout,
    ListView,
    RadioButton,
    RadioGroup,
    RelativeLayout,
    ScrollContainer,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)

WIDTH = 1080
HEIGHT = 2340
STATUS_BAR_H = 118          # 43 dp: a status bar beside a display cut-out
NAV_BAR_H = dp(48)          # three-button navigation bar
DIALOG_MARGIN = 28
POPUP_WIDTH = dp(196)


class Window:
    """One window: a view tree plus the user state that outlives rebuilds.

    `build` returns the content view; `decorate` wraps it in the decor
    views of this kind of window.  `kind` is "activity", "dialog" or "popup".
    """

    kind = "activity"
    #: False for a non-focusable window (the text-selection toolbar): it takes
    #: touches but never becomes the active window that dumps and keys go to
    takes_focus = True

    def __init__(self, package: str, title: str, build: Callable[[], View], *,
                 width: int = WIDTH, height: int = HEIGHT, fullscreen: bool = False,
                 soft_input_mode: str = "") -> None:
        self.package = package
        self.title = title
        self.build = build
        self.width = width
        self.height = height
        self.fullscreen = fullscreen
        self.store: dict[str, tuple[tuple, dict]] = {}
        self.focus_path: str | None = None
        self.root: View | None = None
        self.content: View | None = None
        self.frame = (0, 0, width, height)
        self._built_once = False
        self._focus_request: tuple[str, str | None, bool] | None = None
        #: android:windowSoftInputMode, as (state, adjust): "always_visible", "resize", ...
        self.soft_input_state, self.soft_input_adjust = parse_soft_input_mode(soft_input_mode)
        #: height of the soft keyboard over this window's bottom while it serves this window (set by the system)
        self.ime_inset = 0
        #: the adjust mode ViewRootImpl resolved for the last layout ("resize", "pan" or "nothing")
        self.resolved_adjust = "resize" if self.soft_input_adjust == "unspecified" else self.soft_input_adjust
        #: how far the window is panned up to keep the focused field above the keyboard (adjustPan)
        self.pan = 0
        self._pan_for: str | None = None  # the focused view's path the pan was computed for
        #: the window had focus before: gaining it again is not forward navigation (for the IME)
        self.had_focus = False
        #: the app asked to show the keyboard for its focused field (InputMethodManager.showSoftInput)
        self.show_ime_requested = False
        self._column: View | None = None  # the decor column that adjustResize shortens
        #: the shortening last reported to accessibility services; a new window's first layout has
        #: none (the IME is shown for a window once it has gained focus, after that layout)
        self.reported_ime_shortening = 0

    # -- building --------------------------------------------------------
    def rebuild(self) -> None:
        """Build the tree again from app state, restore user state, lay it out."""
        content = self.build()
        self.content = content
        root = self.decorate(content)
        seen: set[str] = set()
        self._assign(root, "", seen)
        self.store = {k: v for k, v in self.store.items() if k in seen}
        self.layout(root)
        self.root = root
        self._restore_focus()
        self._apply_focus_request()
        self._built_once = True

    def decorate(self, content: View) -> View:
        bars = not self.fullscreen
        # AppCompat's sub-decor (AppCompatDelegateImpl.createSubDecor): with windowActionModeOverlay
        # it inflates abc_screen_simple_overlay_action_mode.xml, a FitWindowsFrameLayout around the
        # ContentFrameLayout android:id/content; without it abc_screen_simple.xml, whose root is a
        # FitWindowsLinearLayout.  Commons' themes set it (styles.xml AppTheme.Base, .System,
        # .System.Light) except AppTheme.Base.Core, which getThemeId() picks for a
        # showTransparentTop activity only when the app is not on the system theme; apps start on
        # the system theme on Android 12+ (BaseConfig.isUsingSystemTheme defaults to isSPlus()),
        # so the frame layout.  (The recordings, on Android 11 with colour themes, show a
        # LinearLayout in such activities: contacts' View/EditContactActivity, the player's
        # TrackActivity.)
        inner = FrameLayout(
            FrameLayout(
                FrameLayout(content, id="android:id/content", height=MATCH,
                            class_name="androidx.appcompat.widget.ContentFrameLayout"),
                id=f"{self.package}:id/action_bar_root", height=MATCH,
                class_name="androidx.appcompat.widget.FitWindowsFrameLayout",
            ),
            height=MATCH,
        )
        column = LinearLayout(inner, height=self.height - NAV_BAR_H if bars else MATCH,
                              padding=(0, STATUS_BAR_H if bars else 0, 0, 0))
        self._column = column if bars else None
        children: list[View] = [column]
        if bars:
            children.append(View("android:id/statusBarBackground", height=STATUS_BAR_H, layout_gravity="top"))
            children.append(View("android:id/navigationBarBackground", height=NAV_BAR_H, layout_gravity="bottom"))
        return FrameLayout(*children, height=MATCH)

    def layout(self, root: View) -> None:
        adjust = self.resolve_adjust(root) if self.ime_inset else self.resolved_adjust
        if self._column is not None:
            # adjustResize: the IME's insets shorten the content above it (the decor stays full size)
            self._column.height = self.height - NAV_BAR_H - (self.ime_inset if adjust == "resize" else 0)
        root.measure(self.width, self.height, exact_w=self.width, exact_h=self.height)
        root.place(0, 0, (0, 0, self.width, self.height))
        self._pan(root, 0, 0, adjust)
        self.frame = root.rect

    def relayout(self) -> None:
        """Lay the current tree out again (the keyboard came or went: no rebuild needed)."""
        if self.root is not None:
            for view in self.root.walk():
                view.__dict__.pop("_measured_for", None)  # FrameLayout's measure cache: sizes change now
            self.layout(self.root)

    # -- the soft keyboard ------------------------------------------------
    @property
    def resized_view(self) -> View | None:
        """The decor column adjustResize shortens for the keyboard (None: the window is never resized)."""
        return self._column

    @property
    def ime_shortening(self) -> int:
        """How many pixels adjustResize takes off the content for the keyboard in the current layout."""
        return 0 if self._column is None else self.height - NAV_BAR_H - self._column.height

    def resolve_adjust(self, root: View) -> str:
        """The adjust mode this window's layout follows while the keyboard is up.

        ViewRootImpl.performTraversals: a window whose mode leaves the adjust
        unspecified is resized when it shows a scroll container (a view
        with vertical scroll bars, a ScrollView, ListView or RecyclerView),
        and panned otherwise.
        """
        adjust = self.soft_input_adjust
        if adjust == "unspecified":
            adjust = "resize" if any(isinstance(view, ScrollContainer) for view in root.walk()) else "pan"
        self.resolved_adjust = adjust
        return adjust

    def pan_stale(self) -> bool:
        """adjustPan followed a field that no longer has focus (focus moved after the layout)."""
        return self.resolved_adjust == "pan" and self._pan_for != self.focus_path

    def _pan(self, root: View, x: int, y: int, adjust: str) -> None:
        """adjustPan: move the window up until the focused field's cursor line is above the keyboard.

        ViewRootImpl.scrollToRectOrFocus scrolls by the focused view's
        getFocusedRect(), which for a TextView is the line holding the cursor.
        """
        self.pan = 0
        self._pan_for = self.focus_path
        if not self.ime_inset or adjust != "pan":
            return
        focused = None
        for view in root.walk():
            if self.focus_path is not None and view.path == self.focus_path:
                focused = view
                break
        if focused is None or focused.clip is None:
            return
        if isinstance(focused, EditText):
            _, top, line_h = caret_position(focused, focused.cursor)
            bottom = top + line_h
        else:
            bottom = focused.rect[3]
        self.pan = max(0, bottom - (self.height - NAV_BAR_H - self.ime_inset))
        if self.pan:
            root.place(x, y - self.pan, (0, 0, self.width, self.height))

    def _assign(self, view: View, parent_path: str, seen: set[str]) -> None:
        view.path = f"{parent_path}/{view.key or f'{view.class_name}:{view.id}:{view.index}'}"
        seen.add(view.path)
        grouped = isinstance(view, RadioButton) and isinstance(view.parent, RadioGroup)
        if view.RETAINED and not grouped:
            declared = tuple(getattr(view, name) for name in view.RETAINED)
            entry = self.store.get(view.path)
            if entry is not None and entry[0] == declared:
                for name, value in entry[1].items():
                    setattr(view, name, value)
            else:
                self.store[view.path] = (declared, {name: getattr(view, name) for name in view.RETAINED})
        if isinstance(view, RadioGroup):
            view.apply_checked()
        for child in view.children:
            self._assign(child, view.path, seen)

    def remember(self, view: View) -> None:
        """Record a user-made change of `view` so the next rebuild keeps it."""
        entry = self.store.get(view.path)
        if entry is not None:
            entry[1].update({name: getattr(view, name) for name in view.RETAINED})

    # -- focus -----------------------------------------------------------
    def _restore_focus(self) -> None:
        target = None
        for view in self.root.walk():
            if self.focus_path is not None and view.path == self.focus_path:
                target = view
                break
            if not self._built_once and self.focus_path is None and getattr(view, "autofocus", False):
                target = view
                break
        self.focus_path = target.path if target is not None else None
        if target is not None:
            target.focused = True

    def request_focus(self, id: str, key: str | None = None, show_keyboard: bool = False) -> None:
        """Focus the view with ``id`` (and ``key``, if given) once the window is next rebuilt.

        What an app's ``view.requestFocus()`` does for a view it is creating
        (a new note's text field, a new checklist row): apps describe their
        screen declaratively, so the request waits for the rebuild that
        creates the view.  A request no view answers is dropped, as
        requestFocus() on a view that is gone does nothing.  ``show_keyboard``
        adds what Simple-Commons' ``Activity.showKeyboard(et)`` does next:
        ``InputMethodManager.showSoftInput(et, SHOW_IMPLICIT)``.
        """
        self._focus_request = (id, key, show_keyboard)

    def _apply_focus_request(self) -> None:
        request, self._focus_request = self._focus_request, None
        if request is None:
            return
        id, key, show_keyboard = request
        ids = {id, f"{self.package}:id/{id}"}  # apps name their views by short id
        for view in self.root.walk():
            if view.id in ids and (key is None or view.key == key):
                self.set_focus(view)
                self.show_ime_requested = self.show_ime_requested or show_keyboard
                return

    def focused_view(self) -> View | None:
        if self.root is None or self.focus_path is None:
            return None
        for view in self.root.walk():
            if view.path == self.focus_path:
                return view
        return None

    def set_focus(self, view: View | None) -> bool:
        """Move focus to `view`; True when focus changed."""
        old = self.focused_view()
        if old is view:
            return False
        if old is not None:
            old.focused = False
        self.focus_path = view.path if view is not None else None
        if view is not None:
            view.focused = True
        return True

    def editables(self) -> list[EditText]:
        return [v for v in self.root.walk() if isinstance(v, EditText) and v.enabled and v.clip is not None]

    # -- hit testing -----------------------------------------------------
    def contains(self, x: int, y: int) -> bool:
        left, top, right, bottom = self.frame
        return left <= x < right and top <= y < bottom

    def hit(self, x: int, y: int, want: str = "click") -> View | None:
        """The view a touch at (x, y) goes to: topmost, deepest, honouring touch delegates."""
        return _hit(self.root, x, y, want) if self.root is not None else None

    def scroller_at(self, x: int, y: int) -> ScrollContainer | None:
        found = None
        for view in self.root.walk():
            if isinstance(view, ScrollContainer) and view.clip is not None and view.max_scroll() > 0:
                left, top, right, bottom = view.clip
                if left <= x < right and top <= y < bottom:
                    found = view  # deeper ones come later in the walk
        return found

    def find(self, id: str) -> View | None:
        return self.content.find(id) if self.content is not None else None


def _hit(view: View, x: int, y: int, want: str) -> View | None:
    for child in reversed(view.children):
        if child.visible:
            found = _hit(child, x, y, want)
            if found is not None:
                return found
    if view.clip is None or not view.enabled:
        return None
    if want == "long" and not (view.long_clickable or view.clickable or getattr(view, "consumes_touch", False)):
        return None
    if want == "click" and not view.handles_touch() and not getattr(view, "consumes_touch", False):
        return None
    left, top, right, bottom = view.touch_rect() if any(view.touch_extend) else view.clip
    if left <= x < right and top <= y < bottom:
        return view
    return None


class DialogWindow(Window):
    """An AlertDialog: title, custom view or message, and buttons button1/2/3."""

    kind = "dialog"

    def __init__(self, package, title, build, *, buttons=(), cancelable=True, message: str = "", **kw) -> None:
        super().__init__(package, title, build, **kw)
        self.buttons = buttons  # list of (android id, View)
        self.cancelable = cancelable
        self.message = message

    def decorate(self, content: View | None) -> View:
        pkg = self.package
        if content is not None and self.soft_input_state == "unspecified" and any(
                isinstance(view, EditText) and view.autofocus for view in content.walk()):
            # The apps' dialogs that focus a field on opening do it with Simple-Commons'
            # AlertDialog.showKeyboard(field) (RenameItemDialog, CreateNewFolderDialog,
            # NewPlaylistDialog, Notes' NewNoteDialog ...), which sets SOFT_INPUT_STATE_ALWAYS_VISIBLE.
            self.soft_input_state = "always_visible"
        panels: list[View] = []
        if self.title:
            panels.append(LinearLayout(
                TextView(self.title, f"{pkg}:id/dialog_title_textview", size=sp(20), bold=True, width=MATCH,
                         padding=(dp(24), dp(22), dp(24), dp(8))),
                id=f"{pkg}:id/topPanel"))
        if self.message:
            panels.append(FrameLayout(
                ScrollView(TextView(self.message, "android:id/message", width=MATCH, color=(90, 90, 90),
                                    padding=(dp(24), dp(8), dp(24), dp(8))),
                           id=f"{pkg}:id/scrollView", height=WRAP, focusable=False),
                id=f"{pkg}:id/contentPanel", weight=1))
        if content is not None:
            panels.append(FrameLayout(FrameLayout(content, id=f"{pkg}:id/custom"), id=f"{pkg}:id/customPanel",
                                      weight=1))
        if self.buttons:
            panels.append(ScrollView(
                LinearLayout(*self.buttons, orientation="horizontal", gravity="end", padding=(dp(12), dp(4)),
                             height=WRAP),
                id=f"{pkg}:id/buttonPanel", height=WRAP))
        parent = LinearLayout(*panels, id=f"{pkg}:id/parentPanel",
                              class_name="androidx.appcompat.widget.LinearLayoutCompat")
        # A dialog's sub-decor: Commons' getAlertDialogBuilder() (MaterialAlertDialogBuilder on the
        # system theme, else AlertDialog.Builder) themes the dialog with the activity's theme plus a
        # dialog theme overlay, so it inherits windowActionModeOverlay and AppCompat inflates
        # abc_screen_simple_overlay_action_mode.xml, as for the activity (the recordings show a
        # FrameLayout action_bar_root in every dialog).
        shell = FrameLayout(LinearLayout(FrameLayout(FrameLayout(FrameLayout(
            parent, id="android:id/content", class_name="androidx.appcompat.widget.ContentFrameLayout"),
            id=f"{pkg}:id/action_bar_root", class_name="androidx.appcompat.widget.FitWindowsFrameLayout"))),
            bg=(255, 255, 255), radius=dp(8))
        return shell

    def layout(self, root: View) -> None:
        width = self.width - 2 * DIALOG_MARGIN
        max_h = self.height - 2 * (STATUS_BAR_H + NAV_BAR_H)
        adjust = self.resolve_adjust(root) if self.ime_inset else self.resolved_adjust
        resized = bool(self.ime_inset) and adjust == "resize"
        if resized:
            # a floating window with adjustResize is centred in what the keyboard leaves of the screen
            room = self.height - NAV_BAR_H - self.ime_inset - STATUS_BAR_H
            max_h = min(max_h, room - 2 * DIALOG_MARGIN)
        root.measure(width, max_h, exact_w=width)
        if root.mh > max_h:
            root.measure(width, max_h, exact_w=width, exact_h=max_h)
        top = STATUS_BAR_H + (room - root.mh) // 2 if resized else (self.height - root.mh) // 2
        root.place(DIALOG_MARGIN, top, (0, 0, self.width, self.height))
        self._pan(root, DIALOG_MARGIN, top, adjust)
        self.frame = root.rect


class PlatformDialogWindow(DialogWindow):
    """A framework android.app.AlertDialog (alert_dialog_material.xml), as a system process shows one:
    no AppCompat decor, the panels are android:id/ views (parentPanel, customPanel, custom, buttonPanel)."""

    def decorate(self, content: View | None) -> View:
        panels: list[View] = []
        if self.title:
            panels.append(LinearLayout(TextView(self.title, "android:id/alertTitle", size=sp(20), bold=True,
                                                width=MATCH, padding=(dp(24), dp(22), dp(24), dp(8))),
                                       id="android:id/topPanel"))
        if self.message:
            panels.append(FrameLayout(
                ScrollView(TextView(self.message, "android:id/message", width=MATCH, color=(90, 90, 90),
                                    padding=(dp(24), dp(8), dp(24), dp(8))),
                           id="android:id/scrollView", height=WRAP, focusable=False),
                id="android:id/contentPanel", weight=1))
        if content is not None:
            panels.append(FrameLayout(FrameLayout(content, id="android:id/custom"), id="android:id/customPanel",
                                      weight=1))
        if self.buttons:
            panels.append(ScrollView(
                LinearLayout(*self.buttons, orientation="horizontal", gravity="end", padding=(dp(12), dp(4)),
                             height=WRAP),
                id="android:id/buttonPanel", height=WRAP))
        parent = LinearLayout(*panels, id="android:id/parentPanel")
        return FrameLayout(FrameLayout(parent, id="android:id/content"), bg=(255, 255, 255), radius=dp(8))


class PopupWindow(Window):
    """A pop-up menu: a ListView of clickable rows, anchored to a view."""

    kind = "popup"

    def __init__(self, package, items, *, anchor: tuple[int, int, int, int] | None, **kw) -> None:
        super().__init__(package, "", self._build_list, **kw)
        self.items = items  # list of (title, callback)
        self.anchor = anchor

    def _build_list(self) -> View:
        pkg = self.package
        rows = []
        for i, (title, callback) in enumerate(self.items):
            rows.append(LinearLayout(
                LinearLayout(
                    RelativeLayout(TextView(title, f"{pkg}:id/title", max_lines=1), width=MATCH,
                                   padding=(dp(16), 0)),
                    id=f"{pkg}:id/content", height=MATCH, gravity="center_vertical"),
                height=dp(48), on_click=callback, focusable=True, key=f"item{i}"))
        return ListView(*rows, height=WRAP)

    def decorate(self, content: View) -> View:
        return FrameLayout(FrameLayout(content), bg=(255, 255, 255), radius=dp(4), width=WRAP)

    def layout(self, root: View) -> None:
        widest = max((text_width(t, sp(16)) for t, _ in self.items), default=0) + 2 * dp(16)
        width = min(self.width - 2 * 11, max(POPUP_WIDTH, widest))
        max_h = self.height - STATUS_BAR_H - NAV_BAR_H - 22
        root.measure(width, max_h, exact_w=width)
        if root.mh > max_h:
            root.measure(width, max_h, exact_w=width, exact_h=max_h)
        if self.anchor is None:
            left, top = self.width - 11 - width, STATUS_BAR_H + 11
        else:
            left, top = self.anchor[0], self.anchor[1]
            if left + width > self.width - 11:
                left = self.width - 11 - width
        top = max(STATUS_BAR_H, min(top, self.height - NAV_BAR_H - root.mh))
        root.place(left, top, (0, 0, self.width, self.height))
        self.frame = root.rect

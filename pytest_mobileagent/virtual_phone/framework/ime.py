"""The soft keyboard's policy: when Android 14 shows and hides the IME, and for which window.

`SoftKeyboard` is the phone's InputMethodManagerService.  After every
input the system hands it the focused window; it applies the rules of
``ImeVisibilityStateComputer.computeState`` (Android 14,
frameworks/base/services/core/java/com/android/server/inputmethod/) when
window focus moves, and the explicit requests in between:

* a tap on an editable field shows it (TextView.onTouchEvent calls
  ``InputMethodManager.showSoftInput`` on ACTION_UP);
* an app's ``showSoftInput`` (Simple-Commons' ``Activity.showKeyboard``,
  Notes' TextFragment) shows it for the focused field;
* BACK hides it, and only that (InputMethodService.onKeyDown consumes the
  BACK that hides its window; the app never sees it);
* a window gaining focus follows its ``windowSoftInputMode`` state:
  ``stateAlwaysVisible`` shows the IME when an editor has focus (what
  Simple-Commons' ``AlertDialog.showKeyboard(field)`` sets on its dialogs),
  ``stateUnspecified`` hides it unless the window resizes for it and is
  reached going forward with an editor focused, ``stateAlwaysHidden``
  hides it; a window gaining focus without an editor hides it
  (HIDE_WINDOW_GAINED_FOCUS_WITHOUT_EDITOR).

Pop-up menus are windows like the others here: AppCompat's overflow menu
(StandardMenuPopup: a modal, so focusable, ListPopupWindow that keeps
PopupWindow's INPUT_METHOD_FROM_FOCUSABLE) gains focus without an editor,
which hides the keyboard.  The target window gets the IME's height as a bottom inset and lays itself
out again (window.py: adjustResize / adjustPan).
"""

from __future__ import annotations

from .ui.keyboard import IME_HEIGHT
from .ui.views import EditText
from .ui.window import NAV_BAR_H, Window

__all__ = ["SoftKeyboard", "visibility_on_focus"]


def visibility_on_focus(state: str, adjust: str, editor: bool, forward: bool, shown: bool) -> bool | None:
    """ImeVisibilityStateComputer.computeState for a window that just gained focus.

    True: show, False: hide, None: leave the IME as it is.  ``adjust`` is the
    mode ViewRootImpl resolved (doAutoShow needs ADJUST_RESIZE on a phone).
    """
    if state == "unspecified":
        if not editor or adjust != "resize":
            return False  # HIDE_UNSPECIFIED_WINDOW
        if forward:
            return True  # SHOW_AUTO_EDITOR_FORWARD_NAV
    elif state == "hidden":
        if forward:
            return False
    elif state == "always_hidden":
        return False
    elif state == "visible":
        if forward and editor:
            return True
    elif state == "always_visible":
        if editor:
            return True
    if not editor and shown:
        return False  # HIDE_WINDOW_GAINED_FOCUS_WITHOUT_EDITOR
    return None


class SoftKeyboard:
    """Whether the IME is shown, the window it serves, and where it is on screen."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.shown = False
        #: the window the IME serves (IMMS' mCurFocusedWindow)
        self.target: Window | None = None
        #: whether the target was reached going forward (SOFT_INPUT_IS_FORWARD_NAVIGATION)
        self.forward = False
        self._show_requested = False
        #: whether accessibility was last told that the IME window is on screen
        self._window_reported = False

    @property
    def top(self) -> int:
        """The first screen row the keyboard window covers."""
        return self.height - NAV_BAR_H - IME_HEIGHT

    def covers(self, x: int, y: int) -> bool:
        return self.shown and 0 <= x < self.width and self.top <= y < self.height - NAV_BAR_H

    def request_show(self, window: Window) -> None:
        """InputMethodManager.showSoftInput for the field just tapped in ``window``.

        Applied at once (the window then lays itself out once, in the rebuild
        that follows the tap, instead of twice); `update` confirms it.
        """
        self._show_requested = True
        if self.shown and window is self.target:
            return
        self.shown, self.target = True, window
        window.had_focus = True
        window.ime_inset = IME_HEIGHT

    def hide(self) -> None:
        self.shown = False
        if self.target is not None:
            self.target.ime_inset = 0  # the rebuild that follows lays the window out without it

    def update(self, focused: Window, windows: list[Window]) -> None:
        """Apply the policy after an input; give the target its inset, relayout what changed."""
        view = focused.focused_view()
        editor = isinstance(view, EditText) and view.enabled
        if focused is not self.target:
            forward, focused.had_focus = not focused.had_focus, True
            adjust = focused.resolve_adjust(focused.root) if focused.root is not None else "pan"
            decision = visibility_on_focus(focused.soft_input_state, adjust, editor, forward, self.shown)
            if decision is not None:
                self.shown = decision
            if self.target is not None and self.target not in windows:
                self.target.ime_inset = 0  # gone from the screen: laid out afresh when it returns
            self.target, self.forward = focused, forward
        if (self._show_requested or focused.show_ime_requested) and editor:
            self.shown = True
        elif self.shown and not editor:
            # the field it typed into is gone (the apps call hideKeyboard() as they remove it)
            self.shown = False
        focused.show_ime_requested = False
        self._show_requested = False
        for window in windows:
            inset = IME_HEIGHT if self.shown and window is self.target else 0
            if window.ime_inset != inset or (inset and window.pan_stale()):
                window.ime_inset = inset
                window.relayout()

    def accessibility_changes(self, windows: list[Window]) -> list[tuple[str, Window | None]]:
        """The accessibility events the keyboard's coming and going caused since the last call.

        * ``("windows_changed", None)``: the IME window (TYPE_INPUT_METHOD, an
          AccessibilityWindowInfo of TYPE_INPUT_METHOD) was added to or removed from
          the screen.  AccessibilityWindowManager's DisplayWindowsObserver
          (sendEventsForChangedWindowsLocked) sends TYPE_WINDOWS_CHANGED with
          WINDOWS_CHANGE_ADDED / WINDOWS_CHANGE_REMOVED, but only while windows are
          tracked: AccessibilityManagerService.updateWindowsForAccessibilityCallbackLocked
          tracks them while a bound service can retrieve interactive windows
          (flagRetrieveInteractiveWindows), and only services whose event types
          include it receive it.
        * ``("window_content", window)``: adjustResize gave ``window``'s content a new
          height.  View.setFrame calls notifySubtreeAccessibilityStateChangedIfNeeded
          for every view whose frame changed; ViewRootImpl merges them into one
          TYPE_WINDOW_CONTENT_CHANGED (CONTENT_CHANGE_TYPE_SUBTREE) whose source is their
          common predecessor, the decor column here.  A panned window's views keep
          their frames (ViewRootImpl.scrollToRectOrFocus scrolls the whole window), so
          it sends none.
        """
        changes: list[tuple[str, Window | None]] = []
        if self.shown != self._window_reported:
            self._window_reported = self.shown
            changes.append(("windows_changed", None))
        for window in windows:
            shortening = window.ime_shortening
            if shortening != window.reported_ime_shortening:
                changes.append(("window_content", window))
            window.reported_ime_shortening = shortening
        return changes

"""`dumpsys input_method` and the IME's entry in `dumpsys window windows`, as Android 14 prints them.

The layout follows InputMethodManagerService.dumpAsStringNoCheck (Android 14):
the method list, the current method and focused window (with its
softInputMode as InputMethodDebug.softInputModeToString writes it), then
ImeVisibilityStateComputer.dump's three lines, ending in ``mInputShown``.
Binder object hashes are stable per phone (derived from names), not real.
"""

from __future__ import annotations

import zlib

from ..framework.ui.keyboard import IME_HEIGHT, IME_ID, IME_PACKAGE, soft_input_mode_string
from ..framework.ui.window import NAV_BAR_H

__all__ = ["dump_input_method", "ime_service_dump", "ime_window_entry"]

_SERVICE = "com.android.inputmethod.latin.LatinIME"


def _hash(text: str) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(7, "0")


def dump_input_method(phone, focus_token: str) -> str:
    """The critical section of `dumpsys input_method`; ``focus_token`` names the focused window."""
    system = phone.system
    ime = system.ime
    target = ime.target
    if target is not None and target.root is not None:
        mode = soft_input_mode_string(target.soft_input_state, target.resolve_adjust(target.root), ime.forward)
    else:
        mode = soft_input_mode_string("unspecified", "unspecified", False)
    uid = phone.process_uid(IME_PACKAGE)
    client = f"ClientState{{{_hash('client' + focus_token)} mUid={uid} mPid={phone.pid_of(IME_PACKAGE)} mSelfReportedDisplayId=0}}"
    return "\n".join([
        "Current Input Method Manager state:",
        "  Input Methods: mMethodMapUpdateCount=2",
        "  InputMethod #0:",
        f"    mId={IME_ID} mSettingsActivityName=com.android.inputmethod.latin.settings.SettingsActivity"
        " mIsVrOnly=false mSupportsSwitchingToNextInputMethod=true",
        "    mIsDefaultResId=0x7f050000",
        "    Service:",
        "      priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false",
        "      ServiceInfo:",
        f"        name={_SERVICE}",
        f"        packageName={IME_PACKAGE}",
        "        enabled=true exported=true directBootAware=true",
        "        permission=android.permission.BIND_INPUT_METHOD",
        "        flags=0x0",
        f"  mCurMethodId={IME_ID}",
        f"  mCurClient={client} mCurSeq=2",
        "  mCurPerceptible=true",
        f"  mCurFocusedWindow={focus_token} softInputMode={mode} client={client}",
        f"  mCurId={IME_ID} mHaveConnection=true mBoundToMethod=true mVisibleBound={str(ime.shown).lower()}",
        f"  mCurToken=android.os.Binder@{_hash('token')}",
        "  mCurTokenDisplayId=0",
        "  mCurHostInputToken=null",
        f"  mCurIntent=Intent {{ act=android.view.InputMethod cmp={IME_ID} (has extras) }}",
        f"  mCurMethod=com.android.server.inputmethod.IInputMethodInvoker@{_hash('method')}",
        f"  mEnabledSession=SessionState{{uid {uid} pid {phone.pid_of(IME_PACKAGE)} method {_hash('m')}"
        f" session {_hash('s')} channel ClientChannel{{{IME_PACKAGE}}}}}",
        " mRequestedShowExplicitly=false mShowForced=false",
        "  mImeHiddenByDisplayPolicy=false",
        f"  mInputShown={str(ime.shown).lower()}",
        "  mInFullscreenMode=false",
        "  mSystemReady=true mInteractive=true",
        "",
    ])


def ime_service_dump(phone) -> str:
    """The keyboard's own section, which IMMS appends after a " " line by dumping the bound
    IInputMethod (TransferPipe.dumpAsync): InputMethodService.dump's lines (frameworks/base
    core/java/android/inputmethodservice/InputMethodService.java).  Its window, input view and
    show request follow the one IME state (`ime.shown`), as mInputShown and the InputMethod
    window's visibility in `dumpsys window` do; Appium's isSoftKeyboardPresent reads
    ``mIsInputViewShown`` from here to decide whether the keyboard can be closed."""
    ime = phone.system.ime
    shown = str(ime.shown).lower()
    started = str(ime.target is not None).lower()
    return "\n".join([
        " ",
        f"Input method service state for {_SERVICE}@{_hash('service')}:",
        "  mWindowCreated=true mWindowAdded=true",
        f"  mWindowVisible={shown} mWindowWasVisible={shown} mInShowWindow=false",
        f"  mToken=android.os.Binder@{_hash('token')}",
        f"  mInputStarted={started} mInputViewStarted={shown} mCandidatesViewStarted=false",
        f"  mShowInputRequested={shown} mLastShowInputRequested={shown} mShowInputFlags=0x0",
        "  mCandidatesVisibility=4 mFullscreenApplied=false mIsFullscreen=false mExtractViewHidden=false",
        "  mExtractedText: null",
        "  mExtractedToken=0",
        f"  mIsInputViewShown={shown} mStatusIcon=0",
        "",
    ])


def ime_window_entry(phone, index: int, session: str) -> list[str]:
    """The InputMethod window's lines in `dumpsys window windows` (listed whether shown or not);
    ``session`` is the keyboard process's Session (window_manager.py)."""
    system = phone.system
    shown = system.ime.shown
    w, h = system.width, system.height
    top = h - NAV_BAR_H - IME_HEIGHT
    uid = phone.process_uid(IME_PACKAGE)
    return [f"  Window #{index} Window{{{_hash('InputMethod')} u0 InputMethod}}:",
            f"    mDisplayId=0 rootTaskId=1 mSession={session}",
            f"    mOwnerUid={uid} showForAllUsers=false package={IME_PACKAGE} appop=NONE",
            "    mAttrs={(0,0)(fillxwrap) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan} ty=INPUT_METHOD "
            "fmt=TRANSPARENT wanim=0x1030056 fl=NOT_FOCUSABLE LAYOUT_IN_SCREEN SPLIT_TOUCH HARDWARE_ACCELERATED "
            "DRAWS_SYSTEM_BAR_BACKGROUNDS}",
            f"    Requested w={w} h={IME_HEIGHT + NAV_BAR_H} mLayoutSeq=42",
            f"    mViewVisibility={'0x0' if shown else '0x8'} mHaveFrame=true mObscured=false",
            f"    Frames: parent=[0,0][{w},{h}] display=[0,0][{w},{h}] frame=[0,{top}][{w},{h}]",
            f"    isOnScreen={str(shown).lower()}",
            f"    isVisible={str(shown).lower()}"]

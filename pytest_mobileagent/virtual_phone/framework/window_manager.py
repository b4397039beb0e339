"""WindowManagerService's and DisplayManagerService's dumps: `dumpsys window` and `dumpsys display`.

The windows are AndroidSystem's (system.py): SystemUI's bars, the input method's window
(ime_dump.py) and the activities' windows, top first, with the focus clients read
(adbutils' app_current takes mCurrentFocus; AndroidViewClient reads the display's
DisplayViewport).  Both register with the phone's service registry (services.py).
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

from ..kernel.processes import processes
from .activity_manager import record_token, short_component, task_id, window_token
from .ime_dump import ime_window_entry
from .ui.keyboard import IME_PACKAGE
from .services import DUMPSYS_HANDLERS

if TYPE_CHECKING:
    from .services import DumpTarget

__all__: list[str] = []


def _hash(text: str, digits: int = 7) -> str:
    return format(zlib.crc32(text.encode()) & 0xFFFFFFF, "x").rjust(digits, "0")[:digits]


def _session(salt: str, pid: int, uid: int) -> str:
    """A window's Session: the binder connection of the process that added it, named by that
    process's pid and uid as Session's constructor builds mStringName (services/core/java/com/android/
    server/wm/Session.java: ":" uid below FIRST_APPLICATION_UID, else ":u" userId "a" appId)."""
    who = str(uid) if uid < 10_000 else f"u{uid // 100_000}a{uid % 100_000}"
    return f"Session{{{_hash(salt)} {pid}:{who}}}"


def _dumpsys_display(system) -> str:
    w, h, d = system.width, system.height, system.density
    viewport = (f"DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
                f"uniqueId='local:4619827259835644672', physicalPort=0, orientation=0, "
                f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect(0, 0 - {w}, {h}), "
                f"deviceWidth={w}, deviceHeight={h}}}")
    return ("DISPLAY MANAGER (dumpsys display)\n"
            "  mOnlyCore=false\n  mSafeMode=false\n  mPendingTraversal=false\n"
            "  mViewports=[" + viewport + "]\n"
            "  mDefaultDisplayDefaultColorMode=0\n\n"
            "Display Devices: size=1\n"
            "  DisplayDeviceInfo{\"Built-in Screen\": uniqueId=\"local:4619827259835644672\", "
            f"{w} x {h}, modeId 1, renderFrameRate 60.0, defaultModeId 1, "
            f"density {d}, {d}.0 x {d}.0 dpi, appVsyncOff 0, presDeadline 17666666, "
            "touch INTERNAL, rotation 0, type INTERNAL, state ON, FLAG_DEFAULT_DISPLAY, "
            "FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}\n"
            "    mCurrentLayerStack=0\n    mCurrentOrientation=0\n"
            f"    mCurrentDisplayRect=Rect(0, 0 - {w}, {h})\n\n"
            "Logical Displays: size=1\n"
            "  Display 0:\n"
            f"    mDisplayId=0\n    mBaseDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, "
            f"real {w} x {h}, largest app {w} x {h}, smallest app {w} x {h}, "
            f"density {d} ({d}.0 x {d}.0) dpi, rotation 0, state ON}}\n")


def _current_focus(system, package: str, activity: str) -> str:
    """The focused window: SystemUI's NotificationShade while the shade is down (the app keeps
    mFocusedApp), else the front activity's."""
    if system.panel_expanded is not None:
        return f"Window{{{_hash('NotificationShade')} u0 NotificationShade}}"
    return f"Window{{{window_token(package, activity)} u0 {package}/{activity}}}"


def _dumpsys_windows(phone) -> str:
    system = phone.system
    package, activity = system.focused_window()
    stack = system.activity_stack() or [(package, activity)]
    w, h = system.width, system.height
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)"]
    shade_down = system.panel_expanded is not None
    # top first; the shade's layer is above the status bar's (PhoneWindowManager's
    # getWindowLayerFromTypeLw: TYPE_STATUS_BAR 15, TYPE_NOTIFICATION_SHADE 17)
    windows = [("com.android.systemui", "NotificationShade", "NOTIFICATION_SHADE"),
               ("com.android.systemui", "StatusBar", "STATUS_BAR"),
               ("com.android.systemui", "NavigationBar0", "NAVIGATION_BAR")]
    # each window is owned by the process that added it: SystemUI's bars by SystemUI's process
    owners = {p.cmdline: p for p in processes(phone, with_shell=False) if p.cmdline}
    for index, (name_pkg, title, kind) in enumerate(windows):
        owner = owners[name_pkg]
        # the shade's window is always there; it is shown while the shade is pulled down (ui/shade.py)
        visible = shade_down or kind != "NOTIFICATION_SHADE"
        lines += [f"  Window #{index} Window{{{_hash(title)} u0 {title}}}:",
                  f"    mDisplayId=0 rootTaskId=1 mSession={_session(title + 's', owner.pid, owner.uid)}",
                  f"    mOwnerUid={owner.uid} showForAllUsers=true package={name_pkg} appop=NONE",
                  f"    mAttrs={{(0,0)(fillxwrap) ty={kind} fmt=TRANSLUCENT}}",
                  f"    mViewVisibility={'0x0' if visible else '0x8'} mHaveFrame=true mObscured=false"]
    lines += ime_window_entry(phone, len(windows), _session(IME_PACKAGE, phone.pid_of(IME_PACKAGE),
                                                            phone.process_uid(IME_PACKAGE)))  # above the apps' windows, below SystemUI's bars
    windows.append(("", "InputMethod", "INPUT_METHOD"))
    for offset, (pkg, act) in enumerate(stack):
        title = f"{pkg}/{act}"
        visible = "0x0" if offset == 0 else "0x8"
        lines += [f"  Window #{offset + len(windows)} Window{{{window_token(pkg, act)} u0 {title}}}:",
                  f"    mDisplayId=0 rootTaskId={task_id(pkg)} "
                  f"mSession={_session(pkg, phone.pid_of(pkg), phone.process_uid(pkg))}",
                  f"    mOwnerUid={phone.process_uid(pkg)} showForAllUsers=false package={pkg} appop=NONE",
                  "    mAttrs={(0,0)(fillxfill) sim={adjust=resize forwardNavigation} "
                  "ty=BASE_APPLICATION fmt=TRANSLUCENT}",
                  f"    Requested w={w} h={h} mLayoutSeq=42",
                  f"    mViewVisibility={visible} mHaveFrame=true mObscured=false",
                  f"    Frames: parent=[0,0][{w},{h}] display=[0,0][{w},{h}] frame=[0,0][{w},{h}]"]
    focus = _current_focus(system, package, activity)
    lines += ["", "  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw392dp w392dp h850dp "
                  "440dpi nrml long port finger -keyb/v/h -nav/h winConfig={ mBounds=Rect(0, 0 - "
                  f"{w}, {h}) mAppBounds=Rect(0, 0 - {w}, {h}) mWindowingMode=fullscreen "
                  "mDisplayWindowingMode=fullscreen mActivityType=undefined mAlwaysOnTop=undefined "
                  "mRotation=ROTATION_0} s.1 fontWeightAdjustment=0}",
              "  mHasPermanentDpad=false",
              "  mTopFocusedDisplayId=0",
              f"  mCurrentFocus={focus}",
              f"  mFocusedApp=ActivityRecord{{{record_token(package, activity)} u0 "
              f"{short_component(package, activity)} t{task_id(package)}}}",
              ""]
    return "\n".join(lines)


def _dumpsys_window_displays(phone) -> str:
    system = phone.system
    package, activity = system.focused_window()
    w, h, d = system.width, system.height, system.density
    return "\n".join([
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
        "  Display: mDisplayId=0 rootTasks=2",
        f"    init={w}x{h} {d}dpi base={w}x{h} {d}dpi cur={w}x{h} app={w}x{h - 126} "
        f"rng={w}x{w - 63}-{h - 126}x{h - 63}",
        f"    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,{w},{h}))",
        "",
        f"  mCurrentFocus={_current_focus(system, package, activity)}",
        f"  mFocusedApp=ActivityRecord{{{record_token(package, activity)} u0 "
        f"{short_component(package, activity)} t{task_id(package)}}}",
        "",
        "  DisplayRotation",
        "    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED",
        "    mRotation=0 mDeferredRotationPauseCount=0",
        "    mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270",
        "    mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180",
        "    WindowOrientationListener",
        "      mEnabled=false",
        "      mCurrentRotation=ROTATION_0",
        "      mPredictedRotation=0",
        "",
    ])


_POLICY = ("WINDOW MANAGER POLICY STATE (dumpsys window policy)\n"
           "    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n"
           "    mShowingLockscreen=false mShowingDream=false mDreamingLockscreen=false\n"
           "    mScreenOnEarly=true mScreenOnFully=true\n"
           "    interactiveState=INTERACTIVE_STATE_AWAKE\n")


def _dump_display(target: "DumpTarget", args: list[str]) -> int:
    target.out(_dumpsys_display(target.phone.system))
    return 0


def _dump_windows(target: "DumpTarget", args: list[str]) -> int:
    target.out(_dumpsys_windows(target.phone))
    return 0


def _dump_displays(target: "DumpTarget", args: list[str]) -> int:
    target.out(_dumpsys_window_displays(target.phone))
    return 0


def _dump_policy(target: "DumpTarget", args: list[str]) -> int:
    target.out(_POLICY)
    return 0


def _dump_window(target: "DumpTarget", args: list[str]) -> int:
    """`dumpsys window` alone: the displays, then the windows."""
    target.out(_dumpsys_window_displays(target.phone) + "\n" + _dumpsys_windows(target.phone))
    return 0


DUMPSYS_HANDLERS[("display", "*")] = _dump_display
DUMPSYS_HANDLERS[("window", "")] = _dump_window
for _sections, _dump in ((("windows", "w"), _dump_windows), (("displays", "d"), _dump_displays),
                         (("policy", "p"), _dump_policy)):
    for _section in _sections:
        DUMPSYS_HANDLERS[("window", _section)] = _dump

"""System services clients query: battery, power, input, features and input methods.

- `dumpsys battery` (services/core/java/com/android/server/BatteryService.java
  dumpInternal) and its shell: `set ac|usb|wireless|status|level|temp|present
  N`, `unplug`, `reset`;
- `dumpsys power` (power/PowerManagerService.java dumpInternal), the fields
  clients read (mWakefulness, mHoldingDisplaySuspendBlocker, Display Power);
- `dumpsys input` (InputManagerService + inputflinger's EventHub/InputReader/
  InputDispatcher dumps): the devices getevent lists, the touchscreen's
  viewport with Android 14's "InputDeviceOrientation: 0" (TouchInputMapper::
  dumpDisplay; Android 12 and older said "SurfaceOrientation"), the focus;
- `pm list features` (pm/PackageManagerShellCommand.java runListFeatures):
  "feature:reqGlEsVersion=0x..." first, then the names sorted;
- `dumpsys meminfo PACKAGE|PID` (ActivityThread.dumpMemInfoTable, with the Rss
  column of Android 12+), figures derived from the process's RSS;
- `ime list|enable|disable|set|reset` (inputmethod/InputMethodManagerService
  ShellCommandImpl) over the input method service (framework/input_methods.py).

The dumps register with the phone's service registry (framework/services.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..framework import input_methods
from ..framework.activity_manager import record_token, short_component, task_id, window_token
from ..framework.services import DUMPSYS_HANDLERS
from ..kernel.processes import processes
from .interpreter import Invocation, UsageError, command
from .logcat import _devices

__all__ = ["SYSTEM_FEATURES", "battery_state"]


# -- battery ---------------------------------------------------------------------------------------
@dataclass
class BatteryState:
    """HealthInfo as an emulator's health HAL reports it: on AC, full, 25.0 degrees."""

    ac: bool = True
    usb: bool = False
    wireless: bool = False
    dock: bool = False
    status: int = 2  # BatteryManager.BATTERY_STATUS_CHARGING
    health: int = 2  # BATTERY_HEALTH_GOOD
    present: bool = True
    level: int = 100
    voltage: int = 5000
    temperature: int = 250
    counter: int = 10000
    updates_stopped: bool = False
    saved: dict = field(default_factory=dict)


def battery_state(phone) -> BatteryState:
    state = phone.__dict__.get("battery")
    if state is None:
        state = phone.__dict__["battery"] = BatteryState()
    return state


def _java_bool(value: bool) -> str:
    return "true" if value else "false"


def _dump_battery(inv: Invocation, args: list[str]) -> int:
    state = battery_state(inv.phone)
    if args and args[0] not in ("-a",):
        return _battery_shell(inv, state, args)
    lines = ["Current Battery Service state:"]
    if state.updates_stopped:
        lines.append("  (UPDATES STOPPED -- use 'reset' to restart)")
    lines += [f"  AC powered: {_java_bool(state.ac)}", f"  USB powered: {_java_bool(state.usb)}",
              f"  Wireless powered: {_java_bool(state.wireless)}", f"  Dock powered: {_java_bool(state.dock)}",
              "  Max charging current: 0", "  Max charging voltage: 0", f"  Charge counter: {state.counter}",
              f"  status: {state.status}", f"  health: {state.health}", f"  present: {_java_bool(state.present)}",
              f"  level: {state.level}", "  scale: 100", f"  voltage: {state.voltage}",
              f"  temperature: {state.temperature}", "  technology: Li-ion",
              "  Charging state: 1", "  Charging policy: 1"]
    inv.out("\n".join(lines) + "\n")
    return 0


_BATTERY_KEYS = {"ac": "ac", "usb": "usb", "wireless": "wireless", "dock": "dock", "status": "status",
                 "level": "level", "temp": "temperature", "present": "present", "counter": "counter"}


def _battery_shell(inv: Invocation, state: BatteryState, args: list[str]) -> int:
    """BatteryService.Shell: set / unplug / reset (what `dumpsys battery set level 5` does)."""
    verb = args[0]
    if verb == "unplug":
        state.saved = state.saved or dict(ac=state.ac, usb=state.usb, wireless=state.wireless, dock=state.dock)
        state.ac = state.usb = state.wireless = state.dock = False
        state.updates_stopped = True
        return 0
    if verb == "reset":
        fresh = BatteryState()
        for name in ("ac", "usb", "wireless", "dock", "status", "level", "temperature", "present", "counter"):
            setattr(state, name, getattr(fresh, name))
        state.updates_stopped, state.saved = False, {}
        return 0
    if verb == "set" and len(args) >= 3 and args[1] in _BATTERY_KEYS:
        name = _BATTERY_KEYS[args[1]]
        try:
            number = int(args[2])
        except ValueError:
            inv.err(f"Bad value: {args[2]}\n")
            return 255
        setattr(state, name, bool(number) if name in ("ac", "usb", "wireless", "dock", "present") else number)
        state.updates_stopped = True
        return 0
    if verb == "set":
        inv.err(f"Unknown set option: {args[1] if len(args) > 1 else ''}\n" if len(args) > 1 else
                "No property specified\n")
        return 255
    inv.out("Battery service (battery) commands:\n  help\n    Print this help text.\n"
            "  get [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid]\n"
            "  set [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid] <value>\n"
            "    Force a battery property value, freezing battery state.\n"
            "  unplug [-f]\n    Force battery unplugged, freezing battery state.\n"
            "  reset [-f]\n    Unfreeze battery state, returning to current hardware values.\n")
    return 0 if verb in ("help", "-h") else 255


DUMPSYS_HANDLERS[("battery", "*")] = _dump_battery


# -- power -----------------------------------------------------------------------------------------
def _dump_power(inv: Invocation, args: list[str]) -> int:
    battery = battery_state(inv.phone)
    plug = 1 if battery.ac else 2 if battery.usb else 4 if battery.wireless else 8 if battery.dock else 0
    stay_setting = int(inv.phone.settings.get("global", {}).get("stay_on_while_plugged_in", "0") or 0)
    stay_on = bool(plug and stay_setting & plug)
    timeout = inv.phone.settings.get("system", {}).get("screen_off_timeout", "60000")
    inv.out("POWER MANAGER (dumpsys power)\n\n"
            "Power Manager State:\n"
            "  mDirty=0x0\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n"
            f"  mIsPowered={_java_bool(bool(plug))}\n  mPlugType={plug}\n  mBatteryLevel={battery.level}\n"
            "  mBatteryLevelWhenDreamStarted=0\n  mDockState=0\n"
            f"  mStayOn={_java_bool(stay_on)}\n  mProximityPositive=false\n  mBootCompleted=true\n"
            "  mSystemReady=true\n  mHalAutoSuspendModeEnabled=false\n  mHalInteractiveModeEnabled=true\n"
            "  mWakeLockSummary=0x0\n  mNotifyLongScheduled=(none)\n  mNotifyLongDispatched=(none)\n"
            "  mNotifyLongNextCheck=(none)\n  mRequestWaitForNegativeProximity=false\n"
            "  mInteractive=true\n"
            "  mSandmanScheduled=false\n  mBatteryLevelLow=false\n  mLightDeviceIdleMode=false\n"
            "  mDeviceIdleMode=false\n  mScreenBrightnessBoostInProgress=false\n"
            "  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker=true\n\n"
            "Settings and Configuration:\n"
            f"  mScreenOffTimeoutSetting={timeout}\n"
            f"  mStayOnWhilePluggedInSetting={stay_setting}\n\n"
            "Display Power: state=ON\n")
    return 0


DUMPSYS_HANDLERS[("power", "*")] = _dump_power


# -- input -----------------------------------------------------------------------------------------
def _dump_input(inv: Invocation, args: list[str]) -> int:
    phone, system = inv.phone, inv.phone.system
    w, h = system.width, system.height
    package, activity = system.focused_window()
    out = ["INPUT MANAGER (dumpsys input)\n\n", "Input Manager Service (Java) State:\n",
           "  Input Manager Service Interface:\n\n",
           "Event Hub State:\n  BuiltInKeyboardId: -2\n  Devices:\n",
           "    -1: Virtual\n      Classes: KEYBOARD | ALPHAKEY\n      Path: <virtual>\n"
           "      Enabled: true\n      Descriptor: a718a782d34bc767f4689c232d64d527998ea7fd\n"
           "      Location: \n      ControllerNumber: 0\n      UniqueId: <virtual>\n"
           "      Identifier: bus=0x0000, vendor=0x0000, product=0x0000, version=0x0000\n"
           "      KeyLayoutFile: /system/usr/keylayout/Generic.kl\n"
           "      KeyCharacterMapFile: /system/usr/keychars/Virtual.kcm\n"]
    devices = _devices(phone)
    for number, device in enumerate(devices, start=2):
        touch = "ABS" in {label for label, _t, _c in device["events"]}
        out.append(f"    {number}: {device['name']}\n"
                   f"      Classes: {'TOUCH | TOUCH_MT' if touch else 'KEYBOARD'}\n"
                   f"      Path: {device['path']}\n      Enabled: true\n"
                   f"      Identifier: bus=0x{device['bus']:04x}, vendor=0x{device['vendor']:04x}, "
                   f"product=0x{device['product']:04x}, version=0x0001\n")
    out.append(f"\nInput Reader State (Nums of device: {len(devices) + 1}):\n")
    for number, device in enumerate(devices, start=2):
        touch = "ABS" in {label for label, _t, _c in device["events"]}
        out.append(f"  Device {number}: {device['name']}\n    EventHub Devices: [ {number} ] \n"
                   "    Generation: 1\n    IsExternal: false\n    AssociatedDisplayPort: <none>\n"
                   f"    HasMic:     false\n    Sources: {'TOUCHSCREEN' if touch else 'KEYBOARD'}\n")
        if touch:
            out.append("    Touch Input Mapper (mode - DIRECT):\n      Parameters:\n"
                       "        GestureMode: MULTI_TOUCH\n        DeviceType: TOUCH_SCREEN\n"
                       "        AssociatedDisplay: hasAssociatedDisplay=true, isExternal=false, displayId=''\n"
                       "        OrientationAware: true\n"
                       f"      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, "
                       f"orientation=0, logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], "
                       f"deviceSize=[{w}, {h}], isActive=[1]\n"
                       f"      DisplayBounds: {w}x{h}\n"
                       f"      PhysicalFrameInRotatedDisplay: [0, 0, {w}, {h}]\n"
                       "      InputDeviceOrientation: 0\n")
        else:
            out.append("    Keyboard Input Mapper:\n      Parameters:\n        OrientationAware: false\n"
                       "        HandlesKeyRepeat: false\n      KeyboardType: 1\n")
    focus_app = (f"ActivityRecord{{{record_token(package, activity)} u0 {short_component(package, activity)} "
                 f"t{task_id(package)}}}")
    out.append("\nInput Dispatcher State:\n  DispatchEnabled: true\n  DispatchFrozen: false\n"
               "  InputFilterEnabled: false\n  FocusedDisplayId: 0\n  FocusedApplications:\n"
               f"    displayId=0, name='{focus_app}', dispatchingTimeout=5000ms\n"
               "  FocusedWindows:\n"
               f"    displayId=0, name='{window_token(package, activity)} {package}/{activity}'\n"
               "  TouchStatesByDisplay: <no displays touched>\n"
               "  Display: 0\n    logicalFrame=[0, 0, {w}, {h}]\n".replace("{w}", str(w)).replace("{h}", str(h))
               + "  Connections:\n  AppSwitch: not pending\n  Configuration:\n"
               "    KeyRepeatDelay: 50ms\n    KeyRepeatTimeout: 400ms\n")
    inv.out("".join(out))
    return 0


DUMPSYS_HANDLERS[("input", "*")] = _dump_input


# -- pm list features --------------------------------------------------------------------------------
#: (name, version) the phone's system image declares (/system/etc/permissions, /vendor/etc/permissions of
#: an x86_64 Android 14 emulator image).
SYSTEM_FEATURES = [
    ("android.hardware.audio.output", 0), ("android.hardware.bluetooth", 0), ("android.hardware.bluetooth_le", 0),
    ("android.hardware.camera", 0), ("android.hardware.camera.any", 0), ("android.hardware.camera.autofocus", 0),
    ("android.hardware.camera.front", 0), ("android.hardware.faketouch", 0),
    ("android.hardware.fingerprint", 0), ("android.hardware.hardware_keystore", 300),
    ("android.hardware.identity_credential", 202301), ("android.hardware.location", 0),
    ("android.hardware.location.gps", 0), ("android.hardware.location.network", 0),
    ("android.hardware.microphone", 0), ("android.hardware.ram.normal", 0), ("android.hardware.reboot_escrow", 0),
    ("android.hardware.screen.landscape", 0), ("android.hardware.screen.portrait", 0),
    ("android.hardware.security.model.compatible", 0), ("android.hardware.sensor.accelerometer", 0),
    ("android.hardware.sensor.ambient_temperature", 0), ("android.hardware.sensor.compass", 0),
    ("android.hardware.sensor.gyroscope", 0), ("android.hardware.sensor.light", 0),
    ("android.hardware.sensor.proximity", 0), ("android.hardware.sensor.relative_humidity", 0),
    ("android.hardware.telephony", 0), ("android.hardware.telephony.calling", 0),
    ("android.hardware.telephony.data", 0), ("android.hardware.telephony.gsm", 0),
    ("android.hardware.telephony.messaging", 0), ("android.hardware.telephony.radio.access", 0),
    ("android.hardware.telephony.subscription", 0), ("android.hardware.touchscreen", 0),
    ("android.hardware.touchscreen.multitouch", 0), ("android.hardware.touchscreen.multitouch.distinct", 0),
    ("android.hardware.touchscreen.multitouch.jazzhand", 0), ("android.hardware.usb.accessory", 0),
    ("android.hardware.vulkan.compute", 0), ("android.hardware.vulkan.level", 1),
    ("android.hardware.vulkan.version", 4206592), ("android.hardware.wifi", 0),
    ("android.hardware.wifi.direct", 0), ("android.software.activities_on_secondary_displays", 0),
    ("android.software.app_widgets", 0), ("android.software.autofill", 0), ("android.software.backup", 0),
    ("android.software.cant_save_state", 0), ("android.software.companion_device_setup", 0),
    ("android.software.connectionservice", 0), ("android.software.credentials", 0),
    ("android.software.device_admin", 0), ("android.software.device_lock", 0),
    ("android.software.file_based_encryption", 0), ("android.software.home_screen", 0),
    ("android.software.incremental_delivery", 2), ("android.software.input_methods", 0),
    ("android.software.ipsec_tunnel_migration", 0), ("android.software.ipsec_tunnels", 0),
    ("android.software.live_wallpaper", 0), ("android.software.managed_users", 0),
    ("android.software.midi", 0), ("android.software.opengles.deqp.level", 132383489),
    ("android.software.picture_in_picture", 0), ("android.software.print", 0),
    ("android.software.secure_lock_screen", 0), ("android.software.securely_removes_users", 0),
    ("android.software.sip.voip", 0), ("android.software.verified_boot", 0),
    ("android.software.voice_recognizers", 0), ("android.software.vulkan.deqp.level", 132383489),
    ("android.software.webview", 0), ("android.software.window_magnification", 0),
]


def pm_list_features(inv: Invocation, args: list[str]) -> int:
    gl = int(inv.phone.props.get("ro.opengles.version", "196610"))
    inv.out(f"feature:reqGlEsVersion=0x{gl:x}\n")
    for name, version in sorted(SYSTEM_FEATURES):
        inv.out(f"feature:{name}={version}\n" if version > 0 else f"feature:{name}\n")
    return 0


# -- ime -------------------------------------------------------------------------------------------
@command("ime")
def _ime(inv: Invocation) -> int:
    args = list(inv.args)
    while "--user" in args:
        at = args.index("--user")
        del args[at:at + 2]
    phone = inv.phone
    verb = args[0] if args else ""
    available = input_methods.available(phone)
    ids = {ime.id: ime for ime in available}
    if verb == "list":
        flags = {a for a in args[1:] if a.startswith("-")}
        unknown = flags - {"-a", "-s"}
        if unknown:
            inv.err(f"Unknown option: {sorted(unknown)[0]}\n")
            return 255
        enabled = input_methods.enabled_ids(phone)
        shown = [ime for ime in available if "-a" in flags or ime.id in enabled]
        for ime in shown:
            inv.out(ime.id + "\n" if "-s" in flags else input_methods.describe(ime))
        return 0
    if verb in ("enable", "disable"):
        if len(args) < 2:
            raise UsageError("Error: no input method id specified", 255)
        status = 0
        for ime_id in args[1:]:
            if verb == "enable" and ime_id not in ids:
                inv.err(f"Unknown input method {ime_id} cannot be enabled for user #0\n")
                status = 255
                continue
            was = (input_methods.enable if verb == "enable" else input_methods.disable)(phone, ime_id)
            now = verb == "enable"
            inv.out(f"Input method {ime_id}: {'already ' if was == now else 'now '}"
                    f"{'enabled' if now else 'disabled'} for user #0\n")
        return status
    if verb == "set":
        if len(args) < 2:
            raise UsageError("Error: no input method id specified", 255)
        ime_id = args[1]
        if ime_id not in ids:
            inv.err(f"Unknown input method {ime_id} cannot be selected for user #0\n")
            return 255
        input_methods.select(phone, ime_id)
        inv.out(f"Input method {ime_id} selected for user #0\n")
        return 0
    if verb == "reset":
        default = input_methods.reset(phone)
        inv.out(f"Reset current and enabled IMEs for user #0\n  Selected: {default}\n   Enabled: {default}\n")
        return 0
    inv.out("ime <command>:\n  list [-a] [-s]\n    prints all enabled input methods.\n"
            "      -a: see all input methods\n      -s: only a single summary line of each\n"
            "  enable [--user <USER_ID>] <ID>\n    allows the given input method ID to be used.\n"
            "  disable [--user <USER_ID>] <ID>\n    disallows the given input method ID to be used.\n"
            "  set [--user <USER_ID>] <ID>\n    switches to the given input method ID.\n"
            "  reset [--user <USER_ID>]\n    reset currently selected/enabled IMEs to the default ones as if "
            "the device is initially booted with the current locale.\n")
    return 0 if verb in ("", "help", "-h") else 255


# -- meminfo -----------------------------------------------------------------------------------
#: ActivityThread's row formats (dumpMemInfoTable; the Rss column is Android 12+'s)
_HEAP_COLUMN = "%13s %8s %8s %8s %8s %8s %8s %8s %8s"
_TWO_COUNT_COLUMN_HEADER = "%21s %8s %21s %8s"
_TWO_COUNT_COLUMNS = "%21s %8d %21s %8d"
_ONE_COUNT_COLUMN = "%21s %8d"
_ONE_ALT_COUNT_COLUMN = "%21s %8s %21s %8d"
_THREE_COUNT_COLUMNS = "%21s %8d %21s %8s %24s %8d"
#: (label, share of the process's PSS in 1/1000, private dirty share, private clean share, rss factor)
_MEMINFO_ROWS = [("Dalvik Other", 60, 40, 0, 1.6), ("Stack", 20, 19, 0, 1.0), ("Ashmem", 2, 2, 0, 7.0),
                 ("Other dev", 1, 0, 1, 4.5), (".so mmap", 130, 1, 40, 3.0), (".jar mmap", 10, 0, 0, 20.0),
                 (".apk mmap", 60, 0, 30, 2.0), (".ttf mmap", 3, 0, 1, 4.0), (".dex mmap", 90, 0, 10, 3.0),
                 (".oat mmap", 2, 0, 0, 100.0), (".art mmap", 60, 50, 0, 2.5), ("Other mmap", 20, 1, 15, 1.5),
                 ("GL mtrack", 100, 100, 0, 1.0), ("Unknown", 40, 38, 0, 1.1)]


def _dump_meminfo(inv: Invocation, args: list[str]) -> int:
    """`dumpsys meminfo PACKAGE|PID`: one process's table (ActivityManagerService
    dumpApplicationMemoryUsage -> ActivityThread.dumpMemInfoTable), figures derived from its RSS."""
    wanted = [a for a in args if not a.startswith("-")]
    if not wanted:
        return 0  # the system-wide summary is not modelled: nothing, as an empty service prints
    target = wanted[0]
    procs = [p for p in processes(inv.phone) if p.cmdline and (p.cmdline == target or str(p.pid) == target)]
    if not procs:
        inv.out(f"No process found for: {target}\n")
        return 0
    proc = procs[0]
    clock = inv.phone.clock
    pss = proc.rss_kb * 45 // 100
    rows = [(label, pss * share // 1000, pss * dirty // 1000, pss * clean // 1000, int(pss * share // 1000 * rss))
            for label, share, dirty, clean, rss in _MEMINFO_ROWS]
    native = (pss * 150 // 1000, pss * 148 // 1000, 0, pss * 160 // 1000)
    dalvik = (pss * 80 // 1000, pss * 75 // 1000, 0, pss * 140 // 1000)
    native_heap = (native[0] * 2, native[0] * 3 // 2, native[0] // 2)
    dalvik_heap = (dalvik[0] * 2, dalvik[0], dalvik[0])
    total = [native[i] + dalvik[i] + sum(r[i + 1] for r in rows) for i in range(4)]
    lines = ["Applications Memory Usage (in Kilobytes):", f"Uptime: {clock.uptime_ms()} Realtime: {clock.elapsed_ms()}", "",
             f"** MEMINFO in pid {proc.pid} [{proc.cmdline}] **",
             _HEAP_COLUMN % ("", "Pss", "Private", "Private", "SwapPss", "Rss", "Heap", "Heap", "Heap"),
             _HEAP_COLUMN % ("", "Total", "Dirty", "Clean", "Dirty", "Total", "Size", "Alloc", "Free"),
             _HEAP_COLUMN % ("", *["------"] * 8),
             _HEAP_COLUMN % ("Native Heap", native[0], native[1], native[2], 0, native[3], *native_heap),
             _HEAP_COLUMN % ("Dalvik Heap", dalvik[0], dalvik[1], dalvik[2], 0, dalvik[3], *dalvik_heap)]
    lines += [_HEAP_COLUMN % (label, p, d, c, 0, r, "", "", "") for label, p, d, c, r in rows]
    lines.append(_HEAP_COLUMN % ("TOTAL", total[0], total[1], total[2], 0, total[3],
                                 native_heap[0] + dalvik_heap[0], native_heap[1] + dalvik_heap[1],
                                 native_heap[2] + dalvik_heap[2]))
    lines += [" ", " App Summary", _TWO_COUNT_COLUMN_HEADER % ("", "Pss(KB)", "", "Rss(KB)"),
              _TWO_COUNT_COLUMN_HEADER % ("", "------", "", "------"),
              _TWO_COUNT_COLUMNS % ("Java Heap:", dalvik[1] + rows[10][2], "", dalvik[3] + rows[10][4]),
              _TWO_COUNT_COLUMNS % ("Native Heap:", native[1], "", native[3]),
              _TWO_COUNT_COLUMNS % ("Code:", sum(r[2] + r[3] for r in rows[4:10]), "",
                                    sum(r[4] for r in rows[4:10])),
              _TWO_COUNT_COLUMNS % ("Stack:", rows[1][2], "", rows[1][4]),
              _TWO_COUNT_COLUMNS % ("Graphics:", rows[12][1], "", rows[12][4]),
              _ONE_COUNT_COLUMN % ("Private Other:", rows[0][2] + rows[11][2] + rows[11][3]),
              _ONE_COUNT_COLUMN % ("System:", total[0] // 3),
              _ONE_ALT_COUNT_COLUMN % ("Unknown:", "", "", rows[13][4]), " ",
              _THREE_COUNT_COLUMNS % ("TOTAL PSS:", total[0], "TOTAL RSS:", total[3], "TOTAL SWAP PSS:", 0)]
    inv.out("\n".join(lines) + "\n")
    return 0


DUMPSYS_HANDLERS[("meminfo", "*")] = _dump_meminfo

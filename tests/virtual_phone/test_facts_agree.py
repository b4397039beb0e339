"""One home per fact: every way Android offers to ask a package fact gives the same answer.

A real phone cannot contradict itself: `pm`, `cmd package`, `dumpsys`, `appops`, `am`, `ps`,
`pidof`, /proc, `uiautomator` and adb's sync service all read one PackageManager, one
ActivityManager, one WindowManager and one kernel.  This test asks each fact every way, for
EVERY package `pm list packages` lists, through the real adb server and adbutils only, and
reports every disagreement at once ("fact: way A says X, way B says Y").

Facts and the ways asked (output formats from AOSP, cited where parsed):

* installed: `pm list packages` (plain, -f, -U, --show-versioncode), `dumpsys package PKG`,
  `appops get PKG` (AppOpsService.Shell asks PackageManager.getPackageUid: "No UID" means
  PackageManager does not know the package);
* code path: `pm list packages -f`, `pm path`, dumpsys codePath, `stat` in the shell, adb
  sync STAT and `adb pull` (an APK on disk, a ZIP with an AndroidManifest.xml);
* version code: dumpsys versionCode, `pm list packages --show-versioncode`;
* uid: dumpsys userId/appId, `pm list packages -U`, `ps` USER, /proc/PID/status Uid,
  `dumpsys activity processes` ProcessRecord, `dumpsys window windows` mOwnerUid / Session;
* launcher: dumpsys' Activity Resolver Table (MAIN + LAUNCHER entries), `cmd package
  resolve-activity`, `am start -W -n` of what resolve-activity names, then `dumpsys activity
  activities` (resumed), `dumpsys window windows` (focus) and `uiautomator dump` (package);
* processes: `ps -A`, `pidof PKG`, /proc/PID/cmdline.

Shell commands are batched (many commands per `adb shell`, outputs split at markers) to keep
the test fast.  The test starts every launchable app on the session phone; at the end it goes
home and force-stops the packages it started.
"""

from __future__ import annotations

import io
import re
import time
import xml.etree.ElementTree as ET
import zipfile

import adbutils

MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
#: android.app.ResolverActivity's component: what resolveIntent answers when several activities match
RESOLVER = "android/com.android.internal.app.ResolverActivity"
UI_DUMP = "/data/local/tmp/facts_agree_window_dump.xml"

#: a batch marker: `echo` prints it before each command's output
_MARK = "@@facts-agree@@"
_MARK_LINE = re.compile(re.escape(_MARK) + r"(\d+)@@\n")
#: at most this many bytes of commands per `adb shell` (adb's v1 OPEN payload is 4096 bytes)
_BATCH_BYTES = 3500

#: android_filesystem_config.h (system/core/libcutils/include/private): the AIDs `ps` names
_AID = {"root": 0, "system": 1000, "radio": 1001, "bluetooth": 1002, "nfc": 1027,
        "network_stack": 1073, "shell": 2000}
#: FIRST_APPLICATION_UID .. LAST_APPLICATION_UID (android.os.Process)
_APP_UIDS = range(10000, 20000)


# -- running many commands in few round trips ----------------------------------------------------
def batch(device: adbutils.AdbDevice, commands: list[str]) -> list[str]:
    """Each command's output (stdout and stderr), in order, from as few `adb shell` calls as fit."""
    outputs: list[str] = []
    start = 0
    while start < len(commands):
        script, end = "", start
        while end < len(commands):
            piece = f"echo '{_MARK}{end}@@'; {commands[end]}; "
            if script and len(script) + len(piece) > _BATCH_BYTES:
                break
            script, end = script + piece, end + 1
        raw = device.shell(script, timeout=120, rstrip=False)
        parts = _MARK_LINE.split(raw)  # ['', '0', out0, '1', out1, ...]
        got = dict(zip(parts[1::2], parts[2::2]))
        outputs += [got.get(str(index), "") for index in range(start, end)]
        start = end
    return outputs


# -- parsing what Android prints -------------------------------------------------------------------
def full_component(component: str) -> str:
    """'pkg/.Cls' -> 'pkg/pkg.Cls' (ComponentName.flattenToShortString abbreviates so)."""
    package, _, cls = component.partition("/")
    return f"{package}/{package}{cls}" if cls.startswith(".") else component


def list_packages(output: str) -> dict[str, str]:
    """`pm list packages [-f|-U|--show-versioncode]`: package -> what follows it / precedes it.

    PackageManagerShellCommand.runListPackages prints "package:" [sourceDir "="] packageName
    [" versionCode:" N] [" uid:" N] per package (services/core/java/com/android/server/pm/
    PackageManagerShellCommand.java).  sourceDir may hold "=" (base64 padding), a package name may not.
    """
    found: dict[str, str] = {}
    for line in output.splitlines():
        if not line.startswith("package:"):
            continue
        body = line[len("package:"):]
        if "=" in body.split(" ", 1)[0]:      # -f: sourceDir=package
            path, _, name = body.rpartition("=")
            found[name] = path
        else:
            name, _, rest = body.partition(" ")
            found[name] = rest
    return found


def dump_field(dump: str, name: str) -> str | None:
    """The value of ``name=`` in a `dumpsys package PKG` entry (Settings.dumpPackageLPr)."""
    match = re.search(rf"^\s+{name}=(\S+)", dump, re.M)
    return match.group(1) if match else None


def dump_uid(dump: str) -> int | None:
    # Settings.dumpPackageLPr prints "userId=" up to Android 13 and "appId=" from Android 14 on
    match = re.search(r"^\s+(?:userId|appId)=(\d+)", dump, re.M)
    return int(match.group(1)) if match else None


def dump_launchers(dump: str) -> list[str]:
    """The components the dump's Activity Resolver Table lists under MAIN with category LAUNCHER.

    ComponentResolver.ActivityIntentResolver.dumpFilter prints "<hash> <pkg/.Cls> filter <hash>"
    under each action of "Non-Data Actions:", then the filter's Action:/Category: lines.
    """
    lines = dump.splitlines()
    if "Activity Resolver Table:" not in lines:
        return []
    found: list[str] = []
    action, component = None, None
    for line in lines[lines.index("Activity Resolver Table:") + 1:]:
        if line and not line.startswith(" "):
            break  # the next table
        stripped = line.strip()
        entry = re.fullmatch(r"[0-9a-f]+ (\S+/\S+) filter [0-9a-f]+", stripped)
        if entry:
            component = entry.group(1)
        elif re.fullmatch(r"[\w.]+:", stripped) and len(line) - len(line.lstrip()) == 6:
            action, component = stripped[:-1], None
        elif stripped == f'Category: "{LAUNCHER}"' and action == MAIN and component:
            if full_component(component) not in found:
                found.append(full_component(component))
    return found


def resolved(output: str) -> str | None:
    """`cmd package resolve-activity --brief`: the component, or None for "No activity found".

    PackageManagerShellCommand.runResolveActivity (frameworks/base services/core/java/com/android/
    server/pm/PackageManagerShellCommand.java) prints "No activity found", or printResolveInfo's
    brief form: a "priority=... isDefault=..." line, then ComponentName.flattenToShortString()
    (without --brief, ResolveInfo.dump's multi-line ActivityInfo).
    """
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    if not lines or lines[-1] == "No activity found" or "/" not in lines[-1]:
        return None
    return full_component(lines[-1])


def ps_rows(output: str) -> list[tuple[str, int, str]]:
    """`ps -A -o USER,PID,NAME` (toybox toys/posix/ps.c: USER is getpwuid's name of the euid, NAME
    argv[0]'s basename): (user, pid, name) per process."""
    rows = []
    for line in output.splitlines()[1:]:
        fields = line.split(None, 2)
        if len(fields) == 3 and fields[1].isdigit():
            rows.append((fields[0], int(fields[1]), fields[2].strip()))
    return rows


def uid_of_user(user: str) -> int | None:
    """What a `ps` USER name stands for: bionic names app uids u<user>_a<appId - 10000>."""
    match = re.fullmatch(r"u(\d+)_a(\d+)", user)
    if match:
        return int(match.group(1)) * 100000 + 10000 + int(match.group(2))
    if user.isdigit():
        return int(user)
    return _AID.get(user)


def uid_of_short(text: str) -> int | None:
    """A uid as ProcessRecord.toShortString (services/core/java/com/android/server/am/ProcessRecord.java)
    prints it: u<userId>a<appId - FIRST_APPLICATION_UID>, so u0a238 = 10238; a system uid as a number."""
    match = re.fullmatch(r"u(\d+)a(\d+)", text)
    if match:
        return int(match.group(1)) * 100000 + 10000 + int(match.group(2))
    return int(text) if text.isdigit() else None


def session_uid(text: str) -> int | None:
    """WindowManager's Session{hash PID:u0a10238}: userId, then the whole appId (the constructor of
    services/core/java/com/android/server/wm/Session.java builds mStringName so)."""
    match = re.fullmatch(r"u(\d+)a(\d+)", text)
    if match:
        return int(match.group(1)) * 100000 + int(match.group(2))
    return int(text) if text.isdigit() else None


#: ActivityRecord.toString (services/core/java/com/android/server/wm/ActivityRecord.java):
#: "ActivityRecord{<hash> u<user> <pkg/.Cls> t<task>[ f]}"
_RECORD = re.compile(r"ActivityRecord\{[0-9a-f]+ u\d+ ([^/\s]+)/(\S+) t(-?\d+)")


def resumed(activities: str) -> tuple[str, int] | None:
    """(package, task id) of the resumed activity in `dumpsys activity activities`."""
    match = re.search(r"ResumedActivity: " + _RECORD.pattern, activities)
    return (match.group(1), int(match.group(3))) if match else None


def window_focus(windows: str) -> tuple[str | None, str | None]:
    """The packages of mCurrentFocus (WindowState.toString: Window{hash u0 <title>}) and mFocusedApp."""
    focus = re.search(r"mCurrentFocus=Window\{[0-9a-f]+ u\d+ ([^/\s}]+)", windows)
    app = re.search(r"mFocusedApp=" + _RECORD.pattern, windows)
    return (focus.group(1) if focus else None, app.group(1) if app else None)


def windows_of(windows: str) -> list[tuple[str, int | None, str | None, int, str]]:
    """(title, session pid, session uid as printed, owner uid, package) per window of `dumpsys window windows`.

    WindowState.dump (services/core/java/com/android/server/wm/WindowState.java) prints
    "mSession=Session{hash PID:UID}" and "mOwnerUid=U showForAllUsers=... package=PKG appop=..."
    under each "Window #N Window{...}:" line.
    """
    found = []
    for block in re.split(r"\n  Window #\d+ ", windows)[1:]:
        title = block.split("\n", 1)[0]
        session = re.search(r"mSession=Session\{[0-9a-f]+ (\d+):(\w+)\}", block)
        owner = re.search(r"mOwnerUid=(\d+) .*?package=(\S*)", block)
        if owner is None:
            continue
        found.append((title, int(session.group(1)) if session else None, session.group(2) if session else None,
                      int(owner.group(1)), owner.group(2)))
    return found


def ui_dump_package(xml: str) -> str | None:
    """The package attribute of the first node of a `uiautomator dump` (DumpCommand dumps
    getRootInActiveWindow(): the focused window's root comes first)."""
    start = xml.find("<?xml")
    if start < 0:
        return None
    try:
        root = ET.fromstring(xml[start:xml.rfind("</hierarchy>") + len("</hierarchy>")])
    except ET.ParseError:
        return None
    node = root.find("node")
    return node.get("package") if node is not None else None


# -- the test -----------------------------------------------------------------------------------
def test_every_way_of_asking_a_package_fact_agrees(phone, adb_device, tmp_path):
    began = time.monotonic()
    device = adb_device
    problems: list[str] = []

    def disagree(fact: str, way_a: str, says_a, way_b: str, says_b) -> None:
        problems.append(f"{fact}: {way_a} says {says_a!r}, {way_b} says {says_b!r}")

    # 1. the package lists, and what runs before the test starts anything
    plain, with_path, with_uid, with_version, ps_before = batch(device, [
        "pm list packages 2>&1", "pm list packages -f 2>&1", "pm list packages -U 2>&1",
        "pm list packages --show-versioncode 2>&1", "ps -A -o USER,PID,NAME 2>&1"])
    packages = sorted(list_packages(plain))
    assert packages, f"`pm list packages` lists nothing: {plain!r}"
    paths, uid_words, versions = list_packages(with_path), list_packages(with_uid), list_packages(with_version)
    for way, listed in (("pm list packages -f", paths), ("pm list packages -U", uid_words),
                        ("pm list packages --show-versioncode", versions)):
        if sorted(listed) != packages:
            disagree("installed packages", "pm list packages", packages, way, sorted(listed))
    running_before = {name for _user, _pid, name in ps_rows(ps_before)}

    # 2. per package: dumpsys, pm path, resolve-activity, appops, and the shell's stat of the APK
    per_package = batch(device, [command for package in packages for command in (
        f"dumpsys package {package} 2>&1", f"pm path {package} 2>&1",
        f"cmd package resolve-activity --brief -a {MAIN} -c {LAUNCHER} {package} 2>&1",
        f"appops get {package} 2>&1", f"stat -c %s {paths.get(package) or '/nonexistent'} 2>&1")])
    uid: dict[str, int] = {}
    launchable: list[tuple[str, str | None, list[str]]] = []  # (package, resolved, dumpsys' launchers)
    for index, package in enumerate(packages):
        dump, path_out, resolve_out, appops_out, stat_out = per_package[index * 5:index * 5 + 5]
        # installed?
        if f"Package [{package}]" not in dump:
            disagree(f"installed {package}", "pm list packages", "installed", f"dumpsys package {package}",
                     dump.strip().splitlines()[0] if dump.strip() else "(nothing)")
        if "No UID" in appops_out:
            disagree(f"uid of {package}", "pm list packages", "installed", f"appops get {package}",
                     appops_out.strip())
        # uid
        dumped_uid = dump_uid(dump)
        listed_uid = re.search(r"uid:(\d+)", uid_words.get(package, ""))
        listed_uid = int(listed_uid.group(1)) if listed_uid else None
        if dumped_uid != listed_uid:
            disagree(f"uid of {package}", "dumpsys package userId/appId", dumped_uid, "pm list packages -U",
                     uid_words.get(package, "").strip() or None)
        if dumped_uid is not None or listed_uid is not None:
            uid[package] = dumped_uid if dumped_uid is not None else listed_uid
        # version code
        dumped_version = re.search(r"^\s+versionCode=(\d+)", dump, re.M)
        listed_version = re.search(r"versionCode:(\d+)", versions.get(package, ""))
        if (dumped_version and dumped_version.group(1)) != (listed_version and listed_version.group(1)):
            disagree(f"versionCode of {package}", "dumpsys package", dumped_version and dumped_version.group(1),
                     "pm list packages --show-versioncode", listed_version and listed_version.group(1))
        # code path: pm path's sourceDir is the codePath (a file) or lies in it (a directory)
        pm_path = path_out.strip().splitlines()[0][len("package:"):] if path_out.startswith("package:") else None
        if pm_path != paths.get(package):
            disagree(f"APK of {package}", "pm path", pm_path, "pm list packages -f", paths.get(package))
        code_path = dump_field(dump, "codePath")
        if pm_path and code_path and not (pm_path == code_path or pm_path.startswith(code_path + "/")):
            disagree(f"APK of {package}", "pm path", pm_path, "dumpsys package codePath", code_path)
        if pm_path:
            check_apk(device, package, pm_path, stat_out.strip(), tmp_path, disagree)
        # launcher
        activity = resolved(resolve_out)
        launchers = dump_launchers(dump)
        if activity == RESOLVER:
            if len(launchers) < 2:
                disagree(f"launcher of {package}", "cmd package resolve-activity", "several (ResolverActivity)",
                         "dumpsys package's Activity Resolver Table", launchers)
        elif activity is not None and activity not in launchers:
            disagree(f"launcher of {package}", "cmd package resolve-activity", activity,
                     "dumpsys package's Activity Resolver Table (MAIN/LAUNCHER)", launchers)
        if (activity is not None and activity != RESOLVER) or launchers:
            launchable.append((package, None if activity == RESOLVER else activity, launchers))

    # 3. start what resolve-activity names; then the foreground, asked four ways
    # every launchable package is started (or tried): the clean-up stops those that did not run before
    started = [package for package, _activity, _launchers in launchable]
    try:
        starts: list[str] = []
        for package, activity, launchers in launchable:
            if activity is not None:
                starts += [f"am start -W -n {activity} 2>&1", "dumpsys activity activities 2>&1",
                           "dumpsys window windows 2>&1",
                           f"uiautomator dump {UI_DUMP} >/dev/null 2>&1; cat {UI_DUMP} 2>&1; rm -f {UI_DUMP}"]
            else:  # resolve-activity finds none: then no launcher dumpsys lists may start
                starts += [f"am start -W -n {component} 2>&1" for component in launchers]
        outputs = iter(batch(device, starts))
        for package, activity, launchers in launchable:
            if activity is None:
                for component in launchers:
                    out = next(outputs)
                    if "Status: ok" in out:
                        disagree(f"launcher of {package}", "cmd package resolve-activity", "No activity found",
                                 f"am start -n {component} (dumpsys' MAIN/LAUNCHER entry)", "Status: ok")
                continue
            out, activities, windows, ui = (next(outputs) for _ in range(4))
            check_foreground(package, activity, out, activities, windows, ui, disagree)

        # 4. processes and windows, now that many apps run
        ps_out, processes_out, windows_out, *pidofs = batch(device, [
            "ps -A -o USER,PID,NAME 2>&1", "dumpsys activity processes 2>&1", "dumpsys window windows 2>&1",
            *(f"pidof {package}" for package in packages)])
        rows = ps_rows(ps_out)
        by_pid = {pid: (user, name) for user, pid, name in rows}
        app_pids = {package: sorted(int(p) for p in out.split() if p.isdigit())
                    for package, out in zip(packages, pidofs)}
        for package in packages:
            ps_pids = sorted(pid for _user, pid, name in rows if name == package)
            if ps_pids != app_pids[package]:
                disagree(f"processes of {package}", "ps -A", ps_pids, f"pidof {package}", app_pids[package])
        # every process running as an app uid belongs to a package with that uid
        uids = set(uid.values())
        for user, pid, name in rows:
            process_uid = uid_of_user(user)
            if process_uid in _APP_UIDS and process_uid not in uids:
                disagree(f"owner of process {pid} ({name})", "ps -A", f"runs as {user} ({process_uid})",
                         "pm list packages -U / dumpsys package", "no installed package has that uid")
        check_processes(packages, uid, rows, by_pid, app_pids, device, disagree)
        check_process_records(processes_out, packages, uid, by_pid, paths, disagree)
        check_windows(windows_out, packages, uid, by_pid, disagree)
    finally:
        # leave the shared phone as found: home in front, the apps this test started stopped
        stop = [f"am force-stop {package}" for package in started if package not in running_before]
        batch(device, [f"am start -a {MAIN} -c android.intent.category.HOME >/dev/null 2>&1", *stop])

    elapsed = time.monotonic() - began
    print(f"test_facts_agree: {len(packages)} packages, {len(launchable)} launchable, {elapsed:.1f} s")
    assert not problems, (f"{len(problems)} disagreements among {len(packages)} packages:\n  "
                          + "\n  ".join(problems))


def check_apk(device, package: str, path: str, shell_size: str, tmp_path, disagree) -> None:
    """`adb pull` of the path pm names gives the APK: a ZIP holding AndroidManifest.xml, of the size
    adb's sync STAT and the shell's `stat` give (a preinstalled app's APK lies on /system, /product
    or /data/app; every one is readable by the shell user)."""
    info = device.sync.stat(path)
    if not shell_size.isdigit():
        disagree(f"APK of {package}", "pm path", path, "stat -c %s (that path)", shell_size.rsplit(": ", 1)[-1])
    elif int(shell_size) != info.size:
        disagree(f"size of {path}", f"stat -c %s {path}", int(shell_size), "adb sync STAT", info.size)
    target = tmp_path / f"{package}.apk"
    try:
        size = device.sync.pull_file(path, target)
    except adbutils.AdbError as exc:
        disagree(f"APK of {package}", "pm path", path, "adb pull (that path)", f"fails: {exc.args[0]}")
        return
    data = target.read_bytes()
    if size != info.size:
        disagree(f"size of {path}", "adb pull", size, "adb sync STAT", info.size)
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except zipfile.BadZipFile:
        names = None
    if not names or "AndroidManifest.xml" not in names:
        disagree(f"APK of {package}", "pm path", f"{path} is its APK", "adb pull (that path)",
                 f"{len(data)} bytes, not a ZIP with AndroidManifest.xml ({data[:16]!r})")


def check_foreground(package: str, activity: str, out: str, activities: str, windows: str, ui: str,
                     disagree) -> None:
    """After `am start -W -n ACTIVITY`: it started an activity of the package, and every way of
    asking names one foreground: the package, or an activity it started into its task (a
    permission dialog of the PermissionController)."""
    if "Status: ok" not in out:
        disagree(f"launcher of {package}", "cmd package resolve-activity", activity,
                 f"am start -n {activity}", " / ".join(out.strip().splitlines()[:2]))
        return
    # ActivityManagerShellCommand.runStartActivity with -W prints "Status: ok", "LaunchState: ...",
    # then "Activity: " + the launched activity's flattenToShortString()
    launched = re.search(r"^Activity: ([^/\s]+)/", out, re.M)
    top = resumed(activities)
    focus, focused_app = window_focus(windows)
    answers = {"dumpsys activity activities (ResumedActivity)": top[0] if top else None,
               "dumpsys window (mCurrentFocus)": focus, "dumpsys window (mFocusedApp)": focused_app,
               "uiautomator dump (package)": ui_dump_package(ui)}
    first_way = "dumpsys activity activities (ResumedActivity)"
    if top is None:
        disagree(f"foreground after am start -n {activity}", f"am start -W -n {activity}", "Status: ok",
                 "dumpsys activity activities", "no ResumedActivity")
    for way, answer in answers.items():
        if answer != answers[first_way]:
            disagree(f"foreground after am start -n {activity}", first_way, answers[first_way], way, answer)
    if top is None:
        return
    in_task = {record.group(1) for record in _RECORD.finditer(activities) if int(record.group(3)) == top[1]}
    if top[0] != package and package not in in_task:
        disagree(f"foreground after am start -n {activity}", "am start", f"started {package}",
                 "dumpsys activity activities", f"resumed {top[0]} in task {top[1]} holding {sorted(in_task)}")
    # what -W reports launched: the package's activity, or the one it put on top of its task
    if launched is None or launched.group(1) not in {package, top[0]}:
        disagree(f"launcher of {package}", "cmd package resolve-activity", activity,
                 f"am start -W -n {activity} (Activity:)", launched.group(0) if launched else None)


def check_processes(packages, uid, rows, by_pid, app_pids, device, disagree) -> None:
    """A running package's processes: ps USER, /proc/PID/status Uid and /proc/PID/cmdline agree with
    PackageManager's uid and the package name (toybox ps/pidof read /proc; zygote sets argv[0])."""
    pids = [(package, pid) for package in packages for pid in app_pids[package]]
    outputs = batch(device, [command for _package, pid in pids for command in (
        f"cat /proc/{pid}/status 2>&1", f"cat /proc/{pid}/cmdline 2>&1")])
    for index, (package, pid) in enumerate(pids):
        status, cmdline = outputs[index * 2:index * 2 + 2]
        expected = uid.get(package)
        user = by_pid.get(pid, ("?", ""))[0]
        if uid_of_user(user) != expected:
            disagree(f"uid of {package}", "dumpsys package / pm list packages -U", expected,
                     f"ps -A (pid {pid})", user)
        line = re.search(r"^Uid:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", status, re.M)
        if line is None or {int(value) for value in line.groups()} != {expected}:
            disagree(f"uid of {package}", "dumpsys package / pm list packages -U", expected,
                     f"/proc/{pid}/status", line.group(0) if line else status.strip()[:80])
        argv0 = cmdline.split("\0", 1)[0]
        if argv0 != package:
            disagree(f"process {pid}", f"pidof {package}", package, f"/proc/{pid}/cmdline", argv0)


def check_process_records(processes_out: str, packages, uid, by_pid, paths, disagree) -> None:
    """`dumpsys activity processes`: each "*APP* UID N ProcessRecord{hash PID:NAME/u0aN}"
    (ProcessRecord.toShortString) names a process ps shows; ProcessRecord.dump's "packageList={...}"
    names installed packages of that uid, and its "dir=" their APK."""
    unlisted: list[int] = []
    for block in re.split(r"\n\s+\*(?:APP|PERS)\* ", processes_out)[1:]:
        record = re.search(r"ProcessRecord\{[0-9a-f]+ (\d+):([^/\s]+)/(\w+)\}", block)
        if record is None:
            continue
        pid, name, record_uid = int(record.group(1)), record.group(2), uid_of_short(record.group(3))
        user, ps_name = by_pid.get(pid, (None, None))
        if ps_name != name:
            disagree(f"process {pid}", "dumpsys activity processes", name, "ps -A", ps_name)
        elif uid_of_user(user) != record_uid:
            disagree(f"uid of process {pid} ({name})", "dumpsys activity processes", record.group(3), "ps -A", user)
        listed = re.search(r"packageList=\{([^}]*)\}", block)
        if listed is None:
            unlisted.append(pid)
            continue
        source_dir = re.search(r"\bdir=(\S+)", block)
        for package in (p.strip() for p in listed.group(1).split(",") if p.strip()):
            if package not in packages:
                disagree(f"installed {package}", "dumpsys activity processes (packageList)", f"runs in pid {pid}",
                         "pm list packages", "not installed")
                continue
            if uid.get(package) != record_uid:
                disagree(f"uid of {package}", "dumpsys package / pm list packages -U", uid.get(package),
                         f"dumpsys activity processes (pid {pid})", record.group(3))
            if package == name and source_dir and source_dir.group(1) != paths.get(package):
                disagree(f"APK of {package}", "pm list packages -f", paths.get(package),
                         f"dumpsys activity processes (pid {pid}) dir=", source_dir.group(1))
    if unlisted:
        disagree("packages of running processes", "ps -A", f"{len(unlisted)} app processes run (pids {unlisted})",
                 "dumpsys activity processes", "no packageList={...} for them (ProcessRecord.dump prints one each)")


def check_windows(windows_out: str, packages, uid, by_pid, disagree) -> None:
    """Every window of `dumpsys window windows` belongs to an installed package; its mOwnerUid is that
    package's uid, and its Session (the binder caller that added it) is a process running as that uid."""
    for title, session_pid, session_text, owner_uid, package in windows_of(windows_out):
        name = re.search(r"u\d+ (\S+?)\}", title)
        where = f"dumpsys window windows ({name.group(1).rsplit('.', 1)[-1] if name else title})"
        if package not in packages:
            disagree(f"installed {package}", where, "owns a window", "pm list packages", "not installed")
        elif uid.get(package) != owner_uid:
            disagree(f"uid of {package}", "dumpsys package / pm list packages -U", uid.get(package),
                     f"{where} mOwnerUid", owner_uid)
        if session_text is None or session_uid(session_text) != owner_uid:
            disagree(f"window owner of {package}", f"{where} mOwnerUid", owner_uid, f"{where} mSession",
                     session_text)
        user = by_pid.get(session_pid, (None, None))[0]
        if session_pid is None or user is None or uid_of_user(user) != session_uid(session_text or ""):
            disagree(f"window session of {package}", f"{where} mSession", f"pid {session_pid}:{session_text}",
                     "ps -A", f"pid {session_pid} runs as {user}" if user else f"no process {session_pid}")

"""`bugreport` and `bugreportz` (frameworks/native/cmds/bugreport, cmds/bugreportz) over dumpstate's report.

dumpstate (frameworks/native/cmds/dumpstate/dumpstate.cpp) writes a text report: the header
PrintHeader() prints (build, fingerprint, kernel, format version 2.0), then each section as
RunCommand() frames it ("------ TITLE (COMMAND) ------" ... "------ 0.000s was the duration of
'TITLE' ------"), the dumpsys services as "DUMP OF SERVICE NAME:". Its sections here are the
phone's own facts, from the same commands a shell runs: properties (getprop), processes
(ps -A), the logs (logcat -d) and every service dumpsys lists.

`bugreport` prints the deprecation banner to stderr, then streams that text (bugreport.cpp).
`bugreportz` zips it under /bugreports as dumpstate names it (bugreport-PRODUCT-BUILD-DATE.zip,
with main_entry.txt and version.txt) and prints only "OK:PATH" (bugreportz.cpp write_line()
drops BEGIN: and PROGRESS: lines unless -p); -p shows "BEGIN:PATH" and "PROGRESS:N/M" first,
-s streams the zip, -v prints the version (1.2) and -h the usage, both to stderr.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile

from .interpreter import Invocation, ShellSession, command

__all__ = ["dumpstate_text"]

#: where dumpstate writes (Android 11+: /bugreports links to the shell app's files/bugreports)
BUGREPORT_DIR = "/bugreports"
_BANNER = ("=============================================================================\n"
           "WARNING: Flat (text file, non-zipped) bugreports are deprecated.\n"
           "WARNING: Please generate zipped bugreports instead.\n"
           "WARNING: On the host use: adb bugreport filename.zip\n"
           "WARNING: On the device use: bugreportz\n"
           "WARNING: bugreportz will output the filename to use with adb pull.\n"
           "=============================================================================\n\n\n")
_BUGREPORTZ_USAGE = ("usage: bugreportz [-hpsv]\n"
                     "  -h: to display this help message\n"
                     "  -p: display progress\n"
                     "  -s: stream zipped data\n"
                     "  -v: to display the version\n"
                     "  or no arguments to generate a zipped bugreport\n")
#: dumpstate's sections: (title, command line), in its order (DumpstateDefault / dumpstate_board)
_SECTIONS = [("SYSTEM PROPERTIES", "getprop"),
             ("PROCESSES AND THREADS", "ps -A"),
             ("SYSTEM LOG", "logcat -v threadtime -v printable -v uid -d *:v"),
             ("EVENT LOG", "logcat -b events -v threadtime -v printable -v uid -d *:v")]
_RULE = "-" * 79 + "\n"


def _now(inv: Invocation) -> dt.datetime:
    return dt.datetime.fromtimestamp(inv.phone.clock_ms() / 1000, dt.timezone.utc)


def dumpstate_text(inv: Invocation) -> str:
    """The report dumpstate writes, from the phone's facts as its commands print them."""
    props = inv.phone.props
    shell = ShellSession(inv.phone)  # dumpstate runs its commands as a process of its own

    def run(line: str) -> str:
        result = shell.run(line)
        return (result.stdout + result.stderr).decode("utf-8", "replace")

    cmdline = run("cat /proc/cmdline").split("\n")[0]
    out = ["========================================================\n",
           f"== dumpstate: {_now(inv):%Y-%m-%d %H:%M:%S}\n",
           "========================================================\n\n",
           f"Build: {props.get('ro.build.display.id', '(unknown)')}\n",
           f"Build fingerprint: '{props.get('ro.build.fingerprint', '(unknown)')}'\n",
           f"Bootloader: {props.get('ro.bootloader') or '(unknown)'}\n",
           f"Radio: {props.get('gsm.version.baseband') or '(unknown)'}\n",
           f"Network: {props.get('gsm.operator.alpha') or '(unknown)'}\n",
           f"Android SDK version: {props.get('ro.build.version.sdk', '(unknown)')}\n",
           "Kernel: " + run("cat /proc/version"),
           f"Command line: {cmdline}\n",
           "Bugreport format version: 2.0\n",
           f"Dumpstate info: id=1 pid={inv.phone.shell_pid + 2} dry_run=0 parallel_run=1 args=-SR "
           "bugreport_mode=BUGREPORT_DEFAULT\n\n"]
    for title, line in _SECTIONS:
        out += [f"------ {title} ({line}) ------\n", run(line),
                f"------ 0.000s was the duration of '{title}' ------\n"]
    services = [s.strip() for s in run("dumpsys -l").splitlines()[1:] if s.strip()]
    out.append(f"------ DUMPSYS (/system/bin/dumpsys) ------\n")
    for name in services:
        out += [_RULE, f"DUMP OF SERVICE {name}:\n", run(f"dumpsys {name}"),
                f"--------- 0.000s was the duration of dumpsys {name}, ending at: "
                f"{_now(inv):%Y-%m-%d %H:%M:%S}\n"]
    out.append(f"------ 0.000s was the duration of 'DUMPSYS' ------\n")
    return "".join(out)


def _zip(inv: Invocation, base: str) -> bytes:
    """dumpstate's zip: the report as BASE.txt, main_entry.txt naming it, version.txt."""
    buffer = io.BytesIO()
    stamp = _now(inv).timetuple()[:6]
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in ((f"{base}.txt", dumpstate_text(inv)), ("main_entry.txt", f"{base}.txt"),
                           ("version.txt", "2.0")):
            archive.writestr(zipfile.ZipInfo(name, stamp), text)
    return buffer.getvalue()


@command("bugreport")
def _bugreport(inv: Invocation) -> int:
    inv.err(_BANNER)
    if inv.args:
        inv.err("usage: bugreport\n")
        return 1
    inv.out(dumpstate_text(inv))
    return 0


@command("bugreportz")
def _bugreportz(inv: Invocation) -> int:
    progress = stream = False
    for arg in inv.args:  # getopt(argc, argv, "hpsv")
        if not arg.startswith("-") or arg == "-":
            inv.err(_BUGREPORTZ_USAGE)  # "We don't support any non-option arguments."
            return 1
        for flag in arg[1:]:
            if flag == "h":
                inv.err(_BUGREPORTZ_USAGE)
                return 0
            if flag == "v":
                inv.err("1.2\n")
                return 0
            if flag not in "ps":
                # bionic's getopt (OpenBSD getopt_long.c): "unknown option -- %c"
                inv.err(f"bugreportz: unknown option -- {flag}\n" + _BUGREPORTZ_USAGE)
                return 1
            progress, stream = progress or flag == "p", stream or flag == "s"
    props = inv.phone.props
    base = (f"bugreport-{props.get('ro.product.name', 'UNKNOWN_DEVICE')}-{props.get('ro.build.id', 'UNKNOWN_BUILD')}"
            f"-{_now(inv):%Y-%m-%d-%H-%M-%S}")
    data = _zip(inv, base)
    if stream:
        inv.out(data)
        return 0
    path = f"{BUGREPORT_DIR}/{base}.zip"
    inv.fs.write_file(path, data)
    if progress:
        inv.out(f"BEGIN:{path}\n")
        for done in (25, 50, 75, 100):
            inv.out(f"PROGRESS:{done}/100\n")
    inv.out(f"OK:{path}\n")
    return 0

"""The phone's processes and the kernel files that describe them (/proc, /sys).

An Android 14 phone runs a fixed set of native daemons and system apps (init,
zygote, system_server, SystemUI, the keyboard...), plus the app processes
that ActivityManager started: here, the packages with an activity on the
stack or a bound service (an enabled accessibility service, the current
input method).  `ps`, `pidof` and /proc/PID/* all read this one table.

The /proc files are rendered in the kernel's formats (fs/proc/array.c
`do_task_stat`, fs/proc/meminfo.c, fs/proc/stat.c, arch/x86 cpuinfo), with
CPU times derived from the phone's clock (clock.py) so they only move forward.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable

from .context import PhoneContext
from .storage import proc_mounts

__all__ = ["CPU_COUNT", "EXTRA_PROCESSES", "Process", "RUNNING_PACKAGE_SOURCES", "adbd_label", "adbd_uid",
           "install_proc", "processes", "user_name"]

CPU_COUNT = 4
#: USER_HZ: the unit of /proc times (jiffies as the kernel reports them).
CLOCK_TICKS = 100
MEM_TOTAL_KB = 4_027_036

#: Android's fixed uids (system/core/libcutils/include/private/android_filesystem_config.h).
_AID_NAMES = {0: "root", 1000: "system", 1001: "radio", 1002: "bluetooth", 1003: "graphics", 1004: "input",
              1005: "audio", 1006: "camera", 1007: "log", 1010: "wifi", 1013: "media", 1017: "keystore",
              1019: "drm", 1036: "logd", 1041: "audioserver", 1046: "mediacodec", 1047: "cameraserver",
              1066: "statsd", 1068: "secure_element", 1069: "lmkd", 1072: "gpu_service",
              1073: "network_stack", 2000: "shell", 9999: "nobody"}


@dataclass(frozen=True)
class Process:
    pid: int
    ppid: int
    uid: int
    #: argv[0] (what ps NAME shows; "" for a kernel thread)
    cmdline: str
    #: the kernel's 15-character task name (/proc/PID/stat field 2)
    comm: str
    vsz_kb: int = 0
    rss_kb: int = 0
    wchan: str = "do_epoll_wait"
    state: str = "S"
    label: str = "u:r:kernel:s0"
    start_ticks: int = 0
    #: the arguments after argv[0]
    args: tuple[str, ...] = ()


def user_name(uid: int) -> str:
    """What bionic's getpwuid() names a uid: AID names, `u0_aN` for apps."""
    if uid in _AID_NAMES:
        return _AID_NAMES[uid]
    if 10000 <= uid < 20000:
        return f"u0_a{uid - 10000}"
    return str(uid)


def adbd_uid(phone: "PhoneContext") -> int:
    """The uid adbd runs as, and so every shell it starts: 0 after `adb root`, else shell (2000).

    packages/modules/adb daemon/main.cpp should_drop_privileges(): privileges are dropped when
    ro.secure is set, except on a debuggable build whose service.adb.root is "1"; "0" (`adb
    unroot`) drops them again. adbd reads this when it starts, and the root:/unroot: services
    (adbd/restart_service.py) restart it right after setting the property, as init does on
    `on property:service.adb.root=1 / restart adbd`; so reading it now gives the running adbd's uid.
    """
    props = phone.props
    drop = props.get("ro.secure", "1") not in ("0", "false")
    root = props.get("service.adb.root", "")
    if props.get("ro.debuggable") == "1" and root == "1":
        drop = False
    if root == "0":
        drop = True
    return 2000 if drop else 0


def adbd_label(phone: "PhoneContext") -> str:
    """The SELinux domain of adbd's shells: adbd.rc starts adbd with --root_seclabel=u:r:su:s0, which
    it takes when it keeps root (main.cpp drop_privileges); shells of an unprivileged adbd run in
    u:r:shell:s0."""
    return "u:r:su:s0" if adbd_uid(phone) == 0 else "u:r:shell:s0"


# (pid, ppid, uid, cmdline, vsz kB, rss kB, wchan, selinux domain). Kernel threads have no cmdline.
# An app process (SystemUI, MediaProvider) has uid None: it runs as its package's uid, which the
# phone's package manager gave it (`phone.process_uid`); the kernel only records it.
_SYSTEM = [
    (1, 0, 0, "/system/bin/init", 10_904_776, 11_780, "do_epoll_wait", "init"),
    (125, 1, 0, "/system/bin/ueventd", 10_824_364, 3_512, "do_epoll_wait", "ueventd"),
    (139, 1, 1036, "/system/bin/logd", 10_873_572, 5_892, "__do_sys_rt_sigsuspend", "logd"),
    (140, 1, 1000, "/system/bin/servicemanager", 10_853_412, 4_788, "do_epoll_wait", "servicemanager"),
    (141, 1, 1000, "/system/bin/hwservicemanager", 10_893_348, 5_240, "do_epoll_wait", "hwservicemanager"),
    (160, 1, 0, "/system/bin/vold", 10_967_560, 8_304, "do_epoll_wait", "vold"),
    (255, 1, 1069, "/system/bin/lmkd", 10_827_440, 3_216, "do_epoll_wait", "lmkd"),
    (260, 1, 1000, "/system/bin/surfaceflinger", 11_264_820, 27_412, "do_epoll_wait", "surfaceflinger"),
    (290, 1, 0, "zygote64", 15_233_812, 158_916, "do_sys_poll", "zygote"),
    (291, 1, 0, "zygote", 1_706_188, 143_060, "do_sys_poll", "zygote"),
    (310, 1, 0, "/system/bin/netd", 10_951_416, 7_304, "do_sys_poll", "netd"),
    (322, 1, 1041, "/system/bin/audioserver", 11_079_768, 14_024, "binder_ioctl", "audioserver"),
    (330, 1, 1066, "/apex/com.android.os.statsd/bin/statsd", 10_982_380, 6_172, "do_epoll_wait", "statsd"),
    (338, 1, 0, "/system/bin/installd", 10_946_600, 8_460, "binder_ioctl", "installd"),
    (352, 1, 1047, "/system/bin/cameraserver", 10_987_860, 12_048, "binder_ioctl", "cameraserver"),
    (370, 1, 2000, "/apex/com.android.adbd/bin/adbd", 10_940_396, 6_524, "do_epoll_wait", "adbd"),
    (540, 290, 1000, "system_server", 18_617_664, 273_096, "do_epoll_wait", "system_server"),
    (772, 290, None, "com.android.systemui", 16_437_996, 214_168, "do_epoll_wait", "platform_app"),
    (811, 290, 1073, "com.android.networkstack.process", 15_572_520, 101_884, "do_epoll_wait",
     "network_stack"),
    (843, 290, 1001, "com.android.phone", 15_753_884, 121_440, "do_epoll_wait", "radio"),
    (1003, 290, None, "com.android.providers.media.module", 15_801_056, 120_516, "do_epoll_wait",
     "mediaprovider_app"),
]

#: Kernel threads: (pid, ppid, name, wchan); they have no cmdline.
_KERNEL_THREADS = [(2, 0, "kthreadd", "kthreadd"), (3, 2, "rcu_gp", "rescuer_thread"),
                   (4, 2, "rcu_par_gp", "rescuer_thread"), (9, 2, "ksoftirqd/0", "smpboot_thread_fn"),
                   (10, 2, "rcu_preempt", "rcu_gp_kthread"), (11, 2, "migration/0", "smpboot_thread_fn")]

#: Callables phone -> packages whose process runs although no activity of theirs is shown
#: (a bound service keeps them alive); other modules append theirs.
RUNNING_PACKAGE_SOURCES: list[Callable[["PhoneContext"], list[str]]] = []


def _kept_alive(phone: "PhoneContext") -> list[str]:
    """The processes the system keeps alive (the home app, the current input method): the phone
    names them, since which package holds the home role is the framework's to know, not the kernel's."""
    return phone.kept_alive_packages()


RUNNING_PACKAGE_SOURCES.append(_kept_alive)  # first: their pids are given before the others'

#: Callables phone -> more processes (programs shells keep running: a following logcat...).
EXTRA_PROCESSES: list[Callable[["PhoneContext"], list["Process"]]] = []


def _app_process(phone: "PhoneContext", package: str) -> Process:
    pid = phone.pid_of(package)
    seed = zlib.crc32(package.encode())
    return Process(pid, 290, phone.process_uid(package), package, package[-15:],
                   vsz_kb=15_600_000 + seed % 900_000, rss_kb=90_000 + seed % 80_000,
                   label="u:r:untrusted_app:s0:c512,c768",
                   start_ticks=(pid - 4000) * 7 + 2_000)


def processes(phone: "PhoneContext", *, with_shell: bool = True) -> list[Process]:
    """Every process, sorted by pid (as /proc lists them)."""
    table = [Process(pid, ppid, 0, "", name, 0, 0, wchan, "S" if pid != 3 else "I", "u:r:kernel:s0", pid)
             for pid, ppid, name, wchan in _KERNEL_THREADS]
    shell_uid, shell_label = adbd_uid(phone), adbd_label(phone)
    table += [Process(pid, ppid, phone.process_uid(cmd) if uid is None else uid, cmd,
                      cmd.rsplit("/", 1)[-1][-15:], vsz, rss, wchan, "S",
                      f"u:r:{domain}:s0", start_ticks=pid * 3)
              if domain != "adbd" else
              # adbd itself runs as the uid its shells get (main.cpp drop_privileges)
              Process(pid, ppid, shell_uid, cmd, cmd.rsplit("/", 1)[-1][-15:], vsz, rss, wchan, "S",
                      "u:r:su:s0" if shell_uid == 0 else "u:r:adbd:s0", start_ticks=pid * 3)
              for pid, ppid, uid, cmd, vsz, rss, wchan, domain in _SYSTEM]
    running: list[str] = []
    for package, _activity in phone.system.activity_stack():
        if package not in running:
            running.append(package)
    for source in RUNNING_PACKAGE_SOURCES:
        running += [p for p in source(phone) if p not in running]
    fixed = {p.cmdline for p in table}
    table += [_app_process(phone, package) for package in running if package not in fixed]
    for source in EXTRA_PROCESSES:
        table += source(phone)
    if with_shell:
        sh = phone.shell_pid
        table += [Process(sh, 370, shell_uid, "/system/bin/sh", "sh", 10_812_076, 2_868, "do_wait", "S",
                          shell_label),
                  Process(sh + 1, sh, shell_uid, "ps", "ps", 10_840_660, 3_760, "0", "R", shell_label)]
    return sorted(table, key=lambda p: p.pid)


# -- /proc ------------------------------------------------------------------------------------
def _uptime_ticks(phone: "PhoneContext") -> int:
    """Ticks since boot: CLOCK_BOOTTIME, what /proc/uptime and /proc/stat count (clock.py)."""
    return phone.clock.elapsed_ms() * CLOCK_TICKS // 1000


def _cpu_times(ticks: int) -> list[int]:
    """user nice system idle iowait irq softirq steal guest guest_nice of one CPU."""
    user, nice, system = ticks * 6 // 100, ticks // 100, ticks * 4 // 100
    iowait, irq, softirq = ticks // 200, 0, ticks // 400
    idle = ticks - user - nice - system - iowait - softirq
    return [user, nice, system, idle, iowait, irq, softirq, 0, 0, 0]


def proc_stat(phone: "PhoneContext") -> bytes:
    """/proc/stat as fs/proc/stat.c prints it ("cpu " then two spaces: `seq_puts(p, "cpu ")`)."""
    ticks = _uptime_ticks(phone)
    per_cpu = _cpu_times(ticks)
    total = [v * CPU_COUNT for v in per_cpu]
    lines = ["cpu  " + " ".join(map(str, total))]
    lines += [f"cpu{n} " + " ".join(map(str, per_cpu)) for n in range(CPU_COUNT)]
    # btime: the wall clock at boot, fixed (fs/proc/stat.c getboottime64): btime + uptime = now
    lines += [f"intr {ticks * 37} 0 0 0", f"ctxt {ticks * 61}", f"btime {phone.clock.btime()}",
              f"processes {phone._next_pid}", "procs_running 1", "procs_blocked 0",
              f"softirq {ticks * 9} 0 {ticks * 3} 0 {ticks} 0 0 {ticks} {ticks * 2} 0 {ticks * 3}"]
    return ("\n".join(lines) + "\n").encode()


def proc_uptime(phone: "PhoneContext") -> bytes:
    """/proc/uptime (fs/proc/uptime.c): CLOCK_BOOTTIME, then the idle time summed over the CPUs."""
    ticks = _uptime_ticks(phone)
    idle = _cpu_times(ticks)[3] * CPU_COUNT
    return f"{ticks // CLOCK_TICKS}.{ticks % CLOCK_TICKS:02d} {idle // CLOCK_TICKS}.{idle % CLOCK_TICKS:02d}\n".encode()


def proc_net_unix(phone: "PhoneContext") -> bytes:
    """/proc/net/unix (net/unix/af_unix.c unix_seq_show): the phone's listening local sockets.

    A listener is SOCK_STREAM (0001), unconnected (01), accepting (flags __SO_ACCEPTCON
    0x10000); an abstract name shows with "@". Appium looks here for WebView devtools
    sockets (`driver.contexts`). Only the sockets the phone's programs listen on are
    modelled, not the system daemons' own.
    """
    rows = ["Num       RefCount Protocol Flags    Type St Inode Path\n"]
    for number, address in enumerate(phone.sockets.listening()):
        kind, _, name = address.partition(":")
        path = {"localabstract": f"@{name}", "localreserved": f"/dev/socket/{name}"}.get(kind, name)
        if kind == "tcp":
            continue
        inode = 20_000 + zlib.crc32(address.encode()) % 80_000
        rows.append(f"{0xffff000000000000 + number * 0x400:016x}: 00000002 00000000 00010000 0001 01 {inode} "
                    f"{path}\n")
    return "".join(rows).encode()


def proc_meminfo(phone: "PhoneContext") -> bytes:
    """/proc/meminfo: fs/proc/meminfo.c's show_val_kb(): a 16-wide label, 8-wide value, " kB"."""
    free = 1_863_852 - 4_096 * len(processes(phone, with_shell=False))
    rows = [("MemTotal", MEM_TOTAL_KB), ("MemFree", free), ("MemAvailable", free + 1_096_460),
            ("Buffers", 5_308), ("Cached", 1_187_520), ("SwapCached", 0), ("Active", 700_132),
            ("Inactive", 1_002_256), ("Active(anon)", 2_220), ("Inactive(anon)", 540_616),
            ("Active(file)", 697_912), ("Inactive(file)", 461_640), ("Unevictable", 34_872),
            ("Mlocked", 34_872), ("SwapTotal", 3_020_272), ("SwapFree", 3_020_272), ("Dirty", 48),
            ("Writeback", 0), ("AnonPages", 544_456), ("Mapped", 688_688), ("Shmem", 3_316),
            ("KReclaimable", 63_448), ("Slab", 170_484), ("SReclaimable", 63_448), ("SUnreclaim", 107_036),
            ("KernelStack", 21_056), ("PageTables", 39_956), ("SecPageTables", 0), ("NFS_Unstable", 0),
            ("Bounce", 0), ("WritebackTmp", 0), ("CommitLimit", 5_033_788), ("Committed_AS", 65_297_612),
            ("VmallocTotal", 34_359_738_367), ("VmallocUsed", 41_400), ("VmallocChunk", 0),
            ("Percpu", 3_168), ("AnonHugePages", 0), ("ShmemHugePages", 0), ("ShmemPmdMapped", 0),
            ("FileHugePages", 0), ("FilePmdMapped", 0), ("CmaTotal", 0), ("CmaFree", 0),
            ("Unaccepted", 0), ("HugePages_Total", None), ("HugePages_Free", None),
            ("HugePages_Rsvd", None), ("HugePages_Surp", None), ("Hugepagesize", 2048),
            ("Hugetlb", 0), ("DirectMap4k", 139_136), ("DirectMap2M", 4_052_992)]
    lines = []
    for label, value in rows:
        if value is None:  # hugetlb_report_meminfo prints counts, not kB
            lines.append(f"{label + ':':<16}{0:>6}")
        else:
            lines.append(f"{label + ':':<16}{value:>8} kB")
    return ("\n".join(lines) + "\n").encode()


def proc_cpuinfo(phone: "PhoneContext") -> bytes:
    """/proc/cpuinfo of an x86_64 emulator (arch/x86/kernel/cpu/proc.c show_cpuinfo)."""
    blocks = []
    for n in range(CPU_COUNT):
        blocks.append(
            f"processor\t: {n}\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
            "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nstepping\t: 7\nmicrocode\t: 0x1\n"
            "cpu MHz\t\t: 2199.998\ncache size\t: 16384 KB\nphysical id\t: 0\n"
            f"siblings\t: {CPU_COUNT}\ncore id\t\t: {n}\ncpu cores\t: {CPU_COUNT}\napicid\t\t: {n}\n"
            f"initial apicid\t: {n}\nfpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 13\nwp\t\t: yes\n"
            "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush "
            "mmx fxsr sse sse2 ht syscall nx rdtscp lm constant_tsc rep_good nopl xtopology cpuid "
            "tsc_known_freq pni pclmulqdq ssse3 cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx "
            "f16c rdrand hypervisor lahf_lm abm 3dnowprefetch fsgsbase bmi1 avx2 smep bmi2 erms invpcid "
            "rdseed adx smap clflushopt xsaveopt xsavec xgetbv1 xsaves arat\n"
            "bugs\t\t: spectre_v1 spectre_v2 spec_store_bypass\nbogomips\t: 4399.99\n"
            "clflush size\t: 64\ncache_alignment\t: 64\naddress sizes\t: 39 bits physical, 48 bits virtual\n"
            "power management:\n")
    return "\n".join(blocks).encode() + b"\n"


def pid_stat(phone: "PhoneContext", proc: Process) -> bytes:
    """/proc/PID/stat: the 52 fields of fs/proc/array.c do_task_stat()."""
    up = _uptime_ticks(phone)
    run = max(0, up - proc.start_ticks)
    utime, stime = run // 50, run // 120
    threads = 1 if not proc.cmdline or proc.pid < 200 else 14 + proc.pid % 30
    fields = [proc.pid, f"({proc.comm})", proc.state, proc.ppid, proc.pid if proc.ppid in (0, 1) else proc.ppid,
              proc.pid if proc.ppid in (0, 1) else proc.ppid, 0, -1, 0x400100 if proc.cmdline else 0x208040,
              run // 3, 0, run // 400, 0, utime, stime, 0, 0, 20, 0, threads, 0, proc.start_ticks,
              proc.vsz_kb * 1024, proc.rss_kb // 4, 18446744073709551615, 1, 1, 0, 0, 0, 0, 0, 4608, 1073775864,
              0, 0, 0, 17, proc.pid % CPU_COUNT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    return (" ".join(map(str, fields)) + "\n").encode()


def pid_status(proc: Process) -> bytes:
    state = {"S": "S (sleeping)", "R": "R (running)"}.get(proc.state, proc.state)
    return (f"Name:\t{proc.comm}\nUmask:\t0077\nState:\t{state}\nTgid:\t{proc.pid}\nNgid:\t0\n"
            f"Pid:\t{proc.pid}\nPPid:\t{proc.ppid}\nTracerPid:\t0\n"
            f"Uid:\t{proc.uid}\t{proc.uid}\t{proc.uid}\t{proc.uid}\n"
            f"Gid:\t{proc.uid}\t{proc.uid}\t{proc.uid}\t{proc.uid}\n"
            f"VmSize:\t{proc.vsz_kb:>8} kB\nVmRSS:\t{proc.rss_kb:>8} kB\nThreads:\t1\n").encode()


def _pid_dir(phone: "PhoneContext", proc: Process) -> dict:
    cmdline = b"".join(part.encode() + b"\0" for part in (proc.cmdline,) + proc.args) if proc.cmdline else b""
    stat = lambda: pid_stat(phone, proc)  # noqa: E731  (rendered when read)
    return {"stat": stat, "cmdline": cmdline, "comm": proc.comm.encode() + b"\n",
            "status": pid_status(proc), "wchan": proc.wchan.encode(),
            "attr": {"current": proc.label.encode()},
            "task": {str(proc.pid): {"stat": stat, "comm": proc.comm.encode() + b"\n"}}}


def _proc_entries(phone: "PhoneContext") -> dict:
    entries: dict = {str(p.pid): _pid_dir(phone, p) for p in processes(phone)}
    entries.update({
        "stat": lambda: proc_stat(phone), "uptime": lambda: proc_uptime(phone),
        "meminfo": lambda: proc_meminfo(phone), "cpuinfo": lambda: proc_cpuinfo(phone),
        "sys": {"kernel": {"pid_max": b"32768\n"}},
        "mounts": proc_mounts(),  # the mount table (storage.py), the one `mount` and `df` read
        "net": {"unix": lambda: proc_net_unix(phone)},
    })
    return entries


def _sys_cpu_entries() -> dict:
    """/sys/devices/system/cpu as the kernel lays it out (drivers/base/cpu.c)."""
    span = f"0-{CPU_COUNT - 1}\n".encode()
    entries: dict = {f"cpu{n}": {"online": b"1\n", "uevent": b"", "cpufreq": {}, "cpuidle": {}, "topology": {}}
                     for n in range(CPU_COUNT)}
    entries.update({"online": span, "possible": span, "present": span, "offline": b"\n",
                    "kernel_max": b"8191\n", "isolated": b"\n", "modalias": b"cpu:type:x86,ven0000fam0006mod0055"
                    b":feature:,0000,0001\n", "uevent": b"", "cpufreq": {}, "cpuidle": {}, "hotplug": {},
                    "power": {}, "smt": {}, "vulnerabilities": {}})
    return entries


def install_proc(phone: "PhoneContext") -> None:
    """Mount the generated /proc and /sys/devices/system/cpu on the phone's file system."""
    phone.fs.mount_generated("/proc", lambda: _proc_entries(phone))
    entries = _sys_cpu_entries()
    phone.fs.mount_generated("/sys/devices/system/cpu", lambda: entries)

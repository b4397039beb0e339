"""The phone's virtual file system.

A small in-memory tree of directories, regular files, symlinks and /dev/null,
laid out like an Android 14 device as seen by the `shell` user: /sdcard is a
symlink to /storage/self/primary, which points at /storage/emulated/0;
/data/local/tmp is writable; /system and /proc are read-only.

Sizes are bounded (per file and in total) so a client cannot exhaust memory.
Errors are `FsError` (an OSError) carrying a real errno and strerror, so shell
commands print them the way toybox does.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat as st
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

__all__ = ["FsError", "StatResult", "VirtualFileSystem"]

MAX_FILE_SIZE = 64 * 1024 * 1024
#: the bytes the file system holds at most: the userdata partition's free space at boot (storage.py)
MAX_TOTAL_SIZE = 512 * 1024 * 1024
MAX_NAME = 255
MAX_PATH = 4096
MAX_SYMLINKS = 40

SHELL_UID, ROOT_UID, SDCARD_RW_GID = 2000, 0, 1015


class FsError(OSError):
    """A file system error with a POSIX errno (e.g. ENOENT)."""

    def __init__(self, code: int, filename: str = ""):
        super().__init__(code, os.strerror(code), filename)


@dataclass(frozen=True, slots=True)
class StatResult:
    mode: int
    size: int
    mtime: int
    ino: int
    nlink: int
    uid: int
    gid: int

    @property
    def is_dir(self) -> bool:
        return st.S_ISDIR(self.mode)


class _Node:
    __slots__ = ("mode", "mtime", "ino", "uid", "gid", "readonly")
    _next_ino = 1

    def __init__(self, mode: int, mtime: int, uid: int, gid: int, readonly: bool):
        self.mode = mode
        self.mtime = mtime
        self.uid, self.gid = uid, gid
        self.readonly = readonly
        _Node._next_ino += 1
        self.ino = _Node._next_ino

    def size(self) -> int:
        return 0


class _Dir(_Node):
    __slots__ = ("children",)

    def __init__(self, perm: int, mtime: int, uid=ROOT_UID, gid=ROOT_UID, readonly=False):
        super().__init__(st.S_IFDIR | perm, mtime, uid, gid, readonly)
        self.children: dict[str, _Node] = {}

    def size(self) -> int:
        return 3452  # what ext4/f2fs report for a small directory


class _File(_Node):
    __slots__ = ("data",)

    def __init__(self, perm: int, mtime: int, data: bytes = b"", uid=SHELL_UID, gid=SHELL_UID,
                 readonly=False):
        super().__init__(st.S_IFREG | perm, mtime, uid, gid, readonly)
        self.data = data

    def size(self) -> int:
        return len(self.data)


class _Symlink(_Node):
    __slots__ = ("target",)

    def __init__(self, target: str, mtime: int):
        super().__init__(st.S_IFLNK | 0o777, mtime, ROOT_UID, ROOT_UID, True)
        self.target = target

    def size(self) -> int:
        return len(self.target)


class _GeneratedDir(_Dir):
    """A read-only directory whose entries are made when read (/proc, /sys).

    ``render()`` returns name -> bytes (a file), a callable returning bytes
    (a file rendered when read), or a dict (a subdirectory), as the kernel
    makes /proc/PID/stat from the live process on each read.
    """

    __slots__ = ("render", "static")

    def __init__(self, mtime: int, render: Callable[[], dict], static: dict | None = None):
        super().__init__(0o555, mtime, readonly=True)
        self.render = render
        self.static = static or {}

    @property
    def children(self) -> dict[str, _Node]:  # type: ignore[override]
        entries = dict(self.static)
        for name, value in self.render().items():
            entries[name] = _generated_node(value, self.mtime)
        return entries

    @children.setter
    def children(self, value) -> None:
        pass  # _Dir.__init__ assigns {}; the entries come from render()


class _GeneratedFile(_File):
    __slots__ = ("render",)

    def __init__(self, mtime: int, render: Callable[[], bytes]):
        super().__init__(0o444, mtime, b"", ROOT_UID, ROOT_UID, readonly=True)
        self.render = render

    @property
    def data(self) -> bytes:  # type: ignore[override]
        return self.render()

    @data.setter
    def data(self, value) -> None:
        pass


def _generated_node(value, mtime: int) -> _Node:
    if isinstance(value, dict):
        return _GeneratedDir(mtime, lambda: value)
    if callable(value):
        return _GeneratedFile(mtime, value)
    return _File(0o444, mtime, value, ROOT_UID, ROOT_UID, readonly=True)


class _Null(_Node):
    """/dev/null: reads are empty, writes vanish."""

    __slots__ = ()

    def __init__(self, mtime: int):
        super().__init__(st.S_IFCHR | 0o666, mtime, ROOT_UID, ROOT_UID, False)


class VirtualFileSystem:
    """The file tree of one phone. Thread-safe; paths may be relative to `cwd`."""

    def __init__(self, now: Callable[[], int], *, commands: Iterable[str] = (),
                 max_file_size: int = MAX_FILE_SIZE, max_total_size: int = MAX_TOTAL_SIZE):
        self._now = now  # seconds since the epoch, from the phone's clock
        self._lock = threading.RLock()
        self.max_file_size = max_file_size
        self.max_total_size = max_total_size
        self.used = 0
        #: called with ("create", path) / ("delete", path) / ("rename", old, new) after each
        #: change, as a FUSE daemon sees them (media_store.py is one: MediaProvider's FuseDaemon)
        self.listeners: list[Callable[..., None]] = []
        t = now()
        self.root = _Dir(0o755, t, readonly=True)
        self._build(t, commands)

    # -- layout ---------------------------------------------------------------
    def _build(self, t: int, commands: Iterable[str]) -> None:
        ro = dict(readonly=True)
        mk = self._mkdir_node
        for path in ("/system/bin", "/system/etc", "/vendor", "/product", "/apex", "/odm",
                     "/proc", "/dev", "/mnt", "/storage/self", "/data", "/config", "/etc"):
            mk(path, 0o755, t, **ro)
        storage = mk("/storage/emulated", 0o711, t, gid=SDCARD_RW_GID, **ro)
        primary = _Dir(0o2770, t, ROOT_UID, SDCARD_RW_GID)
        storage.children["0"] = primary
        for name in ("Alarms", "Android", "Audiobooks", "DCIM", "Documents", "Download", "Movies",
                     "Music", "Notifications", "Pictures", "Podcasts", "Recordings", "Ringtones"):
            primary.children[name] = _Dir(0o2770, t, ROOT_UID, SDCARD_RW_GID)
        self._dir("/storage/self").children["primary"] = _Symlink("/storage/emulated/0", t)
        self.root.children["sdcard"] = _Symlink("/storage/self/primary", t)
        self._dir("/mnt").children["sdcard"] = _Symlink("/storage/self/primary", t)
        local = _Dir(0o751, t, readonly=True)
        self._dir("/data").children["local"] = local
        local.children["tmp"] = _Dir(0o771, t, SHELL_UID, SHELL_UID)
        # dumpstate's reports (bugreportz): /bugreports links to the Shell app's files/bugreports;
        # that app runs as the shell user (android.uid.shell), which owns the folder
        mk("/data/user_de/0", 0o711, t, **ro)
        mk("/data/user_de/0/com.android.shell/files/bugreports", 0o770, t, SHELL_UID, SHELL_UID)
        self.root.children["bugreports"] = _Symlink("/data/user_de/0/com.android.shell/files/bugreports", t)
        self._dir("/dev").children["null"] = _Null(t)
        proc = self._dir("/proc")
        for name, text in _PROC_FILES.items():
            proc.children[name] = _File(0o444, t, text.encode(), ROOT_UID, ROOT_UID, readonly=True)
        bin_dir = self._dir("/system/bin")
        for name in sorted(set(commands) | {"sh"}):
            bin_dir.children[name] = _File(0o755, t, b"", ROOT_UID, 2000, readonly=True)
        etc = self._dir("/system/etc")
        etc.children["hosts"] = _File(0o644, t, b"127.0.0.1       localhost\n::1             ip6-localhost\n",
                                      ROOT_UID, ROOT_UID, readonly=True)

    def _mkdir_node(self, path: str, perm: int, t: int, uid=ROOT_UID, gid=ROOT_UID, readonly=False) -> _Dir:
        node = self.root
        for part in path.strip("/").split("/"):
            child = node.children.get(part)
            if child is None:
                child = node.children[part] = _Dir(perm, t, uid, gid, readonly)
            node = child
        return node

    def _dir(self, path: str) -> _Dir:
        node = self._resolve(path, "/", True)
        assert isinstance(node, _Dir)
        return node

    def mount_generated(self, path: str, render: Callable[[], dict]) -> None:
        """Make the read-only directory ``path`` list what ``render()`` returns
        when read (see `_GeneratedDir`); its existing entries stay."""
        with self._lock:
            self._mkdir_node(posixpath.dirname(path), 0o755, self._now(), readonly=True)
            parent, name, node = self._walk(path, "/", True)
            static = dict(node.children) if isinstance(node, _Dir) else {}
            parent.children[name] = _GeneratedDir(node.mtime if node else self._now(), render, static)

    # -- path resolution ----------------------------------------------------------
    @staticmethod
    def normpath(path: str, cwd: str = "/") -> str:
        if not path:
            raise FsError(errno.ENOENT, path)
        if len(path) > MAX_PATH:
            raise FsError(errno.ENAMETOOLONG, path[:64] + "...")
        if "\0" in path:
            raise FsError(errno.EINVAL, path)
        full = posixpath.normpath(posixpath.join(cwd, path))
        return "/" + full.lstrip("/")

    def _walk(self, path: str, cwd: str, follow: bool) -> tuple[_Dir | None, str, _Node | None]:
        """(parent dir, last name, node or None) with symlinks resolved."""
        full = self.normpath(path, cwd)
        parts = [x for x in full.split("/") if x]
        node: _Node = self.root
        parent: _Dir | None = None
        name = "/"
        hops = 0
        i = 0
        stack = [self.root]  # ancestors, for ".." after a symlink
        while i < len(parts):
            part = parts[i]
            if len(part) > MAX_NAME:
                raise FsError(errno.ENAMETOOLONG, path)
            if not isinstance(node, _Dir):
                raise FsError(errno.ENOTDIR, path)
            if part == "..":
                if len(stack) > 1:
                    stack.pop()
                node = stack[-1]
                i += 1
                continue
            parent, name = node, part
            child = node.children.get(part)
            last = i == len(parts) - 1
            if isinstance(child, _Symlink) and (follow or not last):
                hops += 1
                if hops > MAX_SYMLINKS:
                    raise FsError(errno.ELOOP, path)
                target = [x for x in child.target.split("/") if x]
                if child.target.startswith("/"):
                    node, stack = self.root, [self.root]
                # resolve the target, then the rest of the path, from `node`
                parts = target + parts[i + 1:]
                i = 0
                continue
            if child is None:
                if not last:
                    raise FsError(errno.ENOENT, path)
                return parent, name, None
            node = child
            stack.append(child)
            i += 1
        return parent, name, node

    def _resolve(self, path: str, cwd: str = "/", follow: bool = True) -> _Node:
        _parent, _name, node = self._walk(path, cwd, follow)
        if node is None:
            raise FsError(errno.ENOENT, path)
        return node

    # -- queries --------------------------------------------------------------------
    def exists(self, path: str, cwd: str = "/") -> bool:
        try:
            with self._lock:
                self._resolve(path, cwd)
            return True
        except FsError:
            return False

    def isdir(self, path: str, cwd: str = "/") -> bool:
        try:
            with self._lock:
                return isinstance(self._resolve(path, cwd), _Dir)
        except FsError:
            return False

    def stat(self, path: str, cwd: str = "/", follow: bool = True) -> StatResult:
        with self._lock:
            return self._stat_node(self._resolve(path, cwd, follow))

    @staticmethod
    def _stat_node(node: _Node) -> StatResult:
        nlink = 2 + sum(isinstance(c, _Dir) for c in node.children.values()) if isinstance(node, _Dir) else 1
        return StatResult(node.mode, node.size(), node.mtime, node.ino, nlink, node.uid, node.gid)

    def readlink(self, path: str, cwd: str = "/") -> str:
        with self._lock:
            node = self._resolve(path, cwd, follow=False)
            if not isinstance(node, _Symlink):
                raise FsError(errno.EINVAL, path)
            return node.target

    def listdir(self, path: str, cwd: str = "/") -> list[str]:
        with self._lock:
            node = self._resolve(path, cwd)
            if not isinstance(node, _Dir):
                raise FsError(errno.ENOTDIR, path)
            return sorted(node.children)

    def listdir_stat(self, path: str, cwd: str = "/") -> list[tuple[str, StatResult]]:
        """Entries with their lstat, sorted by name."""
        with self._lock:
            node = self._resolve(path, cwd)
            if not isinstance(node, _Dir):
                raise FsError(errno.ENOTDIR, path)
            return [(name, self._stat_node(child)) for name, child in sorted(node.children.items())]

    def read_file(self, path: str, cwd: str = "/") -> bytes:
        with self._lock:
            node = self._resolve(path, cwd)
            if isinstance(node, _Dir):
                raise FsError(errno.EISDIR, path)
            if isinstance(node, _Null):
                return b""
            return node.data

    # -- changes ----------------------------------------------------------------------
    def _writable_parent(self, path: str, cwd: str, follow: bool = True) -> tuple[_Dir, str, _Node | None]:
        parent, name, node = self._walk(path, cwd, follow)
        if parent is None:  # the root itself
            raise FsError(errno.EISDIR if node is not None else errno.ENOENT, path)
        if parent.readonly:
            raise FsError(errno.EROFS if parent is not self._data_dir() else errno.EACCES, path)
        return parent, name, node

    def _data_dir(self) -> _Node | None:
        return self.root.children.get("data")

    def write_file(self, path: str, data: bytes, cwd: str = "/", *, append: bool = False,
                   mode: int | None = None, mtime: int | None = None, parents: bool = False) -> None:
        with self._lock:
            if parents:
                parent_path = posixpath.dirname(self.normpath(path, cwd))
                if not self.isdir(parent_path):
                    self.mkdir(parent_path, parents=True)
            parent, name, node = self._walk(path, cwd, True)
            if isinstance(node, _Null):
                return
            if isinstance(node, _Dir):
                raise FsError(errno.EISDIR, path)
            if parent is None:
                raise FsError(errno.EISDIR, path)
            if node is None or not node.readonly:
                if parent.readonly and node is None:
                    raise FsError(errno.EROFS if parent is not self._data_dir() else errno.EACCES, path)
            if node is not None and node.readonly:
                raise FsError(errno.EROFS, path)
            old = node.data if isinstance(node, _File) else b""
            new = old + data if append else data
            if len(new) > self.max_file_size:
                raise FsError(errno.EFBIG, path)
            if self.used - len(old) + len(new) > self.max_total_size:
                raise FsError(errno.ENOSPC, path)
            self.used += len(new) - len(old)
            when = self._now() if mtime is None else mtime
            if isinstance(node, _File):
                node.data = bytes(new)
                node.mtime = when
                if mode is not None:
                    node.mode = st.S_IFREG | (mode & 0o7777)
            else:
                parent.children[name] = _File(0o660 if mode is None else mode & 0o7777,
                                              when, bytes(new))
                parent.mtime = when
                self._notify("create", self._child_path(path, cwd, name))

    def _child_path(self, path: str, cwd: str, name: str) -> str:
        """The absolute path of ``name`` in the folder ``path`` names (as written, links kept)."""
        full = self.normpath(path, cwd)
        return full.rsplit("/", 1)[0] + "/" + name

    def _notify(self, *event: str) -> None:
        for listener in self.listeners:
            listener(*event)

    def chmod(self, path: str, perm: int, cwd: str = "/") -> None:
        """Set a node's permission bits (the file type bits stay)."""
        with self._lock:
            node = self._resolve(path, cwd)
            if node.readonly:
                raise FsError(errno.EROFS, path)
            node.mode = st.S_IFMT(node.mode) | (perm & 0o7777)

    def touch(self, path: str, cwd: str = "/", mtime: int | None = None) -> None:
        with self._lock:
            parent, name, node = self._walk(path, cwd, True)
            when = self._now() if mtime is None else mtime
            if node is None:
                self.write_file(path, b"", cwd, mtime=when)
            elif not isinstance(node, _Null):
                if node.readonly:
                    raise FsError(errno.EROFS, path)
                node.mtime = when

    def mkdir(self, path: str, cwd: str = "/", *, parents: bool = False, mode: int = 0o771) -> None:
        with self._lock:
            full = self.normpath(path, cwd)
            if parents:
                node: _Node = self.root
                walked = ""
                for part in [x for x in full.split("/") if x]:
                    walked += "/" + part
                    try:
                        node = self._resolve(walked)
                    except FsError as exc:
                        if exc.errno != errno.ENOENT:
                            raise
                        self.mkdir(walked, mode=mode)
                        node = self._resolve(walked)
                    if not isinstance(node, _Dir):
                        raise FsError(errno.ENOTDIR, walked)
                return
            parent, name, node = self._writable_parent(full, "/")
            if node is not None:
                raise FsError(errno.EEXIST, path)
            if len(parent.children) >= 100_000:
                raise FsError(errno.ENOSPC, path)
            parent.children[name] = _Dir(mode & 0o7777, self._now(), SHELL_UID, SHELL_UID)
            parent.mtime = self._now()

    def remove(self, path: str, cwd: str = "/", *, recursive: bool = False) -> None:
        """Remove a file, symlink, or (with recursive) a directory tree."""
        with self._lock:
            parent, name, node = self._writable_parent(path, cwd, follow=False)
            if node is None:
                raise FsError(errno.ENOENT, path)
            if node.readonly:
                raise FsError(errno.EROFS, path)
            if isinstance(node, _Dir) and not recursive:
                raise FsError(errno.EISDIR, path)
            if isinstance(node, _Dir) and self._contains_readonly(node):
                raise FsError(errno.EROFS, path)
            self.used -= self._tree_size(node)
            del parent.children[name]
            parent.mtime = self._now()
            self._notify("delete", self._child_path(path, cwd, name))

    def rmdir(self, path: str, cwd: str = "/") -> None:
        with self._lock:
            node = self._resolve(path, cwd, follow=False)
            if not isinstance(node, _Dir):
                raise FsError(errno.ENOTDIR, path)
            if node.children:
                raise FsError(errno.ENOTEMPTY, path)
            self.remove(path, cwd, recursive=True)

    def _contains_readonly(self, node: _Node) -> bool:
        if node.readonly:
            return True
        return isinstance(node, _Dir) and any(self._contains_readonly(c) for c in node.children.values())

    def _tree_size(self, node: _Node) -> int:
        if isinstance(node, _File):
            return len(node.data)
        if isinstance(node, _Dir):
            return sum(self._tree_size(c) for c in node.children.values())
        return 0

    def rename(self, src: str, dst: str, cwd: str = "/") -> None:
        with self._lock:
            sparent, sname, snode = self._writable_parent(src, cwd, follow=False)
            if snode is None:
                raise FsError(errno.ENOENT, src)
            if snode.readonly:
                raise FsError(errno.EROFS, src)
            dparent, dname, dnode = self._walk(dst, cwd, True)
            dst_path = self._child_path(dst, cwd, dname)
            if isinstance(dnode, _Dir):  # mv file dir/ -> dir/file
                dparent, dname, dnode = dnode, sname, dnode.children.get(sname)
                dst_path = self.normpath(dst, cwd).rstrip("/") + "/" + sname
            if dparent is None or dparent.readonly:
                raise FsError(errno.EROFS, dst)
            if dnode is snode:
                return
            if isinstance(snode, _Dir) and self._is_ancestor(snode, dparent):
                raise FsError(errno.EINVAL, dst)
            if dnode is not None:
                if isinstance(dnode, _Dir):
                    raise FsError(errno.EISDIR, dst)
                self.used -= self._tree_size(dnode)
            del sparent.children[sname]
            dparent.children[dname] = snode
            sparent.mtime = dparent.mtime = self._now()
            self._notify("rename", self._child_path(src, cwd, sname), dst_path)

    def _is_ancestor(self, node: _Dir, maybe_child: _Dir) -> bool:
        if node is maybe_child:
            return True
        return any(isinstance(c, _Dir) and self._is_ancestor(c, maybe_child) for c in node.children.values())

    def copy(self, src: str, dst: str, cwd: str = "/", *, recursive: bool = False) -> None:
        with self._lock:
            snode = self._resolve(src, cwd)
            dparent, dname, dnode = self._walk(dst, cwd, True)
            if isinstance(dnode, _Dir):
                target = posixpath.join(self.normpath(dst, cwd), posixpath.basename(self.normpath(src, cwd)))
            else:
                target = self.normpath(dst, cwd)
            if isinstance(snode, _Dir):
                if not recursive:
                    raise FsError(errno.EISDIR, src)
                if self._is_ancestor(snode, self._walk(posixpath.dirname(target), "/", True)[2] or snode):
                    raise FsError(errno.EINVAL, dst)
                if not self.isdir(target):
                    self.mkdir(target)
                for name in list(snode.children):
                    self.copy(posixpath.join(self.normpath(src, cwd), name), target, recursive=True)
                return
            data = b"" if isinstance(snode, _Null) else snode.data
            self.write_file(target, data, mode=st.S_IMODE(snode.mode))


_PROC_FILES = {
    "version": "Linux version 6.1.23-android14-4-00257-g7e35917775b8 (build-user@build-host) "
               "(Android (9796371, based on r487747) clang version 17.0.0) #1 SMP PREEMPT "
               "Mon Apr 17 20:50:58 UTC 2023\n",
    "cpuinfo": "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Virtual CPU\n\n"
               "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Virtual CPU\n",
    "meminfo": "MemTotal:        4027036 kB\nMemFree:         1863852 kB\nMemAvailable:    2960312 kB\n",
    "loadavg": "0.00 0.00 0.00 1/512 4242\n",
    "cmdline": "androidboot.hardware=ranchu androidboot.serialno=EMULATOR34X1X1X0\n",
}

"""Run parsed command lines against a phone.

A `ShellSession` holds what persists between lines of one `adb shell`
(variables, working directory, `$?`). Each simple command runs a Python
function from the command table with an `Invocation` giving it its
arguments, stdin and output sinks. Pipelines run stage by stage, the stdout of
one being the stdin of the next, which is exact for the non-interactive
commands a phone runs over adb.
"""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..fs import FsError
from .parser import AndOr, Command, Pipeline, ShellSyntaxError, Word, parse

if TYPE_CHECKING:
    from ..phone import VirtualPhone

__all__ = ["COMMANDS", "Invocation", "ShellExit", "ShellResult", "ShellSession", "UsageError", "command"]

log = logging.getLogger(__name__)

SH = "/system/bin/sh"
#: Bound on what one command line may print (a screenshot is a few MB).
MAX_OUTPUT = 256 * 1024 * 1024

CommandFn = Callable[["Invocation"], int]
#: name -> implementation; filled by the command modules via @command.
COMMANDS: dict[str, CommandFn] = {}


def command(*names: str):
    """Register a shell command implementation under one or more names."""
    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            COMMANDS[name] = fn
        return fn
    return register


@dataclass(frozen=True, slots=True)
class ShellResult:
    stdout: bytes
    stderr: bytes
    exit_code: int


class ShellExit(Exception):
    """`exit N`: stop the whole command line."""

    def __init__(self, code: int):
        self.code = code


class UsageError(Exception):
    """A command was called wrongly: print the message to stderr, exit 1 (or code)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


class _Sink:
    """Where a file descriptor's bytes go: a buffer, a file, or nowhere.

    ``ready``, if given, is handed what the buffer holds each time
    :meth:`pass_on` is called, as a real shell's output leaves while the
    rest of its command line still runs.
    """

    def __init__(self, buffer: bytearray | None = None, ready: Callable[[bytes], None] | None = None):
        self.buffer = buffer if buffer is not None else bytearray()
        self.ready = ready
        self.passed = 0  # bytes already handed to ready

    def write(self, data: bytes) -> None:
        if self.passed + len(self.buffer) + len(data) > MAX_OUTPUT:
            raise UsageError("output too large")
        self.buffer += data

    def pass_on(self) -> None:
        if self.ready is not None and self.buffer:
            data = bytes(self.buffer)
            self.buffer.clear()
            self.passed += len(data)
            self.ready(data)


class _FileSink(_Sink):
    def __init__(self, session: "ShellSession", path: str, append: bool):
        super().__init__()
        self.session, self.path, self.append = session, path, append

    def commit(self) -> None:
        self.session.phone.fs.write_file(self.path, bytes(self.buffer), self.session.cwd, append=True)
        self.buffer.clear()


@dataclass
class Invocation:
    """One command's view of the world."""

    session: "ShellSession"
    name: str
    args: list[str]
    stdin: bytes
    _out: _Sink = field(repr=False)
    _err: _Sink = field(repr=False)

    @property
    def phone(self) -> "VirtualPhone":
        return self.session.phone

    @property
    def fs(self):
        return self.session.phone.fs

    @property
    def cwd(self) -> str:
        return self.session.cwd

    def out(self, data: bytes | str) -> None:
        self._out.write(data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data)

    def err(self, text: str) -> None:
        self._err.write(text.encode("utf-8", "surrogateescape"))

    def fail(self, message: str, code: int = 1) -> int:
        """Print `name: message` to stderr and return `code`."""
        self.err(f"{self.name}: {message}\n")
        return code

    def fs_error(self, exc: FsError) -> int:
        return self.fail(f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror)


#: Nesting the deep-run thread allows (Python frames), and its stack.
DEEP_RECURSION_LIMIT = 50_000
_DEEP_STACK = 512 * 1024 * 1024
_DEEP_LOCK = threading.Lock()


def _deep(run: Callable[[], ShellResult]) -> ShellResult:
    """``run()`` on a thread with a large stack and a raised recursion limit.

    The limit is the interpreter's (one for all threads): it is raised only
    while the deep line runs, one at a time. A line nested deeper still
    gets an error message (a real shell would run out of memory somewhere).
    """
    box: list[ShellResult] = []

    def target() -> None:
        try:
            box.append(run())
        except RecursionError:
            box.append(ShellResult(b"", f"{SH}: nesting too deep (over {DEEP_RECURSION_LIMIT} levels "
                                        "of the virtual phone's shell)\n".encode(), 2))

    with _DEEP_LOCK:
        previous_limit, previous_stack = sys.getrecursionlimit(), threading.stack_size()
        sys.setrecursionlimit(max(previous_limit, DEEP_RECURSION_LIMIT))
        try:
            threading.stack_size(_DEEP_STACK)
            thread = threading.Thread(target=target, name="deep-shell-line")
            thread.start()
        finally:
            threading.stack_size(previous_stack)
        thread.join()
        sys.setrecursionlimit(previous_limit)
    return box[0]


class ShellSession:
    """State of one shell (one `shell:` service or one interactive session)."""

    def __init__(self, phone: "VirtualPhone"):
        self.phone = phone
        self.cwd = "/"
        self._stdin = b""
        self.last_status = 0
        self.exited = False
        self.vars: dict[str, str] = {
            "HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:"
                                 "/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
            "USER": "shell", "LOGNAME": "shell", "SHELL": SH, "HOSTNAME": "localhost",
            "TMPDIR": "/data/local/tmp", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data",
            "ANDROID_ROOT": "/system", "ANDROID_STORAGE": "/storage",
        }

    def run(self, line: str, *, stdout_ready: Callable[[bytes], None] | None = None,
            stdin: bytes = b"") -> ShellResult:
        """Execute one command line; never raises for bad input.

        ``stdout_ready`` is called with the standard output of each pipeline
        as soon as that pipeline finishes (``cat f && screencap -p``: the
        file's bytes before the screen is captured); what it was given is
        not repeated in the result's ``stdout``. ``stdin`` is what the host
        streamed in (``exec:cmd package install -S N``): the line's first
        command reads it.
        """
        try:
            return self._run(line, stdout_ready, stdin)
        except RecursionError:
            # Deep nesting ("((((...))))", 300 levels) outgrows Python's default recursion
            # limit, not mksh's: run it again on a thread with room for it.
            return _deep(lambda: self._run(line, stdout_ready, stdin))

    def _run(self, line: str, stdout_ready: Callable[[bytes], None] | None, stdin: bytes) -> ShellResult:
        self._stdin = stdin
        out, err = _Sink(ready=stdout_ready), _Sink()
        try:
            script = parse(line)
        except ShellSyntaxError as exc:
            self.last_status = 1
            return ShellResult(b"", f"{SH}: {exc}\n".encode(), 1)
        try:
            for and_or in script:
                self._run_and_or(and_or, out, err)
        except ShellExit as exc:
            self.last_status = exc.code & 0xFF
            self.exited = True
        except UsageError as exc:  # output bound exceeded
            err.write(f"{SH}: {exc}\n".encode())
            self.last_status = 1
        return ShellResult(bytes(out.buffer), bytes(err.buffer), self.last_status)

    # -- execution --------------------------------------------------------------
    def _run_and_or(self, and_or: AndOr, out: _Sink, err: _Sink) -> None:
        self.last_status = self._run_pipeline(and_or.first, out, err)
        out.pass_on()
        for op, pipeline in and_or.rest:
            if (op == "&&") == (self.last_status == 0):
                self.last_status = self._run_pipeline(pipeline, out, err)
                out.pass_on()

    def _run_pipeline(self, pipeline: Pipeline, out: _Sink, err: _Sink) -> int:
        stdin, self._stdin = self._stdin, b""  # one stdin for the line: its first command takes it
        status = 0
        last = len(pipeline.commands) - 1
        for index, cmd in enumerate(pipeline.commands):
            stage_out = out if index == last else _Sink()
            status = self._run_command(cmd, stdin, stage_out, err)
            if index != last:
                stdin = bytes(stage_out.buffer)
        if pipeline.negate:
            status = 0 if status else 1
        return status

    def expand(self, word: Word) -> str:
        pieces = []
        for kind, value in word.parts:
            if kind == "lit":
                pieces.append(value)
            elif value == "?":
                pieces.append(str(self.last_status))
            elif value == "$":
                pieces.append(str(self.phone.shell_pid))
            elif value == "#":
                pieces.append("0")
            elif value == "0":
                pieces.append(SH)
            else:
                pieces.append(self.vars.get(value, ""))
        return "".join(pieces)

    def _run_command(self, cmd: Command, stdin: bytes, out: _Sink, err: _Sink) -> int:
        words = [self.expand(w) for w in cmd.words]
        if not words:
            for name, value in cmd.assignments:
                self.vars[name] = self.expand(value)
        fds: dict[int, _Sink | None] = {1: out, 2: err}
        files: list[_FileSink] = []
        try:
            for redirect in cmd.redirects:
                if redirect.op in ("<", "<&"):
                    if redirect.target is not None and redirect.fd == 0:
                        stdin = self.phone.fs.read_file(self.expand(redirect.target), self.cwd)
                    continue
                if redirect.dup_fd is not None:
                    fds[redirect.fd] = None if redirect.dup_fd == -1 else fds.get(redirect.dup_fd)
                    continue
                path = self.expand(redirect.target)
                if redirect.op == ">":  # truncate/create now, like sh
                    self.phone.fs.write_file(path, b"", self.cwd)
                else:
                    self.phone.fs.write_file(path, b"", self.cwd, append=True)
                sink = _FileSink(self, path, append=True)
                files.append(sink)
                fds[redirect.fd] = sink
        except FsError as exc:
            verb = "open" if redirect.op.startswith("<") else "create"
            err.write(f"{SH}: can't {verb} {exc.filename}: {exc.strerror}\n".encode("utf-8", "surrogateescape"))
            return 1
        if cmd.subshell is not None:
            status = self._subshell(cmd.subshell, fds.get(1) or _Sink(), fds.get(2) or _Sink())
        elif not words:
            return 0
        else:
            status = self._call(words, stdin, fds.get(1) or _Sink(), fds.get(2) or _Sink())
        for sink in files:
            try:
                sink.commit()
            except FsError as exc:
                err.write(f"{SH}: write error: {exc.strerror}\n".encode())
                status = 1
        return status

    def _subshell(self, script: list[AndOr], out: _Sink, err: _Sink) -> int:
        """`( list )`: variables, directory and `exit` stay inside."""
        saved = dict(self.vars), self.cwd
        try:
            for and_or in script:
                self._run_and_or(and_or, out, err)
        except ShellExit as exc:
            self.last_status = exc.code & 0xFF
        finally:
            self.vars, self.cwd = saved
        return self.last_status

    def _call(self, words: list[str], stdin: bytes, out: _Sink, err: _Sink) -> int:
        name = words[0]
        impl = COMMANDS.get(name)
        if impl is None and "/" in name:
            base = name.rsplit("/", 1)[1]
            if name in (f"/system/bin/{base}", f"/bin/{base}", f"/system/xbin/{base}"):
                impl = COMMANDS.get(base)
            name = base if impl else name
        if impl is None:
            err.write(f"{SH}: {words[0]}: not found\n".encode("utf-8", "surrogateescape"))
            return 127
        inv = Invocation(self, name, words[1:], stdin, out, err)
        try:
            return impl(inv) & 0xFF
        except UsageError as exc:
            inv.err(f"{name}: {exc}\n" if str(exc) else "")
            return exc.code
        except FsError as exc:
            return inv.fs_error(exc)
        except ShellExit:
            raise
        except Exception:  # a bug in one command must not take the phone down
            log.exception("shell command %r failed", name)
            inv.err(f"{name}: internal error\n")
            return 1


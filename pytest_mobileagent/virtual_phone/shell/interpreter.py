"""Run parsed command lines against a phone.

A `ShellSession` holds what persists between lines of one `adb shell`
(variables, functions, working directory, `$?`). Each simple command runs a
shell function or a Python function from the command table with an
`Invocation` giving it its arguments, stdin and output sinks. Pipelines run
stage by stage, the stdout of one being the stdin of the next, which is exact
for the non-interactive commands a phone runs over adb. Compound commands
(if, while, until, for, case, { }, functions) run as mksh's exec.c execute()
runs them.

Expansion happens once per word, here: a variable's value, a command
substitution's output, an arithmetic result or a file name a glob found is
split and globbed at most, never parsed, so text an app holds or a file's
name can never run as a command.
"""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

from ..kernel.clock import PROGRAM_MS
from ..kernel.context import PhoneContext
from ..kernel.fs import FsError
from .arith import ArithmeticError_, evaluate
from .glob import Pattern, expand_braces, expand_pattern, has_magic, match_pattern
from .parser import AndOr, Case, Command, For, FunctionDef, Group, If, Loop, Pipeline, ShellSyntaxError, Word, parse

if TYPE_CHECKING:
    from .program import Program

__all__ = ["COMMANDS", "Input", "Invocation", "LoopControl", "MAX_COMMANDS", "MKSH_BUILTINS", "SHELL_ONLY", "ShellExit", "ShellResult", "ShellReturn",
           "ShellSession", "TimedOut", "UsageError", "command", "find_command", "program_names"]

log = logging.getLogger(__name__)

SH = "/system/bin/sh"
#: Bound on what one command line may print (a screenshot is a few MB).
MAX_OUTPUT = 256 * 1024 * 1024
#: Bound on the commands one line may run. A real phone runs `while :; do :; done` until adb
#: hangs up; the virtual phone runs a line on its event loop, which must not stop, so such a
#: line ends with an error instead (a hundred thousand commands take a few seconds).
MAX_COMMANDS = 100_000

CommandFn = Callable[["Invocation"], int]
#: name -> implementation; filled by the command modules via @command.
COMMANDS: dict[str, CommandFn] = {}
#: The commands mksh R59c builds in (funcs.c mkshbuiltins[] with Android's build options: no printf,
#: with sleep); `command -v` names these and the path of the others. cat and realpath are "!" builtins,
#: which defer to a program of that name on PATH, and Android has both in /system/bin.
MKSH_BUILTINS = frozenset("""
. : [ alias bg bind break builtin cd chdir command continue echo eval exec exit export false fc fg getopts
jobs kill let mknod print pwd read readonly rename return set shift sleep source suspend test times trap
true typeset ulimit umask unalias unset wait whence
""".split())
#: Those of them Android has no program for: they are no file in /system/bin, and `which` finds none.
SHELL_ONLY = MKSH_BUILTINS - {"[", "cat", "echo", "false", "kill", "mknod", "pwd", "realpath", "sleep", "test",
                              "true", "ulimit"}

#: The programs that read the screen: their time is a look's (kernel/clock.py).
_LOOKS = frozenset({"screencap", "uiautomator"})


def program_names() -> list[str]:
    """The commands that are programs in /system/bin (every command but the shell's own)."""
    return [name for name in COMMANDS if name not in SHELL_ONLY]


def find_command(name: str) -> tuple[str, CommandFn | None]:
    """The program a command name runs: (its name, its implementation or None if there is none).
    A path to one of the phone's programs (/system/bin/ls) runs it under its own name."""
    impl = COMMANDS.get(name)
    if impl is None and "/" in name:
        base = name.rsplit("/", 1)[1]
        if name in (f"/system/bin/{base}", f"/bin/{base}", f"/system/xbin/{base}"):
            impl = COMMANDS.get(base)
        name = base if impl else name
    return name, impl


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
    #: a program the line left running in the foreground (program.py), else None
    program: "Program | None" = None


class Input:
    """The standard input a compound command's body shares (`... | while read l; do ...; done`):
    `read` takes a line of it, any other command all that is left."""

    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def line(self) -> bytes | None:
        """The next line with its newline, or what is left; None at the end."""
        if self.pos >= len(self.data):
            return None
        end = self.data.find(b"\n", self.pos)
        end = len(self.data) if end < 0 else end + 1
        chunk, self.pos = self.data[self.pos:end], end
        return chunk

    def rest(self) -> bytes:
        chunk, self.pos = self.data[self.pos:], len(self.data)
        return chunk


class _Held(Exception):
    """A command left a program running in the foreground: the line waits for it."""


class ShellExit(Exception):
    """`exit N`: stop the whole command line."""

    def __init__(self, code: int):
        self.code = code


class ShellReturn(Exception):
    """`return N`: leave the running function (outside one, the shell, as mksh's c_exitreturn does)."""

    def __init__(self, code: int):
        self.code = code


class LoopControl(Exception):
    """`break N` / `continue N`: leave (or go on with) the Nth enclosing loop."""

    def __init__(self, kind: str, levels: int):
        self.kind, self.levels = kind, levels


class TimedOut(Exception):
    """A `timeout` deadline passed while its command waited (toybox timeout.c kills it)."""


class _LineStopped(Exception):
    """The line stops with this message, status 1: an expansion mksh refuses (`$((1/0))`), or
    a line past MAX_COMMANDS."""


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
    #: the command's stdin: bytes, or the stdin a compound command's body shares (read on first use)
    stdin_source: "bytes | Input"
    _out: _Sink = field(repr=False)
    _err: _Sink = field(repr=False)
    #: variables assigned for this command only (``CLASSPATH=x app_process ...``)
    env: Mapping[str, str] = field(default_factory=dict)

    @property
    def stdin(self) -> bytes:
        """All of the command's stdin. From a stdin shared in a compound command's body, what is
        left of it, taken only by a command that reads it (`echo` in the body takes none)."""
        if isinstance(self.stdin_source, Input):
            self.stdin_source = self.stdin_source.rest()
        return self.stdin_source

    @property
    def input(self) -> Input | None:
        """The shared stdin, for `read` (a line at a time); None for a stdin of its own."""
        return self.stdin_source if isinstance(self.stdin_source, Input) else None

    @property
    def phone(self) -> "PhoneContext":
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
#: Brackets in a line above which it runs on the deep-run thread from the start.
_DEEP_NESTING = 64
_TOO_DEEP = f"{SH}: nesting too deep for the virtual phone's shell\n".encode()


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
            box.append(ShellResult(b"", _TOO_DEEP, 2))

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

    def __init__(self, phone: "PhoneContext"):
        self.phone = phone
        self.cwd = "/"
        self._stdin = b""
        self.last_status = 0
        self.exited = False
        #: the program a command left running in the foreground (see hold)
        self.held: "Program | None" = None
        #: shell functions by name (their bodies), and the positional parameters $1...
        self.functions: dict[str, Command] = {}
        self.positional: list[str] = []
        #: enclosing loops `break`/`continue` can leave (0 inside a function body: exec.c STOP_BRKCONT)
        self.loop_depth = 0
        #: whether a function is running (`return` leaves it rather than the shell)
        self.function_depth = 0
        #: where the command being expanded writes errors (a substitution's stderr goes there)
        self._err: "_Sink | None" = None
        #: the status of the last command substitution of the command being expanded
        self._substitution_status: int | None = None
        #: the virtual time (phone clock, ms) at which a running `timeout` ends its command
        self.deadline_ms: int | None = None
        #: the stdin the running compound command's body reads from
        self._input: Input | None = None
        #: commands run by the current line (bounded by MAX_COMMANDS)
        self._commands_run = 0
        self.vars: dict[str, str] = {
            "HOME": "/", "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:"
                                 "/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
            "USER": "shell", "LOGNAME": "shell", "SHELL": SH, "HOSTNAME": "localhost",
            "TMPDIR": "/data/local/tmp", "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data",
            "ANDROID_ROOT": "/system", "ANDROID_STORAGE": "/storage",
        }

    @staticmethod
    def incomplete(text: str) -> bool:
        """Whether ``text`` is a command the next line goes on (an open `if`, quote, `$(`...):
        an interactive mksh then prompts with PS2 ("> ") and reads on (lex.c, syn.c at EOF)."""
        try:
            parse(text)
        except ShellSyntaxError as exc:
            message = str(exc)
            return message in ("syntax error: unexpected EOF", "no closing quote") \
                or message.startswith("syntax error: unmatched ")
        return False

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass (`sleep`); raise TimedOut at a `timeout`'s deadline."""
        now = self.phone.clock_ms()
        if self.deadline_ms is not None and now + ms >= self.deadline_ms:
            self.phone.advance_clock(max(0, self.deadline_ms - now))
            raise TimedOut()
        self.phone.advance_clock(ms)

    def hold(self, program: "Program") -> None:
        """Keep ``program`` running in this shell's foreground (program.py).

        The command that calls this ends the line: what follows it is not run.
        """
        self.held = program

    def run(self, line: str, *, stdout_ready: Callable[[bytes], None] | None = None,
            stdin: bytes = b"", merge_stderr: bool = False) -> ShellResult:
        """Execute one command line; never raises for bad input.

        ``stdout_ready`` is called with the standard output of each pipeline
        as soon as that pipeline finishes (``cat f && screencap -p``: the
        file's bytes before the screen is captured); what it was given is
        not repeated in the result's ``stdout``. ``stdin`` is what the host
        streamed in (``exec:cmd package install -S N``): the line's first
        command reads it. ``merge_stderr``: stderr goes to the same place as
        stdout, in the order written -- adbd's raw `shell:`/`exec:` services
        dup the child's stderr onto its stdout socket (shell_service.cpp,
        SubprocessProtocol::kNone), so `cmd; echo $?` prints cmd's error first.
        """
        if line.count("(") + line.count("{") > _DEEP_NESTING:
            # Deep nesting ("((((...))))", 300 levels) would outgrow Python's default
            # recursion limit, not mksh's: such a line runs on a thread with room for it.
            return _deep(lambda: self._run(line, stdout_ready, stdin, merge_stderr))
        try:
            return self._run(line, stdout_ready, stdin, merge_stderr)
        except RecursionError:  # nested some other way: an error, never a closed stream
            self.last_status = 2
            return ShellResult(b"", _TOO_DEEP, 2)

    def _run(self, line: str, stdout_ready: Callable[[bytes], None] | None, stdin: bytes,
             merge_stderr: bool) -> ShellResult:
        self._stdin = stdin
        self.held = None
        self._commands_run = 0
        out = _Sink(ready=stdout_ready)
        err = out if merge_stderr else _Sink()
        try:
            script = parse(line)
        except ShellSyntaxError as exc:
            self.last_status = 1
            message = f"{SH}: {exc}\n".encode()
            return ShellResult(message, b"", 1) if merge_stderr else ShellResult(b"", message, 1)
        try:
            for and_or in script:
                self._run_and_or(and_or, out, err)
        except ShellExit as exc:
            self.last_status = exc.code & 0xFF
            self.exited = True
        except _Held:
            out.pass_on()
        except _LineStopped as exc:  # mksh stops the line (unwind) with status 1
            err.write(f"{SH}: {exc}\n".encode("utf-8", "surrogateescape"))
            self.last_status = 1
        except UsageError as exc:  # output bound exceeded
            err.write(f"{SH}: {exc}\n".encode())
            self.last_status = 1
        return ShellResult(bytes(out.buffer), b"" if err is out else bytes(err.buffer), self.last_status, self.held)

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
        if not stdin and self._input is not None:
            stdin = self._input  # inside a compound command: what its body has not read yet
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

    def _value(self, kind: str, value) -> str:
        if kind in ("lit", "bare"):
            return value
        if kind in ("csub", "bcsub"):
            return self._substitute(value)
        if kind in ("arith", "barith"):
            text = self.expand(value)
            try:
                return str(evaluate(text, self.vars))
            except ArithmeticError_ as exc:
                raise _LineStopped(str(exc)) from None
        if value == "?":
            return str(self.last_status)
        if value == "$":
            return str(self.phone.shell_pid)
        if value == "#":
            return str(len(self.positional))
        if value == "0":
            return SH
        if value in ("@", "*"):
            return " ".join(self.positional)
        if value.isdigit():
            index = int(value)
            return self.positional[index - 1] if index <= len(self.positional) else ""
        return self.vars.get(value, "")

    def _substitute(self, script: list[AndOr]) -> str:
        """`$(list)`: run it in a subshell, its output less trailing newlines (exec.c comsub)."""
        saved = self._stdin, self._err, self._input
        out = _Sink()
        self._stdin, self._input = b"", None  # the line's stdin is not the substitution's
        try:
            self._substitution_status = self._subshell(script, out, self._err or _Sink())
        finally:
            self._stdin, self._err, self._input = saved
        return bytes(out.buffer).decode("utf-8", "surrogateescape").rstrip("\n")

    def expand(self, word: Word) -> str:
        """The word's text after parameter expansion (no globbing: assignments, redirections)."""
        return "".join(self._value(kind, value) for kind, value in word.parts)

    def _pattern(self, word: Word) -> Pattern:
        """A case pattern: expanded, not split; quoted characters match themselves."""
        return [(c, kind not in ("lit", "var", "csub", "arith"))
                for kind, value in word.parts for c in self._value(kind, value)]

    @staticmethod
    def _has_brace_group(word: Word) -> bool:
        bare = "".join(value for kind, value in word.parts if kind == "bare")
        return "," in bare and "}" in bare

    def expand_fields(self, word: Word) -> list[str]:
        """A command word after brace, parameter and pathname expansion (mksh's glob).

        Unquoted `$var` values are split at white space (an empty one makes
        no word); unquoted text and such values may glob; a pattern that
        matches nothing stays as written.  (Redirection targets are not
        globbed: mksh globs them only in an interactive shell.)
        """
        first_kind, first = word.parts[0] if word.parts else ("lit", "")
        if first_kind == "bare" and first[:1] == "~" and first[1:2] in ("", "/"):
            # tilde expansion (mksh eval.c tilde()): a leading unquoted ~ is $HOME
            word = Word([("lit", self.vars.get("HOME", "")), ("bare", first[1:])] + word.parts[1:])
        for kind, value in word.parts:
            if kind == "bare" and "{" in value and self._has_brace_group(word):
                try:
                    words = [Word(parts) for parts in expand_braces(word.parts)]
                except ValueError:  # a runaway expansion is left as written
                    words = [word]
                if len(words) > 1:
                    return [field for each in words for field in self.expand_fields(each)]
            if kind in ("bvar", "bcsub", "barith") or (kind, value) == ("var", "@") \
                    or (kind == "bare" and ("*" in value or "?" in value or "[" in value)):
                break
        else:  # nothing to split or glob: the common case, kept fast
            parts = word.parts
            if len(parts) == 1 and parts[0][0] in ("lit", "bare"):
                return [parts[0][1]]
            return [self.expand(word)]
        fields: list[Pattern] = []
        current: Pattern = []
        started = False  # whether `current` is a field (quoted "" makes an empty one)
        for kind, value in word.parts:
            if (kind, value) == ("var", "@"):
                # "$@": each parameter its own field, joined to the text around it (eval.c, DOBLANK)
                for index, param in enumerate(self.positional):
                    if index:
                        fields.append(current)
                        current = []
                    current.extend((c, False) for c in param)
                    started = True
                continue
            text = self._value(kind, value)
            if kind not in ("bvar", "bcsub", "barith"):
                current.extend((c, kind == "bare") for c in text)
                started = True
                continue
            # An unquoted expansion is split into fields at IFS white space.
            pieces = text.split() if text.strip() else []
            if text[:1].isspace() and started:
                fields.append(current)
                current, started = [], False
            for index, piece in enumerate(pieces):
                if index:
                    fields.append(current)
                    current = []
                current.extend((c, True) for c in piece)
                started = True
            if text[-1:].isspace() and started:
                fields.append(current)
                current, started = [], False
        if started:
            fields.append(current)
        words: list[str] = []
        for pattern in fields:
            text = "".join(c for c, _ in pattern)
            matches = expand_pattern(self.phone.fs, self.cwd, pattern) if has_magic(pattern) else []
            words.extend(matches or [text])
        return words

    def _run_command(self, cmd: Command, stdin: "bytes | Input", out: _Sink, err: _Sink) -> int:
        self._err, self._substitution_status = err, None
        if isinstance(cmd.compound, FunctionDef):  # defining one runs nothing (exec.c TFUNCT)
            self.functions[cmd.compound.name] = cmd.compound.body
            return 0
        words = [field for w in cmd.words for field in self.expand_fields(w)]
        env: dict[str, str] = {}
        for name, value in cmd.assignments:
            (env if words else self.vars)[name] = self.expand(value)
        # A command of assignments alone has the status of its last substitution (POSIX 2.9.1).
        substitution_status = self._substitution_status
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
        elif cmd.compound is not None:
            # the body's commands share what the compound command was given (exec.c: one fd 0)
            saved_input = self._input
            self._input = stdin if isinstance(stdin, Input) else Input(stdin) if stdin else None
            try:
                status = self._compound(cmd.compound, fds.get(1) or _Sink(), fds.get(2) or _Sink())
            finally:
                self._input = saved_input
                self._commit(files, err)
            return status
        elif not words:
            if files:
                self._commit(files, err)
            return substitution_status or 0
        else:
            status = self._call(words, stdin, fds.get(1) or _Sink(), fds.get(2) or _Sink(), env, functions=True)
        return self._commit(files, err) or status

    def _commit(self, files: list[_FileSink], err: _Sink) -> int:
        """Write what went to redirected files; 1 if a write failed."""
        status = 0
        for sink in files:
            try:
                sink.commit()
            except FsError as exc:
                err.write(f"{SH}: write error: {exc.strerror}\n".encode())
                status = 1
        return status

    # -- compound commands (exec.c execute(): TIF, TWHILE/TUNTIL, TFOR, TCASE, TBRACE) -------------
    def _run_list(self, script: list[AndOr], out: _Sink, err: _Sink) -> int:
        if not script:  # an empty list (`{ }`, an empty `case` arm) succeeds; $? is kept until a command runs
            self.last_status = 0
        for and_or in script:
            self._run_and_or(and_or, out, err)
        return self.last_status

    def _compound(self, node, out: _Sink, err: _Sink) -> int:
        if isinstance(node, Group):
            return self._run_list(node.body, out, err)
        if isinstance(node, If):
            for condition, body in node.branches:
                if self._run_list(condition, out, err) == 0:
                    return self._run_list(body, out, err)
            # no branch taken: the status is 0 (exec.c TIF: rv = 0 unless a part ran)
            return self._run_list(node.otherwise, out, err) if node.otherwise is not None else 0
        if isinstance(node, Loop):
            status = 0
            while True:
                if (self._run_list(node.condition, out, err) == 0) == node.until:
                    return status
                control = self._loop_body(node.body, out, err)
                status = self.last_status
                if control == "break":
                    return status
        if isinstance(node, For):
            items = self.positional if node.items is None else \
                [field for word in node.items for field in self.expand_fields(word)]
            status = 0
            for item in items:
                self.vars[node.name] = item
                control = self._loop_body(node.body, out, err)
                status = self.last_status
                if control == "break":
                    break
            return status
        if isinstance(node, Case):
            return self._case(node, out, err)
        raise TypeError(node)

    def _loop_body(self, body: list[AndOr], out: _Sink, err: _Sink) -> str | None:
        """Run a loop's body once: "break" if it broke out, else None (done or continued)."""
        self.loop_depth += 1
        try:
            self._run_list(body, out, err)
        except LoopControl as control:
            if control.levels > 1:
                control.levels -= 1
                raise
            self.last_status = 0  # break and continue succeed
            return control.kind
        finally:
            self.loop_depth -= 1
        return None

    def _case(self, node: Case, out: _Sink, err: _Sink) -> int:
        """exec.c TCASE: the first arm with a matching pattern runs; `;&` falls into the next
        arm's body, `;|` goes on testing the arms after it."""
        text = self.expand(node.word)
        status = 0
        index, falling = 0, False
        while index < len(node.arms):
            patterns, body, terminator = node.arms[index]
            if falling or any(match_pattern(self._pattern(p), text) for p in patterns):
                status = self._run_list(body, out, err)
                if terminator == ";;":
                    return status
                falling = terminator == ";&"
            index += 1
        return status

    def call_function(self, name: str, args: list[str], stdin: bytes, out: _Sink, err: _Sink) -> int:
        """Run the shell function ``name`` with ``args`` as $1...; `return N` gives its status."""
        body = self.functions[name]
        saved = self.positional, self.loop_depth
        self.positional, self.loop_depth = list(args), 0
        self.function_depth += 1
        try:
            return self._run_command(body, stdin, out, err)
        except ShellReturn as exc:
            return exc.code & 0xFF
        finally:
            self.function_depth -= 1
            self.positional, self.loop_depth = saved

    def _subshell(self, script: list[AndOr], out: _Sink, err: _Sink) -> int:
        """`( list )`: variables, directory and `exit` stay inside."""
        saved = dict(self.vars), self.cwd, dict(self.functions), self.positional
        try:
            for and_or in script:
                self._run_and_or(and_or, out, err)
        except ShellExit as exc:
            self.last_status = exc.code & 0xFF
        finally:
            self.vars, self.cwd, self.functions, self.positional = saved
        return self.last_status

    def _call(self, words: list[str], stdin: bytes, out: _Sink, err: _Sink,
              env: Mapping[str, str] | None = None, functions: bool = False) -> int:
        """Run one command; ``functions``: a shell function of that name runs first (the shell's
        lookup; programs that exec others, xargs, env, nohup, `command`, never see functions)."""
        name = words[0]
        self._commands_run += 1
        if self._commands_run > MAX_COMMANDS:
            raise _LineStopped(f"the virtual phone's shell ends a line after {MAX_COMMANDS} commands "
                                  "(a real phone runs it until adb hangs up)")
        if functions and name in self.functions:  # exec.c findcom(): a function before a command
            status = self.call_function(name, words[1:], stdin, out, err)
            if self.held is not None:
                self.last_status = status
                raise _Held()
            return status
        name, impl = find_command(name)
        if impl is None:
            # mksh's exec.c: warningf(true, "%s: %s", cp, Tinacc_not_found), Android 14's wording.
            err.write(f"{SH}: {words[0]}: inaccessible or not found\n".encode("utf-8", "surrogateescape"))
            return 127
        if name not in MKSH_BUILTINS and name not in _LOOKS:
            # A program the shell forks and execs takes the phone's time (kernel/clock.py); a
            # builtin runs in the shell and takes none, and a look's time is the clock's LOOK_MS,
            # which only a changed screen costs. A `timeout`'s deadline can fall here.
            self.wait(PROGRAM_MS)
        inv = Invocation(self, name, words[1:], stdin, out, err, env or {})
        try:
            status = impl(inv) & 0xFF
        except UsageError as exc:
            inv.err(f"{name}: {exc}\n" if str(exc) else "")
            return exc.code
        except FsError as exc:
            return inv.fs_error(exc)
        except (ShellExit, ShellReturn, LoopControl, _LineStopped, TimedOut):
            raise
        except Exception:  # a bug in one command must not take the phone down
            log.exception("shell command %r failed", name)
            inv.err(f"{name}: internal error\n")
            return 1
        if self.held is not None:
            self.last_status = status
            raise _Held()
        return status


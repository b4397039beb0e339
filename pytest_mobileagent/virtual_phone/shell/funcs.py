"""mksh's builtins that act on the shell itself (funcs.c, R59c): command, return, break, continue, read,
set (the positional parameters) and shift.

`command -v NAME...` prints how each name would run: a reserved word, function or builtin
by its name, a program by its path; it stops at the first name it cannot find, status 1
(funcs.c c_command() -> do_whence(), `while ((vflag || rv == 0) && ...)`). `command -V`
describes each ("ls is a tracked alias for /system/bin/ls", "nope not found"). `command
NAME ARGS` runs NAME passing over a function of that name (exec.c comexec(), c_command).
"""

from __future__ import annotations

from .interpreter import COMMANDS, MKSH_BUILTINS, SH, SHELL_ONLY, Input, Invocation, LoopControl, ShellExit, ShellReturn, command
from .parser import RESERVED

__all__: list[str] = []

#: funcs.c mkshbuiltins[] entries marked "*=" (POSIX special builtins)
_SPECIAL = frozenset(". : break continue eval exec exit export readonly return set shift times trap unset".split())
#: where the phone's programs are (toybox's links and Android's commands are all in /system/bin)
_BIN = "/system/bin/"


def _whence(inv: Invocation, names: list[str], verbose: bool) -> int:
    """funcs.c do_whence(…, iscommand=true)."""
    status = 0
    for name in names:
        if not verbose and status:
            break
        if name in RESERVED:
            inv.out(f"{name} is a reserved word\n" if verbose else f"{name}\n")
        elif name in inv.session.functions:
            inv.out(f"{name} is a function\n" if verbose else f"{name}\n")
        elif name in MKSH_BUILTINS:
            kind = "special shell builtin" if name in _SPECIAL else "shell builtin"
            inv.out(f"{name} is a {kind}\n" if verbose else f"{name}\n")
        elif (path := _program_path(inv, name)) is not None:
            inv.out(f"{name} is a tracked alias for {path}\n" if verbose else f"{path}\n")
        else:
            if verbose:
                inv.out(f"{name} not found\n")  # sh.h Tnot_found_s, on stdout as shprintf() writes
            status = 1
    return status


def _program_path(inv: Invocation, name: str) -> str | None:
    if "/" in name:
        path = inv.fs.normpath(name, inv.cwd)
        return path if inv.fs.isfile(path) or name.rsplit("/", 1)[1] in COMMANDS and path.startswith(_BIN) \
            else None
    return _BIN + name if name in COMMANDS and name not in SHELL_ONLY else None


@command("command")
def _command(inv: Invocation) -> int:
    args = list(inv.args)
    verbose = None
    while args and args[0].startswith("-") and args[0] != "-":
        arg = args.pop(0)
        if arg == "--":
            break
        for flag in arg[1:]:
            if flag == "v":
                verbose = False
            elif flag == "V":
                verbose = True
            elif flag != "p":  # -p: the default PATH, which is the phone's PATH
                inv.err(f"{SH}: command: -{flag}: unknown option\n")  # ksh_getopt's message
                return 1
    if verbose is not None:
        return _whence(inv, args, verbose)
    if not args:
        return 0
    return inv.session._call(args, inv.stdin, inv._out, inv._err, inv.env)


def _count(inv: Invocation, default: int) -> int | None:
    if not inv.args:
        return default
    try:
        return int(inv.args[0])
    except ValueError:
        inv.err(f"{SH}: {inv.name}: {inv.args[0]}: bad number\n")
        return None


@command("return")
def _return(inv: Invocation) -> int:
    code = _count(inv, inv.session.last_status)
    if code is None:
        return 1
    if inv.session.function_depth == 0:
        raise ShellExit(code)  # c_exitreturn: outside a function (or dot script) `return` is `exit`
    raise ShellReturn(code)


@command("break", "continue")
def _break(inv: Invocation) -> int:
    """funcs.c c_brkcont(): warns, without failing, where there is no loop to leave."""
    levels = _count(inv, 1)
    if levels is None:
        return 1
    if levels <= 0:
        inv.err(f"{SH}: {inv.name}: {inv.args[0]}: bad value\n")
        return 1
    depth = inv.session.loop_depth
    if depth == 0:
        inv.err(f"{SH}: {inv.name}: can't {inv.name}\n")
        return 0
    if levels > depth:
        inv.err(f"{SH}: {inv.name}: can only {inv.name} {depth} level(s)\n")
        levels = depth
    raise LoopControl(inv.name, levels)


@command("read")
def _read(inv: Invocation) -> int:
    """funcs.c c_read(): one line into NAME... split at IFS white space, the rest to the last
    (REPLY without names); without -r a backslash quotes the next character and a backslash-newline
    joins lines. At the end of input the names get what was read and the status is 1."""
    args, raw = list(inv.args), False
    while args and args[0].startswith("-") and args[0] != "-":
        arg = args.pop(0)
        if arg == "--":
            break
        for flag in arg[1:]:
            if flag != "r":
                inv.err(f"{SH}: read: -{flag}: unknown option\n")
                return 2
            raw = True
    source = inv.input if inv.input is not None else Input(inv.stdin)
    text, ended = [], True
    while (line := source.line()) is not None:
        chunk = line.decode("utf-8", "surrogateescape")
        complete = chunk.endswith("\n")
        chunk = chunk[:-1] if complete else chunk
        if not raw and chunk.endswith("\\") and not chunk.endswith("\\\\") and complete:
            text.append(chunk[:-1])  # backslash-newline: the line goes on
            continue
        text.append(chunk)
        ended = not complete
        break
    line = "".join(text)
    # without -r a backslash quotes the next character, and a quoted blank does not split
    chars = [(c, False) for c in line] if raw else _split_escaped(line)
    names = args or ["REPLY"]
    values = _assign(chars, len(names))
    for name, value in zip(names, values):
        inv.session.vars[name] = value
    return 1 if ended else 0


def _split_escaped(line: str) -> list[tuple[str, bool]]:
    """The line's characters, each with whether a backslash quoted it."""
    out, i = [], 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            out.append((line[i + 1], True))
            i += 2
        else:
            if line[i] != "\\":
                out.append((line[i], False))
            i += 1
    return out


def _assign(chars: list[tuple[str, bool]], count: int) -> list[str]:
    """Split at unquoted IFS white space into ``count`` values, the last taking the rest
    (its outer white space trimmed)."""
    blank = lambda c: c[0] in " \t\n" and not c[1]  # noqa: E731
    start, end = 0, len(chars)
    while start < end and blank(chars[start]):
        start += 1
    while end > start and blank(chars[end - 1]):
        end -= 1
    chars = chars[start:end]
    values: list[str] = []
    i = 0
    while len(values) < count - 1 and i < len(chars):
        j = i
        while j < len(chars) and not blank(chars[j]):
            j += 1
        values.append("".join(c for c, _ in chars[i:j]))
        while j < len(chars) and blank(chars[j]):
            j += 1
        i = j
    values.append("".join(c for c, _ in chars[i:]))
    return values + [""] * (count - len(values))


@command("set")
def _set(inv: Invocation) -> int:
    """`set -- WORDS` / `set WORDS`: the positional parameters (funcs.c c_set()). The shell's
    options (-e, -x, -o...) are not modelled: asking for one is an error, never a silent no-op."""
    args = list(inv.args)
    if not args:
        for name in sorted(inv.session.vars):
            inv.out(f"{name}={_quoted(inv.session.vars[name])}\n")
        return 0
    if args[0] == "--":
        args = args[1:]
    elif args[0][:1] in "-+" and len(args[0]) > 1:
        inv.err(f"{SH}: set: {args[0]}: shell options are not supported by the virtual phone's shell\n")
        return 1
    inv.session.positional = args
    return 0


def _quoted(value: str) -> str:
    """print_value_quoted(): bare if safe, else in single quotes."""
    if value and all(c.isalnum() or c in "_-./:@%+=," for c in value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"


@command("shift")
def _shift(inv: Invocation) -> int:
    """funcs.c c_shift(); a special builtin, so its error ends a non-interactive shell."""
    count = _count(inv, 1)
    if count is None:
        return 1
    if count > len(inv.session.positional) or count < 0:
        inv.err(f"{SH}: shift: nothing to shift\n")
        raise ShellExit(1)
    inv.session.positional = inv.session.positional[count:]
    return 0

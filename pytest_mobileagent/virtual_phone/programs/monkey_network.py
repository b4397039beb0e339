"""Monkey's network mode: `monkey --port N` serves MonkeySourceNetwork on the phone's tcp:N.

Source: AOSP development/cmds/monkey, MonkeySourceNetwork.java and MonkeySourceNetworkVars.java
(network protocol version 2).  The monkey binds its server socket to the loopback address, so
a host reaches it through adb (``adb forward tcp:X tcp:N``, or adbutils' create_connection).
One client at a time speaks a line protocol: each line is a command, split on blanks with
"double quoted" words kept whole; the answer is ``OK``, ``OK:<value>``, ``ERROR`` or
``ERROR:<message>`` (``EARG`` is ``ERROR:Invalid Argument``).  A line naming no command gets
no answer, nor does a ``#`` comment.  ``done`` (or the client hanging up) ends the
connection and the monkey waits for the next one; ``quit`` answers OK and ends the monkey.

Commands and what they do here: ``tap X Y`` (a touch down and up: a tap), ``touch
down|move|up X Y`` (a tap, or a swipe when the up lands elsewhere), ``press KEY`` and ``key
down|up KEY`` (the key acts on its up; KEY is a code or a KEYCODE_ name, with or without the
prefix, MonkeySourceNetwork.getKeyCode), ``type STRING``, ``wake``, ``sleep MS``, ``flip`` and
``trackball`` (accepted: no keyboard lid or trackball to act on), ``getvar``/``listvar`` (the
vars of MonkeySourceNetworkVars, ``build.brand`` holding the build time as the source's
second put leaves it), ``deferreturn screenchange MS COMMAND...`` (the command's answer; the
screen change it waits for has happened when the command returns here).  The view queries
(listviews, queryview, getrootview, getviewswithtext) are not modelled and answer
``ERROR:`` saying so.  The events are injected before the answer is sent, so a client sees
their effect once it reads OK (the real monkey answers first and injects next).
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

from ..shell.android import MONKEY_NETWORK
from ..shell.keycodes import canonical_key
from ..shell.program import Program

if TYPE_CHECKING:
    from ..kernel.sockets import SocketConnection
    from ..shell.interpreter import Invocation

__all__ = ["MonkeyServer"]

_EARG = "ERROR:Invalid Argument"
MONKEY_NETWORK_VERSION = 2


def command_line_split(line: str) -> list[str]:
    """MonkeySourceNetwork.commandLineSplit: StringTokenizer words; a word starting with a quote
    opens a quoted part that runs to a word ending with one (quotes trimmed, \\" unescaped)."""
    result: list[str] = []
    quoted: list[str] = []
    inside = False
    for word in line.split():
        word_ = word.replace('\\"', '"')
        if not inside and word.startswith('"'):
            quoted = [word_]
            inside = True  # even when the word ends with a quote too: a later word must close it
        elif inside:
            quoted.append(word_)
            if word.endswith('"'):
                inside = False
                text = " ".join(quoted)
                result.append(text[1:-1])
        else:
            result.append(word_)
    return result


def _key_code(name: str) -> str | None:
    """getKeyCode: a number, or a KeyEvent name with or without KEYCODE_; canonical key name."""
    return canonical_key(name)


class MonkeyServer:
    """One `monkey --port N` process: its vars, its pending touch and key state, its count."""

    def __init__(self, phone, program: Program) -> None:
        self.phone = phone
        self.program = program
        self.events = 0
        self._touch_down: tuple[int, int] | None = None
        self._start_focus = phone.system.focused_window()
        self._current: tuple[str, str] | None = None

    # -- MonkeySourceNetworkVars ------------------------------------------------------------
    def _vars(self) -> dict[str, str | None]:
        props = self.phone.props
        system = self.phone.system
        current = self._current_activity()
        return {
            # the intent's action, categories and data are not kept here: null (an OK with no value)
            "am.current.action": None,
            "am.current.categories": None,
            "am.current.comp.class": None if current is None else current[1],
            "am.current.comp.package": None if current is None else current[0],
            "am.current.data": None,
            "am.current.package": None if current is None else current[0],
            "build.board": _prop(props, "ro.product.board"),
            "build.brand": str(_build_time(props)),  # the source's second put: Build.TIME
            "build.cpu_abi": _prop(props, "ro.product.cpu.abi"),
            "build.device": _prop(props, "ro.product.device"),
            "build.display": _prop(props, "ro.build.display.id"),
            "build.fingerprint": _prop(props, "ro.build.fingerprint"),
            "build.host": _prop(props, "ro.build.host"),
            "build.id": _prop(props, "ro.build.id"),
            "build.manufacturer": _prop(props, "ro.product.manufacturer"),
            "build.model": _prop(props, "ro.product.model"),
            "build.product": _prop(props, "ro.product.name"),
            "build.tags": _prop(props, "ro.build.tags"),
            "build.type": _prop(props, "ro.build.type"),
            "build.user": _prop(props, "ro.build.user"),
            "build.version.codename": _prop(props, "ro.build.version.codename"),
            "build.version.incremental": _prop(props, "ro.build.version.incremental"),
            "build.version.release": _prop(props, "ro.build.version.release"),
            "build.version.sdk": _prop(props, "ro.build.version.sdk"),
            "clock.millis": str(self.phone.clock_ms()),
            # SystemClock.elapsedRealtime() and uptimeMillis(): the phone's one clock (kernel/clock.py)
            "clock.realtime": str(self.phone.clock.elapsed_ms()),
            "clock.uptime": str(self.phone.clock.uptime_ms()),
            "display.density": repr(self.phone.system.density / 160),  # Float.toString(dm.density)
            "display.height": str(system.height),
            "display.width": str(system.width),
            "monkey.version": str(MONKEY_NETWORK_VERSION),
        }

    def _current_activity(self) -> tuple[str, str] | None:
        """Monkey.currentPackage / currentIntent: null until an activity starts or resumes after
        the monkey started (its ActivityController sees it), then the latest one."""
        focus = self.phone.system.focused_window()
        if self._current is not None or focus != self._start_focus:
            self._current = focus
        return self._current

    # -- commands ---------------------------------------------------------------------------
    async def run_command(self, parts: list[str]) -> str | None:
        """The answer line for one command (None: no answer, an unknown command)."""
        name, args = parts[0], parts[1:]
        system = self.phone.system
        if name == "tap":
            point = _ints(args, 2)
            if point is None:
                return _EARG
            self._inject(lambda: system.tap(*point), 2)
            return "OK"
        if name == "touch":
            point = _ints(args[1:], 2) if len(args) == 3 else None
            if point is None or args[0] not in ("down", "up", "move"):
                return _EARG
            if args[0] == "down":
                self._touch_down = point
            elif args[0] == "up":
                start, self._touch_down = self._touch_down or point, None
                if start == point:
                    self._inject(lambda: system.tap(*point), 1)
                else:
                    self._inject(lambda: system.swipe(*start, *point), 1)
            else:
                self.events += 1
            return "OK"
        if name in ("press", "key"):
            if (name == "press" and len(args) != 1) or (name == "key" and len(args) != 2):
                return _EARG
            key = _key_code(args[-1])
            if key is None or (name == "key" and args[0] not in ("down", "up")):
                return _EARG
            if name == "press" or args[0] == "up":  # a key acts when it is released
                self._inject(lambda: system.key(key), 2 if name == "press" else 1)
            else:
                self.events += 1
            return "OK"
        if name == "type":
            if len(args) != 1:
                return _EARG
            self._inject(lambda: system.input_text(args[0]), 2 * len(args[0]))
            return "OK"
        if name == "wake":
            return "OK"  # PowerManager.wakeUp: the virtual phone's screen is always on
        if name == "sleep":
            if len(args) != 1 or _ints(args, 1) is None:
                return _EARG
            # MonkeyThrottleEvent: Thread.sleep on the phone, i.e. the phone's clock moves by its
            # length and no host time passes, as with the shell's `sleep` (kernel/clock.py)
            self.phone.advance_clock(int(args[0]))
            self.events += 1
            return "OK"
        if name in ("flip", "trackball"):
            ok = (len(args) == 1 and args[0] in ("open", "close")) if name == "flip" else _ints(args, 2) is not None
            if not ok:
                return _EARG
            self.events += 1
            return "OK"
        if name == "listvar":
            return "OK:" + "".join(f"{key} " for key in sorted(self._vars()))
        if name == "getvar":
            if len(args) != 1:
                return _EARG
            variables = self._vars()
            if args[0] not in variables:
                return "ERROR:unknown var"
            value = variables[args[0]]
            return "OK" if value is None else f"OK:{value}"
        if name == "deferreturn":
            if len(args) < 3 or args[0] != "screenchange" or args[2] not in _COMMANDS:
                return _EARG
            return await self.run_command(args[2:])
        if name in ("listviews", "queryview", "getrootview", "getviewswithtext"):
            return f"ERROR:{name} is not modelled by the virtual phone"
        return None

    def _inject(self, action, events: int) -> None:
        with self.phone._lock:
            action()
        self.events += events

    async def serve(self, conn: "SocketConnection") -> None:
        """One client: read lines, answer each (MonkeySourceNetwork.getNextEvent)."""
        buffered = b""
        while self.program.running:
            while b"\n" not in buffered:
                chunk = await conn.read()
                if not chunk:
                    return  # "Connection dropped.": as `done`
                buffered += chunk
            raw, _, buffered = buffered.partition(b"\n")
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if line == "done":
                return
            if line == "quit":
                await conn.write(b"OK\n")
                self.quit()
                return
            if line.startswith("#"):
                continue
            parts = command_line_split(line)
            if not parts or parts[0] not in _COMMANDS:
                continue  # translateCommand: an unknown command is not answered
            answer = await self.run_command(parts)
            if answer is not None:
                await conn.write(answer.encode() + b"\n")

    def quit(self) -> None:
        self.program.print(f"Events injected: {self.events}\n"
                           "## Network stats: elapsed time=4ms (0ms mobile, 0ms wifi, 4ms not connected)\n")
        self.program.exit(0)


#: MonkeySourceNetwork.COMMAND_MAP's names
_COMMANDS = frozenset({"flip", "touch", "trackball", "key", "sleep", "wake", "tap", "press", "type", "listvar",
                       "getvar", "listviews", "queryview", "getrootview", "getviewswithtext", "deferreturn"})


def _prop(props, name: str) -> str:
    """Build.getString: the property, or "unknown" when unset."""
    return props.get(name) or "unknown"


def _build_time(props) -> int:
    """Build.TIME: ro.build.date.utc in milliseconds (getLong gives -1 when unset)."""
    try:
        return int(props.get("ro.build.date.utc", "")) * 1000
    except ValueError:
        return -1000


def _ints(args: list[str], count: int) -> tuple[int, ...] | None:
    """Integer.parseInt of exactly ``count`` arguments, None when one is not a number."""
    if len(args) != count:
        return None
    try:
        return tuple(int(a, 10) for a in args)
    except ValueError:
        return None


def start_network_monkey(inv: "Invocation", port: int) -> int:
    """Monkey.run with --port: bind the loopback port, then serve clients until `quit`."""
    program = Program(inv.phone, "monkey")
    server = MonkeyServer(inv.phone, program)
    try:
        program.listen(f"tcp:{port}", server.serve)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        inv.out("Error binding to network socket.\n")  # Monkey.run: new MonkeySourceNetwork threw
        return 251  # Monkey.run returns -5
    inv.session.hold(program)
    return 0


MONKEY_NETWORK.append(start_network_monkey)

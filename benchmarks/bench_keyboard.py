"""Print what the soft keyboard adds to the step that shows or hides it.

A step is what the harness does per agent action on the phone, in-process
here (no adb): the input, then `uiautomator dump` XML and a PNG screenshot.
Each figure pairs a step that shows (or hides) the keyboard with the same
step when the keyboard's state does not change, on the same screen:

- show: a tap on a text field while the keyboard is hidden (it comes up,
  the window is laid out again around it, its bands are drawn) against the
  same tap with the keyboard already up;
- hide: BACK while the keyboard is up (it goes, the window is laid out
  again) against a tap on the keyboard's strip, which changes nothing.

Scenes: Notes' "Add a new note" dialog (a floating window re-centred above
the keyboard) and a Messenger conversation (adjustResize: the thread is laid
out again in the shorter space).  Medians and p90 in ms over N rounds, of
the thread's CPU time by default (the machine's other load barely moves it),
of wall-clock time with --wall:

    python benchmarks/bench_keyboard.py [--runs 200] [--wall]
"""

from __future__ import annotations

import argparse
import statistics
import time

from pytest_mobileagent.virtual_phone import VirtualPhone
from pytest_mobileagent.virtual_phone.framework.ui.keyboard import IME_HEIGHT, STRIP_H
from pytest_mobileagent.virtual_phone.framework.ui.window import NAV_BAR_H

from _timing import spread

CLOCK = time.thread_time
NOTES = "com.simplemobiletools.notes.pro"
SMS = "com.simplemobiletools.smsmessenger"


def _centre(system, id_suffix: str) -> tuple[int, int]:
    import re

    xml = system.dump_xml()
    match = re.search(r'resource-id="[^"]*' + re.escape(id_suffix) + r'"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"',
                      xml)
    assert match, id_suffix
    l, t, r, b = map(int, match.groups())
    return (l + r) // 2, (t + b) // 2


def _notes_dialog() -> VirtualPhone:
    phone = VirtualPhone()
    phone.run_shell(f"monkey -p {NOTES} -c android.intent.category.LAUNCHER 1")
    system = phone.system
    system.key("BACK")  # the note's keyboard
    import re

    xml = system.dump_xml()
    l, t, r, b = map(int, re.search(r'content-desc="Create a new note"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"',
                                    xml).groups())
    system.tap((l + r) // 2, (t + b) // 2)
    return phone


def _thread() -> VirtualPhone:
    phone = VirtualPhone()
    phone.run_shell(f"cmd role add-role-holder android.app.role.SMS {SMS}")
    phone.run_shell("content insert --uri content://sms/inbox --bind address:s:123456789 --bind body:s:hello")
    phone.run_shell(f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
    system = phone.system
    system.tap(*_centre(system, "conversation_body_short"))
    return phone


def _step(system, action) -> float:
    start = CLOCK()
    action()
    system.dump_xml()
    system.screenshot_png()
    return (CLOCK() - start) * 1000


def measure(phone: VirtualPhone, field_id: str, runs: int) -> dict[str, list[float]]:
    system = phone.system
    strip = (system.width // 4, system.height - NAV_BAR_H - IME_HEIGHT + STRIP_H // 2)
    times: dict[str, list[float]] = {"show": [], "tap, stays up": [], "hide": [], "strip tap, stays up": []}
    if not system.ime.shown:
        system.tap(*_centre(system, field_id))
    for _ in range(runs):
        field = _centre(system, field_id)  # where the field is with the keyboard up
        times["tap, stays up"].append(_step(system, lambda: system.tap(*field)))
        times["strip tap, stays up"].append(_step(system, lambda: system.tap(*strip)))
        times["hide"].append(_step(system, lambda: system.key("BACK")))
        assert not system.ime.shown
        field = _centre(system, field_id)
        times["show"].append(_step(system, lambda: system.tap(*field)))
        assert system.ime.shown
    return times


def _row(name: str, values: list[float]) -> str:
    median, _p10, p90 = spread(values)  # the rank rounded, not floored: p90 is never below the median
    return f"  {name:<22} median {median:6.3f} ms   p90 {p90:6.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--wall", action="store_true",
                        help="wall-clock time instead of the thread's CPU time (which a busy machine disturbs less)")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.thread_time
    for title, phone, field in (("Notes 'Add a new note' dialog", _notes_dialog(), "locked_note_title"),
                                ("Messenger conversation (adjustResize)", _thread(), "thread_type_message")):
        measure(phone, field, 5)  # first sight of each screen: its bands enter the frame buffer's cache
        times = measure(phone, field, args.runs)
        clock = "wall" if args.wall else "CPU"
        print(f"{title}: one step = input + dump + screenshot, {args.runs} rounds, {clock} time")
        for name, values in times.items():
            print(_row(name, values))
        show = statistics.median(times["show"]) - statistics.median(times["tap, stays up"])
        hide = statistics.median(times["hide"]) - statistics.median(times["strip tap, stays up"])
        print(f"  added by the keyboard: show {show:+.3f} ms, hide {hide:+.3f} ms (medians' difference)")


if __name__ == "__main__":
    main()

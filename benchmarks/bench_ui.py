"""Print the UI layer's own costs: dump, screenshot (paint + PNG), one tap.

Measured in-process on AndroidSystem (no adb), medians and p90 over N runs:

    python benchmarks/bench_ui.py [--runs 60]

- dump: `dump_xml()` after a change (the cache is dropped before each run)
- paint / encode: the two halves of a whole-screen screenshot
- pillow png: Pillow's own encoder at compress_level=1, for comparison
- pack: a 4-band strip's PNG rows out of Pillow, `tobytes` against png.packed_rows
- screenshot, whole screen new: what the first screenshot of a new activity costs
- screenshot, dialog new: the same for Notes' "Add a new note" dialog, whose
  scrim darkens the screen behind it
- calendar month / app launcher grid new: the first screenshot of the Calendar's
  monthly view (42 day cells) and of the App Launcher's grid (seven apps added);
  "build" is the rebuild and layout of the month view after a tap on an arrow
- screenshot after a key: the frame buffer repaints only the changed bands
- screenshot after switching apps: launcher <-> calculator, every band changes
- tap: one tap including the rebuild and change detection
- screenshot, music albums / recorder player new: the first screenshot of
  Music Player's Albums tab and Voice Recorder's Player tab (songs and
  recordings from fixtures/audio on a VirtualPhone), and one tap there
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from pathlib import Path

from pytest_mobileagent import png
from pytest_mobileagent.judge import Screen
from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.framework.ui import frame, render
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

CALC = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"
CONTACTS = "com.simplemobiletools.contacts.pro"
SMS = "com.simplemobiletools.smsmessenger"
CALENDAR = "com.simplemobiletools.calendar.pro"
APP_LAUNCHER = "com.simplemobiletools.applauncher"
MUSIC = "com.simplemobiletools.musicplayer"
RECORDER = "com.simplemobiletools.voicerecorder"
AUDIO = Path(__file__).resolve().parent.parent / "fixtures" / "audio"


def _audio_phone(package: str, tab: str):
    """A VirtualPhone with the audio fixtures scanned, showing `package` on its `tab` tab."""
    from pytest_mobileagent.virtual_phone import VirtualPhone

    phone = VirtualPhone()
    for folder, target in (("music", "/sdcard/Music"), ("recordings", "/sdcard/Music/Recordings")):
        for path in sorted((AUDIO / folder).iterdir()):
            phone.fs.write_file(f"{target}/{path.name}", path.read_bytes(), parents=True)
            phone.run_shell(f"am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{target}/{path.name}")
    phone.run_shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    screen = Screen(package)
    screen.update(phone.system.dump_xml())
    phone.system.tap(*screen.get(id="tab_item_label", text=tab).center)
    if tab == "Albums" and "album_title" not in phone.system.dump_xml():
        raise SystemExit("bench_ui: the Albums tab did not open")
    return phone.system


def _stats(samples: list[float]) -> str:
    samples = sorted(samples)
    p90 = samples[min(len(samples) - 1, int(round(0.9 * (len(samples) - 1))))]
    return f"median {statistics.median(samples):6.2f} ms   p90 {p90:6.2f} ms"


def _time(fn, runs: int, before=None) -> list[float]:
    out = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    runs = parser.parse_args().runs

    start = time.perf_counter()
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    boot = (time.perf_counter() - start) * 1000
    system.start_activity(CALC)
    system.screenshot_png()  # fonts loaded once, as on a warm phone
    seven = (135, 1251)

    def drop_dump_cache():
        system._xml.clear()

    image = render.paint(system._ops, system.width, system.height)

    def pillow_png():
        image.save(io.BytesIO(), "PNG", compress_level=1)

    strip = render.paint(system._ops, system.width, system.height, top=0, bottom=4 * frame.BAND_ROWS)
    stride = strip.size[0] * 3 + 1

    def whole_screen_png(of: AndroidSystem = system):
        buffer = frame.FrameBuffer(of.width, of.height)  # nothing cached: every band is new
        buffer.show(of._ops)
        buffer.png()

    def screenshot_after(action):
        def run():
            action()
            start = time.perf_counter()
            system.screenshot_png()
            return (time.perf_counter() - start) * 1000
        return [run() for _ in range(runs)]

    dialog = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    dialog.start_activity(NOTES)
    notes = Screen(NOTES)
    notes.update(dialog.dump_xml())
    dialog.tap(*notes.get(id="new_note").center)
    if "Add a new note" not in dialog.dump_xml():
        raise SystemExit("bench_ui: the Notes dialog did not open")

    # Contacts' main list and SMS Messenger's thread, seeded through their providers as the tasks are.
    contacts = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    contacts.providers.contacts.insert("content://com.android.contacts/raw_contacts", {"account_name": None})
    contacts.providers.contacts.insert("content://com.android.contacts/data", {
        "raw_contact_id": 1, "mimetype": "vnd.android.cursor.item/name", "data1": "Yuzai"})
    contacts.start_activity(CONTACTS)
    sms = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    sms.roles.add("android.app.role.SMS", SMS)
    sms.providers.sms.insert("content://sms/sent", {"address": "123456789", "body": "i luv u"})
    sms.start_activity(SMS, ".activities.ThreadActivity")
    if "i luv u" not in sms.dump_xml() and "Yuzai" not in contacts.dump_xml():
        raise SystemExit("bench_ui: the Contacts / SMS screens did not open")
    calendar = AndroidSystem(clock=PhoneClock(1_714_554_000_000), apps=INSTALLED_APPS)
    calendar.start_activity(CALENDAR)
    cal_screen = Screen(CALENDAR)
    cal_screen.update(calendar.dump_xml())
    arrow = cal_screen.get(id="top_right_arrow").center
    launcher = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    launcher.start_activity(APP_LAUNCHER)
    grid = Screen(APP_LAUNCHER)
    grid.update(launcher.dump_xml())
    launcher.tap(*grid.get(id="fab").center)
    grid.update(launcher.dump_xml())
    for node in grid.find(id="launcher_checkbox")[:7]:
        launcher.tap(*node.center)
    grid.update(launcher.dump_xml())
    launcher.tap(*grid.get(id="android:id/button1").center)
    if "launcher_label" not in launcher.dump_xml():
        raise SystemExit("bench_ui: the App Launcher grid stayed empty")

    switch = iter(range(10**9))

    def switch_app():
        if next(switch) % 2:
            system.start_activity(CALC)
        else:
            system.go_home()

    print(f"UI layer, calculator screen, {runs} runs")
    print(f"  boot (AndroidSystem())          {boot:6.2f} ms")
    print(f"  dump_xml                        {_stats(_time(system.dump_xml, runs, drop_dump_cache))}")
    print(f"  dump_xml --compressed           {_stats(_time(lambda: system.dump_xml(True), runs, drop_dump_cache))}")
    print(f"  paint (whole screen)            {_stats(_time(lambda: render.paint(system._ops, 1080, 2340), runs))}")
    print(f"  encode_png (whole screen)       {_stats(_time(lambda: png.encode_png(image), runs))}")
    print(f"  pillow png level 1              {_stats(_time(pillow_png, max(5, runs // 4)))}")
    print(f"  pack 4 bands: Image.tobytes     {_stats(_time(lambda: strip.tobytes('raw', ('RGB', stride)), runs))}")
    print(f"  pack 4 bands: png.packed_rows   {_stats(_time(lambda: png.packed_rows(strip, stride), runs))}")
    print(f"  screenshot, whole screen new    {_stats(_time(whole_screen_png, runs))}")
    print(f"  screenshot, dialog new          {_stats(_time(lambda: whole_screen_png(dialog), runs))}")
    print(f"  screenshot, contacts list new   {_stats(_time(lambda: whole_screen_png(contacts), runs))}")
    print(f"  screenshot, sms thread new      {_stats(_time(lambda: whole_screen_png(sms), runs))}")
    print(f"  screenshot, calendar month new  {_stats(_time(lambda: whole_screen_png(calendar), runs))}")
    print(f"  calendar month build (arrow)    {_stats(_time(lambda: calendar.tap(*arrow), runs))}")
    print(f"  screenshot, launcher grid new   {_stats(_time(lambda: whole_screen_png(launcher), runs))}")
    print(f"  screenshot after a key          {_stats(screenshot_after(lambda: system.tap(*seven)))}")
    print(f"  screenshot after switching apps {_stats(screenshot_after(switch_app))}")
    print(f"  screenshot, unchanged (cached)  {_stats(_time(system.screenshot_png, runs))}")
    print(f"  tap                             {_stats(_time(lambda: system.tap(*seven), runs))}")
    for package, tab, label in ((MUSIC, "Albums", "music albums"), (RECORDER, "Player", "recorder player")):
        audio = _audio_phone(package, tab)
        audio.screenshot_png()
        print(f"  screenshot, {label + ' new':<20}{_stats(_time(lambda: whole_screen_png(audio), runs))}")
        title = Screen(package)
        title.update(audio.dump_xml())
        spot = title.get(id="top_toolbar_search_icon").center  # a tap that changes nothing visible
        print(f"  tap, {label:<27}{_stats(_time(lambda: audio.tap(*spot), runs))}")
    storage_apps(runs, whole_screen_png)


def storage_apps(runs: int, whole_screen_png) -> None:
    """New-screen screenshots of the File Manager and the Gallery (thumbnails of real pictures)."""
    from pathlib import Path

    from pytest_mobileagent.virtual_phone import VirtualPhone
    from pytest_mobileagent.virtual_phone.framework.ui import bitmaps

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    phone = VirtualPhone(seed=3)
    for i in range(12):  # a dozen pictures and clips in three folders
        name = ("sunset.jpg", "forest.jpg", "beach.png", "clip_red.mp4")[i % 4]
        folder = ("Download", "DCIM/Camera", "Pictures")[i % 3]
        phone.fs.write_file(f"/sdcard/{folder}/{i}_{name}", (fixtures / name).read_bytes(), parents=True)
    phone.run_shell("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard")
    system = phone.system

    def cold() -> None:  # forget every decoded picture: the first screenshot after boot
        bitmaps._decoded.cache_clear()
        bitmaps.fitted.cache_clear()

    screens = (("file manager, folder list", "com.simplemobiletools.filemanager.pro", None),
               ("gallery, folder grid", "com.simplemobiletools.gallery.pro", None),
               ("gallery, media grid", "com.simplemobiletools.gallery.pro", "Download"))
    print(f"File Manager and Gallery, {runs} runs")
    for label, package, folder in screens:
        system.start_activity(package)
        if folder is not None:
            system.tap(*_centre(system, folder))
        print(f"  screenshot new: {label:<26}{_stats(_time(lambda: whole_screen_png(system), runs))}")
        print(f"    same, pictures not yet decoded  {_stats(_time(lambda: whole_screen_png(system), runs, cold))}")


def _centre(system, text: str) -> tuple[int, int]:
    screen = Screen(system.focused_window()[0])
    screen.update(system.dump_xml())
    node = screen.get(text=text)
    if node is None:
        raise SystemExit(f"bench_ui: no {text!r} on the screen")
    return node.center


if __name__ == "__main__":
    main()

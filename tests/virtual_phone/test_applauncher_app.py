"""Simple App Launcher and the phone's system apps, driven through the real adb server."""

from __future__ import annotations

import pytest
from adb_ui import AdbUI, nested, structure

APP = "com.simplemobiletools.applauncher"
MAIN = f"{APP}/{APP}.activities.MainActivity"
SYSTEM_APPS = {"com.android.chrome": "Chrome", "com.android.camera2": "Camera"}


@pytest.fixture
def launcher(adb_device, phone):
    ui = AdbUI(adb_device, phone, APP).launch()
    yield ui
    ui.close()


def add(ui: AdbUI, *labels: str) -> None:
    ui.tap(id="fab")
    for label in labels:
        ui.tap(id="launcher_checkbox", text=label)
    ui.tap(text="OK")


def grid(ui: AdbUI) -> list[str]:
    return ui.texts("launcher_label")


def test_a_fresh_install_shows_an_empty_grid(launcher):
    assert launcher.activity() == MAIN
    assert launcher.text("no_items_placeholder") == "No items found."
    launcher.tap(id="no_items_placeholder_2")   # "Manage visible app icons" opens the add dialog
    assert launcher.has(id="launcher_checkbox")


def test_add_apps_lists_the_phones_launchable_apps_with_check_boxes(launcher):
    launcher.tap(id="fab")
    boxes = launcher.all(id="launcher_checkbox")
    labels = [b["text"] for b in boxes]
    assert {"Chrome", "Camera", "Calculator", "Calendar"} <= set(labels)   # the rest scroll in (many apps)
    assert "App Launcher" not in labels and labels == sorted(labels, key=str.lower)
    assert all(b["checkable"] == "true" and b["checked"] == "false" for b in boxes)
    launcher.tap(text="Chrome").tap(text="Camera")
    assert launcher.one(text="Chrome")["checked"] == "true"
    launcher.tap(text="Cancel")
    assert grid(launcher) == []
    add(launcher, "Chrome", "Camera")
    assert grid(launcher) == ["Camera", "Chrome"]
    clicked = [e["text"] for e in launcher.clicks()]
    assert ["Chrome"] in clicked and ["Camera"] in clicked and ["OK"] in clicked
    launcher.tap(id="fab")   # shown launchers come ticked; unticking one removes it
    assert launcher.one(text="Chrome")["checked"] == "true"
    launcher.tap(text="Chrome").tap(text="OK")
    assert grid(launcher) == ["Camera"]


def test_tapping_a_launcher_starts_the_app_and_closes_this_one(launcher):
    # a fresh Chrome shows its first run (another test on the session phone may have accepted it)
    launcher.device.shell("pm clear com.android.chrome")
    add(launcher, "Chrome")
    launcher.tap(text="Chrome")
    assert launcher.activity() == "com.android.chrome/com.google.android.apps.chrome.Main"
    assert launcher.has(id="com.android.chrome:id/terms_accept")
    launcher.key("BACK")
    assert launcher.device.app_current().package == "com.android.launcher3", "App Launcher closed itself"


def test_with_close_app_off_the_launcher_stays_behind(launcher):
    launcher.tap(desc="More options").tap(id="title", text="Settings")
    assert launcher.one(id="settings_close_app")["checked"] == "true"
    launcher.tap(id="settings_close_app_holder")
    assert launcher.one(id="settings_close_app")["checked"] == "false"
    launcher.key("BACK")
    add(launcher, "Camera")
    launcher.tap(text="Camera")
    assert launcher.activity() == "com.android.camera2/com.android.camera.CameraLauncher"
    launcher.device.shell(f"monkey -p {APP} -c android.intent.category.LAUNCHER 1")
    assert launcher.activity() == MAIN and grid(launcher) == ["Camera"]


def test_rename_rejects_an_empty_name(launcher):
    add(launcher, "Chrome", "Camera")
    launcher.long_press(text="Chrome")
    assert launcher.text("actionbar_title") == "1 / 2"
    launcher.tap(id="cab_edit")
    field = launcher.one(id="edit_launcher_edittext")
    assert field["text"] == "Chrome" and field["focused"] == "true"
    for _ in "Chrome":
        launcher.key("DEL")
    launcher.tap(text="OK")
    assert launcher.has(id="edit_launcher_edittext"), "an empty name keeps the dialog open"
    launcher.device.shell("input text MyChrome")
    launcher.tap(text="OK")
    assert grid(launcher) == ["Camera", "MyChrome"]
    assert not launcher.has(id="actionbar_title")


def test_remove_explains_once_then_removes(launcher):
    add(launcher, "Chrome", "Camera", "Clock")
    launcher.long_press(text="Chrome").tap(id="cab_remove")
    assert "not uninstall" in launcher.text("message")
    launcher.tap(text="Cancel")
    assert grid(launcher) == ["Camera", "Chrome", "Clock"]
    launcher.tap(id="cab_remove").tap(text="OK")
    assert grid(launcher) == ["Camera", "Clock"]
    launcher.long_press(text="Clock").tap(id="cab_remove")   # explained already: removed at once
    assert grid(launcher) == ["Camera"]
    assert "com.android.chrome" in launcher.device.shell("pm list packages chrome"), "the app stays installed"


def test_selection_grows_with_taps_and_back_ends_it(launcher):
    add(launcher, "Chrome", "Camera")
    launcher.long_press(text="Chrome").tap(text="Camera")
    assert launcher.text("actionbar_title") == "2 / 2"
    assert not launcher.has(id="cab_edit"), "rename needs exactly one item"
    launcher.key("BACK")
    assert not launcher.has(id="actionbar_title") and launcher.activity() == MAIN


def test_search_filters_the_grid_and_back_clears_it(launcher):
    add(launcher, "Chrome", "Camera")
    launcher.type("chr", id="top_toolbar_search")
    assert grid(launcher) == ["Chrome"]
    launcher.device.shell("input text zz")
    assert grid(launcher) == [] and launcher.has(id="no_items_placeholder")
    assert not launcher.has(id="no_items_placeholder_2")
    launcher.key("BACK")  # the first BACK hides the keyboard
    assert grid(launcher) == [] and launcher.text("top_toolbar_search") == "chrzz"
    launcher.key("BACK")
    assert grid(launcher) == ["Camera", "Chrome"] and launcher.text("top_toolbar_search") == "Search"


def test_the_search_icon_opens_the_search_and_its_back_arrow_closes_it(launcher):
    add(launcher, "Chrome", "Camera")
    launcher.tap(id="top_toolbar_search_icon")
    assert launcher.one(id="top_toolbar_search")["focused"] == "true"
    launcher.device.shell("input text cam")
    assert grid(launcher) == ["Camera"]
    launcher.tap(id="top_toolbar_search_icon")
    assert grid(launcher) == ["Camera", "Chrome"]
    assert launcher.one(id="top_toolbar_search")["focused"] == "false"


def test_toggle_app_name_hides_and_shows_labels(launcher):
    add(launcher, "Chrome", "Camera")
    launcher.tap(id="toggle_app_name")
    assert grid(launcher) == [] and len(launcher.all(id="launcher_holder")) == 2
    launcher.tap(id="toggle_app_name")
    assert grid(launcher) == ["Camera", "Chrome"]


def test_sort_by_title_descending_and_custom(launcher):
    add(launcher, "Chrome", "Camera", "Clock")
    launcher.tap(id="sort")
    assert launcher.one(id="sorting_dialog_radio_title")["checked"] == "true"
    assert launcher.one(id="sorting_dialog_radio_ascending")["checked"] == "true"
    launcher.tap(id="sorting_dialog_radio_descending").tap(text="OK")
    assert grid(launcher) == ["Clock", "Chrome", "Camera"]
    launcher.tap(id="sort").tap(id="sorting_dialog_radio_custom")
    assert not launcher.has(id="sorting_dialog_radio_order"), "custom sorting has no order"
    launcher.tap(text="OK")
    # custom order: Change order shows every item's drag handle; dragging Clock's onto Chrome moves it there
    launcher.long_press(text="Clock").tap(id="cab_change_order")
    handles, holders, shown = launcher.all(id="launcher_drag_handle"), launcher.all(id="launcher_holder"), grid(launcher)
    assert len(handles) == 3 and not launcher.has(desc="Move left")
    assert shown == ["Camera", "Chrome", "Clock"]  # the custom order: as they were added
    (hx, hy), (cx, cy) = launcher.centre(handles[2]), launcher.centre(holders[1])
    launcher.device.shell(f"input draganddrop {hx} {hy} {cx} {cy} 600")
    assert grid(launcher) == ["Camera", "Clock", "Chrome"]
    launcher.key("BACK")
    assert grid(launcher) == ["Camera", "Clock", "Chrome"]
    launcher.device.shell(f"am force-stop {APP}")
    launcher.device.shell(f"monkey -p {APP} -c android.intent.category.LAUNCHER 1")
    assert grid(launcher) == ["Camera", "Clock", "Chrome"], "the custom order is stored"


def test_column_count_dialog(launcher):
    add(launcher, "Chrome", "Camera")
    launcher.tap(desc="More options").tap(id="title", text="Column count")
    launcher.tap(text="2 columns")
    first, second = launcher.all(id="launcher_holder")
    assert first["bounds"].split("][")[0] == "[0,294" and AdbUI.centre(second)[0] > 540


def test_about_faq_and_contributors(launcher):
    launcher.tap(desc="More options").tap(id="title", text="About")
    launcher.tap(text="Frequently asked questions")
    assert launcher.activity() == f"{APP}/com.simplemobiletools.commons.activities.FAQActivity"
    assert launcher.has(text="Can I make this app the default launcher?")   # Compose: no resource-ids
    launcher.key("BACK").tap(text="Contributors")
    assert launcher.activity() == f"{APP}/com.simplemobiletools.commons.activities.ContributorsActivity"
    windows = [e["text"] for e in launcher.events if e["type"] == "window_state"]
    assert ["Frequently asked questions"] in windows and windows[-1] == ["Contributors"]


# -- the system apps -------------------------------------------------------------------------------


def test_system_apps_are_listed_launched_and_on_the_home_screen(launcher):
    packages = launcher.device.shell("pm list packages -s")
    third_party = launcher.device.shell("pm list packages -3")
    for package, label in SYSTEM_APPS.items():
        assert f"package:{package}\n" in packages and package not in third_party
        launcher.device.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        assert launcher.device.app_current().package == package
    launcher.key("HOME")
    home = [n["text"] for n in launcher.nodes() if n["text"]]
    assert {"Chrome", "Camera", "App Launcher"} <= set(home)


# -- the seeds' adb commands -------------------------------------------------------------------------


def test_seed_commands_behave_as_on_android(launcher):
    def shell(cmd: str):
        # shell v2: separate stdout/stderr and the real exit status, as `adb shell` gets them
        result = launcher.device.shell2(cmd, v2=True)
        result.output = result.stdout + result.stderr
        return result

    ok = shell(f"monkey -p {APP} -c android.intent.category.LAUNCHER 1")
    assert ok.returncode == 0 and "Events injected: 1" in ok.output
    missing = shell("monkey -p com.example.nope -c android.intent.category.LAUNCHER 1")
    assert missing.returncode == 252 and "No activities found to run, monkey aborted." in missing.output
    assert shell(f"pm clear {APP}").output.strip() == "Success"
    bad = shell("pm clear com.example.nope")
    assert bad.returncode == 1 and bad.output.strip() == "Failed"
    date = shell("date +%Y-%m-%d")
    assert date.returncode == 0 and len(date.output.strip()) == 10
    setting = shell("date 010203042024")
    assert setting.returncode == 1 and setting.output.startswith("date: ")
    wrong = shell("input tap x 5")
    # Android 14's InputShellCommand (run as `cmd input`) throws: exit status 255
    assert wrong.returncode == 255 and "Error: Invalid arguments for command: tap" in wrong.output
    started = shell("am start -n com.android.chrome/com.google.android.apps.chrome.Main")
    assert started.returncode == 0 and "Starting: Intent" in started.output
    nope = shell("am start -n com.android.chrome/.Nope")
    assert nope.returncode == 1 and "does not exist" in nope.output


# -- dump fidelity -----------------------------------------------------------------------------------

#: (nearest named ancestor, class, id) facts from the recorded screens (DroidTask, July 2023)
RECORDED_MAIN = {
    ("main_coordinator", "android.widget.LinearLayout", "main_menu"),
    ("main_menu", "android.widget.LinearLayout", "top_app_bar_layout"),
    ("top_app_bar_layout", "android.widget.RelativeLayout", "top_toolbar_holder"),
    ("top_toolbar_holder", "android.widget.ImageView", "top_toolbar_search_icon"),
    ("top_toolbar_holder", "android.widget.EditText", "top_toolbar_search"),
    ("top_toolbar_holder", "android.view.ViewGroup", "top_toolbar"),
    ("top_toolbar", "android.widget.Button", "sort"),
    ("top_toolbar", "android.widget.Button", "toggle_app_name"),
    ("main_coordinator", "android.widget.RelativeLayout", "main_relative_layout"),
    ("main_relative_layout", "android.view.ViewGroup", "coordinator_layout"),
    ("coordinator_layout", "android.widget.RelativeLayout", "launchers_holder"),
    ("launchers_holder", "android.widget.RelativeLayout", "launchers_fastscroller"),
    ("launchers_fastscroller", "androidx.recyclerview.widget.RecyclerView", "launchers_grid"),
    ("launchers_grid", "android.widget.RelativeLayout", "launcher_holder"),
    ("launcher_holder", "android.widget.ImageView", "launcher_icon"),
    ("launcher_holder", "android.widget.TextView", "launcher_label"),
    ("coordinator_layout", "android.widget.ImageButton", "fab"),
}
RECORDED_EMPTY = {
    ("launchers_holder", "android.widget.TextView", "no_items_placeholder"),
    ("launchers_holder", "android.widget.TextView", "no_items_placeholder_2"),
}
RECORDED_SORT = {
    ("custom", "android.widget.ScrollView", "sorting_dialog_scrollview"),
    ("sorting_dialog_scrollview", "android.widget.LinearLayout", "sorting_dialog_holder"),
    ("sorting_dialog_holder", "android.widget.RadioGroup", "sorting_dialog_radio_sorting"),
    ("sorting_dialog_radio_sorting", "android.widget.RadioButton", "sorting_dialog_radio_title"),
    ("sorting_dialog_radio_sorting", "android.widget.RadioButton", "sorting_dialog_radio_custom"),
    ("sorting_dialog_holder", "android.widget.ImageView", "sorting_dialog_divider"),
    ("sorting_dialog_holder", "android.widget.RadioGroup", "sorting_dialog_radio_order"),
    ("sorting_dialog_radio_order", "android.widget.RadioButton", "sorting_dialog_radio_ascending"),
    ("sorting_dialog_radio_order", "android.widget.RadioButton", "sorting_dialog_radio_descending"),
    ("topPanel", "android.widget.TextView", "dialog_title_textview"),
}
RECORDED_SETTINGS = {
    ("settings_coordinator", "android.view.ViewGroup", "settings_toolbar"),
    ("settings_coordinator", "android.widget.ScrollView", "settings_nested_scrollview"),
    ("settings_holder", "android.widget.TextView", "settings_color_customization_section_label"),
    ("settings_holder", "android.view.ViewGroup", "settings_color_customization_holder"),
    ("settings_holder", "android.widget.RelativeLayout", "settings_close_app_holder"),
    ("settings_close_app_holder", "android.widget.CheckBox", "settings_close_app"),
}


ATTRIBUTES = ("index,text,resource-id,class,package,content-desc,checkable,checked,clickable,enabled,focusable,"
              "focused,scrollable,long-clickable,password,selected,bounds")


def test_dump_matches_the_recorded_screens(launcher):
    facts = structure(nested(launcher.device.dump_hierarchy()))
    assert RECORDED_EMPTY <= facts
    add(launcher, "Chrome", "Camera")
    main = nested(launcher.device.dump_hierarchy())
    assert RECORDED_MAIN <= structure(main)
    assert all(n["keys"] == ATTRIBUTES for n in main), "uiautomator's attribute order"
    holder = launcher.one(id="launcher_holder")
    assert holder["clickable"] == "true" and holder["long-clickable"] == "true"
    assert launcher.one(id="sort")["content-desc"] == "Sort by"
    assert launcher.one(id="toggle_app_name")["content-desc"] == "Toggle app name visibility"
    launcher.tap(id="sort")
    assert RECORDED_SORT <= structure(nested(launcher.device.dump_hierarchy()))
    launcher.key("BACK").tap(desc="More options")
    assert [n["text"] for n in launcher.all(id="title")] == ["Column count", "Settings", "About"]
    launcher.tap(id="title", text="Settings")
    assert RECORDED_SETTINGS <= structure(nested(launcher.device.dump_hierarchy()))
    assert launcher.text("settings_close_app") == "Close this app at launching a different one"

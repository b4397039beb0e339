"""Dumps of the File Manager and the Gallery against facts from their recorded screens.

The tables below are the resource-ids and classes that the real apps' screens
(DroidTask recordings, 2023) show on the screens these models draw: each
screen of the model must dump those ids with those classes, every node with
the real attribute order, and nothing outside the app's package but the
`android:id/...` frame ids.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from uitools import centre, find, find_all, nodes

from pytest_mobileagent.virtual_phone import VirtualPhone

from test_ui_dump import REAL_ATTRIBUTE_ORDER

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
FM = "com.simplemobiletools.filemanager.pro"
GALLERY = "com.simplemobiletools.gallery.pro"

RECORDED_FM = {
    "main": {"main_coordinator": "android.view.ViewGroup", "main_menu": "android.widget.LinearLayout",
             "top_app_bar_layout": "android.widget.LinearLayout", "top_toolbar_holder": "android.widget.RelativeLayout",
             "top_toolbar_search_icon": "android.widget.ImageView", "top_toolbar_search": "android.widget.EditText",
             "top_toolbar": "android.view.ViewGroup", "sort": "android.widget.Button",
             "main_holder": "android.widget.RelativeLayout", "main_view_pager": "androidx.viewpager.widget.b",
             "items_fragment": "android.widget.RelativeLayout", "items_coordinator": "android.view.ViewGroup",
             "items_wrapper": "android.widget.RelativeLayout", "breadcrumbs": "android.widget.HorizontalScrollView",
             "breadcrumb_text": "android.widget.TextView", "items_swipe_refresh": "android.view.ViewGroup",
             "items_fastscroller": "android.widget.RelativeLayout",
             "items_list": "androidx.recyclerview.widget.RecyclerView", "item_frame": "android.widget.FrameLayout",
             "item_holder": "android.widget.RelativeLayout", "item_icon": "android.widget.ImageView",
             "item_name": "android.widget.TextView", "item_details": "android.widget.TextView",
             "items_fab": "android.widget.ImageButton", "main_tabs_holder": "android.widget.HorizontalScrollView",
             "tab_item_holder": "android.widget.LinearLayout", "tab_item_icon": "android.widget.ImageView",
             "tab_item_label": "android.widget.TextView"},
    "download": {"go_home": "android.widget.Button", "item_date": "android.widget.TextView"},
    "sort": {"sorting_dialog_scrollview": "android.widget.ScrollView", "sorting_dialog_holder": "android.widget.LinearLayout",
             "sorting_dialog_radio_sorting": "android.widget.RadioGroup",
             "sorting_dialog_radio_name": "android.widget.RadioButton",
             "sorting_dialog_radio_size": "android.widget.RadioButton",
             "sorting_dialog_radio_last_modified": "android.widget.RadioButton",
             "sorting_dialog_radio_extension": "android.widget.RadioButton",
             "sorting_dialog_radio_order": "android.widget.RadioGroup",
             "sorting_dialog_radio_ascending": "android.widget.RadioButton",
             "sorting_dialog_radio_descending": "android.widget.RadioButton",
             "sorting_dialog_use_for_this_folder": "android.widget.CheckBox",
             "dialog_title_textview": "android.widget.TextView",
             "parentPanel": "androidx.appcompat.widget.LinearLayoutCompat", "buttonPanel": "android.widget.ScrollView"},
    "storage": {"storage_fragment": "android.widget.RelativeLayout", "storage_nested_scrollview": "android.widget.ScrollView",
                "storage_holder": "android.view.ViewGroup", "free_space_holder": "android.widget.RelativeLayout",
                "free_space_value": "android.widget.TextView", "free_space_label": "android.widget.TextView",
                "main_storage_usage_progressbar": "android.widget.ProgressBar", "total_space": "android.widget.TextView",
                "images_holder": "android.widget.RelativeLayout", "images_size": "android.widget.TextView",
                "others_progressbar": "android.widget.ProgressBar"},
    "settings": {"settings_coordinator": "android.view.ViewGroup", "settings_toolbar": "android.view.ViewGroup",
                 "settings_nested_scrollview": "android.widget.ScrollView", "settings_holder": "android.widget.LinearLayout",
                 "settings_show_hidden_holder": "android.widget.RelativeLayout",
                 "settings_show_hidden": "android.widget.CheckBox", "settings_visibility_label": "android.widget.TextView"},
}
RECORDED_GALLERY = {
    "main": {"directories_coordinator": "android.widget.ScrollView", "main_menu": "android.widget.LinearLayout",
             "top_toolbar_search": "android.widget.EditText", "open_camera": "android.widget.Button",
             "show_all": "android.widget.Button", "directories_holder": "android.widget.RelativeLayout",
             "directories_refresh_layout": "android.view.ViewGroup",
             "directories_fastscroller": "android.widget.RelativeLayout",
             "directories_grid": "androidx.recyclerview.widget.RecyclerView", "dir_holder": "android.widget.RelativeLayout",
             "dir_thumbnail": "android.widget.ImageView", "dir_bottom_holder": "android.widget.LinearLayout",
             "dir_name": "android.widget.TextView", "photo_cnt": "android.widget.TextView"},
    "filter": {"filter_media_dialog_holder": "android.widget.LinearLayout",
               **{f"filter_media_{k}": "android.widget.CheckBox"
                  for k in ("images", "videos", "gifs", "raws", "svgs", "portraits")}},
    "view_type": {"change_view_type_dialog_scrollview": "android.widget.ScrollView",
                  "change_view_type_dialog_radio": "android.widget.RadioGroup",
                  "change_view_type_dialog_radio_grid": "android.widget.RadioButton",
                  "change_view_type_dialog_radio_list": "android.widget.RadioButton",
                  "change_view_type_dialog_group_direct_subfolders": "android.widget.CheckBox"},
    "sort": {"sorting_dialog_radio_path": "android.widget.RadioButton",
             "sorting_dialog_radio_date_taken": "android.widget.RadioButton",
             "sorting_dialog_radio_random": "android.widget.RadioButton",
             "sorting_dialog_radio_custom": "android.widget.RadioButton",
             "sorting_dialog_numeric_sorting": "android.widget.CheckBox"},
    "media": {"media_coordinator": "android.widget.ScrollView", "media_menu": "android.widget.LinearLayout",
              "toggle_filename": "android.widget.Button", "sort": "android.widget.Button",
              "media_holder": "android.widget.RelativeLayout", "media_refresh_layout": "android.view.ViewGroup",
              "media_fastscroller": "android.widget.RelativeLayout",
              "media_grid": "androidx.recyclerview.widget.RecyclerView",
              "media_item_holder": "android.widget.RelativeLayout", "medium_thumbnail": "android.widget.ImageView",
              "play_portrait_outline": "android.widget.ImageView"},
    "settings": {"settings_autoplay_videos_holder": "android.widget.RelativeLayout",
                 "settings_autoplay_videos": "android.widget.CheckBox",
                 # the recorded first screen ends at "Play videos automatically" (9357a956fef6)
                 "settings_videos_label": "android.widget.TextView",
                 "settings_show_hidden_items_holder": "android.widget.RelativeLayout",
                 "settings_change_date_time_format_holder": "android.widget.RelativeLayout",
                 "settings_color_customization_holder": "android.view.ViewGroup",
                 "settings_file_loading_priority": "android.widget.TextView"},
}


class Screens:
    """An in-process phone with media in Download; `visit` walks to a screen and returns its dump."""

    def __init__(self, package: str):
        self.phone = VirtualPhone(seed=5)
        for name in ("sunset.jpg", "beach.png", "clip_red.mp4", "testfile.txt"):
            self.phone.fs.write_file(f"/sdcard/Download/{name}", (FIXTURES / name).read_bytes())
        self.phone.run_shell("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard")
        self.system = self.phone.system
        self.system.start_activity(package)

    def tap(self, **kw) -> "Screens":
        self.system.tap(*centre(find(self.system.dump_xml(), **kw)))
        return self

    def menu(self, title: str) -> "Screens":
        return self.tap(desc="More options").tap(text=title)


FM_PATHS = {
    "main": lambda s: s, "download": lambda s: s.tap(text="Download"), "sort": lambda s: s.tap(desc="Sort by"),
    "storage": lambda s: s.tap(text="Storage"), "settings": lambda s: s.menu("Settings"),
}
GALLERY_PATHS = {
    "main": lambda s: s, "filter": lambda s: s.menu("Filter media"), "view_type": lambda s: s.menu("Change view type"),
    "sort": lambda s: s.menu("Sort by"), "media": lambda s: s.tap(text="Download"),
    "settings": lambda s: s.menu("Settings"),
}


def check_dump(xml: str, package: str, expected: dict[str, str]) -> None:
    for match in re.finditer(r"<node ([^>]*?)/?>", xml):
        assert tuple(re.findall(r'([\w-]+)="', match.group(1))) == REAL_ATTRIBUTE_ORDER
    by_id: dict[str, set[str]] = {}
    for node in nodes(xml):
        assert node["package"] == package
        rid = node["resource-id"]
        assert rid == "" or rid.startswith((f"{package}:id/", "android:id/")), rid
        by_id.setdefault(rid.rpartition("/")[2], set()).add(node["class"])
    for short, cls in expected.items():
        assert short in by_id, f"{short} is missing"
        assert by_id[short] == {cls}, f"{short}: {by_id[short]} instead of {cls}"


@pytest.mark.parametrize("screen", list(FM_PATHS))
def test_file_manager_screens_have_the_recorded_ids_and_classes(screen):
    xml = FM_PATHS[screen](Screens(FM)).system.dump_xml()
    check_dump(xml, FM, RECORDED_FM[screen])


@pytest.mark.parametrize("screen", list(GALLERY_PATHS))
def test_gallery_screens_have_the_recorded_ids_and_classes(screen):
    xml = GALLERY_PATHS[screen](Screens(GALLERY)).system.dump_xml()
    check_dump(xml, GALLERY, RECORDED_GALLERY[screen])


def test_recorded_texts_of_the_main_screens():
    fm = Screens(FM).system.dump_xml()
    assert find(fm, id=f"{FM}:id/top_toolbar_search")["text"] == "Search"
    assert [n["text"] for n in find_all(fm, id="tab_item_label")] == ["Files", "Recents", "Storage"]
    gallery = Screens(GALLERY)
    assert find(gallery.system.dump_xml(), id="top_toolbar_search")["text"] == "Search folders"
    gallery.tap(desc="More options")
    assert [n["text"] for n in find_all(gallery.system.dump_xml(), id=f"{GALLERY}:id/title")] == [
        "Sort by", "Filter media", "Change view type", "Temporarily show hidden", "Temporarily show excluded",
        "Create new folder", "Column count", "Settings", "About"]

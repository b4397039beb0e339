"""Simple Gallery Pro (`com.simplemobiletools.gallery.pro`) for the virtual phone.

Screens, ids and texts follow the real app's recordings (DroidTask, July 2023,
version 6.28.1: the folder grid, a folder's media grid, the Sort by, Filter
media and Change view type dialogs, Settings) and, where no recording shows a
screen, the app's layouts and strings: the Group by dialog, the full-screen
viewer's menus, and Simple Wallpaper (`SetWallpaperActivity`, reached with
"Set as") with its Home screen / Lock screen choice.

The app shows what the media store knows (scanned images and videos),
grouped by folder, as the real app starts from MediaStore; with "Show hidden
items" it also lists media in hidden and `.nomedia` folders, which the store
keeps as non-media.  Thumbnails are the files' own pixels (ui/bitmaps.py).
"""

from __future__ import annotations

import io
import posixpath
from types import SimpleNamespace

from PIL import Image

from ...framework.intents import ACTION_ATTACH_DATA, ACTION_GET_CONTENT, ACTION_SEND, ACTION_VIEW, Intent, IntentFilter
from ...framework.media_store import EXTERNAL_ROOT, MediaItem, mime_type_of
from ...framework.ui import bitmaps
from ...framework.ui.views import (
    place_menu,
    ACCENT,
    MATCH,
    TEXT_SECONDARY,
    WRAP,
    CheckBox,
    Column,
    Divider,
    EditText,
    FrameLayout,
    ImageView,
    LinearLayout,
    MenuItem,
    RadioButton,
    RadioGroup,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import RESULT_OK, Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER, SWIPE_REFRESH_LAYOUT
from ..menus import FDROID_HIDDEN, menu
from ..commons.commons_app import CommonsApp
from ..commons.commons_intents import IS_FROM_GALLERY, REAL_FILE_PATH, file_behind_uri, real_path_from_uri
from ..commons.commons_files import (
    NAME_TAKEN,
    create_folder_dialog,
    delete_path,
    move_path,
    show_folder_picker,
    show_rename_dialog,
)
from ..commons.date_time_format import show_date_time_dialog
from ..commons.storage_format import format_date, format_size
from ..commons.simple_commons import CustomizationActivity, radio_group_dialog

APP = "gallery"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.gallery.pro"
ABOUT = "com.simplemobiletools.commons.activities.AboutActivity"

# sorting fields of the Sort by dialog (folders have all, media lack Path)
SORT_NAME, SORT_PATH, SORT_SIZE, SORT_MODIFIED, SORT_TAKEN, SORT_RANDOM, SORT_CUSTOM = (
    "name", "path", "size", "last_modified", "date_taken", "random", "custom")
FOLDER_SORTS = (SORT_NAME, SORT_PATH, SORT_SIZE, SORT_MODIFIED, SORT_TAKEN, SORT_RANDOM, SORT_CUSTOM)
MEDIA_SORTS = (SORT_NAME, SORT_SIZE, SORT_MODIFIED, SORT_TAKEN, SORT_RANDOM)
SORT_LABELS = {SORT_NAME: "Name", SORT_PATH: "Path", SORT_SIZE: "Size", SORT_MODIFIED: "Last modified",
               SORT_TAKEN: "Date taken", SORT_RANDOM: "Random", SORT_CUSTOM: "Custom"}

FILTERS = (("images", "Images"), ("videos", "Videos"), ("gifs", "GIFs"), ("raws", "RAW images"),
           ("svgs", "SVGs"), ("portraits", "Portraits"))
DEFAULT_FILTERS = frozenset({"images", "videos", "gifs", "raws", "svgs"})

GROUPINGS = (("none", "grouping_dialog_radio_none", "Do not group files"),
             ("last_modified_daily", "grouping_dialog_radio_last_modified_daily", "Last modified (daily)"),
             ("last_modified_monthly", "grouping_dialog_radio_last_modified_monthly", "Last modified (monthly)"),
             ("date_taken_daily", "grouping_dialog_radio_date_taken_daily", "Date taken (daily)"),
             ("date_taken_monthly", "grouping_dialog_radio_date_taken_monthly", "Date taken (monthly)"),
             ("file_type", "grouping_dialog_radio_file_type", "File type"),
             ("extension", "grouping_dialog_radio_extension", "Extension"),
             ("folder", "grouping_dialog_radio_folder", "Folder"))

WALLPAPER_TARGETS = ("Home screen", "Lock screen", "Home and lock screen")
#: MediaStore.INTENT_ACTION_STILL_IMAGE_CAMERA, which Activity.launchCamera starts
ACTION_STILL_IMAGE_CAMERA = "android.media.action.STILL_IMAGE_CAMERA"
#: Commons' R.string.no_app_found: what launchActivityIntent / setAsIntent / sharePathIntent toast when
#: no activity answers (ActivityNotFoundException)
NO_APP_FOUND = "No valid app found"
#: helpers/Constants.kt MAX_COLUMN_COUNT (6.28.1): the Column count dialog offers 1..20
MAX_COLUMN_COUNT = 20


def new_data() -> SimpleNamespace:
    """Persistent settings and favourites (reset by `pm clear`)."""
    return SimpleNamespace(
        folder_sort=(SORT_MODIFIED, False), media_sort=(SORT_MODIFIED, False), folder_media_sorts={},
        filters=set(DEFAULT_FILTERS), folder_view_list=False, media_view_list=False,
        grouping={}, favorites=set(), show_hidden=False, autoplay_videos=False, remember_last_video_position=False,
        loop_videos=False, open_videos_on_separate_screen=False, allow_video_gestures=True, search_all_files=False,
        crop_thumbnails=True, scroll_horizontally=False, enable_pull_to_refresh=True, max_brightness=False,
        black_background=False, hide_system_ui=True, allow_instant_change=False, allow_photo_gestures=False,
        allow_down_gesture=True, show_notch=True,
        # values/integers.xml directory_columns_vertical_scroll / media_columns_vertical_scroll
        dir_columns=2, media_columns=3, use_24_hour=False, date_format="%d.%m.%Y",
        skip_delete_confirmation=False, keep_last_modified=True, use_recycle_bin=True, recycle_bin={},
        # helpers/Config.kt defaults (6.28.1) of the other settings rows and dialogs
        file_loading_priority=0, screen_rotation=0, animate_gifs=False, allow_zooming_images=True,
        allow_rotating_with_gestures=True, show_highest_quality=False, allow_one_to_one_zoom=False,
        show_extended_details=False, app_password_protection=False,
        hidden_item_password_protection=False, file_deletion_password_protection=False, delete_empty_folders=False,
        bottom_actions=True, show_recycle_bin=True, show_recycle_bin_last=False, thumbnail_spacing=1,
        file_rounded_corners=False, show_thumbnail_video_duration=False, show_thumbnail_file_types=True,
        mark_favorite_items=True, included_folders=set(), excluded_folders=set(),
        folder_style="square", folder_count="line", limit_folder_title=False, temporarily_show_excluded=False,
        temp_folder="",  # Config.tempFolderPath: a new, still empty folder shown first on the main screen
        wallpapers={},  # "home"/"lock" -> path: what Simple Wallpaper set, as WallpaperManager would hold it
        last_editor_crop_aspect_ratio=ASPECT_RATIO_FREE,  # Config.lastEditorCropAspectRatio
    )


def _kind(item: MediaItem) -> str:
    """The Filter media category of a file."""
    mime = item.mime_type
    if mime == "image/gif":
        return "gifs"
    if mime == "image/svg+xml":
        return "svgs"
    if mime in ("image/x-adobe-dng", "image/x-canon-cr2", "image/x-nikon-nef", "image/x-panasonic-raw"):
        return "raws"
    if mime.startswith("video/"):
        return "videos"
    return "images"


def _folder_label(folder: str) -> str:
    return "Internal" if folder == EXTERNAL_ROOT else posixpath.basename(folder)


#: Config.showFolderMediaCount: FOLDER_MEDIA_CNT_LINE, FOLDER_MEDIA_CNT_BRACKETS, FOLDER_MEDIA_CNT_NONE
FOLDER_COUNT_STYLES = (("line", "dialog_radio_folder_count_line", "Show file count on a separate line"),
                       ("brackets", "dialog_radio_folder_count_brackets", "Show file count in brackets"),
                       ("none", "dialog_radio_folder_count_none", "Do not show file count"))
FOLDER_STYLES = (("square", "dialog_radio_folder_square", "Square"),
                 ("rounded_corners", "dialog_radio_folder_rounded_corners", "Rounded corners"))


def _folder_texts(name: str, count: int, count_style: str) -> tuple[str, str]:
    """DirectoryAdapter.setupView: the folder's name ("Name (N)" with the count in brackets) and the count
    line (photo_cnt, shown only for FOLDER_MEDIA_CNT_LINE; "" when gone)."""
    if count_style == "brackets":
        return f"{name} ({count})", ""
    return name, str(count) if count_style == "line" else ""


def grid_folder_tile(thumbnail: View, name: str, count: int, count_style: str, limit_title: bool, *,
                     key: str = "", on_click=None) -> View:
    """directory_item_grid_square.xml: the square thumbnail, its shadow and, at the bottom, the name and the
    file count as Config.showFolderMediaCount says (limitFolderTitle: the name on one line)."""
    shown, count_text = _folder_texts(name, count, count_style)
    return RelativeLayout(
        FrameLayout(
            thumbnail,
            ImageView("dir_shadow_holder", width=MATCH, height=dp(64), layout_gravity="bottom"),
            Column(TextView(shown, "dir_name", bold=True, max_lines=1 if limit_title else 2, width=MATCH,
                            color=(255, 255, 255)),
                   *([TextView(count_text, "photo_cnt", size=sp(14), width=MATCH, color=(255, 255, 255))]
                     if count_text else []),
                   id="dir_bottom_holder", layout_gravity="bottom", padding=(dp(8), dp(4)), bg=(60, 60, 60)),
            height=dp(190)),
        id="dir_holder", key=key, padding=1, on_click=on_click, on_long_click=(lambda: None) if on_click else None)


class GalleryActivity(Activity):
    """What the gallery's screens share: reading media and the common dialogs."""

    def _hidden_toggle(self) -> tuple[str, ...]:
        """The hidden-media items a menu hides: "Temporarily show hidden" unless hidden media show
        already (config.shouldShowHidden), "Stop showing hidden media" unless shown temporarily."""
        temporarily = getattr(self, "temporarily_show_hidden", False)
        hide = ("temporarily_show_hidden",) if self.data.show_hidden or temporarily else ()
        return hide + (() if temporarily else ("stop_showing_hidden",))

    def visible_media(self, temporarily_show_hidden: bool = False) -> list[MediaItem]:
        """Images and videos that pass the filter, whose files still exist."""
        store = self.host.media_store
        if store is None:
            return []
        show_hidden = self.data.show_hidden or temporarily_show_hidden
        rows = [r for r in store.query()
                if r.mime_type.startswith(("image/", "video/"))
                and (r.media_type in ("image", "video") or show_hidden)]
        filters = self.data.filters
        return [r for r in rows if _kind(r) in filters and self.host.fs.exists(r.path)]

    def sort_media(self, items: list[MediaItem], field: str, ascending: bool) -> list[MediaItem]:
        keys = {
            SORT_NAME: lambda r: r.display_name.lower(), SORT_PATH: lambda r: r.path.lower(),
            SORT_SIZE: lambda r: r.size, SORT_MODIFIED: lambda r: r.date_modified,
            SORT_TAKEN: lambda r: r.datetaken or 0, SORT_CUSTOM: lambda r: r.path.lower(),
        }
        if field == SORT_RANDOM:
            import random

            shuffled = sorted(items, key=lambda r: r.path)
            random.Random(self.host.seed).shuffle(shuffled)
            return shuffled
        ordered = sorted(items, key=lambda r: r.path.lower())  # ties keep path order
        return sorted(ordered, key=keys[field], reverse=not ascending)

    def show_sort_dialog(self, fields: tuple[str, ...], current: tuple[str, bool], apply, *,
                         folder_option: bool = False, folder_only: bool = False) -> None:
        def body() -> View:
            radios = [RadioButton(SORT_LABELS[f], f"sorting_dialog_radio_{f}") for f in fields]
            extra: list[View] = [CheckBox("Sort numeric parts by actual value", "sorting_dialog_numeric_sorting")]
            if folder_option:
                extra.append(CheckBox("Use for this folder only", "sorting_dialog_use_for_this_folder",
                                      checked=folder_only))
            return ScrollView(Column(
                RadioGroup(*radios, id="sorting_dialog_radio_sorting", checked_index=fields.index(current[0])),
                Divider("sorting_dialog_order_divider", margin=(0, dp(8))),
                RadioGroup(RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                           RadioButton("Descending", "sorting_dialog_radio_descending"),
                           id="sorting_dialog_radio_order", checked_index=0 if current[1] else 1),
                Divider("use_for_this_folder_divider", margin=(0, dp(8))),
                *extra, id="sorting_dialog_holder", padding=(dp(16), dp(4))),
                id="sorting_dialog_scrollview", height=WRAP)

        def ok(d: Dialog) -> None:
            field = fields[max(0, d.find("sorting_dialog_radio_sorting").checked_index)]
            ascending = d.find("sorting_dialog_radio_order").checked_index != 1
            box = d.find("sorting_dialog_use_for_this_folder")
            apply(field, ascending, bool(box is not None and box.checked))

        self.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))

    def show_filter_dialog(self) -> None:
        def body() -> View:
            return ScrollView(Column(*[CheckBox(label, f"filter_media_{key}", checked=key in self.data.filters)
                                       for key, label in FILTERS],
                                     id="filter_media_dialog_holder", padding=(dp(16), dp(12))), height=WRAP)

        def ok(d: Dialog) -> bool:
            chosen = {key for key, _ in FILTERS if d.find(f"filter_media_{key}").checked}
            if not chosen:
                self.toast("Please select at least one media type")  # the app keeps at least one type
                return False
            self.data.filters = chosen
            return True

        self.show_dialog(Dialog("Filter media", body, positive=("OK", ok), negative="Cancel"))

    def show_view_type_dialog(self, attr: str, *, for_folders: bool) -> None:
        def body() -> View:
            extra: list[View] = []
            if for_folders:
                extra = [Divider("group_direct_subfolders_divider", margin=(0, dp(8))),
                         CheckBox("Group direct subfolders", "change_view_type_dialog_group_direct_subfolders")]
            else:
                extra = [Divider("use_for_this_folder_divider", margin=(0, dp(8))),
                         CheckBox("Use for this folder only", "change_view_type_dialog_use_for_this_folder")]
            return ScrollView(Column(
                RadioGroup(RadioButton("Grid", "change_view_type_dialog_radio_grid"),
                           RadioButton("List", "change_view_type_dialog_radio_list"),
                           id="change_view_type_dialog_radio", checked_index=1 if getattr(self.data, attr) else 0),
                *extra, id="change_view_type_dialog_holder", padding=(dp(16), dp(4))),
                id="change_view_type_dialog_scrollview", height=WRAP)

        def ok(d: Dialog) -> None:
            setattr(self.data, attr, d.find("change_view_type_dialog_radio").checked_index == 1)

        self.show_dialog(Dialog("Change view type", body, positive=("OK", ok), negative="Cancel"))

    def search_bar(self, hint: str, query: str, on_change, items: list[MenuItem], menu_id: str) -> View:
        actions, overflow = place_menu(items)
        width = dp(48) * len(actions) + (dp(36) if overflow else 0) + dp(16)
        return LinearLayout(
            LinearLayout(
                Row(ImageView("top_toolbar_search_icon", icon="search", width=dp(40), height=dp(48),
                              on_click=lambda: None),
                    EditText(query, "top_toolbar_search", hint=hint, weight=1, width=MATCH, on_text_changed=on_change,
                             key="top_toolbar_search", min_height=dp(48)),
                    self.toolbar("top_toolbar", items=items, height=dp(48), width=width),
                    id="top_toolbar_holder", class_name="android.widget.RelativeLayout", bg=(240, 240, 240),
                    radius=dp(24), gravity="center_vertical", padding=(dp(4), 0)),
                id="top_app_bar_layout", margin=(dp(16), dp(8)), height=WRAP),
            id=menu_id, height=WRAP)

    def show_create_folder_dialog(self, parent: str = "", on_created=None) -> None:
        """Commons' CreateNewFolderDialog (MainActivity.createNewFolder and MediaActivity.createNewFolder
        use the library's dialog at 6.28.1); the gallery keeps the new folder as ``config.tempFolderPath``."""
        def created(path: str) -> None:
            self.data.temp_folder = path
            if on_created is not None:
                on_created(path)

        create_folder_dialog(self, parent or getattr(self, "folder", "") or EXTERNAL_ROOT, created)

    def launch_camera(self) -> None:
        """Activity.launchCamera (6.28.1): startActivity(Intent(INTENT_ACTION_STILL_IMAGE_CAMERA)) through
        Commons' launchActivityIntent.  Android starts the one camera app that answers without asking
        (intents.start: a single match is started directly); this phone has Camera2 only."""
        if not self.start_intent(Intent(ACTION_STILL_IMAGE_CAMERA)):
            self.toast(NO_APP_FOUND)

    def media_uri(self, path: str) -> str:
        """Commons' getFinalUriFromPath: a scanned medium's MediaStore content URI (getMediaContentUri),
        else the app's FileProvider URI."""
        store = self.host.media_store
        item = store.get(path) if store is not None else None
        if item is not None:
            kind = "video" if item.mime_type.startswith("video/") else "images"
            return f"content://media/external/{kind}/media/{item._id}"
        return f"content://{PACKAGE}.provider/external_files{path[len(EXTERNAL_ROOT):]}"

    def mime_of(self, path: str) -> str:
        store = self.host.media_store
        item = store.get(path) if store is not None else None
        return item.mime_type if item is not None else "image/*"

    def show_column_count_dialog(self, attr: str) -> None:
        """MainActivity/MediaActivity.changeColumnCount: Commons' RadioGroupDialog of "N column(s)"
        (plurals column_counts) for 1..MAX_COLUMN_COUNT, the current span count checked."""
        current = getattr(self.data, attr)
        options = [f"{i} column" if i == 1 else f"{i} columns" for i in range(1, MAX_COLUMN_COUNT + 1)]
        radio_group_dialog(self, options, current - 1, lambda index: setattr(self.data, attr, index + 1))

    def thumbnail(self, item: MediaItem | None, id: str, size: int) -> View:
        if item is None:  # a new, empty folder: Directory with no thumbnail
            return ImageView(id, width=MATCH, height=size)
        icon = bitmaps.icon_for_file(self.host.fs, item.path)
        return ImageView(id, icon=icon, width=MATCH, height=size, tint=(200, 200, 200))


class MainActivity(GalleryActivity):
    """The folders screen: a grid (or list) of folders holding media."""

    name = f"{PACKAGE}.activities.MainActivity"

    def on_create(self) -> None:
        self.search = ""
        self.temporarily_show_hidden = False
        # onCreate with no saved state (a fresh start, as after a force-stop)
        self.data.temporarily_show_excluded = False
        self.remove_temp_folder()

    def finish(self) -> None:
        self.data.temporarily_show_excluded = False  # onDestroy
        self.remove_temp_folder()
        super().finish()

    def remove_temp_folder(self) -> None:
        """MainActivity.removeTempFolder: a created folder still empty is deleted, with a toast."""
        path, self.data.temp_folder = self.data.temp_folder, ""
        fs = self.host.fs
        if path and fs.isdir(path) and not fs.listdir(path):
            self.toast(f"Deleting folder '{path}'")
            delete_path(self, path)

    def create_new_folder(self) -> None:
        """MainActivity.createNewFolder: Commons' FilePickerDialog at internal storage (a folder, hidden
        items as config.shouldShowHidden, no FAB, the show-hidden button), then CreateNewFolderDialog;
        the new folder shows first among the folders (Context.addTempFolderIfNeeded)."""
        show_folder_picker(self, EXTERNAL_ROOT, self.data.show_hidden, self.show_create_folder_dialog,
                           can_add_show_hidden_button=True)

    def folders(self) -> list[tuple[str, list[MediaItem]]]:
        by_folder: dict[str, list[MediaItem]] = {}
        for item in self.visible_media(self.temporarily_show_hidden):
            by_folder.setdefault(posixpath.dirname(item.path), []).append(item)
        field, ascending = self.data.folder_sort
        entries = []
        for folder, items in by_folder.items():
            entries.append((folder, items))
        keys = {
            SORT_NAME: lambda e: _folder_label(e[0]).lower(), SORT_PATH: lambda e: e[0].lower(),
            SORT_SIZE: lambda e: sum(r.size for r in e[1]), SORT_MODIFIED: lambda e: max(r.date_modified for r in e[1]),
            SORT_TAKEN: lambda e: max(r.datetaken or 0 for r in e[1]), SORT_CUSTOM: lambda e: e[0].lower(),
            SORT_RANDOM: lambda e: e[0].lower(),
        }
        # Context.getDirsToShow: excluded folders and their sub-folders are left out unless shown temporarily
        # (String.isThisOrParentExcluded, ignoring case)
        excluded = set() if self.data.temporarily_show_excluded else {x.lower() for x in self.data.excluded_folders}
        entries = [e for e in entries if not any(f"{e[0].lower()}/".startswith(f"{x}/") for x in excluded)]
        entries.sort(key=lambda e: e[0].lower())
        entries.sort(key=keys[field], reverse=not ascending)
        query = self.search.strip().lower()
        if query:
            entries = [e for e in entries if query in _folder_label(e[0]).lower()]
        return entries

    def build(self) -> View:
        # menu_main as MainActivity.refreshMenuItems shows it: no default folder, the Recycle Bin
        # shown among the folders (so not in the menu), column count in grid view.
        items = menu(APP, "menu_main", {
            "open_camera": self.launch_camera,
            "show_all": lambda: self.start(MediaActivity, folder=""), "sort": self._sort_folders,
            "filter": self.show_filter_dialog,
            "change_view_type": lambda: self.show_view_type_dialog("folder_view_list", for_folders=True),
            "temporarily_show_hidden": lambda: setattr(self, "temporarily_show_hidden", True),
            "stop_showing_hidden": lambda: setattr(self, "temporarily_show_hidden", False),
            "temporarily_show_excluded": lambda: setattr(self.data, "temporarily_show_excluded", True),
            "stop_showing_excluded": lambda: setattr(self.data, "temporarily_show_excluded", False),
            "create_new_folder": self.create_new_folder,
            "column_count": lambda: self.show_column_count_dialog("dir_columns"),
            "settings": lambda: self.start(SettingsActivity),
            "about": lambda: self.start(ABOUT)},
            hide=["stop_showing_excluded" if not self.data.temporarily_show_excluded else "temporarily_show_excluded",
                  "set_as_default_folder", "open_recycle_bin", *FDROID_HIDDEN,
                  *(("column_count",) if self.data.folder_view_list else ()),
                  *self._hidden_toggle()])
        folders = self.folders()
        as_list = self.data.folder_view_list
        tiles = [self._folder_tile(folder, items, as_list) for folder, items in folders]
        temp = self.data.temp_folder
        if temp and self.host.fs.isdir(temp) and all(folder != temp for folder, _ in folders):
            tiles.insert(0, self._folder_tile(temp, [], as_list))
        grid: View
        if tiles:
            grid = RecyclerView(*tiles, id="directories_grid", columns=1 if as_list else self.data.dir_columns,
                                height=MATCH)
        else:
            grid = TextView("No media files have been found with the selected filters.",
                            "directories_empty_placeholder",
                            color=TEXT_SECONDARY, gravity="center", width=MATCH, padding=dp(24))
        return Column(
            self.search_bar("Search folders", self.search, self._search_changed, items, "main_menu"),
            RelativeLayout(FrameLayout(FrameLayout(grid, id="directories_fastscroller", height=MATCH,
                                                   class_name="android.widget.RelativeLayout"),
                                       id="directories_refresh_layout", class_name=SWIPE_REFRESH_LAYOUT,
                                       height=MATCH),
                           id="directories_holder", weight=1, height=MATCH),
            id="directories_coordinator", class_name="android.widget.ScrollView", height=MATCH)

    def _folder_tile(self, folder: str, items: list[MediaItem], as_list: bool) -> View:
        newest = self.sort_media(items, SORT_MODIFIED, False)[0] if items else None
        open_folder = lambda: self.start(MediaActivity, folder=folder)  # noqa: E731
        if as_list:
            name, count = _folder_texts(_folder_label(folder), len(items), self.data.folder_count)
            return RelativeLayout(
                Row(FrameLayout(self.thumbnail(newest, "dir_thumbnail", dp(64)), width=dp(64)),
                    Column(TextView(name, "dir_name", bold=True, max_lines=1, width=MATCH),
                           *([TextView(count, "photo_cnt", size=sp(14), color=TEXT_SECONDARY, width=MATCH)]
                             if count else []),
                           TextView(posixpath.dirname(folder) + "/", "dir_path", size=sp(14), color=TEXT_SECONDARY,
                                    width=MATCH, max_lines=1),
                           weight=1, width=MATCH, padding=(dp(12), 0)),
                    gravity="center_vertical"),
                id="dir_holder", key=folder, padding=dp(8), on_click=open_folder, on_long_click=lambda: None)
        return grid_folder_tile(self.thumbnail(newest, "dir_thumbnail", dp(190)), _folder_label(folder), len(items),
                                self.data.folder_count, self.data.limit_folder_title, key=folder,
                                on_click=open_folder)

    def _sort_folders(self) -> None:
        def apply(field: str, ascending: bool, _folder_only: bool) -> None:
            self.data.folder_sort = (field, ascending)

        self.show_sort_dialog(FOLDER_SORTS, self.data.folder_sort, apply)

    def _search_changed(self, text: str) -> None:
        self.search = text

    def on_back(self) -> bool:
        if self.search:
            self.search = ""
            return True
        return False


class MediaActivity(GalleryActivity):
    """One folder's media (or all media with "Show all folders content"), in a grid or list."""

    name = f"{PACKAGE}.activities.MediaActivity"

    def on_create(self) -> None:
        self.folder: str = self.extras.get("folder", "")
        self.search = ""
        self.show_names = False
        self.temporarily_show_hidden = False

    def media(self) -> list[MediaItem]:
        items = self.visible_media(self.temporarily_show_hidden)
        if self.folder:
            items = [r for r in items if posixpath.dirname(r.path) == self.folder]
        field, ascending = self.data.folder_media_sorts.get(self.folder, self.data.media_sort)
        items = self.sort_media(items, field, ascending)
        query = self.search.strip().lower()
        if query:
            items = [r for r in items if query in r.display_name.lower()]
        return items

    def grouping(self) -> tuple[str, bool]:
        return self.data.grouping.get(self.folder, self.data.grouping.get("", ("none", True)))

    def _section_of(self, item: MediaItem, grouping: str) -> str:
        if grouping == "file_type":
            return "Videos" if item.mime_type.startswith("video/") else "Images"
        if grouping == "extension":
            return item.display_name.rpartition(".")[2].lower()
        if grouping == "folder":
            return _folder_label(posixpath.dirname(item.path))
        stamp = item.date_modified if grouping.startswith("last_modified") else (item.datetaken or 0) // 1000
        import datetime as dt

        when = dt.datetime.fromtimestamp(stamp, dt.timezone.utc)
        return when.strftime("%B %Y") if grouping.endswith("monthly") else when.strftime(self.data.date_format)

    def build(self) -> View:
        label = _folder_label(self.folder) if self.folder else "all folders"
        # menu_media as MediaActivity.refreshMenuItems shows it (not the Recycle Bin, no default folder).
        show_all = not self.folder
        grid = not self.data.media_view_list
        menu_items = menu(APP, "menu_media", {
            "toggle_filename": self._toggle_names, "folder_view": self.finish, "sort": self._sort_media,
            "filter": self.show_filter_dialog,
            "change_view_type": lambda: self.show_view_type_dialog("media_view_list", for_folders=False),
            "temporarily_show_hidden": lambda: setattr(self, "temporarily_show_hidden", True),
            "stop_showing_hidden": lambda: setattr(self, "temporarily_show_hidden", False),
            "open_recycle_bin": None, "open_camera": self.launch_camera,
            "group": self.show_group_dialog, "set_as_default_folder": None,
            "create_new_folder": self.show_create_folder_dialog,
            "column_count": lambda: self.show_column_count_dialog("media_columns"), "slideshow": None,
            "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(ABOUT)},
            hide=["empty_recycle_bin", "empty_disable_recycle_bin", "restore_all_files", "unset_as_default_folder",
                  *(() if show_all else ("folder_view", "open_camera", "about")),
                  *(("create_new_folder",) if show_all else ()),
                  *(() if grid else ("column_count", "toggle_filename")),
                  *self._hidden_toggle()])
        items = self.media()
        grouping, group_ascending = self.grouping()
        as_list = self.data.media_view_list
        cells: list[View] = []
        if grouping != "none":
            sections: dict[str, list[MediaItem]] = {}
            for item in items:
                sections.setdefault(self._section_of(item, grouping), []).append(item)
            for title in sorted(sections, reverse=not group_ascending):
                cells.append(TextView(title, "thumbnail_section", bold=True, color=ACCENT, width=MATCH,
                                      padding=(dp(12), dp(12)), key=f"section:{title}"))
                cells += [self._cell(i, as_list) for i in sections[title]]
            grid: View = Column(*cells, id="media_grid", class_name="androidx.recyclerview.widget.RecyclerView")
            grid = ScrollView(grid, height=MATCH, id="media_fastscroller", class_name="android.widget.RelativeLayout")
        else:
            cells = [self._cell(i, as_list) for i in items]
            grid = FrameLayout(RecyclerView(*cells, id="media_grid", columns=1 if as_list else self.data.media_columns,
                                            height=MATCH),
                               id="media_fastscroller", height=MATCH, class_name="android.widget.RelativeLayout")
        if not items:
            grid = TextView("No media files have been found with the selected filters.", "media_empty_text_placeholder",
                            color=TEXT_SECONDARY, gravity="center", width=MATCH, padding=dp(24))
        return Column(
            self.search_bar(f"Search in {label}", self.search, self._search_changed, menu_items, "media_menu"),
            RelativeLayout(FrameLayout(grid, id="media_refresh_layout", class_name=SWIPE_REFRESH_LAYOUT,
                                       height=MATCH),
                           id="media_holder", weight=1, height=MATCH),
            id="media_coordinator", class_name="android.widget.ScrollView", height=MATCH)

    def _cell(self, item: MediaItem, as_list: bool) -> View:
        video = item.mime_type.startswith("video/")
        open_viewer = lambda: self.start(ViewPagerActivity, path=item.path, folder=self.folder)  # noqa: E731
        if as_list:
            return RelativeLayout(
                Row(FrameLayout(self.thumbnail(item, "medium_thumbnail", dp(64)), width=dp(64)),
                    Column(TextView(item.display_name, "medium_name", max_lines=1, width=MATCH),
                           weight=1, width=MATCH, padding=(dp(12), 0)),
                    gravity="center_vertical"),
                id="media_item_holder", key=item.path, padding=dp(8), on_click=open_viewer, on_long_click=lambda: None)
        children: list[View] = [self.thumbnail(item, "medium_thumbnail", dp(130))]
        if video:
            children.append(ImageView("play_portrait_outline", icon="play", width=dp(26), height=dp(26),
                                      margin=dp(4), tint=(255, 255, 255)))
        if self.show_names:
            children.append(TextView(item.display_name, "medium_name", size=sp(12), max_lines=1, width=MATCH,
                                     layout_gravity="bottom", color=(255, 255, 255), bg=(60, 60, 60)))
        return RelativeLayout(FrameLayout(*children, height=dp(130)), id="media_item_holder", key=item.path,
                              padding=1, on_click=open_viewer, on_long_click=lambda: None)

    def _toggle_names(self) -> None:
        self.show_names = not self.show_names

    def _search_changed(self, text: str) -> None:
        self.search = text

    def _sort_media(self) -> None:
        current = self.data.folder_media_sorts.get(self.folder, self.data.media_sort)

        def apply(field: str, ascending: bool, folder_only: bool) -> None:
            if folder_only:
                self.data.folder_media_sorts[self.folder] = (field, ascending)
            else:
                self.data.folder_media_sorts.pop(self.folder, None)
                self.data.media_sort = (field, ascending)

        self.show_sort_dialog(MEDIA_SORTS, current, apply, folder_option=True,
                              folder_only=self.folder in self.data.folder_media_sorts)

    def show_group_dialog(self) -> None:
        grouping, ascending = self.grouping()
        keys = [key for key, _, _ in GROUPINGS]
        folder_only = self.folder in self.data.grouping

        def body() -> View:
            return ScrollView(Column(
                RadioGroup(*[RadioButton(label, rid) for _, rid, label in GROUPINGS],
                           id="grouping_dialog_radio_grouping", checked_index=keys.index(grouping)),
                # <include layout="@layout/divider" /> without an id: Commons' divider.xml has none
                Divider("", margin=(0, dp(8))),
                RadioGroup(RadioButton("Ascending", "grouping_dialog_radio_ascending"),
                           RadioButton("Descending", "grouping_dialog_radio_descending"),
                           id="grouping_dialog_radio_order", checked_index=0 if ascending else 1),
                Divider("use_for_this_folder_divider", margin=(0, dp(8))),
                CheckBox("Show file count at section headers", "grouping_dialog_show_file_count"),
                CheckBox("Use for this folder only", "grouping_dialog_use_for_this_folder", checked=folder_only),
                TextView("Please note that grouping and sorting are 2 independent fields",
                         "grouping_dialog_bottom_note",
                         size=sp(14), color=TEXT_SECONDARY, width=MATCH, padding=(0, dp(8))),
                id="grouping_dialog_holder", padding=(dp(16), dp(4))), id="grouping_dialog_scrollview",
                height=dp(500))  # taller than a dialog may be: it scrolls, as on the phone

        def ok(d: Dialog) -> None:
            choice = (keys[max(0, d.find("grouping_dialog_radio_grouping").checked_index)],
                      d.find("grouping_dialog_radio_order").checked_index != 1)
            if d.find("grouping_dialog_use_for_this_folder").checked:
                self.data.grouping[self.folder] = choice
            else:
                self.data.grouping.pop(self.folder, None)
                self.data.grouping[""] = choice

        self.show_dialog(Dialog("Group by", body, positive=("OK", ok), negative="Cancel"))

    def on_back(self) -> bool:
        if self.search:
            self.search = ""
            return True
        return False


class ViewPagerActivity(GalleryActivity):
    """The full-screen viewer of one medium, with its menus and bottom actions."""

    name = f"{PACKAGE}.activities.ViewPagerActivity"

    def on_create(self) -> None:
        self.path: str = self.extras["path"]

    def build(self) -> View:
        store = self.host.media_store
        item = store.get(self.path) if store is not None else None
        name = posixpath.basename(self.path)
        hidden = name.startswith(".")
        favorite = self.path in self.data.favorites
        # menu_viewpager as ViewPagerActivity.refreshMenuItems shows it with the default bottom
        # actions (favourite, edit, share, delete are there, so not in the menu) and no rotation.
        image = item is None or item.mime_type.startswith("image/")
        items = menu(APP, "menu_viewpager", {
            "menu_properties": self.show_properties,
            "menu_rename": lambda: show_rename_dialog(self, self.path, self._renamed),
            "menu_rotate": None, "menu_hide": lambda: self.set_hidden(True),
            "menu_unhide": lambda: self.set_hidden(False), "menu_copy_to": None, "menu_move_to": None,
            "menu_create_shortcut": None,
            "menu_open_with": self.open_with, "menu_set_as": self.set_as,
            "menu_change_orientation": None, "menu_print": None, "menu_resize": None, "menu_show_on_map": None,
            "menu_slideshow": None, "menu_settings": lambda: self.start(SettingsActivity)},
            hide=["menu_save_as", "menu_delete", "menu_share", "menu_edit", "menu_add_to_favorites",
                  "menu_remove_from_favorites", "menu_restore_file", "menu_unhide" if not hidden else "menu_hide",
                  *(() if image else ("menu_rotate", "menu_print", "menu_resize"))])
        picture: View
        if item is not None:
            picture = self.thumbnail(item, "gestures_view", dp(560))
        else:
            picture = TextView("", "gestures_view", height=dp(560))
        holder_id = "video_holder" if item is not None and item.mime_type.startswith("video/") else "photo_holder"
        bottom = Row(
            *[ImageView(vid, icon=icon, desc=desc, on_click=cb, long_clickable=True, width=dp(40), height=dp(40),
                        tint=ACCENT if vid == "bottom_favorite" and favorite else (255, 255, 255),
                        margin=(dp(24), dp(8)))
              for vid, icon, desc, cb in (("bottom_favorite", "star", "Toggle favorite", self.toggle_favorite),
                                          ("bottom_edit", "edit", "Edit", lambda: self.toast("No editor here")),
                                          ("bottom_share", "share", "Share", self.share),
                                          ("bottom_delete", "delete", "Delete", self.ask_delete))],
            id="bottom_actions", class_name="android.view.ViewGroup", gravity="center", bg=(0, 0, 0), height=dp(112))
        return Column(
            LinearLayout(self.toolbar("medium_viewer_toolbar", title=name, items=items, back=True, bg=(20, 20, 20)),
                         id="medium_viewer_appbar"),
            RelativeLayout(FrameLayout(RelativeLayout(picture, id=holder_id, gravity="center", height=MATCH),
                                       id="view_pager", class_name=MY_VIEW_PAGER, height=MATCH),
                           id="fragment_holder", weight=1, height=MATCH, bg=(0, 0, 0)),
            bottom, height=MATCH, bg=(0, 0, 0))

    def toggle_favorite(self) -> None:
        self.data.favorites ^= {self.path}

    def _renamed(self, new_path: str) -> None:
        if self.path in self.data.favorites:
            self.data.favorites ^= {self.path, new_path}
        self.path = new_path

    def set_hidden(self, hide: bool) -> None:
        """Hiding a file renames it with a leading dot, as the app does."""
        name = posixpath.basename(self.path)
        new_name = "." + name if hide else name.lstrip(".")
        new_path = posixpath.join(posixpath.dirname(self.path), new_name)
        if new_name == name or not new_name:
            return
        if self.host.fs.exists(new_path):
            self.toast(NAME_TAKEN)
        elif move_path(self, self.path, new_path):
            self._renamed(new_path)

    def ask_delete(self) -> None:
        name = f'"{posixpath.basename(self.path)}"'
        message = (f"Are you sure you want to move {name} into the Recycle Bin?" if self.data.use_recycle_bin
                   else f"Are you sure you want to delete {name}?")
        if self.data.skip_delete_confirmation:
            self.delete()
        else:
            self.show_dialog(Dialog(message=message, positive=("Yes", lambda d: self.delete()), negative="No"))

    def delete(self) -> None:
        """Delete the shown medium (into the app's Recycle Bin when it is on) and show the next one."""
        siblings = [r.path for r in self.sort_media(
            [r for r in self.visible_media() if posixpath.dirname(r.path) == posixpath.dirname(self.path)],
            *self.data.folder_media_sorts.get(self.extras.get("folder", ""), self.data.media_sort))]
        if self.data.use_recycle_bin:
            try:
                self.data.recycle_bin[self.path] = self.host.fs.read_file(self.path)
            except OSError:
                pass
        if not delete_path(self, self.path):
            return
        self.data.favorites.discard(self.path)
        rest = [p for p in siblings if p != self.path]
        if not rest:
            self.finish()
            return
        index = siblings.index(self.path) if self.path in siblings else 0
        self.path = rest[min(index, len(rest) - 1)]

    def share(self) -> None:
        """Activity.shareMediumPath -> Commons' sharePathIntent: ACTION_SEND of the medium's URI and MIME type in
        Intent.createChooser(.., "Share via"), "No valid app found" when nothing answers."""
        uri = self.media_uri(self.path)
        if not self.start_intent(Intent(ACTION_SEND, mime_type=self.mime_of(self.path), chooser=True,
                                        title="Share via", extras={"uri": uri})):
            self.toast(NO_APP_FOUND)

    def open_with(self) -> None:
        """Activity.openPath(path, forceChooser = true) -> Commons' openPathIntent: ACTION_VIEW of the medium's
        URI and MIME type in Intent.createChooser(.., "Open with").  Here the gallery's own PhotoActivity /
        VideoActivity alone answer, and the chooser starts a single target without asking."""
        uri = self.media_uri(self.path)
        if not self.start_intent(Intent(ACTION_VIEW, data=uri, mime_type=self.mime_of(self.path), chooser=True,
                                        title="Open with",
                                        extras={REAL_FILE_PATH: self.path, IS_FROM_GALLERY: True})):
            self.toast(NO_APP_FOUND)

    def set_as(self) -> None:
        """Activity.setAs -> Commons' setAsIntent: ACTION_ATTACH_DATA of the medium's URI and MIME type in
        Intent.createChooser(.., "Set as").  On this phone only the gallery's own Simple Wallpaper
        (SetWallpaperActivity's ATTACH_DATA image/* filter) answers, and the chooser starts a single
        target without asking (intents.start)."""
        uri = self.media_uri(self.path)
        if not self.start_intent(Intent(ACTION_ATTACH_DATA, data=uri, mime_type=self.mime_of(self.path), chooser=True,
                                        title="Set as", extras={"path": self.path})):
            self.toast(NO_APP_FOUND)

    def show_properties(self) -> None:
        store = self.host.media_store
        item = store.get(self.path) if store is not None else None

        def row(label: str, value: str) -> View:
            return LinearLayout(TextView(label, "property_label", bold=True, width=MATCH, size=sp(14)),
                                TextView(value, "property_value", width=MATCH, size=sp(14), color=TEXT_SECONDARY),
                                id="property_holder", padding=(0, dp(6)))

        def body() -> View:
            rows = [row("Name", posixpath.basename(self.path)), row("Path", posixpath.dirname(self.path))]
            if item is not None:
                rows.append(row("Size", format_size(item.size)))
                if item.width and item.height:
                    rows.append(row("Resolution", f"{item.width} x {item.height} "
                                                  f"({item.width * item.height / 1e6:.1f}MP)"))
                rows.append(row("Last modified", format_date(item.date_modified, use_24_hour=self.data.use_24_hour,
                                                             date_format=self.data.date_format)))
            return ScrollView(Column(*rows, id="properties_holder", padding=(dp(24), dp(12))),
                              id="properties_scrollview", height=WRAP)

        self.show_dialog(Dialog("Properties", body, positive="OK"))


class SetWallpaperActivity(GalleryActivity):
    """Simple Wallpaper: the image with a Save action that asks where to set it."""

    name = f"{PACKAGE}.activities.SetWallpaperActivity"
    title = "Simple Wallpaper"

    def build(self) -> View:
        """activity_set_wallpaper.xml (6.28.1): the toolbar over the crop view and its bottom actions."""
        store = self.host.media_store
        item = store.get(self.path) if store is not None else None
        picture = (self.thumbnail(item, "crop_image_view", dp(600)) if item is not None
                   else TextView("", "crop_image_view", height=dp(600)))
        # bottom_set_wallpaper_actions.xml, included with the id bottom_set_wallpaper_actions (an
        # <include>'s id replaces its root's). SetWallpaperActivity.setupBottomActions: the aspect ratio
        # button cycles portrait / landscape / square, the rotate button turns the crop by 90 degrees;
        # both change only the crop view's pixels.
        actions = LinearLayout(
            ImageView("bottom_set_wallpaper_aspect_ratio", icon="maximize", tint=(255, 255, 255), weight=1,
                      on_click=lambda: self._crop_state("aspect_ratio", 1, 3)),
            ImageView("bottom_set_wallpaper_rotate", icon="rotate", desc="Rotate", tint=(255, 255, 255), weight=1,
                      on_click=lambda: self._crop_state("rotation", 90, 360)),
            orientation="horizontal", id="bottom_set_wallpaper_actions", class_name="android.view.ViewGroup",
            height=dp(56), bg=(0, 0, 0))
        return Column(
            LinearLayout(
                self.toolbar("set_wallpaper_toolbar", title="Simple Wallpaper", back=True, items=menu(
                    APP, "menu_set_wallpaper", {"save": self.confirm, "allow_changing_aspect_ratio": None})),
                id="set_wallpaper_app_bar_layout", class_name="android.widget.LinearLayout"),
            RelativeLayout(picture, actions, id="activity_set_wallpaper_holder", weight=1, height=MATCH,
                           gravity="center", bg=(0, 0, 0)),
            id="set_wallpaper_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    @property
    def path(self) -> str:
        """The image the ATTACH_DATA intent names: the file behind its URI (the gallery's own "Set as" also
        carries the path beside it); another app's (File Manager's) FileProvider or MediaStore URI resolves
        to its file as the content resolver opens it."""
        intent = self.extras.get("intent")
        if intent is None:
            return self.extras["path"]
        return intent.extras.get("path") or file_behind_uri(self, intent.data or "") or ""

    def _crop_state(self, key: str, step: int, modulo: int) -> None:
        self.extras[key] = (self.extras.get(key, 0) + step) % modulo

    def confirm(self) -> None:
        """The commons RadioGroupDialog: choosing an item applies it and closes the dialog."""
        dialog: Dialog

        def choose(index: int) -> None:
            # SetWallpaperActivity.confirmWallpaper (6.28.1): the RadioGroupDialog closes, wallpaperFlag is
            # kept and cropImageView.croppedImageAsync() crops; onCropImageComplete toasts "Setting
            # wallpaper…" and, in ensureBackgroundThread, WallpaperManager.setBitmap(.., wallpaperFlag),
            # setResult(RESULT_OK), finish().  Meanwhile the Simple Wallpaper window is shown again.
            target = WALLPAPER_TARGETS[index]
            dialog.dismiss()
            self.toast("Setting wallpaper…")

            def apply() -> None:
                if target in ("Home screen", "Home and lock screen"):
                    self.data.wallpapers["home"] = self.path
                if target in ("Lock screen", "Home and lock screen"):
                    self.data.wallpapers["lock"] = self.path
                # the viewer's onActivityResult(REQUEST_SET_AS, RESULT_OK): the chooser forwarded the result
                self.toast("Wallpaper set successfully")
                self.finish()

            # finish() comes when the wallpaper write completes: after this tap's frame (System.background)
            self.host.background(apply)

        def body() -> View:
            return ScrollView(RadioGroup(*[RadioButton(label, key=label) for label in WALLPAPER_TARGETS],
                                         id="dialog_radio_group", on_checked_change=choose, padding=(dp(16), dp(8))),
                              id="dialog_radio_holder", height=WRAP)

        dialog = self.show_dialog(Dialog("", body))


#: SettingsActivity.setupFileLoadingPriority: PRIORITY_SPEED, PRIORITY_COMPROMISE, PRIORITY_VALIDITY
FILE_LOADING_PRIORITIES = ("Speed", "Compromise", "Avoid showing invalid files")
#: SettingsActivity.setupScreenRotation: ROTATE_BY_SYSTEM_SETTING, _DEVICE_ROTATION, _ASPECT_RATIO
SCREEN_ROTATIONS = ("System setting", "Device rotation", "Aspect ratio")
#: ChangeFileThumbnailStyleDialog: the thumbnail spacing choices
THUMBNAIL_SPACINGS = (0, 1, 2, 4, 8, 16, 32, 64)


#: helpers/Constants.kt (6.28.1): ASPECT_RATIO_FREE .. ASPECT_RATIO_OTHER, and the editor's buttons for them
#: (bottom_actions_aspect_ratio.xml; "Free" / "Other" are free_aspect_ratio / other_aspect_ratio)
ASPECT_RATIO_FREE = 0
ASPECT_RATIOS = ((0, "bottom_aspect_ratio_free", "Free"), (1, "bottom_aspect_ratio_one_one", "1:1"),
                 (2, "bottom_aspect_ratio_four_three", "4:3"), (3, "bottom_aspect_ratio_sixteen_nine", "16:9"),
                 (4, "bottom_aspect_ratio_other", "Other"))
#: MediaStore.EXTRA_OUTPUT
EXTRA_OUTPUT = "output"


class EditActivity(Activity):
    """The editor ("Basic Editor") as a crop intent opens it: com.android.camera.action.CROP with "crop" =
    "true" (Simple Contacts' startCropPhotoIntent).  EditActivity.kt and activity_edit.xml (6.28.1):

    * initEditActivity: the image is the intent's data, saveUri its EXTRA_OUTPUT; for a crop intent the
      primary actions (filter / crop-rotate / draw) are gone and the crop-rotate actions sit at the bottom;
      the aspect ratios row is shown (updateAspectRatio(config.lastEditorCropAspectRatio)).
    * once Glide loaded the image (onResourceReady): loadCropImageView (the default image view gone, the
      CropImageView shown; aspectX == aspectY: a fixed square and the crop-rotate "Crop" button gone) and
      bottomCropRotateClicked (the crop-rotate actions shown; Resize is gone for a crop intent).
    * Save as (save_as): croppedImageAsync, then onCropImageComplete writes the crop, JPEG at quality 100,
      through openOutputStream(saveUri), setResult(RESULT_OK, data = saveUri) and finishes.  The crop is
      the initial crop window: cropInitialCropWindowPaddingRatio 0 with the fixed square, the largest
      centred square of the image (CropImageView's CropOverlayView.initCropWindow).
    * BACK: the activity finishes with no result set (RESULT_CANCELED).

    Not modelled: rotating, flipping, moving the window and the aspect ratios' effect on the crop (the
    ratio buttons only change which one is highlighted and the remembered choice), "Other"'s
    OtherAspectRatioDialog, Edit with, Share, the editor for a non-crop EDIT intent, and the storage
    permission request of onCreate (handlePermission), which the rest of this Gallery model also leaves out.
    """

    name = f"{PACKAGE}.activities.EditActivity"
    title = "Editor"

    def on_create(self) -> None:
        intent = self.extras.get("intent")
        self.intent = intent
        extras = intent.extras if intent is not None else {}
        self.source = intent.data if intent is not None else None
        self.save_uri = extras.get(EXTRA_OUTPUT) or self.source
        if not self.source:
            self.toast("Invalid image path")  # invalid_image_path
            self.finish()
            return
        # shouldCropSquare: aspectX and aspectY given and equal
        self.square = "aspectX" in extras and "aspectY" in extras and extras["aspectX"] == extras["aspectY"]
        self.is_crop = extras.get("crop") == "true"

    def build(self) -> View:
        white = (255, 255, 255)
        chosen = self.data.last_editor_crop_aspect_ratio
        ratios = LinearLayout(*[
            TextView(label, view_id, color=ACCENT if ratio == chosen else white, weight=1, gravity="center",
                     height=MATCH, on_click=(lambda r=ratio: setattr(self.data, "last_editor_crop_aspect_ratio", r))
                     if ratio != 4 else None)
            for ratio, view_id, label in ASPECT_RATIOS],
            id="bottom_aspect_ratios", class_name="android.view.ViewGroup", orientation="horizontal", width=MATCH,
            height=dp(64), layout_gravity="bottom", margin=(0, 0, 0, dp(64)))
        action = dict(tint=white, weight=1, padding=dp(16))
        crop_rotate = LinearLayout(
            ImageView("bottom_rotate", icon="rotate", desc="Rotate", on_click=lambda: None, **action),
            *([] if self.square else [ImageView("bottom_aspect_ratio", icon="maximize", desc="Crop", **action)]),
            ImageView("bottom_flip_horizontally", icon="swap_horiz", desc="Flip horizontally", on_click=lambda: None,
                      **action),
            ImageView("bottom_flip_vertically", icon="swap_vert", desc="Flip vertically", on_click=lambda: None,
                      **action),
            id="bottom_editor_crop_rotate_actions", class_name="android.view.ViewGroup", orientation="horizontal",
            width=MATCH, height=dp(64), layout_gravity="bottom")
        holder = FrameLayout(
            View("crop_image_view", width=MATCH, height=MATCH, margin=(0, 0, 0, dp(164)), bg=(30, 30, 30),
                 class_name="android.widget.FrameLayout"),
            RelativeLayout(id="bottom_editor_actions_background", width=MATCH, height=dp(180),
                           layout_gravity="bottom"),
            ratios, crop_rotate,
            id="activity_edit_holder", class_name="android.widget.RelativeLayout", weight=1, width=MATCH,
            height=MATCH, bg=(0, 0, 0))
        return Column(
            LinearLayout(
                self.toolbar("editor_toolbar", title="Editor", back=True, items=menu(
                    APP, "menu_editor", {"save_as": self.save, "edit": None, "share": None})),
                id="editor_app_bar_layout", class_name="android.widget.LinearLayout"),
            holder,
            id="editor_coordinator", class_name="android.view.ViewGroup", height=MATCH)

    def save(self) -> None:
        """saveImage with the crop view shown: croppedImageAsync; onCropImageComplete (a crop intent with a
        content saveUri) writes the JPEG and returns RESULT_OK with saveUri as the data."""
        def crop() -> None:
            try:
                cropped = _center_square_jpeg(self.read_uri(self.source))
                self.write_uri(self.save_uri, cropped)
            except (FileNotFoundError, ValueError) as exc:
                self.toast(f"Error: {exc}")  # showErrorToast
                return
            self.set_result(RESULT_OK, self.save_uri)
            self.finish()

        self.host.background(crop)


def _center_square_jpeg(data: bytes) -> bytes:
    """The largest centred square of an image, JPEG at quality 100 (bitmap.compress(JPEG, 100))."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            image = image.convert("RGB")
            side = min(image.size)
            left, top = (image.width - side) // 2, (image.height - side) // 2
            square = image.crop((left, top, left + side, top + side))
    except (OSError, Image.DecompressionBombError) as exc:
        raise ValueError(f"not an image: {exc}") from exc
    out = io.BytesIO()
    square.save(out, "JPEG", quality=100)
    return out.getvalue()


class PhotoVideoActivity(GalleryActivity):
    """PhotoActivity / VideoActivity, which take VIEW of image/* / video/* (PhotoVideoActivity, 6.28.1).

    checkIntent hands a medium whose file is on storage to ViewPagerActivity (sendViewPagerIntent) and
    finishes: the path in Commons' REAL_FILE_PATH extra (openPathIntent puts it there: File Manager's
    tap on a file, the gallery's own "Open with"), else a ``/storage/`` path inside a ``content:`` URI,
    else getRealPathFromURI (a ``file:`` URI's path, a MediaStore URI's ``_data``).  It does not forward a hidden file (a dot folder,
    a ``.nomedia`` folder: preventShowingHiddenFile, the app is no external storage manager here), a
    name without an extension, or a type Filter media hides (isFileTypeVisible).  Other URIs it shows
    itself (fragment_holder.xml), which is not modelled beyond its empty holder; Gallery's separate video
    player (openVideosOnSeparateScreen) is not modelled either.
    """

    def on_create(self) -> None:
        self.host.defer(self._forward)

    def _forward(self) -> None:
        intent = self.extras.get("intent")
        if intent is None:
            return
        fs = self.host.fs
        path, data = intent.extras.get(REAL_FILE_PATH, "") or "", intent.data or ""
        if not path and data.startswith("content:/") and "/storage/" in data:
            path = data[data.index("/storage/"):]
        if not path:  # a file: URI's path, else getRealPathFromURI (a MediaStore URI's _data)
            path = real_path_from_uri(self, data) or ""
        if not path or not fs.exists(path) or "." not in posixpath.basename(path):
            return
        hidden = "/." in path or fs.exists(posixpath.join(posixpath.dirname(path), ".nomedia"))
        if hidden or not self._type_visible(path):
            return
        self.start(ViewPagerActivity, path=path, folder=posixpath.dirname(path))
        self.finish()

    def _type_visible(self, path: str) -> bool:
        """Gallery's Context.isFileTypeVisible: the file's Filter media category is checked."""
        store = self.host.media_store
        item = store.get(path) if store is not None else None
        kind = _kind(item) if item is not None else ("videos" if mime_type_of(path).startswith("video/") else "images")
        return kind in self.data.filters

    def build(self) -> View:
        return RelativeLayout(FrameLayout(id="fragment_placeholder", height=MATCH), id="fragment_holder",
                              height=MATCH, bg=(0, 0, 0))


class PhotoActivity(PhotoVideoActivity):
    name = f"{PACKAGE}.activities.PhotoActivity"


class VideoActivity(PhotoVideoActivity):
    name = f"{PACKAGE}.activities.VideoActivity"


class SettingsActivity(Activity):
    """Settings as activity_settings.xml (6.28.1) lays them out and SettingsActivity.setupSettingItems
    shows them on Android 14: Language (isTiramisuPlus) instead of "Use English language", no "Manage
    hidden folders" (gone on Q+), "Show a notch" (P+), and the rows that need All files access shown as
    with it (the recording's user granted it; the first-run prompt is not modelled)."""

    name = f"{PACKAGE}.activities.SettingsActivity"
    title = "Settings"

    def build(self) -> View:
        d = self.data

        def box(prefix: str, label: str, attr: str) -> View:
            return settings_checkbox(f"settings_{prefix}", label, getattr(d, attr),
                                     lambda value: setattr(d, attr, value))

        def section(prefix: str, label: str, *rows: View) -> list[View]:
            return [TextView(label, f"settings_{prefix}_label", color=ACCENT, bold=True, size=sp(14), width=MATCH,
                             padding=(dp(22), dp(20), dp(16), dp(8))), *rows, Divider(f"settings_{prefix}_divider")]

        def value_row(prefix: str, label: str, value: str | None, on_click, *, label_id: str = "") -> View:
            """A MyTextView row: the label (``<prefix>_label`` when a value follows it, else ``<prefix>``
            unless the layout names it otherwise) and the current value."""
            children: list[View] = [TextView(label, label_id or (f"settings_{prefix}_label" if value is not None
                                                                 else f"settings_{prefix}"), width=MATCH)]
            if value is not None:
                children.append(TextView(value, f"settings_{prefix}", size=sp(14), color=TEXT_SECONDARY, width=MATCH))
            return RelativeLayout(Column(*children), id=f"settings_{prefix}_holder", padding=(dp(22), dp(16)),
                                  on_click=on_click)

        zooming = d.allow_zooming_images
        rows = [
            TextView("COLOR CUSTOMIZATION", "settings_color_customization_section_label", color=ACCENT, bold=True,
                     size=sp(14), width=MATCH, padding=(dp(22), dp(20), dp(16), dp(8))),
            RelativeLayout(TextView("Customize colors", "settings_color_customization_label", width=MATCH),
                           id="settings_color_customization_holder", class_name=CONSTRAINT_LAYOUT,
                           padding=(dp(22), dp(16)), on_click=lambda: self.start(CustomizationActivity)),
            Divider("settings_color_customization_divider"),
            *section("general_settings", "GENERAL",
                     # setupLanguage: Locale.getDefault().displayLanguage; its tap opens the system's per-app
                     # language screen (launchChangeAppLanguageIntent), not modelled
                     value_row("language", "Language", "English", None),
                     value_row("change_date_time_format", "Change date and time format", None,
                               self.show_date_time_dialog),
                     value_row("file_loading_priority", "File loading priority",
                               FILE_LOADING_PRIORITIES[d.file_loading_priority], self.choose_file_loading_priority),
                     value_row("manage_included_folders", "Manage included folders", None,
                               lambda: self.start(IncludedFoldersActivity)),
                     value_row("manage_excluded_folders", "Manage excluded folders", None,
                               lambda: self.start(ExcludedFoldersActivity)),
                     box("show_hidden_items", "Show hidden items", "show_hidden"),
                     box("search_all_files", "Search all files instead of folders on the main screen",
                         "search_all_files")),
            *section("videos", "VIDEOS",
                     box("autoplay_videos", "Play videos automatically", "autoplay_videos"),
                     box("remember_last_video_position", "Remember last video playback position",
                         "remember_last_video_position"),
                     box("loop_videos", "Loop videos", "loop_videos"),
                     box("open_videos_on_separate_screen",
                         "Always open videos on a separate screen with new horizontal gestures",
                         "open_videos_on_separate_screen"),
                     box("allow_video_gestures", "Allow controlling video volume and brightness with vertical gestures",
                         "allow_video_gestures")),
            *section("thumbnails", "THUMBNAILS",
                     box("crop_thumbnails", "Crop thumbnails into squares", "crop_thumbnails"),
                     box("animate_gifs", "Animate GIFs at thumbnails", "animate_gifs"),
                     value_row("file_thumbnail_style", "File thumbnail style", None, self.show_file_style_dialog,
                               label_id="settings_file_thumbnail_style_label"),
                     value_row("folder_thumbnail_style", "Folder thumbnail style",
                               dict((k, label) for k, _, label in FOLDER_STYLES)[d.folder_style],
                               self.show_folder_style_dialog)),
            *section("scrolling", "SCROLLING",
                     box("scroll_horizontally", "Scroll thumbnails horizontally", "scroll_horizontally"),
                     box("enable_pull_to_refresh", "Enable pull-to-refresh from the top", "enable_pull_to_refresh")),
            *section("fullscreen_media", "FULLSCREEN MEDIA",
                     box("max_brightness", "Max brightness when viewing fullscreen media", "max_brightness"),
                     box("black_background", "Black background at fullscreen media", "black_background"),
                     box("hide_system_ui", "Automatically hide system UI at fullscreen media", "hide_system_ui"),
                     box("allow_instant_change", "Allow instantly changing media by clicking on screen sides",
                         "allow_instant_change"),
                     box("allow_photo_gestures", "Allow controlling photo brightness with vertical gestures",
                         "allow_photo_gestures"),
                     box("allow_down_gesture", "Allow closing the fullscreen view with a down gesture",
                         "allow_down_gesture"),
                     box("show_notch", "Show a notch if available", "show_notch"),
                     value_row("screen_rotation", "Rotate fullscreen media by", SCREEN_ROTATIONS[d.screen_rotation],
                               self.choose_screen_rotation)),
            *section("deep_zoomable_images", "DEEP ZOOMABLE IMAGES",
                     box("allow_zooming_images", "Allow deep zooming images", "allow_zooming_images"),
                     # setupAllowZoomingImages: these three show only while deep zooming is allowed
                     *((box("allow_rotating_with_gestures", "Allow rotating images with gestures",
                            "allow_rotating_with_gestures"),
                        box("show_highest_quality", "Show images in the highest possible quality",
                            "show_highest_quality"),
                        box("allow_one_to_one_zoom", "Allow 1:1 zooming in with two double taps",
                            "allow_one_to_one_zoom")) if zooming else ())),
            *section("extended_details", "EXTENDED DETAILS",
                     box("show_extended_details", "Show extended details over fullscreen media",
                         "show_extended_details")),
            *section("security", "SECURITY",
                     box("app_password_protection", "Password protect the whole application",
                         "app_password_protection"),
                     # setupExcludedItemPasswordProtection: gone while the hidden-item row shows
                     box("hidden_item_password_protection", "Password protect hidden item visibility",
                         "hidden_item_password_protection"),
                     box("file_deletion_password_protection", "Password protect file deletion and moving",
                         "file_deletion_password_protection")),
            *section("file_operations", "FILE OPERATIONS",
                     box("delete_empty_folders", "Delete empty folders after deleting their content",
                         "delete_empty_folders"),
                     box("keep_last_modified", "Keep old last-modified value at file operations",
                         "keep_last_modified"),
                     box("skip_delete_confirmation", "Always skip delete confirmation dialog",
                         "skip_delete_confirmation")),
            *section("bottom_actions", "BOTTOM ACTIONS",
                     box("bottom_actions_checkbox", "Show some action buttons at the bottom of the screen",
                         "bottom_actions")),
            *section("recycle_bin", "RECYCLE BIN",
                     box("use_recycle_bin", "Move items into the Recycle Bin instead of deleting", "use_recycle_bin"),
                     *((box("show_recycle_bin", "Show the Recycle Bin at the folders screen", "show_recycle_bin"),
                        box("show_recycle_bin_last", "Show the Recycle Bin as the last item on the main screen",
                            "show_recycle_bin_last")) if d.use_recycle_bin else ())),
            TextView("MIGRATING", "settings_migrating_label", color=ACCENT, bold=True, size=sp(14), width=MATCH,
                     padding=(dp(22), dp(20), dp(16), dp(8))),
        ]
        return LinearLayout(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*rows, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def show_date_time_dialog(self) -> None:
        show_date_time_dialog(self, self.data)

    def choose_file_loading_priority(self) -> None:
        """setupFileLoadingPriority: Commons' RadioGroupDialog, no title; the row shows the choice."""
        radio_group_dialog(self, FILE_LOADING_PRIORITIES, self.data.file_loading_priority,
                           lambda index: setattr(self.data, "file_loading_priority", index))

    def choose_screen_rotation(self) -> None:
        radio_group_dialog(self, SCREEN_ROTATIONS, self.data.screen_rotation,
                           lambda index: setattr(self.data, "screen_rotation", index))

    def show_folder_style_dialog(self) -> None:
        """ChangeFolderThumbnailStyleDialog (dialog_change_folder_thumbnail_style.xml): a sample folder
        ("Camera", 36 files) above the style and file-count radio groups and "Limit long folder titles to 1
        line"; the sample follows the choices, OK stores them.  The sample is the square layout (the
        rounded-corners one, directory_item_grid_rounded_corners.xml, is not modelled)."""
        d = self.data
        styles, counts = [k for k, _, _ in FOLDER_STYLES], [k for k, _, _ in FOLDER_COUNT_STYLES]
        state = {"style": d.folder_style, "count": d.folder_count, "limit": d.limit_folder_title}

        def body() -> View:
            sample = grid_folder_tile(ImageView("dir_thumbnail", icon="image", width=MATCH, height=dp(150)), "Camera",
                                      36, state["count"], state["limit"])
            return ScrollView(Column(
                RelativeLayout(FrameLayout(sample, width=dp(150)), id="dialog_folder_sample_holder",
                               gravity="center_horizontal", padding=(0, dp(12))),
                RadioGroup(*[RadioButton(label, rid) for _, rid, label in FOLDER_STYLES],
                           id="dialog_radio_folder_style",
                           checked_index=styles.index(state["style"]),
                           on_checked_change=lambda i: state.__setitem__("style", styles[i])),
                Divider("", margin=(0, dp(8))),
                RadioGroup(*[RadioButton(label, rid) for _, rid, label in FOLDER_COUNT_STYLES],
                           id="dialog_radio_folder_count_holder", checked_index=counts.index(state["count"]),
                           on_checked_change=lambda i: state.__setitem__("count", counts[i])),
                Divider("", margin=(0, dp(8))),
                CheckBox("Limit long folder titles to 1 line", "dialog_folder_limit_title", checked=state["limit"],
                         on_checked_change=lambda value: state.__setitem__("limit", value)),
                id="dialog_holder", padding=(dp(16), dp(4))), id="dialog_scrollview", height=WRAP)

        def ok(_d: Dialog) -> None:
            d.folder_style, d.folder_count, d.limit_folder_title = state["style"], state["count"], state["limit"]

        self.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))

    def show_file_style_dialog(self) -> None:
        """ChangeFileThumbnailStyleDialog (dialog_change_file_thumbnail_style.xml): thumbnail spacing (a
        RadioGroupDialog of 0x..64x) and four check boxes; OK stores them, Cancel drops the changes."""
        d = self.data
        state = {"spacing": d.thumbnail_spacing}
        boxes = (("rounded_corners", "Rounded corners", "file_rounded_corners"),
                 ("show_thumbnail_video_duration", "Show video durations", "show_thumbnail_video_duration"),
                 ("show_thumbnail_file_types", "Show image file types", "show_thumbnail_file_types"),
                 ("mark_favorite_items", "Mark favorite items", "mark_favorite_items"))
        checked = {attr: getattr(d, attr) for _, _, attr in boxes}

        def spacing() -> None:
            radio_group_dialog(self, [f"{n}x" for n in THUMBNAIL_SPACINGS], THUMBNAIL_SPACINGS.index(state["spacing"]),
                               lambda index: state.__setitem__("spacing", THUMBNAIL_SPACINGS[index]))

        def body() -> View:
            rows: list[View] = [RelativeLayout(
                Column(TextView("Thumbnail spacing", "dialog_file_style_spacing_label", width=MATCH),
                       TextView(f"{state['spacing']}x", "dialog_file_style_spacing", size=sp(14),
                                color=TEXT_SECONDARY, width=MATCH)),
                id="dialog_file_style_spacing_holder", padding=(dp(16), dp(12)), on_click=spacing)]
            rows += [settings_checkbox(f"dialog_file_style_{key}", label, checked[attr],
                                       lambda value, attr=attr: checked.__setitem__(attr, value))
                     for key, label, attr in boxes]
            return ScrollView(Column(*rows, id="dialog_holder", padding=(0, dp(8))), id="dialog_scrollview",
                              height=WRAP)

        def ok(_d: Dialog) -> None:
            for attr, value in checked.items():
                setattr(d, attr, value)
            d.thumbnail_spacing = state["spacing"]

        self.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))


class ManageFoldersActivity(Activity):
    """activity_manage_folders.xml: the toolbar with Add folder (menu_add_folder), the folders
    (item_manage_folder) or, with none, the placeholder text."""

    attr = ""
    placeholder = ""

    def build(self) -> View:
        folders = sorted(getattr(self.data, self.attr))
        rows = [RelativeLayout(TextView(folder, "manage_folder_title", width=MATCH, padding=(dp(16), dp(16))),
                               id="manage_folder_holder", key=folder) for folder in folders]
        items = menu(APP, "menu_add_folder", {"add_folder": self.add_folder})
        return LinearLayout(
            self.toolbar("manage_folders_toolbar", title=self.title, back=True, items=items),
            RelativeLayout(
                RecyclerView(*rows, id="manage_folders_list", height=MATCH),
                *([TextView(self.placeholder, "manage_folders_placeholder", width=MATCH, gravity="center",
                            padding=dp(24), color=TEXT_SECONDARY)] if not folders else []),
                id="manage_folders_holder", weight=1, height=MATCH),
            id="manage_folders_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def add_folder(self) -> None:
        """addFolder: Commons' FilePickerDialog for a folder at internal storage, then the folder is added."""
        show_folder_picker(self, EXTERNAL_ROOT, self.data.show_hidden,
                           lambda path: getattr(self.data, self.attr).add(path), can_add_show_hidden_button=True)


class IncludedFoldersActivity(ManageFoldersActivity):
    name = f"{PACKAGE}.activities.IncludedFoldersActivity"
    title = "Included folders"
    attr = "included_folders"
    placeholder = ("If you have some folders which contain media, but were not recognized by the app, you can add "
                   "them manually here.\n\nAdding some items here will not exclude any other folder.")


class ExcludedFoldersActivity(ManageFoldersActivity):
    """Excluded folders (and their sub-folders) are left out of the folders screen (Context.getDirsToShow)."""

    name = f"{PACKAGE}.activities.ExcludedFoldersActivity"
    title = "Excluded folders"
    attr = "excluded_folders"
    placeholder = ("Excluding folders will make them together with their subfolders hidden just in Simple Gallery, "
                   "they will still be visible in other applications.\n\nIf you want to hide them from other apps "
                   "too, use the Hide function.")


class GalleryApp(CommonsApp):
    package = PACKAGE
    label = "Gallery"
    # AndroidManifest.xml (6.28.1): SetWallpaperActivity (label "Simple Wallpaper") takes ATTACH_DATA of image/*
    intent_filters = ((SetWallpaperActivity.name, "Simple Wallpaper",
                       IntentFilter((ACTION_ATTACH_DATA,), mime_types=("image/*",))),
                      # PhotoActivity / VideoActivity take VIEW of image/* / video/*
                      (PhotoActivity.name, "", IntentFilter((ACTION_VIEW,), mime_types=("image/*",))),
                      (VideoActivity.name, "", IntentFilter((ACTION_VIEW,), mime_types=("video/*",))),
                      # MainActivity takes GET_CONTENT of images and videos (6.28.1 AndroidManifest.xml), so
                      # DocumentsUI lists it among the other apps (its pick mode is not modelled)
                      (MainActivity.name, "", IntentFilter((ACTION_GET_CONTENT,), mime_types=(
                          "image/*", "video/*", "vnd.android.cursor.dir/image", "vnd.android.cursor.dir/video"))),
                      # EditActivity ("Basic Editor") takes com.android.camera.action.CROP of image/* with a
                      # content: or file: URI (its EDIT filter is not modelled: the editor's other screens are not)
                      (EditActivity.name, "Basic Editor", IntentFilter(("com.android.camera.action.CROP",),
                                                                       mime_types=("image/*",),
                                                                       schemes=("content", "file"))))
    activities = (MainActivity, MediaActivity, ViewPagerActivity, SetWallpaperActivity, SettingsActivity,
                  IncludedFoldersActivity, ExcludedFoldersActivity, PhotoActivity, VideoActivity, CustomizationActivity,
                  EditActivity)

    def new_data(self) -> SimpleNamespace:
        return new_data()

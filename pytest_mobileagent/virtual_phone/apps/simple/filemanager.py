"""Simple File Manager Pro (`com.simplemobiletools.filemanager.pro`) for the virtual phone.

Screens, ids and texts follow the real app's recordings (DroidTask, June-July
2023: the main screen with its Files / Recents / Storage tabs, breadcrumbs,
the Sort by dialog, the overflow menu, Settings) and, where no recording shows
a screen, the app's and the Simple Mobile Tools commons library's layouts:
long-press selection with its contextual action bar (`cab_*`), the delete
confirmation, Rename (`rename_item_name` + `rename_item_extension`),
Properties (`property_label` / `property_value` rows) and Create new
(`item_title`, `dialog_radio_directory` / `dialog_radio_file`).

The app reads the phone's file system live (shared storage, home folder
`/storage/emulated/0` shown as "Internal"); what it deletes or renames is
also updated in the media store, as the real app does through MediaStore.
"""

from __future__ import annotations

import decimal
import hashlib
import math
import posixpath
from types import SimpleNamespace

from ...kernel.fs import FsError
from ...framework.intents import ACTION_GET_CONTENT, ACTION_VIEW, Intent, IntentFilter
from ...framework.media_store import EXTERNAL_ROOT, mime_type_of
from ...framework.storage_stats import storage_summary
from ...framework.ui.text import text_width
from ...framework.ui.views import (
    ACCENT,
    place_menu,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
    CheckBox,
    Column,
    Divider,
    EditText,
    FloatingActionButton,
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
from ...framework.app import Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER, SWIPE_REFRESH_LAYOUT
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..commons.commons_app import CommonsApp
from ..commons.commons_dialogs import radio_dialog
from ..commons.commons_security import password_protection_row
from ..commons.simple_commons import (CustomizationActivity, action_mode_bar, launch_change_app_language, radio_group_dialog,
                             section_label, value_row)
from ..commons.commons_intents import open_path, set_as, share_paths
from ..commons.commons_files import (
    NAME_TAKEN,
    delete_path,
    fs_error_toast,
    move_path,
    new_item_path,
    show_folder_picker,
    show_rename_dialog,
)
from ..commons.date_time_format import show_date_time_dialog
from ..commons.storage_format import format_date, format_size, items_count

APP = "filemanager"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.filemanager.pro"
HOME = EXTERNAL_ROOT

SORT_FIELDS = ("name", "size", "last_modified", "extension")
TAB_FILES, TAB_RECENTS, TAB_STORAGE = 0, 1, 2
TAB_LABELS = ("Files", "Recents", "Storage")

#: the Storage tab's categories: (id prefix, label, media types / MIME test)
_ARCHIVE_EXTS = {"zip", "rar", "7z", "tar", "gz", "bz2", "xz", "apk"}
CATEGORIES = ("images", "videos", "audio", "documents", "archives", "others")
#: MimeTypesActivity's title per category (R.string.images ... R.string.others)
CATEGORY_TITLES = dict(zip(CATEGORIES, ("Images", "Videos", "Audio", "Documents", "Archives", "Others")))


def format_size_thousand(size: int) -> str:
    """File Manager's Long.formatSizeThousand (extensions/Long.kt): 1000-based units, DecimalFormat
    "#,##0.#" (which rounds half-even)."""
    if size <= 0:
        return "0 B"
    units = ("B", "kB", "MB", "GB", "TB")
    group = int(math.log10(size) / math.log10(1000.0))
    value = decimal.Decimal(size) / (decimal.Decimal(1000) ** group)
    text = f"{value.quantize(decimal.Decimal('0.1'), rounding=decimal.ROUND_HALF_EVEN):,}"
    return f"{text.rstrip('0').rstrip('.') if '.' in text else text} {units[group]}"


def category_of(name: str) -> str:
    """The Storage tab's category of a file, by its MIME type."""
    mime = mime_type_of(name)
    ext = name.rpartition(".")[2].lower() if "." in name else ""
    if mime.startswith("image/"):
        return "images"
    if mime.startswith("video/"):
        return "videos"
    if mime.startswith("audio/"):
        return "audio"
    if ext in _ARCHIVE_EXTS:
        return "archives"
    if (mime.startswith("text/") or mime.startswith("application/")) and mime != "application/octet-stream":
        return "documents"
    return "others"


class FileManagerData(SimpleNamespace):
    """Persistent settings (reset by `pm clear`)."""


def new_data() -> FileManagerData:
    return FileManagerData(sort_by="name", ascending=True, folder_sorts={}, show_hidden=False, grid_view=False,
                           folder_view_types={},
                           use_24_hour=False, date_format="%d.%m.%Y", press_back_twice=False,
                           skip_delete_confirmation=False,
                           enable_pull_to_refresh=True, keep_last_modified=True, font_size=1,
                           show_tabs=7, favorites=[])


def _display_name(path: str) -> str:
    return "Internal" if path == HOME else posixpath.basename(path)


class MainActivity(Activity):
    """The main screen: Files (breadcrumbs + list), Recents and Storage tabs."""

    name = f"{PACKAGE}.activities.MainActivity"

    def on_create(self) -> None:
        self.stored_show_tabs = self.data.show_tabs
        self.tab = self.shown_tabs()[0]
        self.path = HOME
        self.selection: list[str] = []    # selected paths, in selection order
        self.search = ""
        self.temporarily_show_hidden = False

    def on_resume(self) -> None:
        # MainActivity.onResume: a changed "Manage shown tabs" restarts the app (System.exit(0)) on the first tab
        if self.stored_show_tabs != self.data.show_tabs:
            self.on_create()

    def shown_tabs(self) -> list[int]:
        """The tabs config.showTabs keeps, in the order of getTabsList."""
        return [tab for tab, bit in zip((TAB_FILES, TAB_RECENTS, TAB_STORAGE), TAB_BITS) if self.data.show_tabs & bit]

    # -- state helpers ------------------------------------------------------------
    @property
    def fs(self):
        return self.host.fs

    def showing_hidden(self) -> bool:
        return self.data.show_hidden or self.temporarily_show_hidden

    def sort_for(self, path: str) -> tuple[str, bool]:
        return self.data.folder_sorts.get(path, (self.data.sort_by, self.data.ascending))

    def entries(self, path: str) -> list[tuple[str, object]]:
        """(name, stat) of a folder's shown items, sorted as the app sorts them."""
        try:
            entries = self.fs.listdir_stat(path)
        except FsError:
            return []
        if not self.showing_hidden():
            entries = [(n, s) for n, s in entries if not n.startswith(".")]
        return self.sorted_entries(path, entries)

    def sorted_entries(self, path: str, entries: list[tuple[str, object]]) -> list[tuple[str, object]]:
        """Folders first, each part by the folder's sorting (``path`` names the folder's sorting)."""
        field, ascending = self.sort_for(path)

        def key(entry):
            name, stat = entry
            name = posixpath.basename(name)
            if field == "size":
                value = self._size(posixpath.join(path, name), stat)
            elif field == "last_modified":
                value = stat.mtime
            elif field == "extension":
                value = (name.rpartition(".")[2].lower() if "." in name else "", name.lower())
            else:
                value = name.lower()
            return value

        folders = sorted([e for e in entries if e[1].is_dir], key=key, reverse=not ascending)
        files = sorted([e for e in entries if not e[1].is_dir], key=key, reverse=not ascending)
        return folders + files  # folders first, as the app sorts them

    def _size(self, path: str, stat) -> int:
        if not stat.is_dir:
            return stat.size
        total = 0
        try:
            for name, child in self.fs.listdir_stat(path):
                total += self._size(posixpath.join(path, name), child)
        except FsError:
            pass
        return total

    def _child_count(self, path: str) -> int:
        try:
            names = self.fs.listdir(path)
        except FsError:
            return 0
        return len(names if self.showing_hidden() else [n for n in names if not n.startswith(".")])

    def search_results(self) -> list[tuple[str, object]]:
        """Files and folders below the current folder whose name contains the query."""
        query = self.search.strip().lower()
        results = []

        def walk(folder: str) -> None:
            for name, stat in self.entries(folder):
                full = posixpath.join(folder, name)
                if query in name.lower():
                    results.append((full, stat))
                if stat.is_dir:
                    walk(full)

        walk(self.path)
        return results

    # -- navigation ----------------------------------------------------------------
    def open_folder(self, path: str) -> None:
        self.path = path
        self.selection = []

    def on_back(self) -> bool:
        if self.selection:
            self.selection = []
            return True
        if self.search:
            self.search = ""
            return True
        if self.tab == TAB_FILES and self.path != HOME:
            self.path = posixpath.dirname(self.path)
            return True
        return False

    def tap_item(self, path: str, is_dir: bool) -> None:
        if self.selection:
            self.toggle_selected(path)
        elif is_dir:
            self.search = ""
            self.open_folder(path)
        else:
            open_path(self, path)  # MyViewPagerFragment.clickedPath: tryOpenPathIntent(path, false)

    def toggle_selected(self, path: str) -> None:
        if path in self.selection:
            self.selection.remove(path)
        else:
            self.selection.append(path)

    def long_press_item(self, path: str) -> None:
        if path not in self.selection:
            self.selection.append(path)

    # -- building -------------------------------------------------------------------
    def build(self) -> View:
        pages = {TAB_FILES: self._files_page, TAB_RECENTS: self._recents_page, TAB_STORAGE: self._storage_page}
        return Column(
            self._selection_bar() if self.selection else self._top_bar(),
            RelativeLayout(
                # activity_main.xml's MyViewPager; dumps show ViewPager's R8-renamed class (accessibility_class.py)
                Column(FrameLayout(pages[self.tab](), id="main_view_pager", class_name=MY_VIEW_PAGER,
                                   height=MATCH), weight=1, height=MATCH),
                id="main_holder", weight=1, height=MATCH, class_name="android.widget.RelativeLayout"),
            *([self._tabs()] if len(self.shown_tabs()) > 1 else []),  # beGoneIf(tabCount == 1)
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _top_bar(self) -> View:
        items = self._menu()
        actions, overflow = place_menu(items)
        # as wide as its buttons, so the search field takes the rest of the bar
        width = dp(48) * len(actions) + (dp(36) if overflow else 0) + dp(16)
        toolbar = self.toolbar("top_toolbar", items=items, height=dp(48), width=width)
        return LinearLayout(
            LinearLayout(
                Row(
                    ImageView("top_toolbar_search_icon", icon="search", on_click=self._focus_search,
                              width=dp(40), height=dp(48)),
                    EditText(self.search, "top_toolbar_search", hint="Search", weight=1, width=MATCH,
                             on_text_changed=self._search_changed, key="top_toolbar_search", min_height=dp(48)),
                    toolbar,
                    id="top_toolbar_holder", class_name="android.widget.RelativeLayout", bg=(240, 240, 240),
                    radius=dp(24), gravity="center_vertical", padding=(dp(4), 0)),
                id="top_app_bar_layout", margin=(dp(16), dp(8)), height=WRAP),
            id="main_menu", height=WRAP)

    def _menu(self) -> list[MenuItem]:
        """menu.xml as MainActivity.refreshMenuItems shows it for the current tab.

        Add / Remove favorite follow whether the folder is a favourite, Go to favorite whether
        there is one; the grid-only items follow the folder's view type.
        """
        files, storage = self.tab == TAB_FILES, self.tab == TAB_STORAGE
        grid = self.uses_grid(self.path) and not storage
        away = files and self.path != HOME
        favorites = self.data.favorites
        hidden = [*FDROID_HIDDEN]
        hidden += [] if files and favorites else ["go_to_favorite"]
        hidden += [] if files and self.path not in favorites else ["add_favorite"]
        hidden += [] if files and self.path in favorites else ["remove_favorite"]
        hidden += [] if files else ["sort"]
        hidden += [] if away else ["go_home", "set_as_home"]
        hidden += [] if grid else ["toggle_filename", "column_count"]
        hidden += ["change_view_type"] if storage else []
        hidden += ["temporarily_show_hidden"] if storage or self.showing_hidden() else []
        hidden += ["stop_showing_hidden"] if storage or not self.temporarily_show_hidden else []
        return menu(APP, "menu", {
            "go_home": lambda: self.open_folder(HOME), "sort": self.show_sort_dialog,
            "add_favorite": lambda: favorites.append(self.path),
            "remove_favorite": lambda: favorites.remove(self.path), "go_to_favorite": self._go_to_favorite,
            "toggle_filename": None,
            "change_view_type": self.show_view_type_dialog, "set_as_home": None,
            "temporarily_show_hidden": self._temporarily_show_hidden,
            "stop_showing_hidden": self._stop_showing_hidden, "column_count": None,
            "settings": lambda: self.start(SettingsActivity),
            "about": lambda: self.start("com.simplemobiletools.commons.activities.AboutActivity")},
            hide=hidden)

    def _go_to_favorite(self) -> None:
        """MainActivity.goToFavorite: a RadioGroupDialog of the favourites as humanizePath shows them."""
        favorites = list(self.data.favorites)
        labels = [("Internal" + p[len(HOME):] if p.startswith(HOME) else p).replace("/", " / ") for p in favorites]
        current = favorites.index(self.path) if self.path in favorites else -1
        radio_group_dialog(self, labels, current, lambda i: self.open_folder(favorites[i]), title="Go to favorite")

    def _selection_bar(self) -> View:
        """ItemsAdapter's action mode: cab.xml as its prepareActionMode shows it."""
        single = len(self.selection) == 1
        names = [posixpath.basename(p) for p in self.selection]
        one_file = single and not self.fs.isdir(self.selection[0])
        hidden = ["cab_confirm_selection"]  # only when picking files for another app
        hidden += [] if any(n.startswith(".") for n in names) else ["cab_unhide"]
        hidden += [] if any(not n.startswith(".") for n in names) else ["cab_hide"]
        hidden += [] if single else ["cab_copy_path", "cab_create_shortcut"]
        hidden += [] if one_file else ["cab_open_with", "cab_open_as", "cab_set_as"]
        hidden += [] if any(n.lower().endswith(".zip") for n in names) else ["cab_decompress"]
        items = menu(APP, "cab", {
            "cab_delete": self.ask_delete, "cab_properties": self.show_properties,
            "cab_rename": self.show_rename_dialog if single else None,
            "cab_share": lambda: share_paths(self, [f for p in self.selection for f in self._share_files(p)]),
            "cab_hide": lambda: self.set_hidden(True), "cab_unhide": lambda: self.set_hidden(False),
            "cab_create_shortcut": None, "cab_copy_path": self._copy_path, "cab_set_as": lambda: set_as(self, self.selection[0]),
            "cab_open_with": lambda: open_path(self, self.selection[0], force_chooser=True), "cab_open_as": self._open_as, "cab_copy_to": None, "cab_move_to": None,
            "cab_compress": None, "cab_decompress": None, "cab_select_all": self.select_all},
            hide=hidden, kind=ACTION_MODE)
        count = len(self.entries(self.path)) if not self.search else len(self.search_results())
        every = len(self.selection) >= count
        return action_mode_bar(self, f"{len(self.selection)} / {count}", items, on_close=self._clear_selection,
                               on_title=self._clear_selection if every else self.select_all)

    def _open_as(self) -> None:
        """ItemsAdapter.openAs: a RadioGroupDialog of the types (none checked); the pick opens the file as
        that type (Activity.getMimeType: text/*, image/*, audio/*, video/*, */*)."""
        path = self.selection[0]
        types = ("text/*", "image/*", "audio/*", "video/*", "*/*")
        radio_group_dialog(self, ["Text file", "Image file", "Audio file", "Video file", "Other file"], -1,
                           lambda i: open_path(self, path, force_mime=types[i]))

    def _share_files(self, path: str) -> list[str]:
        """ItemsAdapter.addFileUris: a folder shares the files in it (hidden ones as the view shows them)."""
        if not self.fs.isdir(path):
            return [path]
        names = sorted(self.fs.listdir(path))
        return [f for n in names if self.showing_hidden() or not n.startswith(".")
                for f in self._share_files(posixpath.join(path, n))]

    def _tabs(self) -> View:
        tabs = []
        for i in self.shown_tabs():
            label = TAB_LABELS[i]
            selected = i == self.tab
            tabs.append(LinearLayout(
                LinearLayout(
                    ImageView("tab_item_icon", icon=("folder", "history", "storage")[i], selected=selected,
                              tint=ACCENT if selected else TEXT_SECONDARY, width=dp(28), height=dp(28)),
                    TextView(label, "tab_item_label", size=sp(13), selected=selected, max_lines=1, width=WRAP,
                             color=ACCENT if selected else TEXT_SECONDARY),
                    id="tab_item_holder", selected=selected, width=WRAP, gravity="center_horizontal"),
                selected=selected, weight=1, width=MATCH, gravity="center", height=dp(64),
                on_click=None if selected else (lambda i=i: self.select_tab(i))))
        return FrameLayout(LinearLayout(*tabs, orientation="horizontal"), id="main_tabs_holder",
                           class_name="android.widget.HorizontalScrollView", height=dp(64))

    def select_tab(self, tab: int) -> None:
        self.tab = tab
        self.selection = []

    # -- the Files page ---------------------------------------------------------------------
    def _files_page(self) -> View:
        rows: list[View]
        if self.search.strip():
            found = self.search_results()
            rows = [self._item_row(path, stat, show_path=True) for path, stat in found]
        else:
            rows = [self._item_row(posixpath.join(self.path, name), stat)
                    for name, stat in self.entries(self.path)]
        content: list[View] = [self._breadcrumbs()]
        grid = self.uses_grid(self.path) and not self.search.strip()
        if rows:
            content.append(FrameLayout(FrameLayout(RecyclerView(*rows, id="items_list", height=MATCH,
                                                                columns=4 if grid else 1),
                                                   id="items_fastscroller", height=MATCH,
                                                   class_name="android.widget.RelativeLayout"),
                                       id="items_swipe_refresh", class_name=SWIPE_REFRESH_LAYOUT, weight=1,
                                       height=MATCH))
        else:
            content.append(TextView("No items found.", "items_placeholder", color=TEXT_SECONDARY, gravity="center",
                                    width=MATCH, padding=dp(24)))
        return RelativeLayout(
            FrameLayout(
                Column(*content, id="items_wrapper", height=MATCH, class_name="android.widget.RelativeLayout"),
                FloatingActionButton("items_fab", on_click=self.show_create_dialog),
                id="items_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH),
            id="items_fragment", height=MATCH)

    def _breadcrumbs(self) -> View:
        crumbs: list[View] = []
        rel = self.path[len(HOME):].strip("/")
        parts = rel.split("/") if rel else []
        crumbs.append(FrameLayout(TextView("Internal", "breadcrumb_text", width=WRAP, padding=(dp(16), dp(8)),
                                           on_click=lambda: self.open_folder(HOME), bold=not parts,
                                           color=TEXT if not parts else TEXT_SECONDARY),
                                  width=WRAP))
        walked = HOME
        for i, part in enumerate(parts):
            walked = posixpath.join(walked, part)
            last = i == len(parts) - 1
            crumbs.append(TextView(f"> {part}", "breadcrumb_text", width=WRAP, padding=(dp(4), dp(8)),
                                   on_click=lambda p=walked: self.open_folder(p), bold=last,
                                   color=TEXT if last else TEXT_SECONDARY))
        return FrameLayout(LinearLayout(*crumbs, orientation="horizontal", width=WRAP), id="breadcrumbs",
                           class_name="android.widget.HorizontalScrollView", height=dp(48), margin=(0, dp(8), 0, 0))

    def _date(self, epoch_s: int) -> str:
        return format_date(epoch_s, use_24_hour=self.data.use_24_hour, date_format=self.data.date_format)

    def uses_grid(self, path: str) -> bool:
        return self.data.folder_view_types.get(path, self.data.grid_view)

    def _grid_cell(self, path: str, stat) -> View:
        """item_dir_grid / item_file_grid: a square icon with the name under it."""
        selected = path in self.selection
        return FrameLayout(
            RelativeLayout(
                ImageView("item_icon", icon="folder" if stat.is_dir else "file", width=dp(64), height=dp(64),
                          layout_gravity="center_horizontal", tint=ACCENT if stat.is_dir else TEXT_SECONDARY),
                TextView(posixpath.basename(path), "item_name", size=sp(13), max_lines=1, width=MATCH,
                         gravity="center_horizontal", margin=(dp(4), dp(68), dp(4), 0)),
                id="item_holder", height=dp(96), padding=(0, dp(4))),
            id="item_frame", key=path, selected=selected, bg=(255, 224, 212) if selected else None,
            on_click=lambda: self.tap_item(path, stat.is_dir), on_long_click=lambda: self.long_press_item(path))

    def _item_row(self, path: str, stat, show_path: bool = False) -> View:
        """One row: icon, name, and size/date (files) or item count (folders), placed as the app's RelativeLayout."""
        if not show_path and self.uses_grid(posixpath.dirname(path)):
            return self._grid_cell(path, stat)
        name = posixpath.basename(path)
        text_left = dp(4) + dp(54) + dp(12)
        small = sp(14)
        if stat.is_dir:
            details = [TextView(items_count(self._child_count(path)), "item_details", size=small, color=TEXT_SECONDARY,
                                width=WRAP, margin=(text_left, dp(30), 0, 0))]
        else:
            size_text = format_size(stat.size)
            date_left = text_left + text_width(size_text, small) + dp(12)
            details = [TextView(size_text, "item_details", size=small, color=TEXT_SECONDARY, width=WRAP,
                                margin=(text_left, dp(30), 0, 0)),
                       TextView(self._date(stat.mtime), "item_date", size=small,
                                color=TEXT_SECONDARY, width=WRAP, margin=(date_left, dp(30), 0, 0))]
        label = path[len(HOME):].lstrip("/") if show_path else name
        selected = path in self.selection
        return FrameLayout(
            RelativeLayout(
                ImageView("item_icon", icon="folder" if stat.is_dir else "file", width=dp(54), height=dp(54),
                          margin=(dp(4), 0, 0, 0), tint=ACCENT if stat.is_dir else TEXT_SECONDARY),
                TextView(label, "item_name", max_lines=1, width=MATCH, margin=(text_left, dp(4), dp(16), 0)),
                *details,
                id="item_holder", height=dp(54), margin=(0, dp(2))),
            id="item_frame", key=path, selected=selected, bg=(255, 224, 212) if selected else None,
            height=dp(58), on_click=lambda: self.tap_item(path, stat.is_dir),
            on_long_click=lambda: self.long_press_item(path))

    # -- Recents and Storage pages ------------------------------------------------------------
    def _recents_page(self) -> View:
        files = self.host.media_store.query() if self.host.media_store is not None else []
        files = [r for r in files if r.media_type != "none" and self.fs.exists(r.path)]
        files.sort(key=lambda r: (-r.date_modified, r.path))
        rows = []
        for row in files[:50]:
            try:
                stat = self.fs.stat(row.path)
            except FsError:
                continue
            rows.append(self._item_row(row.path, stat))
        body: View = (RecyclerView(*rows, id="recents_list", height=MATCH) if rows else
                      TextView("No items found.", "recents_placeholder", color=TEXT_SECONDARY, width=MATCH,
                               gravity="center", padding=dp(24)))
        return RelativeLayout(FrameLayout(body, id="recents_swipe_refresh", class_name=SWIPE_REFRESH_LAYOUT,
                                          height=MATCH), id="recents_fragment", height=MATCH)

    def _storage_totals(self) -> dict[str, int]:
        totals = dict.fromkeys(CATEGORIES, 0)
        for path, stat in self.category_files():
            totals[category_of(posixpath.basename(path))] += stat.size
        return totals

    def category_files(self, category: str | None = None) -> list[tuple[str, object]]:
        """(path, stat) of the files on internal storage (of one Storage category)."""
        found = []

        def walk(folder: str) -> None:
            try:
                entries = self.fs.listdir_stat(folder)
            except FsError:
                return
            for name, stat in entries:
                full = posixpath.join(folder, name)
                if stat.is_dir:
                    walk(full)
                elif category is None or category_of(name) == category:
                    found.append((full, stat))

        walk(HOME)
        return found

    def _storage_page(self) -> View:
        totals = self._storage_totals()
        # StorageFragment.getVolumeStorageStats: StorageStatsManager.getTotalBytes / getFreeBytes of
        # UUID_DEFAULT (the phone's one storage record, framework/storage_stats.py)
        volume = storage_summary(self.fs)
        free, total = volume.free, volume.total
        rows: list[View] = [RelativeLayout(
            Column(
                Row(TextView(format_size_thousand(free), "free_space_value", size=sp(36), bold=True, width=WRAP),
                    TextView("free", "free_space_label", size=sp(16), color=TEXT_SECONDARY, width=WRAP,
                             margin=(dp(8), 0, 0, 0)),
                    gravity="bottom"),
                View("main_storage_usage_progressbar", height=dp(4), bg=ACCENT, margin=(0, dp(8)),
                     class_name="android.widget.ProgressBar"),
                TextView(f"Total storage: {format_size_thousand(total)}", "total_space", color=TEXT_SECONDARY,
                         width=MATCH)),
            id="free_space_holder", padding=dp(16), on_click=self._storage_settings)]
        for prefix, label in (("images", "Images"), ("videos", "Videos"), ("audio", "Audio"),
                              ("documents", "Documents"), ("archives", "Archives"), ("others", "Others")):
            rows.append(RelativeLayout(
                Column(Row(TextView(label, f"{prefix}_label", weight=1, width=MATCH),
                           TextView(format_size(totals[prefix]), f"{prefix}_size", width=WRAP, color=TEXT_SECONDARY)),
                       View(f"{prefix}_progressbar", height=dp(2), bg=(220, 220, 220), margin=(0, dp(8), 0, 0),
                            class_name="android.widget.ProgressBar")),
                id=f"{prefix}_holder", padding=(dp(16), dp(12)),
                on_click=lambda prefix=prefix: self.start(MimeTypesActivity, category=prefix)))
        return RelativeLayout(
            ScrollView(Column(*rows, id="storage_holder", class_name=CONSTRAINT_LAYOUT),
                       id="storage_nested_scrollview"),
            id="storage_fragment", height=MATCH)

    # -- search -------------------------------------------------------------------------------
    def _storage_settings(self) -> None:
        """StorageFragment: freeSpaceHolder starts Settings.ACTION_INTERNAL_STORAGE_SETTINGS."""
        if not self.start_intent(Intent("android.settings.INTERNAL_STORAGE_SETTINGS")):
            self.toast("An unknown error occurred")  # showErrorToast of the ActivityNotFoundException

    def _focus_search(self) -> None:
        view = self.find("top_toolbar_search")
        if view is not None:
            self.window.set_focus(view)

    def _search_changed(self, text: str) -> None:
        self.search = text
        self.selection = []

    # -- overflow actions ---------------------------------------------------------------------
    def _temporarily_show_hidden(self) -> None:
        self.temporarily_show_hidden = True

    def _stop_showing_hidden(self) -> None:
        self.temporarily_show_hidden = False

    def _clear_selection(self) -> None:
        self.selection = []

    def select_all(self) -> None:
        items = (self.search_results() if self.search.strip() else
                 [(posixpath.join(self.path, n), s) for n, s in self.entries(self.path)])
        self.selection = [p for p, _ in items]

    def _copy_path(self) -> None:
        self.toast("Value copied to clipboard")
        self.selection = []

    # -- dialogs ------------------------------------------------------------------------------
    def show_view_type_dialog(self) -> None:
        folder = self.path
        folder_only = folder in self.data.folder_view_types

        def body() -> View:
            return ScrollView(Column(
                RadioGroup(RadioButton("Grid", "change_view_type_dialog_radio_grid"),
                           RadioButton("List", "change_view_type_dialog_radio_list"),
                           id="change_view_type_dialog_radio", checked_index=0 if self.uses_grid(folder) else 1),
                Divider("use_for_this_folder_divider", margin=(0, dp(8))),
                CheckBox("Use for this folder only", "change_view_type_dialog_use_for_this_folder",
                         checked=folder_only),
                id="change_view_type_dialog_holder", padding=(dp(16), dp(4))),
                id="change_view_type_dialog_scrollview", height=WRAP)

        def ok(d: Dialog) -> None:
            grid = d.find("change_view_type_dialog_radio").checked_index == 0
            if d.find("change_view_type_dialog_use_for_this_folder").checked:
                self.data.folder_view_types[folder] = grid
            else:
                self.data.folder_view_types.pop(folder, None)
                self.data.grid_view = grid

        self.show_dialog(Dialog("Change view type", body, positive=("OK", ok), negative="Cancel"))

    def show_sort_dialog(self) -> None:
        field, ascending = self.sort_for(self.path)
        folder_only = self.path in self.data.folder_sorts

        def body() -> View:
            return ScrollView(Column(
                RadioGroup(
                    RadioButton("Name", "sorting_dialog_radio_name"),
                    RadioButton("Size", "sorting_dialog_radio_size"),
                    RadioButton("Last modified", "sorting_dialog_radio_last_modified"),
                    RadioButton("Extension", "sorting_dialog_radio_extension"),
                    id="sorting_dialog_radio_sorting", checked_index=SORT_FIELDS.index(field)),
                Divider("sorting_dialog_order_divider", margin=(0, dp(8))),
                RadioGroup(
                    RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                    RadioButton("Descending", "sorting_dialog_radio_descending"),
                    id="sorting_dialog_radio_order", checked_index=0 if ascending else 1),
                Divider("use_for_this_folder_divider", margin=(0, dp(8))),
                CheckBox("Use for this folder only", "sorting_dialog_use_for_this_folder", checked=folder_only),
                id="sorting_dialog_holder", padding=(dp(16), dp(4))), id="sorting_dialog_scrollview",
                height=WRAP)

        def ok(d: Dialog) -> None:
            new_field = SORT_FIELDS[max(0, d.find("sorting_dialog_radio_sorting").checked_index)]
            new_ascending = d.find("sorting_dialog_radio_order").checked_index != 1
            if d.find("sorting_dialog_use_for_this_folder").checked:
                self.data.folder_sorts[self.path] = (new_field, new_ascending)
            else:
                self.data.folder_sorts.pop(self.path, None)
                self.data.sort_by, self.data.ascending = new_field, new_ascending

        self.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))

    def show_create_dialog(self) -> None:
        folder = self.path

        def body() -> View:
            return Column(
                FrameLayout(EditText("", "item_title", hint="Title", autofocus=True), id="item_title_hint",
                            margin=(0, 0, 0, dp(12))),
                RadioGroup(RadioButton("Folder", "dialog_radio_directory"), RadioButton("File", "dialog_radio_file"),
                           id="dialog_radio_group", checked_index=0),
                id="dialog_holder", padding=(dp(16), dp(12), dp(16), 0))

        def ok(d: Dialog) -> bool:
            path, problem = new_item_path(self.fs, folder, d.find("item_title").text)
            if problem:
                self.toast(problem)
                return False
            try:
                if d.find("dialog_radio_group").checked_index == 1:
                    self.fs.write_file(path, b"")
                else:
                    self.fs.mkdir(path)
            except FsError as exc:
                self.toast(fs_error_toast(exc))
                return False
            if self.host.media_store is not None:
                self.host.media_store.scan(path)
            return True

        self.show_dialog(Dialog("Create new", body, positive=("OK", ok), negative="Cancel"))

    def ask_delete(self) -> None:
        paths = list(self.selection)
        if self.data.skip_delete_confirmation:
            self.delete(paths)
            return
        what = f'"{posixpath.basename(paths[0])}"' if len(paths) == 1 else f"{len(paths)} items"
        self.show_dialog(Dialog(message=f"Are you sure you want to delete {what}?",
                                positive=("Yes", lambda d: self.delete(paths)), negative="No"))

    def delete(self, paths: list[str]) -> None:
        for path in paths:
            delete_path(self, path)
        self.selection = []

    def show_rename_dialog(self) -> None:
        show_rename_dialog(self, self.selection[0], lambda _new: self._clear_selection())

    def _move(self, old: str, new: str) -> bool:
        return move_path(self, old, new)

    def set_hidden(self, hide: bool) -> None:
        for path in list(self.selection):
            name = posixpath.basename(path)
            new_name = "." + name if hide else name.lstrip(".")
            if new_name == name or not new_name:
                continue
            new_path = posixpath.join(posixpath.dirname(path), new_name)
            if self.fs.exists(new_path):
                self.toast(NAME_TAKEN)
                continue
            self._move(path, new_path)
        self.selection = []

    def show_properties(self) -> None:
        paths = list(self.selection)

        def row(label: str, value: str, id: str = "") -> View:
            return LinearLayout(
                TextView(label, "property_label", bold=True, width=MATCH, size=sp(14)),
                TextView(value, "property_value", width=MATCH, size=sp(14), color=TEXT_SECONDARY),
                id=id or "property_holder", padding=(0, dp(6)))

        def body() -> View:
            rows: list[View] = []
            if len(paths) == 1 and not self.fs.exists(paths[0]):
                # removed behind the app's back (adb shell rm) while the dialog was open
                rows.append(row("Name", posixpath.basename(paths[0])))
            elif len(paths) == 1:
                path = paths[0]
                stat = self.fs.stat(path)
                rows += [row("Name", posixpath.basename(path)), row("Path", posixpath.dirname(path)),
                         row("Size", format_size(self._size(path, stat)), "properties_size")]
                if stat.is_dir:
                    count = self._child_count(path)
                    rows += [row("Direct children count", str(count), "properties_direct_children_count"),
                             row("Files count", str(self._file_count(path)), "properties_file_count")]
                else:
                    media = self.host.media_store.get(path) if self.host.media_store is not None else None
                    rows += [row(label, value) for label, value in self._media_properties(media)]
                    rows.append(row("Last modified", self._date(stat.mtime),
                                    "properties_last_modified"))
                    # PropertiesDialog.addProperties (Commons eceb48949e): File Manager Pro's own app id adds
                    # the MD5 row, the file's digest as lower-case hex (InputStream.getDigest)
                    try:
                        digest = hashlib.md5(self.fs.read_file(path)).hexdigest()
                    except FsError:
                        digest = None  # unreadable: beGone()
                    if digest is not None:
                        rows.append(row("MD5", digest, "properties_md5"))
            else:
                total = sum(self._size(p, self.fs.stat(p)) for p in paths if self.fs.exists(p))
                rows += [row("Items selected", str(len(paths))), row("Path", posixpath.dirname(paths[0])),
                         row("Size", format_size(total), "properties_size")]
            return ScrollView(Column(*rows, id="properties_holder", padding=(dp(24), dp(12))),
                              id="properties_scrollview", height=WRAP)

        self.show_dialog(Dialog("Properties", body, positive="OK"))

    @staticmethod
    def _media_properties(media) -> list[tuple[str, str]]:
        """PropertiesDialog.addProperties' rows for an image (Resolution), an audio file (Duration, Song title,
        Artist, Album) or a video (Duration, Resolution, Artist, Album), each read from the MediaStore row."""
        if media is None:
            return []
        rows: list[tuple[str, str]] = []
        resolution = duration = None
        if media.width and media.height:
            # Point.formatAsResolution: "W x H (N.NMP)", the megapixels rounded to one decimal
            resolution = f"{media.width} x {media.height} ({int(media.width * media.height / 1e5 + 0.5) / 10}MP)"
        if media.duration is not None:
            seconds = int(media.duration / 1000 + 0.5)  # Context.getDuration's Math.round, getFormattedDuration
            duration = (f"{seconds // 3600:02d}:" if seconds >= 3600 else "") + f"{seconds % 3600 // 60:02d}:" \
                f"{seconds % 60:02d}"
        if media.media_type == "image":
            rows.append(("Resolution", resolution))
        elif media.media_type == "audio":
            rows += [("Duration", duration), ("Song title", media.title), ("Artist", media.artist),
                     ("Album", media.album)]
        elif media.media_type == "video":
            rows += [("Duration", duration), ("Resolution", resolution), ("Artist", media.artist),
                     ("Album", media.album)]
        return [(label, value) for label, value in rows if value is not None]  # the ?.let of each

    def _file_count(self, path: str) -> int:
        count = 0
        for name, stat in self.entries(path):
            child = posixpath.join(path, name)
            count += self._file_count(child) if stat.is_dir else 1
        return count


class SettingsActivity(Activity):
    """Settings as 6.16.1 lays them out (``res/layout/activity_settings.xml``, ``SettingsActivity.kt``).

    On Android 14 (``isTiramisuPlus``) "Use English language" is gone and "Language" shows the
    system language; root access shows only on a rooted phone (``config.isRootAvailable``).
    Language opens the system's per-app language screen and the three password rows Commons'
    SecurityDialog, neither of which the phone has: a tap on them does nothing here.
    """

    name = f"{PACKAGE}.activities.SettingsActivity"
    title = "Settings"

    def build(self) -> View:
        d = self.data

        def toggle(attr: str):
            return lambda value: setattr(d, attr, value)

        def row(prefix: str, label: str, on_click=None, value: str | None = None, **kw) -> View:
            return value_row(prefix, label, value, on_click or (lambda: None), **kw)

        rows = [
            section_label("Color customization", "settings_color_customization_section_label"),
            row("settings_color_customization", "Customize colors", lambda: self.start(CustomizationActivity),
                class_name="android.view.ViewGroup"),
            Divider("settings_color_customization_divider"),
            section_label("General", "settings_general_settings_label"),
            row("settings_language", "Language", lambda: launch_change_app_language(self), value="English"),
            row("settings_manage_favorites", "Manage favorites", lambda: self.start(FavoritesActivity),
                label_id="settings_manage_favorites"),
            row("settings_manage_tabs", "Manage shown tabs", lambda: show_visible_tabs_dialog(self),
                label_id="settings_manage_tabs"),
            row("settings_change_date_time_format", "Change date and time format",
                lambda: show_date_time_dialog(self, d), label_id="settings_change_date_time_format"),
            row("settings_font_size", "Font size", self._choose_font_size, value=FONT_SIZES[d.font_size]),
            settings_checkbox("settings_press_back_twice", "Require pressing Back twice to leave the app",
                              d.press_back_twice, toggle("press_back_twice")),
            Divider("settings_general_settings_divider"),
            section_label("Visibility", "settings_visibility_label"),
            settings_checkbox("settings_show_hidden", "Show hidden items", d.show_hidden, toggle("show_hidden")),
            Divider("settings_visibility_divider"),
            section_label("Scrolling", "settings_scrolling_label"),
            settings_checkbox("settings_enable_pull_to_refresh", "Enable pull-to-refresh from the top",
                              d.enable_pull_to_refresh, toggle("enable_pull_to_refresh")),
            Divider("settings_scrolling_divider"),
            section_label("File operations", "settings_file_operations_label"),
            settings_checkbox("settings_keep_last_modified", "Keep old last-modified value at file operations",
                              d.keep_last_modified, toggle("keep_last_modified")),
            settings_checkbox("settings_skip_delete_confirmation", "Always skip delete confirmation dialog",
                              d.skip_delete_confirmation, toggle("skip_delete_confirmation")),
            Divider("settings_file_operations_divider"),
            section_label("Security", "settings_security_label"),
            password_protection_row(self, "settings_password_protection", "Password protect hidden item visibility",
                                    "hidden"),
            password_protection_row(self, "settings_app_password_protection",
                                    "Password protect the whole application", "app"),
            password_protection_row(self, "settings_file_deletion_password_protection",
                                    "Password protect file deletion and moving", "delete"),
        ]
        return LinearLayout(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*rows, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _choose_font_size(self) -> None:
        # SettingsActivity.setupFontSize: Commons' RadioGroupDialog, no title, picks on tap
        radio_dialog(self, list(FONT_SIZES), self.data.font_size,
                     lambda index: setattr(self.data, "font_size", index))


#: Commons' FONT_SIZE_SMALL .. FONT_SIZE_EXTRA_LARGE (0..3) and their strings
FONT_SIZES = ("Small", "Medium", "Large", "Extra large")
#: Commons' TAB_FILES, TAB_RECENT_FILES, TAB_STORAGE_ANALYSIS bits of ``config.showTabs``
TAB_BITS = (1, 2, 4)
ALL_TABS_MASK = 7


def show_visible_tabs_dialog(activity: Activity) -> None:
    """ManageVisibleTabsDialog: a check box per tab; OK stores the mask (none checked: all tabs)."""
    data = activity.data
    checked = [bool(data.show_tabs & bit) for bit in TAB_BITS]
    labels = ("Files", "Recent files", "Storage analysis")
    ids = ("manage_visible_tabs_files", "manage_visible_tabs_recent_files", "manage_visible_tabs_storage_analysis")

    def body() -> View:
        return ScrollView(
            Column(*[CheckBox(labels[i], ids[i], checked=checked[i], padding=(dp(16), dp(12)), width=MATCH)
                     for i in range(3)],
                   id="manage_visible_tabs_holder", padding=(dp(8), dp(16))),
            id="manage_visible_tabs_scroll_view", height=WRAP, focusable=False)

    def ok(d: Dialog) -> None:
        mask = sum(bit for bit, view_id in zip(TAB_BITS, ids) if d.find(view_id).checked)
        data.show_tabs = mask or ALL_TABS_MASK

    activity.show_dialog(Dialog(body=body, positive=("OK", ok), negative="Cancel"))


class FavoritesActivity(Activity):
    """Manage favorites (``FavoritesActivity.kt``, ``activity_favorites.xml``, ``item_manage_favorite.xml``).

    The toolbar's "Add favorites" (``menu_favorites``, always an icon) and, while the list is empty, the
    underlined "Add favorites" placeholder open Commons' FilePickerDialog for a folder; each row shows
    the favourite's full path, and its three-dot icon offers Remove (``cab_remove_only``).
    """

    name = f"{PACKAGE}.activities.FavoritesActivity"
    title = "Manage favorites"

    def add_favorite(self) -> None:
        def picked(path: str) -> None:
            if path not in self.data.favorites:  # Config.addFavorite keeps a set
                self.data.favorites.append(path)

        show_folder_picker(self, HOME, self.data.show_hidden, picked, can_add_show_hidden_button=True)

    def build(self) -> View:
        favorites = self.data.favorites
        items = menu(APP, "menu_favorites", {"add_favorite": self.add_favorite})
        if favorites:
            content: list[View] = [RecyclerView(*[self._row(path) for path in favorites],
                                                id="manage_favorites_list", height=MATCH)]
        else:
            content = [RecyclerView(id="manage_favorites_list", height=MATCH),
                       TextView("You can add frequently used folders to favorites for easy access from anywhere.",
                                "manage_favorites_placeholder", gravity="center", width=MATCH, size=sp(18),
                                color=TEXT_SECONDARY, padding=(dp(32), dp(32), dp(32), 0)),
                       TextView("Add favorites", "manage_favorites_placeholder_2", gravity="center", size=sp(18),
                                color=ACCENT, width=WRAP, padding=dp(16), margin=(0, dp(140), 0, 0),
                                on_click=self.add_favorite, layout_gravity="center_horizontal")]
        return LinearLayout(
            self.toolbar("manage_favorites_toolbar", title="Manage favorites", items=items, back=True),
            FrameLayout(*content, id="manage_favorites_holder", class_name="android.widget.RelativeLayout",
                        weight=1, height=MATCH),
            id="manage_favorites_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _row(self, path: str) -> View:
        def remove() -> None:
            self.data.favorites.remove(path)

        icon = ImageView("overflow_menu_icon", icon="more", width=dp(48), height=dp(48),
                         layout_gravity="end|center_vertical")
        icon.on_click = lambda: self.show_menu(
            menu(APP, "cab_remove_only", {"cab_remove": remove}, commons=True, kind=ACTION_MODE), anchor=icon)
        icon.clickable = icon.focusable = True
        return FrameLayout(
            TextView(path, "manage_favorite_title", max_lines=1, width=MATCH, size=sp(16),
                     margin=(dp(16), dp(16), dp(56), dp(16))),
            icon, id="manage_favorite_holder", class_name="android.widget.RelativeLayout", key=path, height=dp(56))


class MimeTypesActivity(MainActivity):
    """MimeTypesActivity (6.16.1), opened from a Storage category: the category's files (size > 0) in
    ItemsAdapter rows under a toolbar with the category's title and menu_mimetypes.xml; the folder
    view type and sorting are kept under the category's name (config.getFolderSorting(currentMimeType)).
    A tap opens the file, a long press selects, as in MainActivity's lists."""

    name = f"{PACKAGE}.activities.MimeTypesActivity"

    def on_create(self) -> None:
        super().on_create()
        self.path = self.extras.get("category", "others")  # the key of its sorting and view type

    def on_resume(self) -> None:
        pass

    def entries(self, path: str) -> list[tuple[str, object]]:
        found = [(p, st) for p, st in self.category_files(self.path) if st.size > 0
                 and (self.showing_hidden() or not posixpath.basename(p).startswith("."))]
        return self.sorted_entries(self.path, found)

    def uses_grid(self, path: str) -> bool:
        return super().uses_grid(self.path)

    def on_back(self) -> bool:
        if self.selection:
            self.selection = []
            return True
        return False

    def build(self) -> View:
        grid = self.uses_grid(self.path)
        hidden = [] if grid else ["toggle_filename", "column_count"]
        hidden += ["temporarily_show_hidden"] if self.data.show_hidden or self.temporarily_show_hidden else []
        hidden += [] if self.temporarily_show_hidden else ["stop_showing_hidden"]
        items = menu(APP, "menu_mimetypes", {
            "search": None, "sort": self.show_sort_dialog, "toggle_filename": None,
            "change_view_type": self.show_view_type_dialog,
            "temporarily_show_hidden": self._temporarily_show_hidden,
            "stop_showing_hidden": self._stop_showing_hidden, "column_count": None}, hide=hidden)
        rows = [self._item_row(p, st) for p, st in self.entries(self.path)]
        body: View = (FrameLayout(RecyclerView(*rows, id="mimetypes_list", height=MATCH),
                                  id="mimetypes_fastscroller", class_name="android.widget.RelativeLayout",
                                  height=MATCH) if rows else
                      TextView("No items found.", "mimetypes_placeholder", size=sp(18), color=TEXT_SECONDARY,
                               width=MATCH, gravity="center", padding=dp(24)))
        top = self._selection_bar() if self.selection else self.toolbar(
            "mimetypes_toolbar", title=CATEGORY_TITLES.get(self.path, ""), items=items, back=True)
        return Column(top, RelativeLayout(body, id="mimetypes_holder", height=MATCH, weight=1),
                      id="mimetypes_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


class PDFViewerActivity(Activity):
    """PDFViewerActivity (6.16.1): the file in AndroidPdfViewer's PDFView (drawn on a canvas: no child
    views), under a transparent toolbar with the file's name and Print (menu_pdf_viewer.xml). A file that
    is not a PDF fails to load: PDFView's onError shows the error toast and finishes."""

    name = f"{PACKAGE}.activities.PDFViewerActivity"
    fullscreen = True  # showTransparentTop: drawn under the status bar

    def on_create(self) -> None:
        intent: Intent | None = self.extras.get("intent")
        self.path = (intent.extras.get("real_file_path", "") if intent else "") or ""
        try:
            loaded = self.fs.read_file(self.path)[:5] == b"%PDF-" if self.path else False
        except FsError:
            loaded = False
        if not loaded:
            self.toast("An unknown error occurred")
            self.finish()

    @property
    def fs(self):
        return self.host.fs

    def build(self) -> View:
        items = menu(APP, "menu_pdf_viewer", {"menu_print": lambda: None}, hide=() if self.path else ("menu_print",))
        # the navigation icon has no content description (app:navigationIcon only)
        toolbar = self.toolbar("pdf_viewer_toolbar", title=posixpath.basename(self.path), items=items,
                               on_nav=self.finish, nav_desc="")
        return RelativeLayout(
            View("pdf_viewer", class_name="com.github.barteksc.pdfviewer.PDFView", width=MATCH, height=MATCH,
                 bg=(255, 255, 255)),
            ImageView("top_shadow", width=MATCH, height=dp(80)),
            FrameLayout(toolbar, id="pdf_viewer_appbar", class_name="android.widget.LinearLayout", height=WRAP,
                        margin=(0, dp(24), 0, 0)),
            id="pdf_viewer_wrapper", height=MATCH)


class FileManagerApp(CommonsApp):
    package = PACKAGE
    label = "File Manager"
    activities = (MainActivity, SettingsActivity, FavoritesActivity, CustomizationActivity, PDFViewerActivity,
                  MimeTypesActivity)
    #: AndroidManifest.xml (6.16.1): the intent filters of the activities modelled here
    intent_filters = ((PDFViewerActivity.name, "PDF Viewer", IntentFilter((ACTION_VIEW,), mime_types=("application/pdf",))),
                      # MainActivity takes GET_CONTENT of */* (6.16.1 AndroidManifest.xml): DocumentsUI lists it
                      # among the other apps (its pick mode is not modelled)
                      (MainActivity.name, "", IntentFilter((ACTION_GET_CONTENT,), mime_types=("*/*",))))

    def new_data(self) -> FileManagerData:
        return new_data()

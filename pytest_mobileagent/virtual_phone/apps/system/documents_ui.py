"""Files (DocumentsUI): the storage picker apps reach with GET_CONTENT, OPEN_DOCUMENT, CREATE_DOCUMENT.

On Google's images the app's package is com.google.android.documentsui (the
DroidTask recording's Google emulator image ran it: its picker is
``com.google.android.documentsui/com.android.documentsui.picker.PickActivity``)
and its resource-ids carry that package.  PickActivity takes OPEN_DOCUMENT,
CREATE_DOCUMENT and GET_CONTENT (the last with android:priority 100, so
PackageManager starts it without a chooser although other apps take
GET_CONTENT too: those are listed in its "BROWSE FILES IN OTHER APPS" row).

First screens only, with the ids of DocumentsUI's layouts (drawer_layout,
directory_header, dir_list, container_save, item_doc_grid's title / details /
date), as the recorded dumps show them:

* CREATE_DOCUMENT ("Save"): the Downloads folder, its files, the file name
  (EXTRA_TITLE) in ``android:id/title`` and SAVE (``android:id/button1``),
  which creates the file there and returns it to the app;
* OPEN_DOCUMENT / GET_CONTENT ("Recent"): the recent files of the requested
  type (images, videos, audio from the media store), else "No items".

BACK cancels: the app gets RESULT_CANCELED.
"""

from __future__ import annotations

import posixpath
import time

from ...framework.intents import (ACTION_CREATE_DOCUMENT, ACTION_GET_CONTENT, ACTION_OPEN_DOCUMENT, Intent, IntentFilter,
                                  launch_target, resolve)
from ...framework.ui.views import (
    MATCH,
    TEXT_SECONDARY,
    Button,
    Column,
    EditText,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    RecyclerView,
    RelativeLayout,
    Row,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity, App

__all__ = ["FilesApp", "PickActivity", "format_file_size"]

PACKAGE = "com.google.android.documentsui"
DOWNLOADS = "/storage/emulated/0/Download"
#: DocumentsContract.EXTRA_EXCLUDE_SELF
EXTRA_EXCLUDE_SELF = "android.provider.extra.EXCLUDE_SELF"
_RECENT_TYPES = {"image": "image", "video": "video", "audio": "audio"}


def format_file_size(size: int) -> str:
    """android.text.format.Formatter.formatFileSize: 1000-based units, two decimals below 100."""
    value, unit = float(size), "B"
    for next_unit in ("kB", "MB", "GB", "TB"):
        if value < 900:
            break
        value, unit = value / 1000, next_unit
    if unit == "B":
        return f"{int(value)} B"
    return f"{value:.2f} {unit}" if value < 100 else f"{value:.0f} {unit}"


def _date(host, mtime: int) -> str:
    """DocumentsUI's date column: the time for today's files, else the abbreviated date."""
    now = time.gmtime(host.clock_ms() / 1000)
    then = time.gmtime(mtime)
    if then[:3] == now[:3]:
        return time.strftime("%I:%M %p", then).lstrip("0")
    day = f"{time.strftime('%b', then)} {then.tm_mday}"
    return day if then.tm_year == now.tm_year else f"{day}, {then.tm_year}"


def _with_mime_extension(name: str, mime_type: str) -> str:
    """FileUtils.splitFileName (frameworks/base core/java/android/os/FileUtils.java), as the storage
    provider's createDocument applies it: a name whose extension does not fit the requested type gets
    the type's extension ("Diary" as application/pdf -> "Diary.pdf"; "Diary.txt" as text/* stays)."""
    import mimetypes

    stem, dot, ext = name.rpartition(".")
    ext = ext if dot else ""
    from_ext = (mimetypes.guess_type("x." + ext.lower())[0] if ext else None) or "application/octet-stream"
    wanted = None if mime_type == "application/octet-stream" else mimetypes.guess_extension(mime_type)
    wanted = wanted.lstrip(".") if wanted else None
    if mime_type == from_ext or (ext or None) == wanted or wanted is None:
        return name
    return f"{name}.{wanted}"


class PickActivity(Activity):
    """DocumentsUI's picker: Save into Downloads (CREATE_DOCUMENT) or the recent files (open / get)."""

    name = "com.android.documentsui.picker.PickActivity"
    title = "Files"

    def on_create(self) -> None:
        # started bare (`am start -n`) it picks a document to open, as an OPEN_DOCUMENT of any type
        self.intent: Intent = self.extras.get("intent") or Intent(ACTION_OPEN_DOCUMENT, mime_type="*/*")
        self.saving = self.intent.action == ACTION_CREATE_DOCUMENT

    def on_back(self) -> bool:
        self.finish()
        self._result(None)
        return True

    def _result(self, path: str | None) -> None:
        callback = self.intent.extras.get("on_result")
        if callback is not None:
            callback(path)  # onActivityResult: the chosen document, None when cancelled

    # -- screens ------------------------------------------------------------------------------
    def build(self) -> View:
        pkg = PACKAGE
        header = self._save_header() if self.saving else self._recent_header()
        toolbar = Row(ImageButton("", icon="menu", desc="Show roots"),
                      TextView("Downloads" if self.saving else "Recent", size=sp(22), weight=1, max_lines=1),
                      ImageButton(f"{pkg}:id/option_menu_create_dir" if self.saving else f"{pkg}:id/option_menu_search",
                                  icon="plus" if self.saving else "search",
                                  desc="New folder" if self.saving else "Search"),
                      id=f"{pkg}:id/toolbar", class_name="android.view.ViewGroup", height=dp(64),
                      gravity="center_vertical")
        items = self._items()
        listing: list[View] = [self._grid(items)] if items else [
            FrameLayout(LinearLayout(ImageView(f"{pkg}:id/artwork", icon="folder", width=MATCH, height=dp(250)),
                                     TextView("No items", f"{pkg}:id/message", size=sp(16), gravity="center",
                                              width=MATCH),
                                     id=f"{pkg}:id/content", width=MATCH),
                        id="android:id/empty", width=MATCH)]
        body = Column(
            LinearLayout(FrameLayout(header, id=f"{pkg}:id/collapsing_toolbar", width=MATCH),
                         id=f"{pkg}:id/app_bar", width=MATCH),
            FrameLayout(LinearLayout(FrameLayout(RecyclerView(*listing, id=f"{pkg}:id/dir_list", height=MATCH),
                                                 id=f"{pkg}:id/container_directory", height=MATCH), height=MATCH),
                        id=f"{pkg}:id/container_search_fragment", weight=1, height=MATCH),
            *([self._save_bar()] if self.saving else []),
            height=MATCH)
        return FrameLayout(
            Column(toolbar, FrameLayout(body, id=f"{pkg}:id/drawer_layout",
                                        class_name="androidx.drawerlayout.widget.DrawerLayout", weight=1,
                                        height=MATCH), height=MATCH),
            id=f"{pkg}:id/coordinator_layout", class_name="android.view.ViewGroup", height=MATCH)

    def _save_header(self) -> View:
        pkg = PACKAGE
        return LinearLayout(
            RecyclerView(TextView("Downloads", f"{pkg}:id/breadcrumb_text", padding=(dp(16), dp(12))),
                         id=f"{pkg}:id/horizontal_breadcrumb", height=dp(48)),
            Row(TextView("FILES IN DOWNLOADS", f"{pkg}:id/header_title", size=sp(14), weight=1,
                         padding=(dp(24), dp(16))),
                TextView("", f"{pkg}:id/sub_menu_list", desc="List view", on_click=lambda: None), width=MATCH),
            id=f"{pkg}:id/directory_header", width=MATCH)

    def _recent_header(self) -> View:
        pkg = PACKAGE
        others = [t for t in self._other_apps()]
        rows: list[View] = [Row(TextView("Large files", on_click=lambda: None, padding=(dp(16), dp(8))),
                                TextView("This week", on_click=lambda: None, padding=(dp(16), dp(8))),
                                id=f"{pkg}:id/search_chip_group")]
        if others:
            # AppsRowManager.updateView (shown on Recents when the list is not empty): apps_row's header,
            # then apps_group in a HorizontalScrollView, one apps_item (app_icon, android:id/title with
            # the label as its content description) per item; the recorded screens show this tree
            rows.append(LinearLayout(
                TextView("BROWSE FILES IN OTHER APPS", size=sp(14), padding=(dp(24), dp(16))),
                FrameLayout(
                    Row(*[LinearLayout(ImageView(f"{pkg}:id/app_icon", icon=f"app:{t.label}", width=dp(32),
                                                 height=dp(32), layout_gravity="center_horizontal",
                                                 margin=(0, dp(6), 0, dp(10))),
                                       TextView(t.label, "android:id/title", desc=t.label, gravity="center",
                                                width=MATCH, max_lines=1),
                                       weight=1, width=MATCH, on_click=lambda t=t: self._browse(t))
                          for t in others], id=f"{pkg}:id/apps_group", width=MATCH),
                    class_name="android.widget.HorizontalScrollView", width=MATCH),
                id=f"{pkg}:id/apps_row", width=MATCH))
        kind = self._kind()
        rows.append(Row(TextView("RECENT IMAGES" if kind == "image" else "RECENT FILES", f"{pkg}:id/header_title",
                                 size=sp(14), weight=1, padding=(dp(24), dp(16))),
                        TextView("", f"{pkg}:id/sub_menu_grid", desc="Grid view", on_click=lambda: None),
                        width=MATCH))
        return LinearLayout(*rows, id=f"{pkg}:id/directory_header", width=MATCH)

    def _save_bar(self) -> View:
        name = str(self.intent.extras.get("title") or "untitled")
        return Row(ImageView("android:id/icon", icon="note", width=dp(24), height=dp(24), margin=(dp(16), 0)),
                   EditText(id="android:id/title", text=name, single_line=True, weight=1,
                            on_text_changed=lambda text: setattr(self, "file_name", text)),
                   Button("SAVE", "android:id/button1", on_click=self.save),
                   id=f"{PACKAGE}:id/container_save", class_name="android.view.ViewGroup", width=MATCH,
                   gravity="center_vertical", min_height=dp(64))

    def _grid(self, items: list[tuple[str, int, int]]) -> View:
        pkg = PACKAGE
        cells = [FrameLayout(Column(
            FrameLayout(ImageView(f"{pkg}:id/icon_thumb", icon="note", width=MATCH, height=dp(160)),
                        id=f"{pkg}:id/thumbnail", width=MATCH),
            LinearLayout(FrameLayout(ImageView(f"{pkg}:id/icon_mime_sm", icon="note", width=dp(24), height=dp(24)),
                                     id=f"{pkg}:id/icon", padding=dp(12)),
                         RelativeLayout(Column(TextView(name, "android:id/title", max_lines=1),
                                               Row(TextView(format_file_size(size), f"{pkg}:id/details",
                                                            size=sp(12), color=TEXT_SECONDARY),
                                                   TextView(_date(self.host, mtime), f"{pkg}:id/date", size=sp(12),
                                                            color=TEXT_SECONDARY, margin=(dp(4), 0, 0, 0)))),
                                        weight=1),
                         id=f"{pkg}:id/nameplate", orientation="horizontal", width=MATCH),
            width=MATCH), id=f"{pkg}:id/item_root", width=MATCH, weight=1, margin=dp(8), key=name,
            on_click=lambda name=name: self.pick(name))
            for name, size, mtime in items]
        rows = [Row(*cells[i:i + 2], *([View(width=MATCH, weight=1)] if len(cells[i:i + 2]) < 2 else []),
                    width=MATCH) for i in range(0, len(cells), 2)]
        return Column(*rows, width=MATCH)

    # -- content --------------------------------------------------------------------------------
    def _items(self) -> list[tuple[str, int, int]]:
        """(name, size, mtime) of what the screen lists, newest first."""
        fs = self.host.fs
        if self.saving:
            entries = []
            if fs.isdir(DOWNLOADS):
                for name, stat in fs.listdir_stat(DOWNLOADS):
                    if not stat.is_dir and not name.startswith("."):
                        entries.append((name, stat.size, stat.mtime))
            return sorted(entries, key=lambda e: -e[2])
        kind = _RECENT_TYPES.get(self._kind())
        if kind is None:
            return []  # DocumentsUI's recents come from the media roots (images, videos, audio)
        rows = self.host.media_store.query(kind)
        return sorted(((r.display_name, r.size, r.date_modified) for r in rows), key=lambda e: -e[2])

    def _kind(self) -> str:
        """The top-level type the picker accepts: the intent's, or for */* the one type of its
        Intent.EXTRA_MIME_TYPES (extras "mime_types"; DocumentsUI's State.acceptMimes)."""
        accepted = self.intent.extras.get("mime_types") or ()
        if self.intent.mime_type in (None, "*/*") and len(accepted) == 1:
            return accepted[0].split("/")[0]
        return (self.intent.mime_type or "").split("/")[0]

    def _other_apps(self):
        """RootsFragment.sortLoadResult / includeHandlerApps (Android 14 DocumentsUI): PickActivity passes
        the original intent as EXTRA_INCLUDE_APPS_INTENT for GET_CONTENT only; the exported activities
        that answer it (queryIntentActivities), one per package, without DocumentsUI itself and, with
        DocumentsContract.EXTRA_EXCLUDE_SELF, without the caller; then sorted by title ignoring case
        (ItemComparator).  The other-provider roots it would merge in (not library, downloads or storage:
        e.g. Drive on a Play image) have no counterpart on this image."""
        if self.intent.action != ACTION_GET_CONTENT:
            return []
        caller = self.extras.get("caller")
        exclude = caller.app.package if caller is not None and self.intent.extras.get(EXTRA_EXCLUDE_SELF) else None
        by_package = {}
        for target in resolve(self.host, self.intent):
            if target.app.package not in (PACKAGE, exclude):
                by_package[target.app.package] = target  # appsMapping.put: the package's last activity
        return sorted(by_package.values(), key=lambda t: t.label.lower())

    # -- actions ----------------------------------------------------------------------------------
    def save(self) -> None:
        name = getattr(self, "file_name", None) or str(self.intent.extras.get("title") or "untitled")
        name = _with_mime_extension(name, self.intent.mime_type or "")
        path = posixpath.join(DOWNLOADS, name)
        fs = self.host.fs
        if fs.exists(path):  # DocumentsContract.createDocument picks a free name: "name (1).ext"
            stem, ext = posixpath.splitext(name)
            n = 1
            while fs.exists(posixpath.join(DOWNLOADS, f"{stem} ({n}){ext}")):
                n += 1
            path = posixpath.join(DOWNLOADS, f"{stem} ({n}){ext}")
        fs.write_file(path, b"")
        self.finish()
        self._result(path)

    def pick(self, name: str) -> None:
        if self.saving:
            self.file_name = name
            return
        rows = [r for r in self.host.media_store.query() if r.display_name == name]
        self.finish()
        self._result(rows[0].path if rows else None)

    def _browse(self, target) -> None:
        self.finish()
        caller = self.extras.get("caller")
        launch_target(self.host, caller if caller is not None and not caller.finished else None, target, self.intent)


class LauncherActivity(Activity):
    """The Files app's own first screen from the launcher."""

    name = "com.android.documentsui.LauncherActivity"
    title = "Files"

    def build(self) -> View:
        return Column(Row(TextView("Files", size=sp(22), bold=True, padding=(dp(16), 0), max_lines=1),
                          height=dp(64), id=f"{PACKAGE}:id/toolbar", class_name="android.view.ViewGroup"),
                      TextView("No items", size=sp(16), color=TEXT_SECONDARY, width=MATCH, gravity="center",
                               padding=(dp(24), dp(24))),
                      id=f"{PACKAGE}:id/drawer_layout", height=MATCH)


class FilesApp(App):
    """The emulator image's Files app (DocumentsUI)."""

    package = PACKAGE
    label = "Files"
    activities = (LauncherActivity, PickActivity)
    version_name = "14"
    # DocumentsUI's AndroidManifest.xml: PickActivity's filters (GET_CONTENT with android:priority 100)
    intent_filters = (
        (PickActivity.name, "", IntentFilter((ACTION_OPEN_DOCUMENT, ACTION_CREATE_DOCUMENT), mime_types=("*/*",))),
        (PickActivity.name, "", IntentFilter((ACTION_GET_CONTENT,), mime_types=("*/*",), priority=100)),
    )

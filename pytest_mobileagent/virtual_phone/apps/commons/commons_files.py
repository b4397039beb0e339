"""File dialogs and operations the Simple Mobile Tools file apps share (commons library).

`RenameItemDialog` (name and extension fields, commons' checks and toasts)
and renaming/deleting a file on shared storage while keeping the media store
in step, as the apps do through MediaStore.
"""

from __future__ import annotations

import errno
import posixpath
from typing import Callable

from ...kernel.fs import FsError
from ...framework.ui.views import (ACCENT, MATCH, TEXT, TEXT_SECONDARY, WRAP, Column, EditText, FloatingActionButton,
                        FrameLayout, ImageView, LinearLayout, RecyclerView, RelativeLayout, TextView, View, dp, sp)
from ...framework.app import Activity, Dialog
from ...framework.ui.accessibility_class import COORDINATOR_LAYOUT
from .storage_format import format_size

__all__ = ["EMPTY_NAME", "INVALID_NAME", "NAME_TAKEN", "delete_path", "filename_problem", "fs_error_toast",
           "is_a_valid_filename", "move_path", "name_problem", "new_item_path", "show_folder_picker",
           "show_rename_dialog"]

EMPTY_NAME = "Please enter a name"
INVALID_NAME = "The name contains invalid characters"
NAME_TAKEN = "A file or folder with that name already exists"
#: Commons' String.isAValidFilename: ILLEGAL_CHARACTERS (extensions/String.kt)
_ILLEGAL_CHARACTERS = frozenset('/\n\r\t\0`?*\\<>|":')


def is_a_valid_filename(name: str) -> bool:
    """Commons' String.isAValidFilename."""
    return not _ILLEGAL_CHARACTERS.intersection(name)


def filename_problem(name: str) -> str | None:
    """What the apps' export and backup dialogs toast for a file name (empty, or not
    isAValidFilename), or None: they check nothing more (ExportContactsDialog and kin)."""
    if not name:
        return EMPTY_NAME
    return None if is_a_valid_filename(name) else INVALID_NAME


def new_item_path(fs, parent: str, name: str) -> tuple[str, str | None]:
    """Where a new file or folder ``name`` in ``parent`` goes, and the toast when it cannot
    (empty, invalid, taken): what Commons' CreateNewFolderDialog and File Manager's
    CreateNewItemDialog check before they make it."""
    path = posixpath.join(parent, name)
    problem = name_problem(name)
    if problem is None and fs.exists(path):
        problem = NAME_TAKEN
    return path, problem


def name_problem(name: str) -> str | None:
    """The toast commons shows for a bad file name (creating or renaming one), or None for a good one."""
    problem = filename_problem(name)
    if problem is None and name in (".", ".."):
        return INVALID_NAME
    return problem


def fs_error_toast(exc: FsError) -> str:
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "Could not write to the selected destination"
    if exc.errno == errno.ENOSPC:
        return "Not enough free space"
    return "An unknown error occurred"


def move_path(activity: Activity, old: str, new: str) -> bool:
    """Rename or move on shared storage and update the media store; toast and False on failure."""
    try:
        activity.host.fs.rename(old, new)
    except FsError as exc:
        activity.toast(fs_error_toast(exc))
        return False
    if activity.host.media_store is not None:
        activity.host.media_store.file_renamed(old, new)
    return True


def delete_path(activity: Activity, path: str) -> bool:
    try:
        activity.host.fs.remove(path, recursive=True)
    except FsError as exc:
        activity.toast(fs_error_toast(exc))
        return False
    if activity.host.media_store is not None:
        activity.host.media_store.file_deleted(path)
    return True


def show_rename_dialog(activity: Activity, path: str, on_renamed: Callable[[str], object]) -> Dialog:
    """commons RenameItemDialog: the name without its extension, the extension in its own field."""
    full = posixpath.basename(path)
    dot = full.rfind(".")
    has_ext = dot > 0 and not activity.host.fs.isdir(path)
    name, ext = (full[:dot], full[dot + 1:]) if has_ext else (full, "")

    def body() -> View:
        fields: list[View] = [FrameLayout(EditText(name, "rename_item_name", hint="Title", autofocus=True),
                                          id="rename_item_title_hint")]
        if has_ext:
            fields.append(FrameLayout(EditText(ext, "rename_item_extension", hint="Extension"),
                                      id="rename_item_extension_hint", margin=(0, dp(12), 0, 0)))
        return Column(*fields, id="rename_item_holder", padding=(dp(16), dp(12), dp(16), 0))

    def ok(d: Dialog) -> bool:
        new_name = d.find("rename_item_name").text
        ext_view = d.find("rename_item_extension")
        new_ext = ext_view.text if ext_view is not None else ""
        problem = name_problem(new_name)
        if problem:
            activity.toast(problem)
            return False
        if new_ext:
            new_name += "." + new_ext
        new_path = posixpath.join(posixpath.dirname(path), new_name)
        if new_path == path or (new_path.lower() != path.lower() and activity.host.fs.exists(new_path)):
            activity.toast(NAME_TAKEN)
            return False
        if not move_path(activity, path, new_path):
            return False
        activity.toast("Renaming succeeded")
        on_renamed(new_path)
        return True

    return activity.show_dialog(Dialog("Rename", body, positive=("OK", ok), negative="Cancel"))


def _items_text(count: int) -> str:
    return f"{count} item" if count == 1 else f"{count} items"


def show_folder_picker(activity: Activity, start: str, show_hidden: bool, on_pick: Callable[[str], object],
                       *, can_add_show_hidden_button: bool = False, show_fab: bool = False) -> Dialog:
    """Commons' FilePickerDialog picking a folder (``pickFile = false``), at Commons eceb48949e.

    Title "Select a folder", Breadcrumbs, the folders and files sorted folders first by name
    (``item_filepicker_list``: a folder's details are its item count), OK / Cancel. Tapping a folder
    opens it, and one without sub-folders is picked at once (``updateItems``: no directory, not the
    first update, picking a folder, no FAB: ``verifyPath``). BACK walks up the breadcrumbs and closes
    the dialog at the first one. The eye FAB (``filepicker_fab_show_hidden``) shows hidden items.
    ``show_fab`` (``showFAB``): the "create folder" FAB (``filepicker_fab``) opens CreateNewFolderDialog,
    whose new folder is picked at once (``createNewFolder``); no folder is then picked by opening it.
    """
    fs = activity.host.fs
    state = {"path": start, "hidden": show_hidden}
    root = start if "/" not in start.rstrip("/")[1:] else "/storage/emulated/0"
    root = "/storage/emulated/0" if start.startswith("/storage/emulated/0") else root
    dialog: Dialog

    def listing(path: str) -> list[tuple[str, object]]:
        try:
            entries = fs.listdir_stat(path)
        except FsError:
            return []
        if not state["hidden"]:
            entries = [(n, st) for n, st in entries if not n.startswith(".")]
        return sorted(entries, key=lambda e: (not e[1].is_dir, e[0].lower()))

    def count(path: str) -> int:
        try:
            names = fs.listdir(path)
        except FsError:
            return 0
        return len(names if state["hidden"] else [n for n in names if not n.startswith(".")])

    def pick(path: str) -> None:
        dialog.dismiss()
        on_pick(path)

    def open_item(path: str, is_dir: bool) -> None:
        if not is_dir:
            return
        if not show_fab and not any(st.is_dir for _n, st in listing(path)):
            pick(path)
            return
        state["path"] = path

    def row(path: str, stat) -> View:
        details = _items_text(count(path)) if stat.is_dir else format_size(stat.size)
        return RelativeLayout(
            ImageView("list_item_icon", icon="folder" if stat.is_dir else "file", width=dp(48), height=dp(48),
                      tint=ACCENT if stat.is_dir else TEXT_SECONDARY, margin=(dp(8), 0, 0, 0)),
            RelativeLayout(
                TextView(posixpath.basename(path), "list_item_name", max_lines=1, width=MATCH, size=sp(16)),
                TextView(details, "list_item_details", max_lines=1, width=MATCH, size=sp(14), color=TEXT_SECONDARY,
                         margin=(0, dp(24), 0, 0)),
                id="list_item_text_holder", margin=(dp(68), dp(6), dp(8), 0), height=WRAP),
            id="list_item_holder", key=path, height=dp(64), on_click=lambda: open_item(path, stat.is_dir))

    def crumbs() -> View:
        path = state["path"]
        rel = path[len(root):].strip("/")
        parts = rel.split("/") if rel else []
        views: list[View] = [TextView("Internal", "breadcrumb_text", width=WRAP, padding=(dp(8), dp(8)),
                                      bold=not parts, color=TEXT if not parts else TEXT_SECONDARY,
                                      on_click=lambda: state.__setitem__("path", root))]
        walked = root
        for i, part in enumerate(parts):
            walked = posixpath.join(walked, part)
            views.append(TextView(f"> {part}", "breadcrumb_text", width=WRAP, padding=(dp(4), dp(8)),
                                  bold=i == len(parts) - 1, on_click=lambda p=walked: state.__setitem__("path", p)))
        return FrameLayout(LinearLayout(*views, orientation="horizontal", width=WRAP), id="filepicker_breadcrumbs",
                           class_name="android.widget.HorizontalScrollView", height=dp(48))

    def show_hidden_items() -> None:
        state["hidden"] = True

    def body() -> View:
        rows = [row(posixpath.join(state["path"], n), st) for n, st in listing(state["path"])]
        files = Column(
            crumbs(),
            FrameLayout(RecyclerView(*rows, id="filepicker_list", height=MATCH), id="filepicker_fastscroller",
                        class_name="android.widget.RelativeLayout", height=MATCH, weight=1),
            id="filepicker_files_holder", class_name="android.widget.RelativeLayout", height=MATCH)
        fabs = []
        if can_add_show_hidden_button and not state["hidden"]:
            fabs.append(LinearLayout(FloatingActionButton("filepicker_fab_show_hidden", icon="eye",
                                                          on_click=show_hidden_items),
                                     id="filepicker_fabs_holder", width=WRAP, height=WRAP))
        if show_fab:
            fabs.append(FloatingActionButton("filepicker_fab", icon="plus",
                                             on_click=lambda: create_folder_dialog(activity, state["path"], pick)))
        return FrameLayout(RelativeLayout(files, id="filepicker_holder", height=MATCH), *fabs,
                           id="filepicker_coordinator", class_name=COORDINATOR_LAYOUT, height=dp(420))

    def back() -> bool:
        if state["path"].rstrip("/") != root.rstrip("/"):
            state["path"] = posixpath.dirname(state["path"].rstrip("/"))
            return True
        return False

    def ok(_d: Dialog) -> bool:
        on_pick(state["path"])
        return True

    dialog = Dialog("Select a folder", body, positive=("OK", ok), negative="Cancel", on_back=back)
    return activity.show_dialog(dialog)


def create_folder_dialog(activity: Activity, parent: str, on_created: Callable[[str], object]) -> Dialog:
    """Commons' CreateNewFolderDialog (8e7dd4508e): the parent as humanizePath shows it, read-only, and the
    name; OK checks the name (empty, invalid, taken: their toasts) and makes the folder."""
    root = "/storage/emulated/0"
    shown = ("Internal" + parent[len(root):] if parent.startswith(root) else parent).rstrip("/") + "/"

    def body() -> View:
        return Column(
            LinearLayout(EditText(shown, "folder_path", enabled=False), id="folder_path_hint"),
            LinearLayout(EditText("", "folder_name", hint="Title", autofocus=True), id="folder_name_hint",
                         margin=(0, dp(12), 0, 0)),
            id="dialog_holder", padding=(dp(16), dp(12), dp(16), 0))

    def ok(d: Dialog) -> bool:
        path, problem = new_item_path(activity.host.fs, parent, d.find("folder_name").text)
        if problem:
            activity.toast(problem)
            return False
        try:
            activity.host.fs.mkdir(path, parents=True)
        except FsError as exc:
            activity.toast(fs_error_toast(exc))
            return False
        on_created(path)
        return True

    return activity.show_dialog(Dialog("Create new folder", body, positive=("OK", ok), negative="Cancel"))

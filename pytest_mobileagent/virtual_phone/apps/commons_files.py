"""File dialogs and operations the Simple Mobile Tools file apps share (commons library).

`RenameItemDialog` (name and extension fields, commons' checks and toasts)
and renaming/deleting a file on shared storage while keeping the media store
in step, as the apps do through MediaStore.
"""

from __future__ import annotations

import errno
import posixpath
import re
from typing import Callable

from ..fs import FsError
from ..ui.views import Column, EditText, FrameLayout, View, dp
from .base import Activity, Dialog

__all__ = ["EMPTY_NAME", "INVALID_NAME", "NAME_TAKEN", "delete_path", "fs_error_toast", "move_path", "name_problem",
           "show_rename_dialog"]

EMPTY_NAME = "Please enter a name"
INVALID_NAME = "The name contains invalid characters"
NAME_TAKEN = "A file or folder with that name already exists"
_INVALID = re.compile(r'[/\\:*?"<>|\x00]')


def name_problem(name: str) -> str | None:
    """The toast commons shows for a bad file name, or None for a good one."""
    if not name:
        return EMPTY_NAME
    if _INVALID.search(name) or name in (".", ".."):
        return INVALID_NAME
    return None


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

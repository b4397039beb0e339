"""Simple-Commons' intents to other apps: open a file, share files, "Set as".

``openPathIntent``, ``sharePathsIntent`` and ``setAsIntent`` of Commons'
``extensions/Activity.kt`` (the same at the pinned commits eceb48949e and
8e7dd4508e): implicit intents that Android resolves (intents.py), in
``Intent.createChooser`` where the app asks for a chooser.
"""

from __future__ import annotations

import posixpath
import re

from ...framework.intents import ACTION_ATTACH_DATA, ACTION_SEND, ACTION_SEND_MULTIPLE, ACTION_VIEW, Intent
from ...framework.media_store import EXTERNAL_ROOT, mime_type_of
from ...framework.app import Activity

__all__ = ["IS_FROM_GALLERY", "NO_APP_FOUND", "REAL_FILE_PATH", "file_behind_uri", "open_path",
           "real_path_from_uri", "set_as", "share_paths"]

NO_APP_FOUND = "No valid app found"  # Commons' R.string.no_app_found
#: The extra openPathIntent puts the file's path in (Commons' helpers/Constants.kt REAL_FILE_PATH,
#: "real_file_path_2"); the phone's intents carry it under this key.
REAL_FILE_PATH = "real_file_path"
#: Constants.kt IS_FROM_GALLERY: openPathIntent sets it when the gallery itself opens a file.
IS_FROM_GALLERY = "is_from_gallery"


def _uri(activity: Activity, path: str) -> str:
    """ensurePublicUri / getFilePublicUri: a content: URI of the file (the media store's, else the app's
    FileProvider's); the phone names it by the app's provider and the path."""
    return f"content://{activity.app.package}.provider/external_files/{posixpath.relpath(path, EXTERNAL_ROOT)}"


def real_path_from_uri(activity: Activity, uri: str) -> str | None:
    """Commons' Context.getRealPathFromURI: a ``file:`` URI's path, else the ``_data`` column a query of the
    URI gives (getDataColumn): MediaStore rows have it, a FileProvider's URIs do not (None)."""
    if uri.startswith("file://"):
        return uri[len("file://"):]
    match = re.fullmatch(r"content://media/external/(?:images|video|audio|file)/media/(\d+)", uri)
    store = getattr(activity.host, "media_store", None)
    if match and store is not None:
        return store.path_of_id(int(match.group(1)))
    return None


def file_behind_uri(activity: Activity, uri: str) -> str | None:
    """The file ContentResolver.openInputStream(uri) reads: a MediaStore row's, or for an app's FileProvider
    URI (``content://<package>.provider/external_files/...``: the apps' res/xml/provider_paths.xml map
    external_files to external-path ".") the file under shared storage."""
    match = re.fullmatch(r"content://[\w.]+\.provider/external_files(/.*)", uri)
    if match:
        return EXTERNAL_ROOT + match.group(1)
    return real_path_from_uri(activity, uri)


def open_path(activity: Activity, path: str, force_chooser: bool = False, force_mime: str = "") -> None:
    """openPathIntent: ACTION_VIEW of the file's URI and MIME type (REAL_FILE_PATH in the extras), in
    Intent.createChooser(.., "Open with") when forced; when no app takes it, the generic type
    (tryGenericMimeType: ``audio/*``), else the "No valid app found" toast."""
    mime = force_mime or mime_type_of(path)
    extras = {REAL_FILE_PATH: path, "uri": _uri(activity, path)}
    if activity.app.package == "com.simplemobiletools.gallery.pro":
        extras[IS_FROM_GALLERY] = True
    intent = Intent(ACTION_VIEW, data=_uri(activity, path), mime_type=mime, extras=extras, chooser=force_chooser,
                    title="Open with")
    if activity.start_intent(intent):
        return
    generic = mime.split("/", 1)[0] + "/*" if "/" in mime else "*/*"
    if not activity.start_intent(Intent(ACTION_VIEW, data=_uri(activity, path), mime_type=generic, extras=extras)):
        activity.toast(NO_APP_FOUND)


def _common_mime(mimes: list[str]) -> str:
    """Commons' List<String>.getMimeType: the one type, else the shared ``type/*``, else ``*/*``."""
    if len(set(mimes)) == 1:
        return mimes[0]
    bases = {m.split("/", 1)[0] for m in mimes}
    return f"{bases.pop()}/*" if len(bases) == 1 else "*/*"


def share_paths(activity: Activity, paths: list[str]) -> None:
    """sharePathsIntent: ACTION_SEND of one file, ACTION_SEND_MULTIPLE of several (their common MIME
    type), always in Intent.createChooser(.., "Share via"): Android 14's share sheet."""
    if not paths:
        return
    if len(paths) == 1:
        intent = Intent(ACTION_SEND, mime_type=mime_type_of(paths[0]), chooser=True, title="Share via",
                        extras={"uri": _uri(activity, paths[0])})
    else:
        intent = Intent(ACTION_SEND_MULTIPLE, mime_type=_common_mime([mime_type_of(p) for p in paths]),
                        chooser=True, title="Share via", extras={"uris": [_uri(activity, p) for p in paths]})
    if not activity.start_intent(intent):
        activity.toast(NO_APP_FOUND)


def set_as(activity: Activity, path: str) -> None:
    """setAsIntent: ACTION_ATTACH_DATA of the file in Intent.createChooser(.., "Set as")."""
    intent = Intent(ACTION_ATTACH_DATA, data=_uri(activity, path), mime_type=mime_type_of(path), chooser=True,
                    title="Set as", extras={"uri": _uri(activity, path)})
    if not activity.start_intent(intent):
        activity.toast(NO_APP_FOUND)

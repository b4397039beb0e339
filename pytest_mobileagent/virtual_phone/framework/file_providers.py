"""Content URIs of the apps' FileProviders: ``content://<authority>/<name>/<file>`` and the file behind it.

androidx.core.content.FileProvider (core/src/main/java/androidx/core/content/FileProvider.java,
``SimplePathStrategy``) maps the URI's first path segment, a ``<paths>`` entry's ``name``, to that
entry's folder and the rest to the file below it; ``openFile`` opens that file.  The folders modelled
are those of ``<cache-path>`` / ``<files-path>``, in the app's private storage
(``/data/user/0/<package>/cache``, ``.../files``), which the shell user cannot read: the bytes live
with the app (``App.private_files``, emptied by ``pm clear``), keyed by the path below its data folder.

So an app that writes through a URI another app gave it (Camera2's PhotoModule.onCaptureDone writes
the shot to EXTRA_OUTPUT with ``ContentResolver.openOutputStream``) writes the owner's file; a file
written this way is not shared storage, so MediaProvider never hears of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

if TYPE_CHECKING:  # pragma: no cover
    from .app import App

__all__ = ["FileProviders"]


class FileProviders:
    """The installed apps' FileProviders, found by authority."""

    def __init__(self, apps: Callable[[], Iterable["App"]]) -> None:
        self._apps = apps

    def _locate(self, uri: str) -> tuple["App", str]:
        if not uri.startswith("content://"):
            raise FileNotFoundError(f"No content provider: {uri}")
        authority, _, path = uri[len("content://"):].partition("/")
        for app in self._apps():
            if app.file_provider is not None and app.file_provider[0] == authority:
                name, _, rest = path.partition("/")
                folder = app.file_provider[1].get(name)
                if folder is None or not rest or ".." in rest.split("/"):
                    # SimplePathStrategy.getFileForUri: "Unable to find configured root for <uri>"
                    raise FileNotFoundError(f"Unable to find configured root for {uri}")
                return app, f"{folder}/{rest}"
        raise FileNotFoundError(f"No content provider: {uri}")

    def create(self, uri: str) -> None:
        """File.createNewFile on the file behind ``uri`` (an empty file unless it exists)."""
        app, path = self._locate(uri)
        app.private_files.setdefault(path, b"")

    def write(self, uri: str, data: bytes) -> None:
        """openOutputStream(uri) ("w": the file is truncated) and write ``data``."""
        app, path = self._locate(uri)
        app.private_files[path] = bytes(data)

    def read(self, uri: str) -> bytes:
        """openInputStream(uri).readBytes(); FileNotFoundError when no file is there."""
        app, path = self._locate(uri)
        if path not in app.private_files:
            raise FileNotFoundError(f"{path}: open failed: ENOENT (No such file or directory)")
        return app.private_files[path]

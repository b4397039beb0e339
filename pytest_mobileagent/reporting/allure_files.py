"""Allure's results directory, written off the test's critical path.

allure-pytest's ``AllureFileLogger`` writes every result, container and
attachment synchronously inside the test protocol, and encodes the JSON with
``json.dump`` (which never uses the C encoder). With a screenshot and an
action per agent step, a run writes hundreds of files, and that cost landed
between one task and the next.

:class:`BackgroundFileLogger` writes the same files under the same names (the
Allure results format is unchanged): JSON is encoded with orjson on the
calling thread, so what is written is a snapshot taken when Allure reported
it, and the disk work (create, write, rename) runs on one writer thread
while the next task runs. :func:`install` swaps it in for allure-pytest's
logger for the session; :meth:`BackgroundFileLogger.flush` waits until
everything queued is on disk and raises the first write error, and is called
at the end of the session (before xdist tells the controller a worker is done)
and again at cleanup.
"""

from __future__ import annotations

import hashlib
import os
import queue
import sys
import threading
import uuid
from pathlib import Path
from typing import Callable

import pytest
from allure_commons import hookimpl
from allure_commons.logger import AllureFileLogger

from . import thumbnails
from .atomic import WRITE_PROBLEM, _os_error, write_atomically
from .jsontext import json_bytes

__all__ = ["AllureWriteError", "BackgroundFileLogger", "install", "write_atomically"]

#: Full-size screenshots a logger keeps for the task running (see save_screenshot).
KEPT_SCREENS = 256

# allure-commons indents its JSON when this variable is set; so do we.
INDENT_ENV = "ALLURE_INDENT_OUTPUT"
CONTAINER_PATTERN = "{prefix}-container.json"  # allure-commons' TestResultContainer.file_pattern


class AllureWriteError(OSError):
    """Allure results could not be written (disk full, directory removed, ...)."""


class BackgroundFileLogger(AllureFileLogger):
    """allure-commons' file logger with orjson encoding and a writer thread."""

    def __init__(self, report_dir: str | os.PathLike) -> None:
        # allure-pytest already created (and, with --clean-alluredir, emptied) the directory.
        super().__init__(report_dir, clean=False)
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._errors: list[OSError] = []
        self._failed_files = 0
        self._saved: set[str] = set()  # content-named attachments already queued
        # The running task's full-size screenshots, by their thumbnail's path (save_screenshot).
        self._screens: dict[Path, bytes] = {}
        # Containers of one test's function-scoped fixtures, held until its result (see report_container).
        self._held: dict[str, list[dict]] = {}
        self._reported_tests: set[str] = set()
        self._thread = threading.Thread(target=self._work, name="mobileagent-allure-writer", daemon=True)
        self._thread.start()

    # -- allure-commons hooks ----------------------------------------------------
    def _report_item(self, item) -> None:
        # The same filter and file names as allure-commons.
        self._report_data(_snapshot(item), item.file_pattern)

    def _report_data(self, data: dict, file_pattern: str) -> None:
        body = json_bytes(data, indent=bool(os.environ.get(INDENT_ENV)))
        self._write(file_pattern.format(prefix=uuid.uuid4()), body)

    @hookimpl
    def report_result(self, result) -> None:
        self._report_item(result)
        self._reported_tests.add(result.uuid)
        held = self._held.pop(result.uuid, None)
        if held:
            self._report_data(_merged(held), CONTAINER_PATTERN)

    @hookimpl
    def report_container(self, container) -> None:
        """Write a fixture's container; those of one test's own fixtures as one file.

        allure-pytest writes a container per fixture instance, so every test
        brings one file per function-scoped fixture. A container whose only
        child is a test still running is held, and when the test's result
        comes, its held containers are written as one: the same children,
        set-ups and tear-downs, so the report shows the same fixtures.
        """
        children = container.children or []
        if len(children) == 1 and children[0] not in self._reported_tests:
            self._held.setdefault(children[0], []).append(_snapshot(container))
            return
        self._report_item(container)

    @hookimpl
    def report_attached_file(self, source, file_name) -> None:
        # Read now: a caller may delete its file as soon as attach_file returns.
        # Creating the copy is the costly part, and that waits for the writer.
        self._write(file_name, Path(source).read_bytes())

    @hookimpl
    def report_attached_data(self, body, file_name) -> None:
        self._write(file_name, body.encode("utf-8") if isinstance(body, str) else bytes(body))

    # -- our own attachment files ---------------------------------------------
    def save_attachment(self, body: bytes, extension: str) -> Path:
        """Queue ``body`` as an attachment file named after its content; returns its final path.

        Screenshots and the task's JSON attachments are saved this way, once;
        an Allure step or test then refers to the file by name
        (:func:`allure_report.attach_task`). Equal content gets the same name
        and is written once: a run repeats many screens (every task starts on
        its app's first screen) and actions, and creating a file is the costly
        part of writing one.
        """
        body = bytes(body)
        name = f"{_content_id(body)}-attachment.{extension}"
        if name not in self._saved:
            self._saved.add(name)
            self._write(name, body)
        return self._report_dir / name

    def save_screenshot(self, png: bytes) -> Path:
        """Queue a thumbnail of the screenshot ``png``; returns the thumbnail's final path.

        The thumbnail (thumbnails.py) is encoded on the writer thread, so its
        name comes from the PNG's content: an equal screen is encoded once.
        The PNG itself is kept in memory until :meth:`forget_screens`, for
        :meth:`full_size` to save the screens a report shows whole. A PNG
        Pillow cannot read is written as it is under the thumbnail's name:
        nothing is lost, and a browser shows any image format in an ``<img>``
        whatever the name says (WHATWG MIME Sniffing, "sniffing in an image
        context").
        """
        png = bytes(png)
        name = f"{_content_id(png)}-attachment.{thumbnails.EXTENSION}"
        path = self._report_dir / name
        if len(self._screens) >= KEPT_SCREENS:  # a task never reported: drop its oldest screens
            del self._screens[next(iter(self._screens))]
        self._screens[path] = png
        if name not in self._saved:
            self._saved.add(name)
            self._jobs.put(lambda: write_atomically(path, _thumbnail_or_original(png)))
        return path

    def full_size(self, thumbnail: str | os.PathLike) -> Path | None:
        """Save the full PNG of a screenshot saved by :meth:`save_screenshot` since the last
        :meth:`forget_screens`; its path, or None when it is not kept."""
        png = self._screens.get(Path(thumbnail))
        return None if png is None else self.save_attachment(png, "png")

    def forget_screens(self) -> None:
        """Drop the kept full-size screenshots (a task's report is done with them)."""
        self._screens.clear()

    # -- the writer ------------------------------------------------------------
    def _write(self, file_name: str, body: bytes) -> None:
        destination = self._report_dir / file_name
        self._jobs.put(lambda: write_atomically(destination, body))

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                job()
            except Exception as exc:  # a file not written; the writer goes on with the others
                self._failed_files += 1
                if not self._errors:
                    self._errors.append(exc if isinstance(exc, OSError) else OSError(f"{type(exc).__name__}: {exc}"))
            finally:
                self._jobs.task_done()

    def flush(self) -> None:
        """Block until every queued file is written; raise the first error, if any."""
        # Containers whose test never reported a result (an interrupted run) are kept too.
        while self._held:
            _, held = self._held.popitem()
            self._report_data(_merged(held), CONTAINER_PATTERN)
        if self._thread.is_alive():
            self._jobs.join()
        if self._errors:
            (error,), failed = self._errors, self._failed_files
            self._errors, self._failed_files = [], 0
            files = f"{failed} file{'s' if failed != 1 else ''}"
            raise AllureWriteError(f"{WRITE_PROBLEM}{self._report_dir}: {_os_error(error)} ({files} not written)")

    def close(self) -> None:
        """Flush, then stop the writer thread.

        Called at config cleanup, after the summary: a write error left at
        this point (the session's end flushed the rest) is one line on stderr.
        """
        try:
            self.flush()
        except AllureWriteError as exc:
            print(f"warning: {exc}", file=sys.stderr)
        finally:
            if self._thread.is_alive():
                self._jobs.put(None)
                self._thread.join()


def _content_id(body: bytes) -> uuid.UUID:
    """A name for ``body`` from its content (Allure's file names start with a UUID)."""
    return uuid.UUID(bytes=hashlib.blake2b(body, digest_size=16).digest())


_thumbnail = thumbnails.Thumbnailer()  # one per process: its bands serve every worker thread's screens


def _thumbnail_or_original(png: bytes) -> bytes:
    try:
        return _thumbnail(png)
    except Exception:  # Pillow's errors for unreadable bytes vary (OSError, ValueError, SyntaxError, ...)
        return png


def _snapshot(item) -> dict:
    """An Allure model object as allure-commons writes it (empty values left out)."""
    from attr import asdict

    return asdict(item, filter=lambda _, v: v or v is False)


def _merged(containers: list[dict]) -> dict:
    """One container holding the set-ups and tear-downs of several with the same child."""
    merged = dict(containers[0])
    for other in containers[1:]:
        for key in ("befores", "afters", "links"):
            if other.get(key):
                merged[key] = merged.get(key, []) + other[key]
        for key, pick in (("start", min), ("stop", max)):
            times = [t for t in (merged.get(key), other.get(key)) if t is not None]
            if times:
                merged[key] = pick(times)
    return merged


def install(config: pytest.Config) -> BackgroundFileLogger | None:
    """Put a :class:`BackgroundFileLogger` in place of allure-pytest's file logger.

    Returns None (and changes nothing) when allure-pytest registered no file
    logger, i.e. without ``--alluredir``. At config cleanup the original logger
    is put back, because allure-pytest's own cleanup unregisters it by name.
    """
    import allure_commons

    manager = allure_commons.plugin_manager
    originals = [p for p in manager.get_plugins() if type(p) is AllureFileLogger]
    if len(originals) != 1:
        return None
    original = originals[0]
    logger = BackgroundFileLogger(original._report_dir)
    name = manager.get_name(original)
    manager.unregister(original)
    manager.register(logger, "mobileagent_allure_files")

    def restore() -> None:
        try:
            logger.close()
        finally:
            manager.unregister(logger)
            manager.register(original, name)

    config.add_cleanup(restore)
    return logger

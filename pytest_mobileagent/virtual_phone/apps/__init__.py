"""The apps the virtual phone installs: an explicit, sorted registry.

To add an app, import its `App` subclass here and add it to the list, keeping
the list sorted by package.
"""

from __future__ import annotations

from .applauncher import AppLauncherApp
from .calculator import Calculator
from .calendar import CalendarApp
from .filemanager import FileManagerApp
from .gallery import GalleryApp
from .launcher import Launcher
from .musicplayer import MusicPlayerApp
from .notes import NotesApp
from .system_apps import SYSTEM_APPS
from .voicerecorder import VoiceRecorderApp

INSTALLED_APPS = [
    *SYSTEM_APPS,   # com.android.camera2, .chrome, ... (the emulator image's own apps)
    Launcher,       # com.android.launcher3
    AppLauncherApp,  # com.simplemobiletools.applauncher
    Calculator,     # com.simplemobiletools.calculator
    CalendarApp,    # com.simplemobiletools.calendar.pro
    FileManagerApp,  # com.simplemobiletools.filemanager.pro
    GalleryApp,     # com.simplemobiletools.gallery.pro
    MusicPlayerApp,  # com.simplemobiletools.musicplayer
    NotesApp,       # com.simplemobiletools.notes.pro
    VoiceRecorderApp,  # com.simplemobiletools.voicerecorder
]

__all__ = ["INSTALLED_APPS"]

"""The apps the virtual phone installs: an explicit, sorted registry.

To add an app, import its `App` subclass here and add it to the list, keeping
the list sorted by package.
"""

from __future__ import annotations

from .calculator import Calculator
from .filemanager import FileManagerApp
from .gallery import GalleryApp
from .launcher import Launcher
from .musicplayer import MusicPlayerApp
from .notes import NotesApp
from .voicerecorder import VoiceRecorderApp

INSTALLED_APPS = [
    Launcher,       # com.android.launcher3
    Calculator,     # com.simplemobiletools.calculator
    FileManagerApp,  # com.simplemobiletools.filemanager.pro
    GalleryApp,     # com.simplemobiletools.gallery.pro
    MusicPlayerApp,  # com.simplemobiletools.musicplayer
    NotesApp,       # com.simplemobiletools.notes.pro
    VoiceRecorderApp,  # com.simplemobiletools.voicerecorder
]

__all__ = ["INSTALLED_APPS"]

"""The apps the virtual phone installs: an explicit, sorted registry.

To add an app, import its `App` subclass here and add it to the list, keeping
the list sorted by package.
"""

from __future__ import annotations

from .applauncher import AppLauncherApp
from .calculator import Calculator
from .calendar import CalendarApp
from .contacts import ContactsApp
from .filemanager import FileManagerApp
from .gallery import GalleryApp
from .launcher import Launcher
from .messenger import MessengerApp
from .musicplayer import MusicPlayerApp
from .notes import NotesApp
from .print_spooler import PrintSpoolerApp
from .system_apps import SYSTEM_APPS
from .system_screens import AndroidSystemApp, IntentResolverApp, PermissionControllerApp
from .voicerecorder import VoiceRecorderApp

INSTALLED_APPS = [
    AndroidSystemApp,  # android (the framework's ResolverActivity)
    *SYSTEM_APPS,   # com.android.camera2, .chrome, ... (the emulator image's own apps)
    IntentResolverApp,  # com.android.intentresolver (the share sheet)
    PrintSpoolerApp,  # com.android.printspooler (the print dialog)
    PermissionControllerApp,  # com.google.android.permissioncontroller
    Launcher,       # com.android.launcher3
    AppLauncherApp,  # com.simplemobiletools.applauncher
    Calculator,     # com.simplemobiletools.calculator
    CalendarApp,    # com.simplemobiletools.calendar.pro
    ContactsApp,    # com.simplemobiletools.contacts.pro
    FileManagerApp,  # com.simplemobiletools.filemanager.pro
    GalleryApp,     # com.simplemobiletools.gallery.pro
    MusicPlayerApp,  # com.simplemobiletools.musicplayer
    NotesApp,       # com.simplemobiletools.notes.pro
    MessengerApp,   # com.simplemobiletools.smsmessenger
    VoiceRecorderApp,  # com.simplemobiletools.voicerecorder
]

__all__ = ["INSTALLED_APPS"]

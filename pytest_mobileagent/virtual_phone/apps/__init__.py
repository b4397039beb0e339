"""The apps layer, and the registry of the apps the virtual phone installs (explicit, sorted).

``simple/`` holds the ten Simple Mobile Tools apps, ``commons/`` Simple-Commons (the library
they bundle), ``system/`` Android's own apps.  The apps layer imports the framework and the
kernel only; the shell, programs and adbd above it reach apps through framework services.
phone.py hands ``INSTALLED_APPS`` to the framework's AndroidSystem at boot.

To add an app, import its `App` subclass (a Simple Mobile Tools app's is a `CommonsApp`)
here and add it to the list, keeping the list sorted by package.
"""

from __future__ import annotations

from .simple.applauncher import AppLauncherApp
from .simple.calculator import Calculator
from .simple.calendar import CalendarApp
from .simple.contacts import ContactsApp
from .simple.filemanager import FileManagerApp
from .simple.gallery import GalleryApp
from .system.launcher import Launcher
from .simple.messenger import MessengerApp
from .simple.musicplayer import MusicPlayerApp
from .simple.notes import NotesApp
from .system.print_spooler import PrintSpoolerApp
from .system.system_apps import SYSTEM_APPS
from .system.system_screens import AndroidSystemApp, IntentResolverApp, PermissionControllerApp
from .simple.voicerecorder import VoiceRecorderApp

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

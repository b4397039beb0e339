"""The apps the virtual phone installs: an explicit, sorted registry.

To add an app, import its `App` subclass here and add it to the list, keeping
the list sorted by package.
"""

from __future__ import annotations

from .applauncher import AppLauncherApp
from .calculator import Calculator
from .calendar import CalendarApp
from .launcher import Launcher
from .notes import NotesApp
from .system_apps import SYSTEM_APPS

INSTALLED_APPS = [
    *SYSTEM_APPS,   # com.android.camera2, .chrome, ... (the emulator image's own apps)
    Launcher,       # com.android.launcher3
    AppLauncherApp,  # com.simplemobiletools.applauncher
    Calculator,     # com.simplemobiletools.calculator
    CalendarApp,    # com.simplemobiletools.calendar.pro
    NotesApp,       # com.simplemobiletools.notes.pro
]

__all__ = ["INSTALLED_APPS"]

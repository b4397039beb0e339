"""The apps the virtual phone installs: an explicit, sorted registry.

To add an app, import its `App` subclass here and add it to the list, keeping
the list sorted by package.
"""

from __future__ import annotations

from .calculator import Calculator
from .contacts import ContactsApp
from .launcher import Launcher
from .messenger import MessengerApp
from .notes import NotesApp

INSTALLED_APPS = [
    Launcher,       # com.android.launcher3
    Calculator,     # com.simplemobiletools.calculator
    ContactsApp,    # com.simplemobiletools.contacts.pro
    NotesApp,       # com.simplemobiletools.notes.pro
    MessengerApp,   # com.simplemobiletools.smsmessenger
]

__all__ = ["INSTALLED_APPS"]

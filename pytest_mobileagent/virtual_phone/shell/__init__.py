"""The phone's /system/bin/sh: an sh-subset parser and interpreter plus commands.

Importing this package registers every command in `COMMANDS`.
"""

from . import alarm, android, builtins, cmd, content, fileutils, find, packages  # noqa: F401  (register commands)
from . import media  # noqa: F401  (the media scanner's broadcast receiver)
from .android import android_input_text
from .interpreter import COMMANDS, ShellResult, ShellSession
from .keycodes import canonical_key

__all__ = ["COMMANDS", "ShellResult", "ShellSession", "android_input_text", "canonical_key"]

"""The shell layer (userland): /system/bin/sh, toybox's applets and Android's commands.

mksh's grammar (parser.py, arith.py) and its interpreter, globbing, toybox, and am, pm, cmd, dumpsys, input,
uiautomator, content, settings, logcat...: each command parses its arguments, calls framework
services and formats what Android prints.  Imports the apps, framework and kernel layers only.

Importing this package registers every command in `COMMANDS`.
"""

from . import alarm, android, builtins, cmd, content, fileutils, packages, procs, toybox, logcat, system_services  # noqa: F401  (register commands)
from . import find  # noqa: F401  (toybox's find with its whole expression language)
from . import media  # noqa: F401  (the media scanner's broadcast receiver)
from . import appops, sh_exec  # noqa: F401  (appops, cmd notification, exec: what Appium's driver runs)
from . import statusbar  # noqa: F401  (cmd statusbar, cmd notification post: SystemUI's shade)
from . import funcs  # noqa: F401  (mksh's command, return, break, continue)
from . import dumps, pgrep, runners  # noqa: F401  (toybox's od, xxd, base64, pgrep, pkill, nohup, timeout)
from . import bugreport  # noqa: F401  (bugreport, bugreportz over dumpstate's report)
from . import app_process, instrument  # noqa: F401  (start the phone's Java programs and test runners)
from . import remount  # noqa: F401  (fs_mgr's remount, run by adbd's remount: service)
from .android import android_input_text
from .interpreter import COMMANDS, ShellResult, ShellSession, program_names
from .keycodes import canonical_key

__all__ = ["COMMANDS", "ShellResult", "ShellSession", "android_input_text", "canonical_key", "program_names"]
from . import diskfree  # noqa: F401  (toybox df and mount over the kernel's mount table)

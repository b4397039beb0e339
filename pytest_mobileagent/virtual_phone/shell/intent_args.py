"""am's INTENT arguments (Intent.parseCommandArgs), also `cmd package resolve-activity`'s.

`-a ACTION`, `-c CATEGORY`, `-n COMPONENT`, `-d URI`, `-t TYPE`, `-p PACKAGE`, `--es KEY VALUE`,
`--ei KEY VALUE`, a bare component or package, and am start's own `-W` (wait) and `-S` (force-stop
first).  Options that take values and change nothing here are skipped with their values.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..framework.activity_manager import CommandIntent
from .interpreter import UsageError

__all__ = ["IntentArgs", "parse_intent"]


@dataclass
class IntentArgs(CommandIntent):
    """The intent, and am start's -W (print the launch's result) and -S (force-stop the package first)."""

    wait: bool = False
    stop_first: bool = False


#: option -> how many values it takes
_AM_VALUE_OPTIONS = {"-a": 1, "-c": 1, "-d": 1, "-t": 1, "-n": 1, "-f": 1, "-e": 2, "--es": 2,
                     "--ei": 2, "--ez": 2, "--el": 2, "--ef": 2, "--eu": 2, "--esn": 1, "--user": 1,
                     "--display": 1, "-R": 1, "-P": 1, "--start-profiler": 1, "--windowingMode": 1,
                     "--activityType": 1, "-i": 1, "-p": 1, "--receiver-permission": 1,
                     "--eia": 2, "--esa": 2, "--ela": 2}


def parse_intent(args: list[str]) -> IntentArgs:
    """The intent the arguments give; a UsageError (exit status 255) when an option lacks its value."""
    intent = IntentArgs()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-W",):
            intent.wait = True
        elif arg == "-S":
            intent.stop_first = True
        elif arg in _AM_VALUE_OPTIONS:
            count = _AM_VALUE_OPTIONS[arg]
            if i + count >= len(args):
                raise UsageError(f"Error: No argument supplied for option '{arg}'", 255)
            value = args[i + 1]
            if arg == "-a":
                intent.action = value
            elif arg == "-c":
                intent.categories.append(value)
            elif arg == "-n":
                intent.component = value
            elif arg == "-d":
                intent.data = value
            elif arg == "-p":
                intent.package = value
            elif arg == "-t":
                intent.mime_type = value
            elif arg == "--es":
                intent.extras[value] = args[i + 2]
            elif arg == "--ei":
                intent.int_extras[value] = args[i + 2]
            i += count
        elif arg.startswith("-"):
            pass  # flags such as --activity-clear-task or -D change nothing here
        elif intent.component is None and intent.package is None:
            if "/" in arg:
                intent.component = arg
            else:
                intent.package = arg
        i += 1
    return intent



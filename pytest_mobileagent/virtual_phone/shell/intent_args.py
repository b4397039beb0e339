"""am's INTENT arguments.
"""

_AM_VALUE_OPTIONS = {"-a": 1, "-c": 1, "-d": 1, "-t": 1, "-n": 1, "-f": 1, "-e": 2, "--es": 2,
                     "--ei": 2, "--ez": 2, "--el": 2, "--ef": 2, "--eu": 2, "--esn": 1, "--user": 1,
                     "--display": 1, "-R": 1, "-P": 1, "--start-profiler": 1, "--windowingMode": 1,
                     "--activityType": 1, "-i": 1, "-p": 1, "--receiver-permission": 1,
                     "--eia": 2, "--esa": 2, "--ela": 2}


def _parse_intent(args: list[str]) -> _Intent:
    intent = _Intent()
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



"""`content`: query, insert, update and delete rows of the phone's content providers.

Behaves as Android's `cmd content` tool (frameworks/base cmds/content): a
malformed command line prints the usage and an "[ERROR] ..." line to stdout;
a provider failure prints "Error while accessing provider:AUTHORITY" and the
Java exception to stderr; either way the tool exits 0, as on a phone.
Queries print one "Row: N col=value, ..." line per row (NULL for null) or
"No result found."; insert, update and delete print nothing.
"""

from __future__ import annotations

from ..framework.providers import ProviderError
from .interpreter import Invocation, command

USAGE = """usage: adb shell content [subcommand] [options]

usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] [--extra <BINDING>...]
  <URI> a content provider URI.
  <BINDING> binds a typed value to a column and is formatted:
  <COLUMN_NAME>:<TYPE>:<COLUMN_VALUE> where:
  <TYPE> specifies data type such as:
  b - boolean, s - string, i - integer, l - long, f - float, d - double, n - null
  Note: Omit the value for passing an empty string, e.g column:s:
  Example:
  # Add "new_setting" secure setting with value "new_value".
  adb shell content insert --uri content://settings/secure --bind name:s:new_setting --bind value:s:new_value

usage: adb shell content update --uri <URI> [--user <USER_ID>] [--where <WHERE>] [--extra <BINDING>...]
  <WHERE> is a SQL style where clause in quotes (You have to escape single quotes - see example below).
  Example:
  # Change "new_setting" secure setting to "newer_value".
  adb shell content update --uri content://settings/secure --bind value:s:newer_value --where "name='new_setting'"

usage: adb shell content delete --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] [--where <WHERE>] [--extra <BINDING>...]
  Example:
  # Remove "new_setting" secure setting.
  adb shell content delete --uri content://settings/secure --where "name='new_setting'"

usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>] [--extra <BINDING>...]
  <PROJECTION> is a list of colon separated column names and is formatted:
  <COLUMN_NAME>[:<COLUMN_NAME>...]
  <SORT_ORDER> is the order in which rows in the result should be sorted.
  Example:
  # Select "name" and "value" columns from secure settings where "name" is equal to "new_setting" and sort the result by name in ascending order.
  adb shell content query --uri content://settings/secure --projection name:value --where "name='new_setting'" --sort "name ASC"

usage: adb shell content call --uri <URI> --method <METHOD> [--arg <ARG>]
       [--extra <BINDING> ...]
  <METHOD> is the name of a provider-defined method
  <ARG> is an optional string argument
  <BINDING> is like --bind above, typed data of the form <KEY>:{b,s,i,l,f,d}:<VAL>

"""

#: which options each subcommand accepts
_OPTIONS = {
    "insert": {"--uri", "--user", "--bind", "--extra"},
    "update": {"--uri", "--user", "--bind", "--where", "--extra"},
    "delete": {"--uri", "--user", "--where", "--extra"},
    "query": {"--uri", "--user", "--projection", "--where", "--sort", "--extra"},
    "call": {"--uri", "--user", "--method", "--arg", "--extra"},
}


class _BadCommand(Exception):
    """A malformed command line (Android: IllegalArgumentException in the parser)."""


def _split_escaped(text: str) -> list[str]:
    """Split a binding at unescaped colons; a backslash escapes the next character."""
    parts, current, i = [], [], 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 1
            if i == len(text):
                raise _BadCommand("Invalid escaping")
            current.append(text[i])
        elif char == ":":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    return parts


def _java_int(text: str, bits: int) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise _BadCommand(f'For input string: "{text}"') from None
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise _BadCommand(f'For input string: "{text}"')
    return value


def _java_float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _BadCommand(f'For input string: "{text}"') from None


def parse_binding(text: str | None) -> tuple[str, object]:
    """`column:type:value` -> (column, typed value), as Android's parser reads it."""
    if not text:
        raise _BadCommand(f"Binding not well formed: {text}")
    parts = _split_escaped(text)
    if len(parts) != 3:
        raise _BadCommand(f"Binding not well formed: {text}")
    column, kind, value = parts
    if kind == "s":
        return column, value
    kind = kind.lower()
    if kind == "b":
        return column, 1 if value.lower() == "true" else 0
    if kind == "i":
        return column, _java_int(value, 32)
    if kind == "l":
        return column, _java_int(value, 64)
    if kind in ("f", "d"):
        return column, _java_float(value)
    if kind == "n":
        return column, None
    raise _BadCommand(f"Unsupported type: {kind}")


def _parse(args: list[str]) -> tuple[str, dict]:
    if not args:
        raise _BadCommand("Unsupported operation: null")
    operation, rest = args[0], list(args[1:])
    if operation not in _OPTIONS:
        raise _BadCommand(f"Unsupported operation: {operation}")
    parsed: dict = {"uri": None, "values": {}, "where": None, "projection": None, "sort": None,
                    "method": None, "arg": None}
    i = 0
    while i < len(rest):
        argument = rest[i]
        if argument not in _OPTIONS[operation]:
            raise _BadCommand(f"Unsupported argument: {argument}")
        value = rest[i + 1] if i + 1 < len(rest) else None
        if argument in ("--bind", "--extra"):
            column, typed = parse_binding(value)
            if argument == "--bind":
                parsed["values"][column] = typed
            i += 2
            continue
        if not value or value.startswith("--"):
            raise _BadCommand(f"No value for argument: {argument}")
        if argument == "--user":
            _java_int(value, 32)
        elif argument == "--projection":
            parsed["projection"] = [p.strip() for p in value.split(":")]
        else:
            parsed[argument[2:]] = value
        i += 2
    if parsed["uri"] is None:
        raise _BadCommand("Content provider URI not specified. Did you specify --uri argument?")
    if operation == "call" and parsed["method"] is None:
        raise _BadCommand("Content provider method not specified.")
    if operation in ("insert", "update") and not parsed["values"]:
        raise _BadCommand("Bindings not specified. Did you specify --bind argument(s)?")
    return operation, parsed


def _format_value(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, bytes):
        return "BLOB"
    return str(value)


@command("content")
def _content(inv: Invocation) -> int:
    try:
        operation, parsed = _parse(list(inv.args))
    except _BadCommand as exc:
        inv.out(USAGE + "\n")
        inv.out(f"[ERROR] {exc}\n")
        return 0
    uri = parsed["uri"]
    providers = inv.phone.system.providers
    try:
        provider = providers.for_uri(uri) if operation != "call" else None
        if operation == "query":
            columns, rows = provider.query(uri, parsed["projection"], parsed["where"], parsed["sort"])
            if not rows:
                inv.out("No result found.\n")
            for index, row in enumerate(rows):
                cells = ", ".join(f"{name}={_format_value(value)}" for name, value in zip(columns, row))
                inv.out(f"Row: {index} {cells}\n")
        elif operation == "insert":
            provider.insert(uri, parsed["values"])
        elif operation == "call":
            bundle = providers.call(uri, parsed["method"], parsed["arg"])
            inv.out("Result: null\n" if bundle is None else
                    "Result: Bundle[{" + ", ".join(f"{k}={_format_value(v)}" for k, v in bundle.items()) + "}]\n")
        elif operation == "update":
            provider.update(uri, parsed["values"], parsed["where"])
        else:
            provider.delete(uri, parsed["where"])
    except ProviderError as exc:
        authority = uri.split("://", 1)[-1].split("/", 1)[0]
        inv.err(f"Error while accessing provider:{authority}\n{exc}\n")
    # Apps showing provider data redraw on their next frame (a ContentObserver's job on Android).
    inv.phone.system.notify_data_changed()
    return 0

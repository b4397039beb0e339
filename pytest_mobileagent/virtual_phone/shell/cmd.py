"""`cmd SERVICE ...`: Android's generic shell-command entry to system services.

On Android 14 `pm`, `am`, `wm`, `input` and `settings` are thin scripts
around `cmd package`, `cmd activity`, `cmd window`, `cmd input` and
`cmd settings`; here it is the other way round: those services forward to
the existing commands.  Two services have their own subcommands here:

* ``package``: a table, `PACKAGE_COMMANDS`, of subcommands `pm` does not
  implement itself (`resolve-activity`, ...).  `pm VERB` consults the same
  table, as both are one service on a phone.  Add one with::

      @package_command("install-existing")
      def _install_existing(inv: Invocation, args: list[str]) -> int: ...

* ``role``: RoleManager's shell command (`roles.py` holds the state).

Failures look as Android's: an unknown service is "cmd: Can't find service:
X" with exit status 20 (cmd.cpp); an exception inside a service prints
"Exception occurred while executing '<verb>':" and exits 255
(BasicShellCommandHandler returning -1).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from ..framework.activity_manager import (full_class, query_activities, resolve_activity, short_component,
                                          target_activity)
from .intent_args import parse_intent
from .interpreter import COMMANDS, Invocation, command

__all__ = ["PACKAGE_COMMANDS", "ROLE_COMMANDS", "SERVICES", "package_command"]

Subcommand = Callable[[Invocation, list[str]], int]

#: `cmd package VERB` / `pm VERB` subcommands beyond what `pm` itself handles
PACKAGE_COMMANDS: dict[str, Subcommand] = {}
#: `cmd role VERB`
ROLE_COMMANDS: dict[str, Subcommand] = {}


def package_command(*verbs: str):
    """Register a `cmd package` (and `pm`) subcommand: ``fn(inv, args) -> exit status``."""
    def register(fn: Subcommand) -> Subcommand:
        for verb in verbs:
            PACKAGE_COMMANDS[verb] = fn
        return fn
    return register


def _role_command(verb: str):
    def register(fn: Subcommand) -> Subcommand:
        ROLE_COMMANDS[verb] = fn
        return fn
    return register


def service_exception(inv: Invocation, verb: str, exception: str) -> int:
    """A Java exception thrown by a service's shell command (exit status 255)."""
    inv.err(f"Exception occurred while executing '{verb}':\n{exception}\n")
    return 255


# -- the dispatcher --------------------------------------------------------------------
def _forward(name: str) -> Callable[[Invocation, list[str]], int]:
    """`cmd SERVICE ARGS` where the phone has the service as command ``name``."""
    def run(inv: Invocation, args: list[str]) -> int:
        return COMMANDS[name](dataclasses.replace(inv, name=name, args=args))
    return run


def _package(inv: Invocation, args: list[str]) -> int:
    handler = PACKAGE_COMMANDS.get(args[0]) if args else None
    if handler is not None:
        return handler(inv, args[1:])
    return COMMANDS["pm"](dataclasses.replace(inv, name="pm", args=args))


def _role(inv: Invocation, args: list[str]) -> int:
    handler = ROLE_COMMANDS.get(args[0]) if args else None
    if handler is not None:
        return handler(inv, args[1:])
    if args and args[0] not in ("help", "-h"):
        inv.out(f"Unknown command: {args[0]}\n")
    else:
        inv.out(_ROLE_HELP)
    return 255


#: service name -> handler(inv, args after the service name)
SERVICES: dict[str, Callable[[Invocation, list[str]], int]] = {
    "activity": _forward("am"),
    "input": _forward("input"),
    "package": _package,
    "role": _role,
    "settings": _forward("settings"),
    "window": _forward("wm"),
}


@command("cmd")
def _cmd(inv: Invocation) -> int:
    args = list(inv.args)
    if not args:
        inv.err("cmd: No service specified; use -l to list all running services. "
                "Use -w to start and wait for a service.\n")
        return 20
    if args[0] == "-l":
        inv.out("Currently running services:\n" + "".join(f"  {name}\n" for name in sorted(SERVICES)))
        return 0
    if args[0] == "-w":
        args.pop(0)
    if not args:
        inv.err("cmd: No service specified; use -l to list all running services. "
                "Use -w to start and wait for a service.\n")
        return 20
    handler = SERVICES.get(args[0])
    if handler is None:
        inv.err(f"cmd: Can't find service: {args[0]}\n")
        return 20
    return handler(inv, args[1:])


# -- cmd package resolve-activity / query-activities ------------------------------------------
_RESOLVE_LINE = "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault={}"


def _intent_and_options(inv: Invocation, verb: str, args: list[str]):
    """PackageManagerShellCommand.parseIntentAndUser: the intent arguments, with --brief,
    --components, --user N and --query-flags N taken out wherever they stand (Intent.parseCommandArgs
    hands options it does not know to that handler).  (intent, brief, components) or an exit status."""
    brief = components = False
    rest: list[str] = []
    args = list(args)
    while args:
        option = args.pop(0)
        if option == "--brief":
            brief = True
        elif option == "--components":
            components = True
        elif option in ("--user", "--query-flags"):
            if not args:
                return service_exception(inv, verb, f"java.lang.IllegalArgumentException: Argument expected after \"{option}\"")
            args.pop(0)
        else:
            rest.append(option)
    intent = parse_intent(rest)
    if not (intent.action or intent.categories or intent.component or intent.package or intent.data):
        return service_exception(inv, verb, "java.lang.IllegalArgumentException: No intent supplied")
    return intent, brief, components


def _print_resolve_info(inv: Invocation, prefix: str, found: tuple[str, str, bool], brief: bool,
                        components: bool) -> None:
    """PackageManagerShellCommand.printResolveInfo: with --brief the resolve line then the short
    component, with --components the component only, else ResolveInfo.dump."""
    package, activity, is_default = found
    if brief or components:
        if not components:
            inv.out(prefix + _RESOLVE_LINE.format(str(is_default).lower()) + "\n")
        inv.out(f"{prefix}{short_component(package, full_class(package, activity))}\n")
        return
    inv.out(f"{prefix}{_RESOLVE_LINE.format(str(is_default).lower())}\n"
            f"{prefix}ActivityInfo:\n{prefix}  name={activity}\n{prefix}  packageName={package}\n"
            f"{prefix}  enabled=true exported=true directBootAware=false\n"
            f"{prefix}  taskAffinity={package} targetActivity={target_activity(inv.phone, package, activity)} "
            f"persistableMode=PERSIST_ROOT_ONLY\n")


@package_command("resolve-activity")
def _resolve_activity(inv: Invocation, args: list[str]) -> int:
    """PackageManagerShellCommand.runResolveActivity: which activity an intent starts."""
    parsed = _intent_and_options(inv, "resolve-activity", args)
    if isinstance(parsed, int):
        return parsed
    intent, brief, components = parsed
    found = resolve_activity(inv.phone, intent)
    if found is None:
        inv.out("No activity found\n")
        return 0
    # the full dump keeps the two-space indent this command has always printed here
    _print_resolve_info(inv, "" if brief or components else "  ", found, brief, components)
    return 0


@package_command("query-activities")
def _query_activities(inv: Invocation, args: list[str]) -> int:
    """PackageManagerShellCommand.runQueryIntentActivities: "N activities found:" and one
    "  Activity #i:" block each (printResolveInfo with prefix "    "); with --components one
    component per line; "No activities found" when none answers.  The list is the framework's
    (activity_manager.query_activities), the one resolve-activity and `am start` choose from."""
    parsed = _intent_and_options(inv, "query-activities", args)
    if isinstance(parsed, int):
        return parsed
    intent, brief, components = parsed
    found = query_activities(inv.phone, intent)
    if not found:
        inv.out("No activities found\n")
        return 0
    if components:
        for answer in found:
            _print_resolve_info(inv, "", answer, brief, components)
        return 0
    inv.out(f"{len(found)} activities found:\n")
    for index, answer in enumerate(found):
        inv.out(f"  Activity #{index}:\n")
        _print_resolve_info(inv, "    ", answer, brief, components)
    return 0


# -- cmd role ----------------------------------------------------------------------------------
_ROLE_HELP = """Role (role) commands:
  help or -h
    Print this help text.

  get-role-holders [--user USER_ID] ROLE
  add-role-holder [--user USER_ID] ROLE PACKAGE [FLAGS]
  remove-role-holder [--user USER_ID] ROLE PACKAGE [FLAGS]
  clear-role-holders [--user USER_ID] ROLE [FLAGS]
  set-bypassing-role-qualification true|false
"""


class _RoleArgs:
    """RoleShellCommand's argument reading: [--user N] then positional, then optional FLAGS."""

    def __init__(self, verb: str, args: list[str]):
        self.verb = verb
        self.args = list(args)
        if self.args[:1] == ["--user"]:
            self.args.pop(0)
            user = self.required()
            if user not in ("0", "current", "cur"):
                raise _RoleError(f"java.lang.IllegalArgumentException: Bad user number: {user}"
                                 if not user.isdigit() else "java.lang.RuntimeException: Operation failed")

    def required(self) -> str:
        if not self.args:
            raise _RoleError("java.lang.IllegalArgumentException: Argument expected after "
                             f"\"{self.verb}\"")
        return self.args.pop(0)

    def flags(self) -> int:
        value = self.args.pop(0) if self.args else "0"
        try:
            return int(value)
        except ValueError:
            raise _RoleError(f"java.lang.NumberFormatException: For input string: \"{value}\"") from None


class _RoleError(Exception):
    pass


def _role_verb(verb: str):
    """Wrap a role subcommand so its Java exceptions print as Android prints them."""
    def register(fn: Callable[[Invocation, _RoleArgs], int]) -> Subcommand:
        def run(inv: Invocation, args: list[str]) -> int:
            try:
                return fn(inv, _RoleArgs(verb, args))
            except _RoleError as exc:
                return service_exception(inv, verb, str(exc))
        _role_command(verb)(run)
        return run
    return register


@_role_verb("get-role-holders")
def _get_role_holders(inv: Invocation, args: _RoleArgs) -> int:
    inv.out(";".join(inv.phone.roles.holders(args.required())) + "\n")
    return 0


@_role_verb("add-role-holder")
def _add_role_holder(inv: Invocation, args: _RoleArgs) -> int:
    role, package = args.required(), args.required()
    args.flags()
    if not inv.phone.roles.add(role, package):
        # The role controller refuses an unknown role, an unknown package or one
        # that does not qualify; the shell command then throws.
        raise _RoleError("java.lang.RuntimeException: Operation failed")
    return 0


@_role_verb("remove-role-holder")
def _remove_role_holder(inv: Invocation, args: _RoleArgs) -> int:
    role, package = args.required(), args.required()
    args.flags()
    if not inv.phone.roles.remove(role, package):
        raise _RoleError("java.lang.RuntimeException: Operation failed")
    return 0


@_role_verb("clear-role-holders")
def _clear_role_holders(inv: Invocation, args: _RoleArgs) -> int:
    role = args.required()
    args.flags()
    if not inv.phone.roles.clear(role):
        raise _RoleError("java.lang.RuntimeException: Operation failed")
    return 0


@_role_command("set-bypassing-role-qualification")
def _set_bypassing(inv: Invocation, args: list[str]) -> int:
    if not args:
        return service_exception(inv, "set-bypassing-role-qualification",
                                 "java.lang.IllegalArgumentException: Argument expected after "
                                 "\"set-bypassing-role-qualification\"")
    # Boolean.parseBoolean: anything but "true" (any case) is false
    inv.phone.roles.bypass_qualification = args[0].lower() == "true"
    return 0

"""InputMethodManagerService: the input methods the phone knows, the enabled ones, the current one.

`INPUT_METHODS` lists every IME: the system image's LatinIME first, then those of apps that
register theirs (programs/helper_apps.py, programs/droidbot_app.py); an app's IME counts only
while its package is installed.  The state is in secure settings, as on Android:
ENABLED_INPUT_METHODS ("id;subtype:id2") and DEFAULT_INPUT_METHOD (the current IME).  The
`ime` command (shell/system_services.py, InputMethodManagerService's ShellCommandImpl) reads and
changes it here; `dumpsys input_method` is ime_dump.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..kernel.context import PhoneContext
from .activity_manager import window_token
from .ime_dump import dump_input_method, ime_service_dump
from .services import DUMPSYS_HANDLERS

if TYPE_CHECKING:
    from .services import DumpTarget

__all__ = ["INPUT_METHODS", "InputMethod", "available", "describe", "disable", "enable", "enabled_ids",
           "reset", "select"]


@dataclass(frozen=True)
class InputMethod:
    """An input method service: its component, settings activity and where its APK lives."""

    package: str
    service: str  # full class name
    settings_activity: str = ""
    label_res: str = "0x7f140088"
    system: bool = False  # part of the system image (always installed)
    is_default_res: str = "0x7f050000"

    @property
    def id(self) -> str:
        short = self.service[len(self.package):] if self.service.startswith(self.package + ".") else self.service
        return f"{self.package}/{short}"


#: every IME the phone knows; an app's counts while its package is installed (append yours)
INPUT_METHODS: list[InputMethod] = [
    InputMethod("com.android.inputmethod.latin", "com.android.inputmethod.latin.LatinIME",
                "com.android.inputmethod.latin.settings.SettingsActivity", system=True),
]


def available(phone: "PhoneContext") -> list[InputMethod]:
    """The IMEs the phone has now (the system's, and installed apps')."""
    out = []
    for ime in INPUT_METHODS:
        if ime.system or phone.packages.is_installed(ime.package):
            out.append(ime)
    return out


def enabled_ids(phone: "PhoneContext") -> list[str]:
    """Settings.Secure.ENABLED_INPUT_METHODS ("id;subtype:id2"); unset means the default IME only."""
    secure = phone.settings.setdefault("secure", {})
    raw = secure.get("enabled_input_methods")
    if raw is None:
        default = secure.get("default_input_method", "")
        return [default] if default else []
    return [part.split(";")[0] for part in raw.split(":") if part]


def _set_enabled(phone: "PhoneContext", ids: list[str]) -> None:
    phone.settings.setdefault("secure", {})["enabled_input_methods"] = ":".join(ids)


def describe(ime: InputMethod) -> str:
    """InputMethodInfo.dump() as `ime list` prints each IME."""
    base = f"/system/app/{ime.service.rsplit('.', 1)[-1]}/{ime.service.rsplit('.', 1)[-1]}.apk" \
        if ime.system else f"/data/app/{ime.package}/base.apk"
    return (f"{ime.id}:\n"
            f"  mId={ime.id} mSettingsActivityName={ime.settings_activity or 'null'} mIsVrOnly=false "
            "mSupportsSwitchingToNextInputMethod=false mSupportsStylusHandwriting=false\n"
            f"  mIsDefaultResId={ime.is_default_res}\n"
            "  Service:\n"
            "    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n"
            "    ServiceInfo:\n"
            f"      name={ime.service}\n      packageName={ime.package}\n"
            f"      labelRes={ime.label_res} nonLocalizedLabel=null icon=0x0 banner=0x0\n"
            "      enabled=true exported=true directBootAware=true\n"
            "      permission=android.permission.BIND_INPUT_METHOD\n      flags=0x0\n"
            "      ApplicationInfo:\n"
            f"        packageName={ime.package}\n"
            f"        processName={ime.package}\n"
            f"        sourceDir={base}\n        publicSourceDir={base}\n"
            f"        dataDir=/data/user/0/{ime.package}\n")


def _secure(phone: "PhoneContext") -> dict[str, str]:
    return phone.settings.setdefault("secure", {})


def enable(phone: "PhoneContext", ime_id: str) -> bool:
    """Enable an IME (the caller checked it is `available`); whether it was enabled already."""
    enabled = enabled_ids(phone)
    was = ime_id in enabled
    if not was:
        enabled.append(ime_id)
    _set_enabled(phone, enabled)
    return was


def disable(phone: "PhoneContext", ime_id: str) -> bool:
    """Disable an IME; whether it was enabled.  The current IME moves to the first one left."""
    enabled = enabled_ids(phone)
    was = ime_id in enabled
    if was:
        enabled.remove(ime_id)
        secure = _secure(phone)
        if secure.get("default_input_method") == ime_id:
            secure["default_input_method"] = enabled[0] if enabled else ""
    _set_enabled(phone, enabled)
    return was


def select(phone: "PhoneContext", ime_id: str) -> None:
    """Make an IME the current one; switching to an IME enables it (setInputMethodLocked)."""
    enabled = enabled_ids(phone)
    if ime_id not in enabled:
        enabled.append(ime_id)
        _set_enabled(phone, enabled)
    _secure(phone)["default_input_method"] = ime_id


def reset(phone: "PhoneContext") -> str:
    """Back to the system's IME alone, current and enabled; its id."""
    default = INPUT_METHODS[0].id
    _set_enabled(phone, [default])
    _secure(phone)["default_input_method"] = default
    return default


def _dump(target: "DumpTarget", args: list[str]) -> int:
    """`dumpsys input_method`, with the focused window as InputMethodManagerService names it."""
    package, activity = target.phone.system.focused_window()
    target.out(dump_input_method(target.phone, f"Window{{{window_token(package, activity)} u0 {package}/{activity}}}"))
    # the non-critical part: IMMS then dumps the bound input method service (ime_dump.py)
    target.out(ime_service_dump(target.phone))
    return 0


DUMPSYS_HANDLERS[("input_method", "*")] = _dump

"""InputMethodManagerService: the input methods the phone knows.
"""

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


def _available(phone) -> list[InputMethod]:
    out = []
    for ime in INPUT_METHODS:
        if ime.system or phone.packages.is_installed(ime.package):
            out.append(ime)
    return out


def _enabled_ids(phone) -> list[str]:
    """Settings.Secure.ENABLED_INPUT_METHODS ("id;subtype:id2"); unset means the default IME only."""
    secure = phone.settings.setdefault("secure", {})
    raw = secure.get("enabled_input_methods")
    if raw is None:
        default = secure.get("default_input_method", "")
        return [default] if default else []
    return [part.split(";")[0] for part in raw.split(":") if part]


def _set_enabled(phone, ids: list[str]) -> None:
    phone.settings.setdefault("secure", {})["enabled_input_methods"] = ":".join(ids)


def _describe(ime: InputMethod) -> str:
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



"""What a Simple Mobile Tools app has from Simple-Commons, the library it bundles, and from its release.

* Commons declares its own activities (About, FAQ, Contributors, Licences: commons_compose.py) in
  the library's AndroidManifest.xml; Gradle's manifest merger adds them to every app that bundles
  it, so each app starts them (``launchAbout``).
* Commons' BaseConfig: the preferences the library keeps for every app (colour theme, "shown once"
  flags); ``pm clear`` empties them with the app's own.
* The app's launcher entry is SplashActivity (and its ".Orange" icon alias), which forwards to the
  main activity at once.
* The version ``dumpsys package`` reports is the app's final release's (releases.py).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

from ...framework.app import App
from ..releases import RELEASES
from .commons_compose import AboutActivity, ContributorsActivity, FAQActivity, LicenseActivity

__all__ = ["CommonsApp"]


class CommonsApp(App):
    """An app built on Simple-Commons (the ten apps; see the module docstring)."""

    library_activities = (AboutActivity, FAQActivity, ContributorsActivity, LicenseActivity)
    #: (question, answer) pairs the About screen's "Frequently asked questions" lists
    faq: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        release = RELEASES.get(getattr(cls, "package", ""))
        if release is not None:
            cls.version_name, cls.version_code = release.version_name, release.version_code

    def reset_data(self) -> None:
        super().reset_data()
        #: Commons' BaseConfig (see the module docstring)
        self.base_config = SimpleNamespace()

    @property
    def splash_names(self) -> tuple[str, ...]:
        """SplashActivity and its ".Orange" icon alias: starting either lands on the launcher activity."""
        if not self.package.startswith("com.simplemobiletools."):
            return ()
        splash = f"{self.package}.activities.SplashActivity"
        return (splash, splash + ".Orange")

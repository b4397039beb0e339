"""Implicit intents: which installed activities answer one, as PackageManager decides.

An app starts another app's screen with an implicit intent (ACTION_SEND with a
MIME type, ACTION_DIAL with a ``tel:`` URI, ...).  PackageManager matches it
against the intent filters the installed apps declare in their manifests
(``App.intent_filters``) and ActivityTaskManager then:

* starts the one activity that answers (no chooser), or
* shows ``android/com.android.internal.app.ResolverActivity`` ("Open with",
  "Complete action using") when several answer and none is preferred, or
* shows the share sheet (``com.android.intentresolver/.ChooserActivity`` on
  Android 14) for an intent the app wrapped in ``Intent.createChooser``; with a
  single target the sheet starts it without showing (IntentResolver's
  ResolverActivity.postRebuildListInternal -> maybeAutolaunchActivity, and
  ChooserActivity.shouldAutoLaunchSingleChoice: not suspended and
  EXTRA_AUTO_LAUNCH_SINGLE_CHOICE, true unless the caller set it), or
* throws ActivityNotFoundException when none answers: the Simple Mobile Tools
  apps catch it and toast "No app found" / "No valid app found".

The matching follows android.content.IntentFilter.match (frameworks/base,
core/java/android/content/IntentFilter.java: matchAction, matchData with its
MIME wildcards and the implicit content:/file: schemes of a typed filter).
Every filter is taken to carry CATEGORY_DEFAULT, as all the filters modelled
here do (an implicit startActivity adds that category).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .components import CHOOSER_ACTIVITY, GRANT_PERMISSIONS_ACTIVITY, RESOLVER_ACTIVITY, ComponentName

if TYPE_CHECKING:  # pragma: no cover
    from .app import Activity, App

__all__ = ["ACTION_ATTACH_DATA", "ACTION_CALL", "ACTION_DIAL", "ACTION_SEND", "ACTION_SEND_MULTIPLE",
           "ACTION_SENDTO", "ACTION_VIEW", "CHOOSER_ACTIVITY", "GRANT_PERMISSIONS_ACTIVITY", "RESOLVER_ACTIVITY",
           "ComponentName", "Intent", "IntentFilter", "Target", "candidates", "resolve", "start"]

ACTION_VIEW = "android.intent.action.VIEW"
ACTION_SEND = "android.intent.action.SEND"
ACTION_SEND_MULTIPLE = "android.intent.action.SEND_MULTIPLE"
ACTION_SENDTO = "android.intent.action.SENDTO"
ACTION_DIAL = "android.intent.action.DIAL"
ACTION_CALL = "android.intent.action.CALL"
ACTION_ATTACH_DATA = "android.intent.action.ATTACH_DATA"
ACTION_EDIT = "android.intent.action.EDIT"
ACTION_GET_CONTENT = "android.intent.action.GET_CONTENT"
ACTION_OPEN_DOCUMENT = "android.intent.action.OPEN_DOCUMENT"
ACTION_CREATE_DOCUMENT = "android.intent.action.CREATE_DOCUMENT"


@dataclass
class Intent:
    """An implicit intent: action, data URI, MIME type, extras; ``chooser`` for Intent.createChooser."""

    action: str
    data: str | None = None
    mime_type: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    #: wrapped in Intent.createChooser(intent, title): always the share sheet, never a default
    chooser: bool = False
    #: the createChooser title (Android 14's share sheet does not show it for ACTION_SEND)
    title: str = ""
    #: startActivityForResult's request code (Activity.start_intent_for_result); None for startActivity
    request_code: int | None = None

    @property
    def scheme(self) -> str:
        if not self.data or ":" not in self.data:
            return ""
        return self.data.split(":", 1)[0].lower()

    @property
    def scheme_specific_part(self) -> str:
        """What follows the scheme (``tel:123`` -> ``123``), as Uri.getSchemeSpecificPart."""
        return self.data.split(":", 1)[1] if self.data and ":" in self.data else ""


def _mime_matches(filter_type: str, intent_type: str) -> bool:
    """IntentFilter.findMimeType: ``*/*`` and ``type/*`` wildcards on either side."""
    if filter_type == "*/*" or intent_type == "*/*":
        return True
    f_base, _, f_sub = filter_type.partition("/")
    i_base, _, i_sub = intent_type.partition("/")
    if f_base != i_base:
        return False
    return f_sub in ("*", i_sub) or i_sub == "*"


@dataclass(frozen=True)
class IntentFilter:
    """One <intent-filter> of an activity: actions, <data mimeType>, <data scheme>."""

    actions: tuple[str, ...]
    mime_types: tuple[str, ...] = ()
    schemes: tuple[str, ...] = ()
    #: android:priority; PackageManager honours it for system apps only (others count as 0)
    priority: int = 0

    def matches(self, intent: Intent) -> bool:
        if intent.action not in self.actions:
            return False
        scheme = intent.scheme
        # IntentFilter.matchData
        if not self.mime_types and not self.schemes:
            return intent.data is None and intent.mime_type is None
        if self.schemes:
            if scheme not in self.schemes:
                return False
        elif scheme not in ("", "content", "file"):
            # a filter with types only accepts data without a scheme or of content:/file:
            return False
        if self.mime_types:
            return intent.mime_type is not None and any(_mime_matches(t, intent.mime_type)
                                                        for t in self.mime_types)
        return intent.mime_type is None


@dataclass(frozen=True)
class Target:
    """A resolved activity: the chooser shows ``label`` (the app's) and ``sublabel`` (the activity's own
    label when it has one that differs, ResolverListAdapter's ResolveInfoPresentationGetter)."""

    app: "App"
    activity: type["Activity"]
    sublabel: str = ""
    priority: int = 0

    @property
    def label(self) -> str:
        return self.app.label


def resolve(system, intent: Intent) -> list[Target]:
    """PackageManager.queryIntentActivities: every enabled app activity whose filter matches."""
    found: list[Target] = []
    enabled = getattr(system, "package_enabled", lambda package: True)
    for app in system.installed_apps():
        if not enabled(app.package):
            continue
        for activity_name, sublabel, filt in getattr(app, "intent_filters", ()):
            cls = app.activity_class(activity_name)
            if cls is not None and filt.matches(intent) and all(t.activity is not cls for t in found):
                found.append(Target(app, cls, sublabel, filt.priority))
    # ResolverActivity and the share sheet's app list sort by label with no usage history
    return sorted(found, key=lambda t: (t.label.lower(), t.sublabel.lower()))


def candidates(system, intent: Intent) -> list[Target]:
    """What startActivity would offer: the user's "Always" choice, or the one match of highest
    priority (PackageManagerService.chooseBestActivity: DocumentsUI's GET_CONTENT filter, priority
    100, is started without asking), else every match; a chooser intent always offers every match."""
    targets = resolve(system, intent)
    if intent.chooser or not targets:
        return targets
    preferred = getattr(system, "preferred_activities", {}).get(
        (intent.action, intent.scheme, (intent.mime_type or "").split("/")[0]))
    if preferred is not None and any(t.activity is preferred.activity for t in targets):
        return [preferred]
    best = max(t.priority for t in targets)
    if best > 0 and sum(t.priority == best for t in targets) == 1:
        return [t for t in targets if t.priority == best]
    return targets


def start(system, caller: "Activity | None", intent: Intent) -> bool:
    """startActivity(intent) from ``caller`` (None: from the shell, in a new task): False when
    nothing answers (ActivityNotFoundException)."""
    targets = candidates(system, intent)
    if not targets:
        return False
    if intent.chooser and len(targets) > 1:
        system.start_component(caller, CHOOSER_ACTIVITY, {"intent": intent, "targets": targets, "caller": caller})
    elif len(targets) == 1:
        launch_target(system, caller, targets[0], intent)
    else:
        system.start_component(caller, RESOLVER_ACTIVITY, {"intent": intent, "targets": targets, "caller": caller})
    return True


def launch_target(system, caller: "Activity | None", target: Target, intent: Intent) -> None:
    """Start the chosen activity with the intent (a singleTask/singleInstance one in a task of its own)."""
    system.push_activity(caller, target.activity, {"intent": intent, "caller": caller}, app=target.app,
                         own_task=target.activity.own_task)

"""Android's system content providers on the virtual phone (contacts, SMS, blocked numbers).

The data lives here, in the phone's system, not inside the apps: the
Contacts and SMS Messenger models read and write it, the `content` shell
command reaches it by URI, and `pm clear <provider package>` empties it.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import ContentProvider, ProviderError, Route
from .contacts import ContactsProvider
from .telephony import BlockedNumberProvider, MmsSmsProvider, SmsProvider

__all__ = ["ContentProvider", "ContentProviders", "ProviderError", "Route"]


class ContentProviders:
    """The phone's providers by authority; `clear(package)` resets a provider package's data."""

    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self.contacts = ContactsProvider(clock_ms)
        self.sms = SmsProvider(clock_ms)
        self.mms_sms = MmsSmsProvider(self.sms)
        self.blocked = BlockedNumberProvider(clock_ms)
        self._all: list[ContentProvider] = [self.contacts, self.sms, self.mms_sms, self.blocked]
        #: authority -> fn(method, arg) for `content call` (ContentProvider.call): a bundle dict or None
        self._calls: dict[str, Callable[[str, str | None], dict | None]] = {}

    def register_call(self, authority: str, fn: Callable[[str, str | None], dict | None]) -> None:
        """Answer `content call --uri content://AUTHORITY --method M [--arg A]` with ``fn(M, A)``."""
        self._calls[authority] = fn

    def call(self, uri: str, method: str, arg: str | None) -> dict | None:
        """ContentResolver.call: the provider's method result, a bundle (dict) or None."""
        authority = uri.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0] if "://" in uri else ""
        fn = self._calls.get(authority)
        if fn is None:
            self.for_uri(uri)  # an unknown authority fails as Android's does
            raise ProviderError(f"java.lang.UnsupportedOperationException: Unsupported call: {method}")
        return fn(method, arg)

    def for_uri(self, uri: str) -> ContentProvider:
        """The provider named by a content URI's authority (Android: "Could not find provider")."""
        authority = uri.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0] if "://" in uri else ""
        for provider in self._all:
            if provider.authority == authority:
                return provider
        raise ProviderError(f"java.lang.IllegalStateException: Could not find provider: {authority}")

    def register(self, provider: ContentProvider) -> None:
        """Add another system provider (any object with authority, package, query/insert/update/delete/clear)."""
        self._all.append(provider)

    def packages(self) -> set[str]:
        return {provider.package for provider in self._all}

    def clear(self, package: str) -> bool:
        """Empty every provider of `package`; False when no provider belongs to it."""
        cleared = False
        for provider in self._all:  # the SMS database first: mms-sms shares it
            if provider.package == package:
                provider.clear()
                cleared = True
        return cleared

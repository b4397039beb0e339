"""Components by name: android.content.ComponentName, and the system activities the framework starts by it.

Below intents.py and app.py, which both name these components, so that neither imports the other
for them.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CHOOSER_ACTIVITY", "GRANT_PERMISSIONS_ACTIVITY", "RESOLVER_ACTIVITY", "ComponentName"]


class ComponentName(NamedTuple):
    """android.content.ComponentName: an activity named by its package and class."""

    package: str
    class_name: str


# The system's own activities the framework starts by component.  The apps that hold them
# (apps/system) are installed like any other; the framework names them, never imports them.
#: the share sheet an Intent.createChooser intent (ACTION_CHOOSER) reaches: on Android 14 the
#: IntentResolver module's ChooserActivity (packages/modules/IntentResolver AndroidManifest.xml)
CHOOSER_ACTIVITY = ComponentName("com.android.intentresolver", "com.android.intentresolver.ChooserActivity")
#: "Open with" when several activities answer: PackageManagerService's resolve activity, the
#: framework's own ResolverActivity in package "android" (no config_customResolverActivity)
RESOLVER_ACTIVITY = ComponentName("android", "com.android.internal.app.ResolverActivity")
#: the runtime-permission dialog: Activity.requestPermissions starts the permission controller's
#: GrantPermissionsActivity (PackageManager.buildRequestPermissionsIntent: ACTION_REQUEST_PERMISSIONS
#: in the permission controller's package, on Google's images com.google.android.permissioncontroller)
GRANT_PERMISSIONS_ACTIVITY = ComponentName("com.google.android.permissioncontroller",
                                           "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity")

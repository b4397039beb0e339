"""Android's own apps: IntentResolver, DocumentsUI, PrintSpooler, Settings pages,
PermissionController, the dialer and the home screen.

Part of the apps layer: imports the framework and the kernel only.
"""

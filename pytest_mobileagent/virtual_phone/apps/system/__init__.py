"""Android's own apps: IntentResolver, DocumentsUI, PrintSpooler, Settings pages,
PermissionController, the dialer and the home screen.

Part of the apps layer: imports the framework and the kernel (the dialer names a caller with
Simple Contacts' reader of the contacts provider, ``simple.contacts_data``).
"""

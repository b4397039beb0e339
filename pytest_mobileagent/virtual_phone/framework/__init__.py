"""The framework layer: system_server's services and the framework's widgets.

The activity and window manager (system.py), input, the input method, the package
manager and intent resolution, content providers, the media store, roles, and ``ui/``
(views, rendering, dumps, pickers).  Imports only the kernel layer; apps and shell
commands reach these services, never the other way round: the phone hands AndroidSystem
the installed apps at boot, and the system's own activities (share sheet, "Open with",
permission dialog) are started by component (intents.py), so no module here imports an app.
"""

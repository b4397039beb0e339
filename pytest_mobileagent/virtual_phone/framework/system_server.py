"""system_server: the system services the phone runs, started when it boots.

Importing this module starts them: each service module registers its dumpsys sections with the
service registry (services.py) when imported.  The phone imports it at boot (phone.py).
"""

from . import active_services, activity_manager, broadcasts, input_methods, package_dump, window_manager  # noqa: F401
from . import storage_stats  # noqa: F401  (dumpsys diskstats)

__all__: list[str] = []

"""The ten Simple Mobile Tools apps at their final releases.

Part of the apps layer: imports Simple-Commons (``apps.commons``), Android's own apps
(``apps.system``), the framework and the kernel; never the shell, programs or adbd.
"""

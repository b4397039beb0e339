"""adbd: the adb transport, its device services (shell:, exec:, sync:, tcp:, localabstract:,
reverse:, framebuffer:, root:/unroot: in restart_service, remount:, jdwp/track-jdwp in
jdwp_service) and the sync protocol.

The top of the phone's stack below `phone.py`: imports programs, the shell, the framework
and the kernel; nothing below imports adbd.
"""

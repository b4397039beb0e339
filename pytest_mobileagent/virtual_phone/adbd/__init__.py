"""adbd: the adb transport, its device services (shell:, exec:, sync:, tcp:, localabstract:,
reverse:) and the sync protocol.

The top of the phone's stack below `phone.py`: imports programs, the shell, the framework
and the kernel; nothing below imports adbd.
"""

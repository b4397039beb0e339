"""The kernel layer: the clock, the file system, processes and /proc, sockets, the log buffers (logd).

What Linux and its daemons give every program on the phone.  Every reader of the phone's
time goes through clock.py, whose docstring records how time passes on the phone.
Imports nothing of the virtual phone above it: a higher layer that must learn of a
kernel event registers a callback here, and what the kernel needs from above (the
processes the system keeps alive) it asks of the phone it serves.
"""

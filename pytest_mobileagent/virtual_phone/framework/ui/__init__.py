"""The framework's widgets: views, windows, dumps, rendering, the action-menu rule, the pickers,
text editing and its floating toolbar.

Part of the framework layer: imports the framework's own modules and the kernel only.
"""

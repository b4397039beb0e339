"""Simple-Commons, the library the ten apps bundle: its dialogs, Customize colors, Compose screens, pickers,
and ``CommonsApp``, the ten apps' base (the library's own activities, BaseConfig, their releases).

Part of the apps layer: imports the framework and the kernel (and Android's own apps
it starts); the ten apps import it, never the other way round.
"""

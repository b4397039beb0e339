"""Per-app parts of the conformance replay (tests/conformance.py), one module per app.

Each module may define ``seed(device)``: the data the recordings show on the app's
first screens, put there through adb only; and ``CHANGES``: the app's expected
changes (``conformance.ExpectedChange``), differences its pinned final release on
Android 14 makes on purpose, each with the source that says so.
"""

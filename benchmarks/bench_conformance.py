"""Print how often the virtual phone's screens match recordings of the real apps.

The same as ``python tools/conformance_report.py`` (its options: ``--app``,
``--show-misses``, ``--save``, ``--from``, ``--write-floors [--lower]``), kept
under benchmarks/ with the other figures' scripts.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.argv[0] = str(Path(__file__).resolve().parent.parent / "tools" / "conformance_report.py")
    runpy.run_path(sys.argv[0], run_name="__main__")

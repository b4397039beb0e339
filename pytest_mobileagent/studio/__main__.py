"""``python -m pytest_mobileagent.studio``: the same as ``mobileagent-studio``."""

import sys

from .cli import main

sys.exit(main())

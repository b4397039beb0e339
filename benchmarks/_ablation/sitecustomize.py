"""Ablations for benchmarks/bench_allure.py --ablate: parts of the screenshot path switched off.

Python imports ``sitecustomize`` at start-up from the path, so with this
directory on PYTHONPATH the phone processes a pytest run boots apply the
ablations named in MOBILEAGENT_BENCH_ABLATE (comma-separated) once the
module concerned is imported; nothing is imported early. The pytest
processes' switch (no-ror) is ``ablation_plugin.py``: pytest imports its
plugins' modules through its own import hook, ahead of this one, so a
patch made here would never apply there. For measuring only: an ablated
run's screenshots or ROR verdicts are wrong on purpose.

- no-drawing: a phone answers every screenshot with the first PNG it drew
  (the adb transfer, saving and attaching stay; the ROR test sees equal
  bytes and answers at once)
- no-ror: the ROR pixel test only compares the PNG bytes
"""

import importlib.abc
import importlib.machinery
import os
import sys


def _no_drawing(module) -> None:
    drawn: list[bytes] = []
    draw = module.AndroidSystem.screenshot_png

    def first_screenshot(self) -> bytes:
        if not drawn:
            drawn.append(draw(self))
        return drawn[0]

    module.AndroidSystem.screenshot_png = first_screenshot


_ABLATIONS = {
    "no-drawing": ("pytest_mobileagent.virtual_phone.framework.system", _no_drawing),
}


class _PatchAfterImport(importlib.abc.MetaPathFinder):
    def __init__(self, patches: dict) -> None:
        self.patches = patches

    def find_spec(self, name, path, target=None):
        patch = self.patches.pop(name, None)
        if patch is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module

        def exec_module(module) -> None:
            run(module)
            patch(module)

        spec.loader.exec_module = exec_module
        return spec


_PYTEST_SIDE = {"no-ror"}  # ablation_plugin.py
_wanted = [n for n in os.environ.get("MOBILEAGENT_BENCH_ABLATE", "").split(",") if n and n not in _PYTEST_SIDE]
if _wanted:
    unknown = [n for n in _wanted if n not in _ABLATIONS]
    if unknown:
        raise SystemExit(f"MOBILEAGENT_BENCH_ABLATE: unknown ablation(s) {unknown}; "
                         f"known: {sorted(set(_ABLATIONS) | _PYTEST_SIDE)}")
    sys.meta_path.insert(0, _PatchAfterImport(dict(_ABLATIONS[n] for n in _wanted)))

"""The pytest side of benchmarks/bench_allure.py --ablate (loaded with ``-p ablation_plugin``).

pytest imports the plugin's own modules through its assertion-rewriting
import hook, which sits ahead of any finder that ``sitecustomize`` adds, so
a patch on ``pytest_mobileagent.episode`` has to be applied from a plugin,
after pytest has imported it. The phones' side (no-drawing) stays in
``sitecustomize``: the phone processes run no pytest.

The switch counts its calls and appends the count to the file named by
MOBILEAGENT_BENCH_ABLATE_LOG at the end of each process's session, so that
the benchmark can refuse a run that never went through it.
"""

import os

import pytest

_calls = {"no-ror": 0}


def pytest_configure(config: pytest.Config) -> None:
    if "no-ror" not in os.environ.get("MOBILEAGENT_BENCH_ABLATE", "").split(","):
        return
    from pytest_mobileagent import episode

    def bytes_only(before, after) -> bool:
        _calls["no-ror"] += 1
        return before != after

    episode.screen_changed = bytes_only


def pytest_sessionfinish(session: pytest.Session) -> None:
    # bench_allure.py adds the counts of every process up and refuses a run whose switch was never used.
    log = os.environ.get("MOBILEAGENT_BENCH_ABLATE_LOG")
    if log and "no-ror" in os.environ.get("MOBILEAGENT_BENCH_ABLATE", "").split(","):
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{_calls['no-ror']}\n")

"""Task families: parameters drawn per instance from a seed.

A family is a task whose ``@task(params=...)`` names values drawn per instance
(AndroidWorld's task templates). The run's task seed (``--task-seed``, fixed by
default) and the instance's index give every instance its own
:class:`random.Random`, seeded with a string (Python hashes a string seed with
SHA-512, so the draw is the same in every process, whatever PYTHONHASHSEED
says): xdist workers collect identical instances, and an instance's test id,
which starts with ``<task seed>.<index>``, names it alone.

``params`` is either a dict, name -> a sequence (one element is chosen) or a
callable ``(rng) -> value``, drawn in the dict's order; or one callable
``(rng) -> dict`` for values that depend on each other (two different names).
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable, Iterator, Mapping, Sequence

__all__ = [
    "DEFAULT_TASK_SEED",
    "ParamSpec",
    "Params",
    "draw_params",
    "instance_id",
    "requested_instances",
]

#: The task seed of a run without ``--task-seed``: a plain run draws the same instances every time.
DEFAULT_TASK_SEED = 0

#: Names a family's parameter may not take: ``params.<name>`` already means something (the
#: instance's seed, index and id, and a mapping's methods: ``params.items`` is ``dict.items``).
RESERVED = frozenset({"seed", "index", "id", "values", "items", "keys", "get"})

ParamSpec = Mapping[str, "Sequence[Any] | Callable[[random.Random], Any]"] | Callable[[random.Random], Mapping[str, Any]]

# Characters kept in a test id's values: ids are typed on command lines and read in reports.
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_.,:+@=]+")
_ID_VALUE_MAX = 24


class Params(Mapping[str, Any]):
    """The drawn parameters of one task instance: ``params.name`` or ``params["name"]``.

    ``seed`` is the run's task seed and ``index`` the instance's number under it;
    together they determine every value.
    """

    def __init__(self, values: Mapping[str, Any], *, seed: int, index: int):
        self._values = dict(values)
        self.seed = seed
        self.index = index

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"this family draws no parameter {name!r} "
                                 f"(it draws {', '.join(self.__dict__.get('_values', {})) or 'none'})") from None

    @property
    def values(self) -> dict[str, Any]:
        """The drawn values as a plain dict (for records and reports)."""
        return dict(self._values)

    @property
    def id(self) -> str:
        """The instance's test id: ``<seed>.<index>-<value>-<value>...``."""
        return instance_id(self)

    def __repr__(self) -> str:
        return f"Params({self._values!r}, seed={self.seed}, index={self.index})"


def draw_params(spec: ParamSpec, family: str, seed: int, index: int) -> Params:
    """Draw instance ``index`` of ``family`` under task seed ``seed``.

    Raises ValueError (naming the parameter) when a drawer is neither a
    sequence nor a callable, or a callable family drawer returns no mapping.
    """
    rng = random.Random(f"{family}:{seed}:{index}")
    if callable(spec):
        values = spec(rng)
        if not isinstance(values, Mapping):
            raise ValueError(f"params=(rng) -> dict returned {type(values).__name__}, not a dict")
    else:
        values = {}
        for name, drawer in spec.items():
            if callable(drawer):
                values[name] = drawer(rng)
            elif isinstance(drawer, Sequence) and not isinstance(drawer, str) and len(drawer):
                values[name] = rng.choice(drawer)
            else:
                raise ValueError(f"parameter {name!r}: give a non-empty sequence to choose from or a "
                                 f"callable (rng) -> value, not {drawer!r}")
    bad = sorted(RESERVED & set(values))
    if bad:
        raise ValueError(f"parameter names {', '.join(bad)} are reserved: params.<name> already means "
                         f"something ({', '.join(sorted(RESERVED))})")
    return Params(values, seed=seed, index=index)


def _id_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        value = ",".join(map(str, value))
    text = _ID_UNSAFE.sub("_", str(value)).strip("_")
    return text[:_ID_VALUE_MAX] or "_"


def instance_id(params: Params) -> str:
    """``<seed>.<index>-<value>-...``: the seed and index name the instance, the values show it."""
    return "-".join([f"{params.seed}.{params.index}", *map(_id_value, params.values.values())])


def requested_instances(args: Sequence[str], function: str) -> list[tuple[int, int]]:
    """The (seed, index) pairs that node ids on the command line ask of ``function``.

    ``pytest "...::test_x[7.3-Ana-555]"`` reruns instance 3 of seed 7 whatever
    ``--task-seed`` says: the id carries its seed.
    """
    pattern = re.compile(rf"::{re.escape(function)}\[(\d+)\.(\d+)-")
    found = []
    for arg in args:
        for match in pattern.finditer(str(arg)):
            pair = (int(match.group(1)), int(match.group(2)))
            if pair not in found:
                found.append(pair)
    return found

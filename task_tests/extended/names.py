"""Pools the families draw from: short, plain-ASCII words a user would type.

No name is a prefix or substring of another (case folded), so a search for one
never matches a second, and every value reads the same in a test id.
"""

from __future__ import annotations

import random

FIRST_NAMES = ("Alice", "Bruno", "Chen", "Dmitri", "Elena", "Farah", "Gustav", "Hiroshi", "Ingrid", "Jamal",
               "Kofi", "Leila", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tamar",
               "Umar", "Vera", "Wanjiru", "Ximena", "Yusuf", "Zofia")
WORDS = ("apple", "breeze", "canyon", "dragon", "ember", "falcon", "garden", "harbor", "island", "jungle",
         "kettle", "lantern", "meadow", "nectar", "orchid", "pepper", "quartz", "river", "saddle", "tundra",
         "velvet", "walnut", "yonder", "zephyr")
GROCERIES = ("milk", "eggs", "bread", "butter", "cheese", "coffee", "rice", "pasta", "tomatoes", "onions",
             "apples", "yogurt", "honey", "lentils")
MESSAGES = ("see you at noon", "running late", "call me back", "happy birthday", "on my way",
            "dinner at eight", "thanks a lot", "meeting moved", "good luck today", "where are you")
EVENTS = ("dentist", "yoga class", "team lunch", "book club", "piano lesson", "car service", "haircut",
          "flight home", "gym session", "parents visit")


def phone_number(rng: random.Random) -> str:
    """Nine digits, the first not 0 (the benchmark's numbers look like 123456789)."""
    return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(8))


def distinct_numbers(rng: random.Random, count: int) -> list[str]:
    numbers: list[str] = []
    while len(numbers) < count:
        number = phone_number(rng)
        if number not in numbers:
            numbers.append(number)
    return numbers

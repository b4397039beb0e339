"""A worker's memory does not grow with the screens it has parsed (issue 37, item 16).

Over 300 episodes of the built-in tasks a worker kept about 20 KB per
episode (tracemalloc), 17 KB of it nodes that ``parse_hierarchy`` kept for
reuse: one cache of every distinct view seen, up to 5,000 of them. Here
screens of views never seen before are parsed, as a long run of varied
tasks does, and the memory still held is read after each: it stops growing
after a few screens, and the views reused are the ones a fresh parse
makes.
"""

from __future__ import annotations

import tracemalloc

from pytest_mobileagent.judge import parse_hierarchy

VIEWS = 50  # per screen


def _screen(number: int) -> str:
    """A dump as uiautomator writes it: a list of VIEWS rows, each text new to this screen."""
    rows = "".join(
        f'<node index="{i}" text="row {number}-{i}" resource-id="com.x:id/title" class="android.widget.TextView" '
        f'package="com.x" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" '
        f'focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" '
        f'selected="false" bounds="[0,{i * 40}][1080,{i * 40 + 40}]" />'
        for i in range(VIEWS))
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
            '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.x" '
            'content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" '
            'focused="false" scrollable="false" long-clickable="false" password="false" selected="false" '
            f'bounds="[0,0][1080,2400]">{rows}</node></hierarchy>')


def test_parsed_screens_are_not_kept_beyond_a_few():
    screens = [_screen(n) for n in range(400)]  # 20,000 distinct views: four times the old cache
    held = []  # memory allocated since tracing began and still held, after each screen: the kept views
    tracemalloc.start()
    try:
        for xml in screens:
            parse_hierarchy(xml)
            held.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    early, late = max(held[:40]), max(held[40:])  # the old cache: 2,000 views by screen 40, 5,000 by 100
    assert early > 0
    assert late <= early * 1.1, (early, late)


def test_a_reused_view_is_the_view_a_fresh_parse_makes():
    first, again = parse_hierarchy(_screen(1)), parse_hierarchy(_screen(1))
    assert first == again and all(a is b for a, b in zip(first, again))  # the same screen: every view reused
    for n in range(2, 40):  # its views pushed out by newer screens
        parse_hierarchy(_screen(n))
    fresh = parse_hierarchy(_screen(1))
    assert fresh == first and fresh[1].text == "row 1-0" and fresh[1].bounds == (0, 0, 1080, 40)

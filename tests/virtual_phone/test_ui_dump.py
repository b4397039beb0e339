"""uiautomator XML produced by the UI layer: the real format, visibility, --compressed."""

from __future__ import annotations

import re

from uitools import CALC, bounds, find, find_all, nodes, tap, texts

from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

# Attribute order of every <node> in real `uiautomator dump` files (the same
# in all sixteen real screens the project studied).
REAL_ATTRIBUTE_ORDER = (
    "index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked", "clickable",
    "enabled", "focusable", "focused", "scrollable", "long-clickable", "password", "selected", "bounds",
)
HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n"


def _calculator() -> AndroidSystem:
    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    system.start_activity(CALC)
    return system


def test_document_shape_matches_real_dumps():
    xml = _calculator().dump_xml()
    assert xml.startswith(HEADER)
    assert xml.endswith("</hierarchy>\n")
    lines = xml.splitlines()[2:-1]
    depth = 1
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() == "</node>":
            depth -= 1
            assert indent == 2 * depth
            continue
        assert indent == 2 * depth, line
        assert line.strip().startswith("<node ")
        if not line.endswith(" />"):
            assert line.endswith(">")
            depth += 1
    assert depth == 1


def test_every_node_has_the_real_attributes_in_the_real_order():
    xml = _calculator().dump_xml()
    found = 0
    for match in re.finditer(r"<node ([^>]*?)/?>", xml):
        names = tuple(re.findall(r'([\w-]+)="', match.group(1)))
        assert names == REAL_ATTRIBUTE_ORDER
        found += 1
    assert found > 30


def test_app_window_has_decor_and_system_bar_nodes():
    xml = _calculator().dump_xml()
    all_nodes = nodes(xml)
    assert all_nodes[0]["class"] == "android.widget.FrameLayout"
    assert all_nodes[0]["bounds"] == "[0,0][1080,2340]"
    status = find(xml, id="android:id/statusBarBackground")
    nav = find(xml, id="android:id/navigationBarBackground")
    assert status["bounds"] == "[0,0][1080,118]"
    assert nav["bounds"] == "[0,2208][1080,2340]"
    assert find(xml, id="android:id/content")
    assert find(xml, id=f"{CALC}:id/action_bar_root")
    assert {n["package"] for n in all_nodes} == {CALC}


def test_calculator_ids_and_texts_are_the_real_ones():
    xml = _calculator().dump_xml()
    expected = {"btn_percent": "%", "btn_power": "^", "btn_root": "√", "btn_divide": "÷", "btn_multiply": "×",
                "btn_minus": "-", "btn_plus": "+", "btn_decimal": ".", "btn_clear": "C", "btn_equals": "="}
    expected.update({f"btn_{d}": str(d) for d in range(10)})
    for view_id, text in expected.items():
        node = find(xml, id=view_id)
        assert node["resource-id"] == f"{CALC}:id/{view_id}"
        assert node["text"] == text
        assert node["class"] == "android.widget.Button"
        assert node["clickable"] == "true"
    assert not find_all(xml, id="btn_reset"), "AC is visibility=gone in the real layout"
    assert find(xml, id="result")["text"] == "0"
    assert find(xml, id="formula")["text"] == ""


def test_compressed_drops_layout_only_nodes_and_keeps_content():
    system = _calculator()
    full, compressed = system.dump_xml(), system.dump_xml(compressed=True)
    assert compressed.startswith(HEADER)
    full_nodes, small_nodes = nodes(full), nodes(compressed)
    assert len(small_nodes) < len(full_nodes)
    # Nothing an agent can act on or read disappears, and the order stays.
    def keep(n):
        return n["clickable"] == "true" or n["text"] or n["content-desc"] or n["resource-id"]

    def ident(n):
        return (n["text"], n["resource-id"], n["class"], n["content-desc"], n["bounds"])

    assert [ident(n) for n in full_nodes if keep(n)] == [ident(n) for n in small_nodes if keep(n)]
    anonymous_layouts = [n for n in small_nodes[1:] if not keep(n)]
    assert anonymous_layouts == []


def test_text_is_escaped():
    from uitools import demo_system

    system = demo_system()
    tap(system, id="title_field")
    system.input_text('<a href="x">&\'</a>')
    xml = system.dump_xml()
    assert '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;' in xml
    assert find(xml, id="title_field")["text"] == '<a href="x">&\'</a>'


def test_scrolled_out_views_are_not_dumped_and_bounds_are_clipped():
    from uitools import demo_system

    system = demo_system()
    tap(system, desc="More options")
    tap(system, text="Open list")
    xml = system.dump_xml()
    listed = [n["text"] for n in find_all(xml, id="item_title")]
    assert listed[0] == "Item 0" and "Item 39" not in listed
    lst = find(xml, id="items_list")
    assert lst["scrollable"] == "true"
    _, list_top, _, list_bottom = bounds(lst)
    items = find_all(xml, id="item_title")
    for node in items:
        _, top, _, bottom = bounds(node)
        assert list_top <= top < bottom <= list_bottom
    # The last row shown is cut by the list's edge: its bounds are clipped.
    assert bounds(items[-1])[3] - bounds(items[-1])[1] < bounds(items[0])[3] - bounds(items[0])[1]


def test_dialog_dump_is_the_dialog_window_only():
    from uitools import demo_system

    system = demo_system()
    tap(system, id="fab")
    xml = system.dump_xml()
    first = nodes(xml)[0]
    left, top, right, bottom = map(int, re.findall(r"\d+", first["bounds"]))
    assert (left, right) == (28, 1052) and 118 < top < bottom < 2208
    assert find(xml, id="com.example.demo:id/dialog_title_textview")["text"] == "New item"
    assert find(xml, id="android:id/button1")["text"] == "OK"
    assert find(xml, id="android:id/button2")["text"] == "Cancel"
    field = find(xml, id="item_name")
    assert field["class"] == "android.widget.EditText" and field["focused"] == "true" and field["text"] == "Name"
    assert not find_all(xml, id="android:id/statusBarBackground")
    assert "Title" not in texts(xml)


def test_popup_menu_dumps_as_a_list_view_of_rows():
    # Calculator 5.12.0 has every item as an icon; Notes' toolbar overflows (Share, ..., Settings, About).
    notes = "com.simplemobiletools.notes.pro"
    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    system.start_activity(notes)
    tap(system, desc="More options")
    xml = system.dump_xml()
    all_nodes = nodes(xml)
    assert [n["class"] for n in all_nodes[:3]] == ["android.widget.FrameLayout", "android.widget.FrameLayout",
                                                  "android.widget.ListView"]
    titles = [n["text"] for n in find_all(xml, id=f"{notes}:id/title")]
    assert titles[0] == "Share" and titles[-2:] == ["Settings", "About"]
    rows = [n for n in all_nodes if n["class"] == "android.widget.LinearLayout" and n["clickable"] == "true"]
    assert len(rows) == len(titles)


def test_launcher_lists_every_installed_app():
    system = AndroidSystem(clock=PhoneClock(0), apps=INSTALLED_APPS)
    xml = system.dump_xml()
    icon = find(xml, text="Calculator")
    assert icon["content-desc"] == "Calculator" and icon["clickable"] == "true"
    assert icon["package"] == "com.android.launcher3"
    labels = {system.app(p).label for p in system.installed_packages() if system.app(p).in_launcher}
    assert labels <= set(texts(xml))


def test_dump_is_cached_per_version_and_deterministic():
    a, b = _calculator(), _calculator()
    assert a.dump_xml() is a.dump_xml()
    for system in (a, b):
        tap(system, text="7", cls="android.widget.Button")
    assert a.dump_xml() == b.dump_xml()
    assert a.screenshot_png() == b.screenshot_png()

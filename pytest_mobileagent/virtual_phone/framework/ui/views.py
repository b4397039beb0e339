"""Views of the virtual phone's Android-like UI toolkit, and their layout.

A screen is a tree of `View` objects built afresh by an app's `build()` each
time the UI is refreshed (declarative, like Compose).  What the *user* changes
in a view -- text typed into an EditText, a CheckBox toggled without an app
handler, a list's scroll offset -- lives in the owning window's state store
(see `window.py`) and is re-applied to the rebuilt view with the same key, so
apps only store what they care about.

Sizes are pixels on the 1080x2340, 440 dpi screen; `dp()` converts density
independent pixels (1 dp = 2.75 px).  `MATCH` and `WRAP` stand for
match_parent and wrap_content.

Layout is a small subset of Android's: LinearLayout (weights, gravity),
FrameLayout (layout_gravity), vertical scroll containers (ScrollView,
RecyclerView, also as a grid) and leaf widgets sized by their text.
"""

from __future__ import annotations

from typing import Callable, Iterable

from . import action_menu as _action_menu
from . import text as _text

MATCH = -1
WRAP = -2
DENSITY = 2.75
#: Pixel height given to unbounded (scrolling) content while measuring.
UNBOUNDED = 1 << 20

Rect = tuple[int, int, int, int]

# Colours (Simple Mobile Tools' default light theme, roughly).
PRIMARY = (244, 81, 30)
ACCENT = (244, 81, 30)
TEXT = (51, 51, 51)
TEXT_SECONDARY = (117, 117, 117)
BACKGROUND = (255, 255, 255)
DIVIDER = (224, 224, 224)


def dp(value: float) -> int:
    """Density-independent pixels to screen pixels."""
    return int(round(value * DENSITY))


sp = dp


def _box(value) -> tuple[int, int, int, int]:
    if isinstance(value, int):
        return (value, value, value, value)
    if len(value) == 2:
        return (value[0], value[1], value[0], value[1])
    return tuple(value)  # type: ignore[return-value]


def intersect(a: Rect | None, b: Rect | None) -> Rect | None:
    """Intersection of two rectangles, or None when it is empty."""
    if a is None or b is None:
        return None
    left, top = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[2], b[2]), min(a[3], b[3])
    if right <= left or bottom <= top:
        return None
    return (left, top, right, bottom)


def _flatten(children: Iterable) -> list["View"]:
    out: list[View] = []
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, (list, tuple)):
            out.extend(_flatten(child))
        else:
            out.append(child)
    return out


class View:
    """Base of every view: identity, accessibility flags, size and behaviour.

    `id` is the short resource-id ("formula"), resolved against the app
    package in dumps; ids with a colon ("android:id/button1") are kept as is.
    `touch_extend` enlarges the touchable area beyond the bounds (an Android
    TouchDelegate): an int or (left, top, right, bottom) in pixels.
    """

    CLASS = "android.view.View"
    #: attributes whose user-made changes survive a rebuild (see window.py)
    RETAINED: tuple[str, ...] = ()
    CLICKABLE = False
    FOCUSABLE = False

    def __init__(
        self,
        id: str = "",
        *,
        desc: str = "",
        width: int = MATCH,
        height: int = WRAP,
        weight: float = 0,
        margin=0,
        padding=0,
        gravity: str = "",
        layout_gravity: str = "",
        visible: bool = True,
        enabled: bool = True,
        clickable: bool | None = None,
        long_clickable: bool | None = None,
        focusable: bool | None = None,
        selected: bool = False,
        on_click: Callable[[], object] | None = None,
        on_long_click: Callable[[], object] | None = None,
        touch_extend=0,
        key: str | None = None,
        bg: tuple[int, int, int] | None = None,
        class_name: str | None = None,
        important: bool | None = None,
        min_width: int = 0,
        min_height: int = 0,
        radius: int = 0,
    ) -> None:
        self.id = id
        self.desc = desc
        self.width = width
        self.height = height
        self.weight = weight
        self.margin = _box(margin)
        self.padding = _box(padding)
        self.gravity = gravity
        self.layout_gravity = layout_gravity
        self.visible = visible
        self.enabled = enabled
        self.on_click = on_click
        self.on_long_click = on_long_click
        self.clickable = bool(on_click) or self.CLICKABLE if clickable is None else clickable
        self.long_clickable = bool(on_long_click) if long_clickable is None else long_clickable
        self.focusable = (self.clickable or self.FOCUSABLE) if focusable is None else focusable
        self.selected = selected
        self.touch_extend = _box(touch_extend)
        self.key = key
        self.bg = bg
        self.class_name = class_name or self.CLASS
        self.important = important
        self.min_width = min_width
        self.min_height = min_height
        self.radius = radius
        self.children: list[View] = []
        self.parent: View | None = None
        # Set by layout.
        self.mw = self.mh = 0
        self.rect: Rect = (0, 0, 0, 0)
        self.clip: Rect | None = None
        # Set by the window.
        self.path = ""
        self.index = 0
        self.focused = False
        self.in_dump = True

    # -- accessibility ---------------------------------------------------
    checkable = False
    checked = False
    scrollable = False
    password = False

    def dump_text(self) -> str:
        """The `text` attribute uiautomator reports for this view."""
        return ""

    def event_texts(self) -> list[str]:
        """Texts an accessibility event carries for this view and its descendants."""
        own = self.dump_text()
        out = [own] if own else []
        for child in self.children:
            if child.visible:
                out.extend(child.event_texts())
        return out

    def handles_touch(self) -> bool:
        return self.enabled and (self.clickable or self.long_clickable)

    def touch_rect(self) -> Rect:
        left, top, right, bottom = self.touch_extend
        r = self.rect
        return (r[0] - left, r[1] - top, r[2] + right, r[3] + bottom)

    def walk(self):
        """Yield this view and its visible descendants, depth first."""
        yield self
        for child in self.children:
            if child.visible:
                yield from child.walk()

    def find(self, id: str) -> "View | None":
        """The first visible view (self included) whose short or full id is `id`."""
        for view in self.walk():
            if view.id and (view.id == id or view.id.endswith("/" + id)):
                return view
        return None

    # -- layout ----------------------------------------------------------
    def content_size(self, avail_w: int, avail_h: int) -> tuple[int, int]:
        """Size of the content (without padding) given the space available for it."""
        return (0, 0)

    def _spec(self, spec: int, avail: int, exact: int | None) -> int | None:
        if exact is not None:
            return exact
        if spec == MATCH:
            return avail
        if spec >= 0:
            return spec
        return None

    def measure(self, avail_w: int, avail_h: int, exact_w: int | None = None, exact_h: int | None = None) -> tuple[int, int]:
        """Compute (and remember) this view's size; margins are the parent's business."""
        w = self._spec(self.width, avail_w, exact_w)
        h = self._spec(self.height, avail_h, exact_h)
        pl, pt, pr, pb = self.padding
        if w is None or h is None:
            cw, ch = self.content_size(
                max(0, (w if w is not None else avail_w) - pl - pr),
                max(0, (h if h is not None else avail_h) - pt - pb),
            )
            if w is None:
                w = min(avail_w, cw + pl + pr)
            if h is None:
                h = ch + pt + pb
        self.mw = max(w, self.min_width)
        self.mh = max(h, self.min_height)
        return self.mw, self.mh

    def place(self, x: int, y: int, clip: Rect | None) -> None:
        """Give this view its screen position; `clip` is the area its parents show."""
        self.rect = (x, y, x + self.mw, y + self.mh)
        self.clip = intersect(self.rect, clip)
        self.place_children(clip)

    def place_children(self, clip: Rect | None) -> None:
        pass

    def __repr__(self) -> str:
        return f"<{type(self).__name__} id={self.id!r} rect={self.rect}>"


# ---------------------------------------------------------------------------
# containers


class ViewGroup(View):
    """A view with children; lays them out vertically unless told otherwise."""

    CLASS = "android.view.ViewGroup"

    def __init__(self, *children, **kw) -> None:
        super().__init__(**kw)
        self.children = _flatten(children)
        for index, child in enumerate(self.children):
            child.parent = self
            child.index = index

    def visible_children(self) -> list[View]:
        return [c for c in self.children if c.visible]


def _gravity_offset(gravity: str, free: int, axis: str) -> int:
    """Offset of content inside `free` spare pixels for an Android gravity string."""
    if free <= 0 or not gravity:
        return 0
    parts = set(gravity.split("|"))
    if axis == "h":
        if "center" in parts or "center_horizontal" in parts:
            return free // 2
        if "end" in parts or "right" in parts:
            return free
    else:
        if "center" in parts or "center_vertical" in parts:
            return free // 2
        if "bottom" in parts:
            return free
    return 0


class LinearLayout(ViewGroup):
    """Children in a row or column; `weight` shares the leftover space."""

    CLASS = "android.widget.LinearLayout"

    def __init__(self, *children, orientation: str = "vertical", **kw) -> None:
        super().__init__(*children, **kw)
        self.vertical = orientation == "vertical"

    def content_size(self, avail_w: int, avail_h: int) -> tuple[int, int]:
        return self._arrange(avail_w, avail_h, wrap_main=True)

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        w = self._spec(self.width, avail_w, exact_w)
        h = self._spec(self.height, avail_h, exact_h)
        pl, pt, pr, pb = self.padding
        main_known = (h if self.vertical else w) is not None
        iw = max(0, (w if w is not None else avail_w) - pl - pr)
        ih = max(0, (h if h is not None else avail_h) - pt - pb)
        cw, ch = self._arrange(iw, ih, wrap_main=not main_known, cross_known=(w if self.vertical else h) is not None)
        self.mw = max(w if w is not None else min(avail_w, cw + pl + pr), self.min_width)
        self.mh = max(h if h is not None else ch + pt + pb, self.min_height)
        # Children that match our cross size learn it now that it is final.
        cross_final = (self.mw - pl - pr) if self.vertical else (self.mh - pt - pb)
        for child in self.visible_children():
            ml, mt, mr, mb = child.margin
            if self.vertical and child.width == MATCH and child.mw != cross_final - ml - mr:
                child.measure(cross_final - ml - mr, child.mh, exact_w=cross_final - ml - mr, exact_h=child.mh)
            elif not self.vertical and child.height == MATCH and child.mh != cross_final - mt - mb:
                child.measure(child.mw, cross_final - mt - mb, exact_w=child.mw, exact_h=cross_final - mt - mb)
        return self.mw, self.mh

    def _arrange(self, iw: int, ih: int, wrap_main: bool, cross_known: bool = True) -> tuple[int, int]:
        kids = self.visible_children()
        used = 0
        cross = 0
        weighted: list[View] = []
        # In a wrap_content column, weighted children are measured last, in the
        # space the others leave (Android's LinearLayout: an AlertDialog's long
        # list yields to its title and buttons).
        kids = ([c for c in kids if not c.weight] + [c for c in kids if c.weight]) if wrap_main and self.vertical \
            else kids
        for child in kids:
            ml, mt, mr, mb = child.margin
            if self.vertical:
                if (child.weight > 0 or child.height == MATCH) and not wrap_main:
                    weighted.append(child)
                    used += mt + mb
                    continue
                cw, chh = child.measure(max(0, iw - ml - mr), max(0, ih - used - mt - mb))
                used += chh + mt + mb
                cross = max(cross, cw + ml + mr)
            else:
                if (child.weight > 0 or child.width == MATCH) and not wrap_main:
                    weighted.append(child)
                    used += ml + mr
                    continue
                cw, chh = child.measure(max(0, iw - used - ml - mr), max(0, ih - mt - mb))
                used += cw + ml + mr
                cross = max(cross, chh + mt + mb)
        if weighted:
            remaining = max(0, (ih if self.vertical else iw) - used)
            total = sum(c.weight or 1 for c in weighted)
            acc = 0.0
            for child in weighted:
                share = remaining * (child.weight or 1) / total
                size = int(round(acc + share)) - int(round(acc))
                acc += share
                ml, mt, mr, mb = child.margin
                if self.vertical:
                    cw, _ = child.measure(max(0, iw - ml - mr), size, exact_h=size)
                    cross = max(cross, cw + ml + mr)
                else:
                    _, chh = child.measure(size, max(0, ih - mt - mb), exact_w=size)
                    cross = max(cross, chh + mt + mb)
                used += size
        return (cross, used) if self.vertical else (used, cross)

    def place_children(self, clip):
        x0, y0, x1, y1 = self.rect
        pl, pt, pr, pb = self.padding
        iw, ih = x1 - x0 - pl - pr, y1 - y0 - pt - pb
        kids = self.visible_children()
        if self.vertical:
            total = sum(c.mh + c.margin[1] + c.margin[3] for c in kids)
            y = y0 + pt + _gravity_offset(self.gravity, ih - total, "v")
            for child in kids:
                ml, mt, mr, mb = child.margin
                free = iw - child.mw - ml - mr
                x = x0 + pl + ml + _gravity_offset(child.layout_gravity or self.gravity, free, "h")
                child.place(x, y + mt, clip)
                y += mt + child.mh + mb
        else:
            total = sum(c.mw + c.margin[0] + c.margin[2] for c in kids)
            x = x0 + pl + _gravity_offset(self.gravity, iw - total, "h")
            for child in kids:
                ml, mt, mr, mb = child.margin
                free = ih - child.mh - mt - mb
                y = y0 + pt + mt + _gravity_offset(child.layout_gravity or self.gravity, free, "v")
                child.place(x + ml, y, clip)
                x += ml + child.mw + mr


def Column(*children, **kw) -> LinearLayout:
    """A vertical LinearLayout."""
    return LinearLayout(*children, orientation="vertical", **kw)


def Row(*children, **kw) -> LinearLayout:
    """A horizontal LinearLayout."""
    kw.setdefault("gravity", "center_vertical")
    return LinearLayout(*children, orientation="horizontal", **kw)


class FrameLayout(ViewGroup):
    """Children stacked on top of each other, positioned by `layout_gravity`."""

    CLASS = "android.widget.FrameLayout"

    def content_size(self, avail_w, avail_h):
        w = h = 0
        for child in self.visible_children():
            ml, mt, mr, mb = child.margin
            cw, ch = child.measure(max(0, avail_w - ml - mr), max(0, avail_h - mt - mb))
            w, h = max(w, cw + ml + mr), max(h, ch + mt + mb)
        return w, h

    #: the arguments of this frame's latest measure (its subtree still holds that result)
    _measured_for: tuple | None = None

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        # A wrap_content frame measures its children twice (for its own size, then
        # with it), so nested frames cost 2^depth; a repeat of the latest call is
        # answered from the sizes it left, which keeps deep dialogs linear.
        args = (avail_w, avail_h, exact_w, exact_h)
        if self._measured_for == args:
            return self.mw, self.mh
        super().measure(avail_w, avail_h, exact_w, exact_h)
        pl, pt, pr, pb = self.padding
        iw, ih = self.mw - pl - pr, self.mh - pt - pb
        for child in self.visible_children():
            ml, mt, mr, mb = child.margin
            child.measure(max(0, iw - ml - mr), max(0, ih - mt - mb))
        self._measured_for = args
        return self.mw, self.mh

    def place_children(self, clip):
        x0, y0, x1, y1 = self.rect
        pl, pt, pr, pb = self.padding
        iw, ih = x1 - x0 - pl - pr, y1 - y0 - pt - pb
        for child in self.visible_children():
            ml, mt, mr, mb = child.margin
            gx = _gravity_offset(child.layout_gravity, iw - child.mw - ml - mr, "h")
            gy = _gravity_offset(child.layout_gravity, ih - child.mh - mt - mb, "v")
            child.place(x0 + pl + ml + gx, y0 + pt + mt + gy, clip)


class RelativeLayout(FrameLayout):
    """Same layout as FrameLayout here; only the class name differs in dumps."""

    CLASS = "android.widget.RelativeLayout"


class ScrollContainer(ViewGroup):
    """Vertical scrolling container: children in a column (or a grid of `columns`).

    Swipes scroll it; `scroll_y` survives rebuilds.  uiautomator reports it
    scrollable only when its content is taller than itself.
    """

    CLASS = "android.widget.ScrollView"
    RETAINED = ("scroll_y",)

    def __init__(self, *children, columns: int = 1, scroll_y: int = 0, item_height: int | None = None, **kw) -> None:
        kw.setdefault("height", MATCH)
        kw.setdefault("focusable", True)
        super().__init__(*children, **kw)
        self.columns = max(1, columns)
        self.scroll_y = scroll_y
        self.item_height = item_height
        self.content_h = 0

    @property
    def scrollable(self) -> bool:  # type: ignore[override]
        return self.max_scroll() > 0

    def max_scroll(self) -> int:
        return max(0, self.content_h - (self.mh - self.padding[1] - self.padding[3]))

    def content_size(self, avail_w, avail_h):
        # wrap_content is "at most the space given" (MeasureSpec.AT_MOST): a long list scrolls.
        return avail_w, min(self._measure_content(avail_w), avail_h)

    def _measure_content(self, iw: int) -> int:
        kids = self.visible_children()
        col_w = iw // self.columns
        total = 0
        for row_start in range(0, len(kids), self.columns):
            row_h = 0
            for child in kids[row_start:row_start + self.columns]:
                ml, mt, mr, mb = child.margin
                w = col_w - ml - mr if self.columns > 1 else iw - ml - mr
                exact_w = w if (self.columns > 1 or child.width == MATCH) else None
                _, ch = child.measure(w, UNBOUNDED, exact_w=exact_w, exact_h=self.item_height)
                row_h = max(row_h, ch + mt + mb)
            total += row_h
        self.content_h = total
        return total

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        super().measure(avail_w, avail_h, exact_w, exact_h)
        pl, pt, pr, pb = self.padding
        self._measure_content(self.mw - pl - pr)
        return self.mw, self.mh

    def place_children(self, clip):
        x0, y0, x1, y1 = self.rect
        pl, pt, pr, pb = self.padding
        self.scroll_y = max(0, min(self.scroll_y, self.max_scroll()))
        inner = intersect((x0 + pl, y0 + pt, x1 - pr, y1 - pb), clip)
        kids = self.visible_children()
        col_w = (x1 - x0 - pl - pr) // self.columns
        y = y0 + pt - self.scroll_y
        if "bottom" in self.gravity.split("|"):
            # Content shorter than the list sits at its bottom (a chat's stackFromEnd).
            y += max(0, (y1 - y0 - pt - pb) - self.content_h)
        for row_start in range(0, len(kids), self.columns):
            row = kids[row_start:row_start + self.columns]
            row_h = 0
            for col, child in enumerate(row):
                ml, mt, mr, mb = child.margin
                child.place(x0 + pl + col * col_w + ml, y + mt, inner)
                row_h = max(row_h, child.mh + mt + mb)
            y += row_h


class ScrollView(ScrollContainer):
    CLASS = "android.widget.ScrollView"


class RecyclerView(ScrollContainer):
    """A list of item views (RecyclerView); `columns` > 1 makes it a grid."""

    CLASS = "androidx.recyclerview.widget.RecyclerView"


class StaggeredGridRecyclerView(RecyclerView):
    """A RecyclerView with Commons' AutoStaggeredGridLayoutManager: as many spans as `item_width`
    fits (spanCount = max(1, width without padding / itemSize)), and each item goes to the span
    whose end is highest up, the first of equals (AndroidX StaggeredGridLayoutManager laying out
    toward the end), so columns keep their own heights."""

    def __init__(self, *children, item_width: int, **kw) -> None:
        super().__init__(*children, **kw)
        self.item_width = max(1, item_width)
        self._slots: list[tuple[int, int]] = []  # (span, top) of each visible child

    def _measure_content(self, iw: int) -> int:
        spans = max(1, iw // self.item_width)
        col_w = iw // spans
        ends = [0] * spans
        self._slots = []
        for child in self.visible_children():
            ml, mt, mr, mb = child.margin
            _, ch = child.measure(col_w - ml - mr, UNBOUNDED, exact_w=col_w - ml - mr)
            span = ends.index(min(ends))
            self._slots.append((span, ends[span]))
            ends[span] += ch + mt + mb
        self.content_h = max(ends)
        return self.content_h

    def place_children(self, clip):
        x0, y0, x1, y1 = self.rect
        pl, pt, pr, pb = self.padding
        self.scroll_y = max(0, min(self.scroll_y, self.max_scroll()))
        inner = intersect((x0 + pl, y0 + pt, x1 - pr, y1 - pb), clip)
        spans = max(1, (x1 - x0 - pl - pr) // self.item_width)
        col_w = (x1 - x0 - pl - pr) // spans
        for child, (span, top) in zip(self.visible_children(), self._slots):
            ml, mt, _, _ = child.margin
            child.place(x0 + pl + span * col_w + ml, y0 + pt - self.scroll_y + top + mt, inner)


class ListView(ScrollContainer):
    CLASS = "android.widget.ListView"

    def __init__(self, *children, **kw) -> None:
        kw.setdefault("focusable", False)
        super().__init__(*children, **kw)


# ---------------------------------------------------------------------------
# leaves


class TextView(View):
    """Text; `size` in pixels, wrapped to the width unless `max_lines` == 1."""

    CLASS = "android.widget.TextView"

    def __init__(self, text: str = "", id: str = "", *, size: int = sp(16), color=TEXT, bold: bool = False,
                 max_lines: int | None = None, top_icon: str = "", icon_size: int = dp(56), **kw) -> None:
        kw.setdefault("width", WRAP)
        super().__init__(id, **kw)
        self.text = "" if text is None else str(text)
        self.size = size
        self.color = color
        self.bold = bold
        self.max_lines = max_lines
        #: a drawable above the text (android:drawableTop), e.g. a launcher icon "app:Calculator"
        self.top_icon = top_icon
        self.icon_size = icon_size if top_icon else 0
        self.lines: list[str] = [self.text]

    def shown_text(self) -> str:
        return self.text

    def dump_text(self) -> str:
        return self.text

    def content_size(self, avail_w, avail_h):
        shown = self.shown_text()
        if self.max_lines == 1:
            self.lines = [shown] if _text.text_width(shown, self.size, self.bold) <= avail_w else _text.wrap(
                shown, self.size, avail_w, self.bold, 1)
        else:
            self.lines = _text.wrap(shown, self.size, avail_w, self.bold, self.max_lines)
        width = max((_text.text_width(line, self.size, self.bold) for line in self.lines), default=0)
        height = _text.line_height(self.size) * max(1, len(self.lines))
        if self.top_icon:
            return max(width, self.icon_size), height + self.icon_size + dp(8)
        return width, height


class Button(TextView):
    """A push button with its text centred on a filled, rounded background."""

    CLASS = "android.widget.Button"
    CLICKABLE = True

    def __init__(self, text: str = "", id: str = "", **kw) -> None:
        kw.setdefault("gravity", "center")
        kw.setdefault("padding", (dp(16), dp(10)))
        kw.setdefault("min_height", dp(48))
        kw.setdefault("min_width", dp(64))
        kw.setdefault("bg", (238, 238, 238))
        kw.setdefault("radius", dp(4))
        kw.setdefault("size", sp(15))
        super().__init__(text, id, **kw)


class ImageView(View):
    """An icon (drawn by name: "back", "more", "search", "plus", "swap", ...)."""

    CLASS = "android.widget.ImageView"

    def __init__(self, id: str = "", *, icon: str = "", tint=TEXT_SECONDARY, **kw) -> None:
        kw.setdefault("width", dp(48))
        kw.setdefault("height", dp(48))
        super().__init__(id, **kw)
        self.icon = icon
        self.tint = tint


class ImageButton(ImageView):
    CLASS = "android.widget.ImageButton"
    CLICKABLE = True


class FloatingActionButton(ImageButton):
    """The round accent-coloured button floating at the bottom end of a screen."""

    def __init__(self, id: str = "", *, icon: str = "plus", **kw) -> None:
        kw.setdefault("width", dp(56))
        kw.setdefault("height", dp(56))
        kw.setdefault("layout_gravity", "bottom|end")
        kw.setdefault("margin", dp(16))
        kw.setdefault("bg", ACCENT)
        kw.setdefault("radius", dp(28))
        super().__init__(id, icon=icon, tint=(255, 255, 255), **kw)


class EditText(TextView):
    """An editable text field with a hint, focus, a cursor and a selection.

    Empty fields report their hint as `text`, as Android 8+ does.  Editing
    (touch, long press, keys, the selection toolbar) is the system's: see
    system.py and editing.py.  Typing
    calls `on_text_changed(new_text)`; ENTER in a single-line field calls
    `on_ime_action()`.
    """

    CLASS = "android.widget.EditText"
    RETAINED = ("text", "cursor", "anchor")
    CLICKABLE = True

    def __init__(self, text: str = "", id: str = "", *, hint: str = "", single_line: bool = True,
                 password: bool = False, autofocus: bool = False,
                 on_text_changed: Callable[[str], object] | None = None,
                 on_ime_action: Callable[[], object] | None = None, **kw) -> None:
        kw.setdefault("width", MATCH)
        kw.setdefault("min_height", dp(48))
        kw.setdefault("padding", (dp(4), dp(12)))
        kw.setdefault("long_clickable", True)
        kw.setdefault("gravity", "center_vertical")
        super().__init__(text, id, max_lines=1 if single_line else None, **kw)
        self.hint = hint
        self.single_line = single_line
        self.password = password
        self.autofocus = autofocus
        self.on_text_changed = on_text_changed
        self.on_ime_action = on_ime_action
        self.cursor = len(self.text)
        #: the selection's fixed end; the selection is [min, max) of anchor and cursor
        self.anchor = self.cursor

    def selection(self) -> tuple[int, int]:
        """(start, end) of the selected text; equal when there is only a cursor."""
        size = len(self.text)
        a, c = max(0, min(self.anchor, size)), max(0, min(self.cursor, size))
        return min(a, c), max(a, c)

    def shown_text(self) -> str:
        if not self.text:
            return self.hint
        return "•" * len(self.text) if self.password else self.text

    def dump_text(self) -> str:
        return self.shown_text()

    def event_texts(self) -> list[str]:
        return [self.shown_text()] if self.text else []


class CompoundButton(TextView):
    """A checkable button with a label (CheckBox, Switch, RadioButton)."""

    RETAINED = ("checked",)
    CLICKABLE = True
    checkable = True

    def __init__(self, text: str = "", id: str = "", *, checked: bool = False,
                 on_checked_change: Callable[[bool], object] | None = None, **kw) -> None:
        kw.setdefault("min_height", dp(48))
        kw.setdefault("padding", (dp(40), 0, 0, 0))
        kw.setdefault("gravity", "center_vertical")
        kw.setdefault("width", MATCH)
        super().__init__(text, id, **kw)
        self.checked = checked
        self.on_checked_change = on_checked_change

    def toggle(self) -> None:
        self.checked = not self.checked
        if self.on_checked_change:
            self.on_checked_change(self.checked)


class CheckBox(CompoundButton):
    CLASS = "android.widget.CheckBox"


class Switch(CompoundButton):
    CLASS = "android.widget.Switch"

    def __init__(self, text: str = "", id: str = "", **kw) -> None:
        kw.setdefault("padding", (0, 0, dp(56), 0))
        super().__init__(text, id, **kw)


class RadioButton(CompoundButton):
    CLASS = "android.widget.RadioButton"

    def toggle(self) -> None:
        group = self.parent
        if isinstance(group, RadioGroup):
            group.select(self)
        elif not self.checked:
            super().toggle()


class RadioGroup(LinearLayout):
    """RadioButtons of which one is checked; `checked_index` survives rebuilds."""

    CLASS = "android.widget.RadioGroup"
    RETAINED = ("checked_index",)

    def __init__(self, *children, checked_index: int = -1,
                 on_checked_change: Callable[[int], object] | None = None, **kw) -> None:
        super().__init__(*children, orientation="vertical", **kw)
        self.checked_index = checked_index
        self.on_checked_change = on_checked_change
        self.apply_checked()

    def radios(self) -> list[RadioButton]:
        return [c for c in self.children if isinstance(c, RadioButton)]

    def apply_checked(self) -> None:
        for i, radio in enumerate(self.radios()):
            radio.checked = i == self.checked_index

    def select(self, radio: RadioButton) -> None:
        radios = self.radios()
        self.checked_index = radios.index(radio)
        self.apply_checked()
        if self.on_checked_change:
            self.on_checked_change(self.checked_index)


class Divider(View):
    """A one-line horizontal rule."""

    CLASS = "android.widget.ImageView"

    def __init__(self, id: str = "", **kw) -> None:
        kw.setdefault("height", 2)
        kw.setdefault("bg", DIVIDER)
        super().__init__(id, **kw)


# ---------------------------------------------------------------------------
# composites


class MenuItem:
    """An entry of a menu: a toolbar or action-mode icon, or a row under "More options".

    `show` is the item's ``showAsAction`` ("always", "ifRoom", "never",
    "ifRoom|withText", ...); `visible` is what the app sets in code.  Where it
    ends up is AppCompat's decision (`action_menu.place`), never the app's.
    """

    def __init__(self, title: str, on_click: Callable[[], object] | None = None, *, id: str = "",
                 icon: str = "", show: str = "never", visible: bool = True, group: str = "") -> None:
        self.title = title
        self.on_click = on_click
        self.id = id
        self.icon = icon
        self.show = show
        self.flags = _action_menu.parse_show_as_action(show)
        self.visible = visible
        self.group = group

    def __repr__(self) -> str:
        return f"MenuItem({self.title!r}, id={self.id!r}, show={self.show!r}, visible={self.visible})"


def place_menu(items: Iterable[MenuItem]) -> tuple[list[MenuItem], list[MenuItem]]:
    """(action buttons, "More options" entries) of a menu on this phone, by AppCompat's rule."""

    def width(item: MenuItem) -> int:
        if item.icon and not (item.flags & _action_menu.WITH_TEXT and _ALLOW_TEXT_WITH_ICON):
            return dp(_action_menu.ACTION_BUTTON_DP)
        # ActionMenuItemView shows the title (all caps) when there is no icon.
        text = _text.text_width(item.title.upper(), sp(14), bold=True)
        return max(dp(_action_menu.ACTION_BUTTON_DP), text + 2 * dp(_action_menu.TEXT_BUTTON_PADDING_DP))

    return _action_menu.place(list(items), show=lambda i: i.flags, visible=lambda i: i.visible,
                              group=lambda i: i.group, width=width)


#: abc_config_allowActionMenuItemTextWithIcon is false below w480dp: icons only.
_ALLOW_TEXT_WITH_ICON = False


def ActionMenuView(items: Iterable[MenuItem], on_overflow: Callable[[View, list[MenuItem]], object] | None,
                   **kw) -> ViewGroup:
    """The ActionMenuView of a toolbar or action mode: action buttons, then "More options".

    It dumps as ``androidx.appcompat.widget.LinearLayoutCompat`` (its
    accessibility class name); action buttons as ``android.widget.Button``
    with the item id and the title as content-desc (ActionMenuItemView), the
    overflow button as an ImageView described "More options".
    """
    actions, overflow = place_menu(items)
    children: list[View] = [_ActionButton(item) for item in actions]
    if overflow:
        more = ImageView(desc="More options", icon="more", width=dp(_action_menu.OVERFLOW_BUTTON_DP),
                         height=dp(48), long_clickable=True, clickable=True)
        more.on_click = (lambda anchor=more: on_overflow(anchor, overflow)) if on_overflow else None
        children.append(more)
    kw.setdefault("width", WRAP)
    menu = LinearLayout(*children, orientation="horizontal", gravity="center_vertical",
                        class_name="androidx.appcompat.widget.LinearLayoutCompat", **kw)
    menu.overflow_items = overflow  # type: ignore[attr-defined]
    return menu


#: Simple-Commons' NavigationIcon: the content-desc of the toolbar's navigation button.
NAV_DESCRIPTIONS = {"back": "Back", "close": "Close"}


def Toolbar(id: str = "", *, title: str = "", items: Iterable[MenuItem] = (), nav_icon: str = "",
            on_nav: Callable[[], object] | None = None,
            on_overflow: Callable[[View, list[MenuItem]], object] | None = None,
            nav_desc: str | None = None, bg=BACKGROUND, **kw) -> ViewGroup:
    """A Material toolbar: navigation button, title, and its ActionMenuView.

    The navigation button's content-desc is what Simple-Commons sets
    (``toolbar.setNavigationContentDescription(NavigationIcon.accessibilityResId)``
    in BaseSimpleActivity.setupToolbar): "Back" for the arrow, "Close" for the cross.
    """
    children: list[View] = []
    if nav_icon:
        children.append(ImageButton(icon=nav_icon, width=dp(56), height=dp(56), on_click=on_nav,
                                    desc=NAV_DESCRIPTIONS.get(nav_icon, "") if nav_desc is None else nav_desc,
                                    margin=(0, 0, dp(4), 0)))
    if title:
        children.append(TextView(title, size=sp(20), bold=True, max_lines=1, weight=1, width=MATCH,
                                 margin=(0 if nav_icon else dp(16), 0, 0, 0), color=TEXT))
    else:
        spacer = View(weight=1, width=MATCH)
        spacer.in_dump = False  # pure layout filler, no real counterpart
        children.append(spacer)
    menu = ActionMenuView(items, on_overflow, margin=(0, 0, dp(4), 0))
    children.append(menu)
    kw.setdefault("height", dp(64))
    toolbar = Row(*children, id=id, bg=bg, class_name="android.view.ViewGroup", **kw)
    toolbar.overflow_items = menu.overflow_items  # type: ignore[attr-defined]
    return toolbar


class _ActionButton(ImageButton):
    """A toolbar action: a Button with no text, its title as content-desc, drawn as an icon."""

    CLASS = "android.widget.Button"

    def __init__(self, item: MenuItem) -> None:
        super().__init__(item.id, icon=item.icon or "dot", desc=item.title, on_click=item.on_click,
                         width=dp(48), height=dp(48))


def TabLayout(id: str = "", *, tabs: Iterable[str], selected: int = 0,
              on_select: Callable[[int], object] | None = None, **kw) -> ViewGroup:
    """Material tabs: a HorizontalScrollView of tab LinearLayouts each holding a TextView."""
    tab_views = []
    for i, label in enumerate(tabs):
        tab_views.append(LinearLayout(
            TextView(label.upper(), size=sp(14), bold=True, color=ACCENT if i == selected else TEXT_SECONDARY,
                     max_lines=1),
            orientation="horizontal", desc=label, selected=i == selected, weight=1, width=MATCH, gravity="center",
            height=dp(48), on_click=(lambda i=i: on_select(i)) if on_select else None,
            bg=(255, 240, 235) if i == selected else None,
        ))
    strip = LinearLayout(*tab_views, orientation="horizontal")
    return FrameLayout(strip, id=id, class_name="android.widget.HorizontalScrollView", height=dp(48), **kw)

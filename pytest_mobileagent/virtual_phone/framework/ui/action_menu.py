"""AppCompat's rule for toolbar and action-mode menus: which items are icons, which go under "More options".

A toolbar (androidx Toolbar / MaterialToolbar) and a contextual action bar
(AppCompat's ActionBarContextView) both lay their menu out with
``androidx.appcompat.widget.ActionMenuPresenter``.  Its ``flagActionItems()``
decides, over the *visible* items in menu order:

* ``always`` items are action buttons, whatever the count;
* one slot is reserved for the overflow button ("More options") when some
  visible item is ``never``, or when ``always`` + ``ifRoom`` items exceed the
  slot count;
* ``ifRoom`` items take the remaining slots in order while the width limit
  (``widthLimit + firstActionWidth > 0``, the non-strict check) allows; an
  ``ifRoom`` item of a group that already has an action may break the slot
  count, and a group whose item loses its slot is demoted as a whole;
* everything else is listed, in order, in the overflow pop-up.

The slot count is ``ActionBarPolicy.getMaxActionButtons()`` for the screen's
configuration (2 below 360 dp, 3 from 360 dp, 4 from 500 dp, 5 from 600 dp),
and the width limit ``ActionBarPolicy.getEmbeddedMenuWidthLimit()`` (half the
screen width in pixels) minus the overflow button's width
(``ActionMenuPresenter.initForMenu``).  Sources: androidx appcompat 1.6,
``androidx/appcompat/view/ActionBarPolicy.java`` and
``androidx/appcompat/widget/ActionMenuPresenter.java``.

Which ``showAsAction`` attribute counts depends on the inflater: a Toolbar's
``inflateMenu()`` goes through AppCompat's ``SupportMenuInflater`` on a
``MenuBuilder`` and reads ``app:showAsAction`` only; a selection bar started
with the framework's ``Activity.startActionMode()`` (Simple-Commons'
``MyRecyclerViewAdapter``) gets AppCompat's ``MenuWrapperICS``, which is not a
``SupportMenu``, so ``SupportMenuInflater.inflate`` hands it to the framework
``MenuInflater``, which reads ``android:showAsAction`` only.  A missing
attribute leaves the menu's default: ``SHOW_AS_ACTION_NEVER`` for a toolbar's
``MenuBuilder``, ``SHOW_AS_ACTION_IF_ROOM`` for an action mode's
(``StandaloneActionMode``: ``new MenuBuilder(...).setDefaultShowAsAction(IF_ROOM)``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence, TypeVar

__all__ = [
    "ACTION_BUTTON_DP",
    "OVERFLOW_BUTTON_DP",
    "PHONE",
    "ScreenConfig",
    "max_action_buttons",
    "parse_show_as_action",
    "place",
]

NEVER, IF_ROOM, ALWAYS, WITH_TEXT, COLLAPSE_ACTION_VIEW = 0, 1, 2, 4, 8
_FLAGS = {"never": NEVER, "ifRoom": IF_ROOM, "always": ALWAYS, "withText": WITH_TEXT,
          "collapseActionView": COLLAPSE_ACTION_VIEW}

#: abc_action_button_min_width_material: an icon action button is 48 dp wide.
ACTION_BUTTON_DP = 48
#: abc_action_button_min_width_overflow_material: the overflow button is 36 dp wide.
OVERFLOW_BUTTON_DP = 36
#: Widget.AppCompat.ActionButton's horizontal padding around a text-only item.
TEXT_BUTTON_PADDING_DP = 12


@lru_cache(maxsize=None)
def parse_show_as_action(value: str) -> int:
    """``"ifRoom|withText"`` -> the MenuItem.SHOW_AS_ACTION_* bit set; empty means never."""
    flags = 0
    for part in filter(None, (p.strip() for p in value.split("|"))):
        if part not in _FLAGS:
            raise ValueError(f"unknown showAsAction value {part!r} (expected {', '.join(_FLAGS)})")
        flags |= _FLAGS[part]
    return flags


class ScreenConfig:
    """What ActionBarPolicy reads: the configuration's sizes in dp and the display's pixels."""

    def __init__(self, width_px: int, height_px: int, density: float) -> None:
        self.width_px = width_px
        self.density = density
        self.width_dp = int(width_px / density)
        self.height_dp = int(height_px / density)
        self.smallest_dp = min(self.width_dp, self.height_dp)

    def px(self, dp: float) -> int:
        return int(round(dp * self.density))


#: The virtual phone: 1080 x 2340 px at 440 dpi (2.75 px per dp), portrait: 392 dp wide.
PHONE = ScreenConfig(1080, 2340, 2.75)


def max_action_buttons(config: ScreenConfig = PHONE) -> int:
    """ActionBarPolicy.getMaxActionButtons(): the action slots for this screen."""
    w, h, smallest = config.width_dp, config.height_dp, config.smallest_dp
    if smallest > 600 or w > 600 or (w > 960 and h > 720) or (w > 720 and h > 960):
        return 5
    if w >= 500 or (w > 640 and h > 480) or (w > 480 and h > 640):
        return 4
    if w >= 360:
        return 3
    return 2


T = TypeVar("T")


def place(items: Sequence[T], *, show: Callable[[T], int], visible: Callable[[T], bool] = lambda _i: True,
          group: Callable[[T], str] = lambda _i: "", width: Callable[[T], int] | None = None,
          config: ScreenConfig = PHONE) -> tuple[list[T], list[T]]:
    """Split ``items`` into (action buttons, overflow entries) as ActionMenuPresenter.flagActionItems does.

    ``show`` gives an item's showAsAction bits, ``width`` its measured width in
    pixels (default: an icon button); hidden items are in neither list.
    """
    visible_items = [item for item in items if visible(item)]
    measure = width or (lambda _item: config.px(ACTION_BUTTON_DP))
    required = sum(1 for i in visible_items if show(i) & ALWAYS)
    requested = sum(1 for i in visible_items if not show(i) & ALWAYS and show(i) & IF_ROOM)
    has_overflow = any(not show(i) & (ALWAYS | IF_ROOM) for i in visible_items)
    max_actions = max_action_buttons(config)
    # mReserveOverflow is true for toolbars and action modes on API 19+.
    if has_overflow or required + requested > max_actions:
        max_actions -= 1
    max_actions -= required
    width_limit = config.width_px // 2 - config.px(OVERFLOW_BUTTON_DP)
    first_width = 0
    groups: dict[str, bool] = {}
    is_action: dict[int, bool] = {}
    for index, item in enumerate(visible_items):
        flags, gid = show(item), group(item)
        if flags & ALWAYS:
            w = measure(item)
            width_limit -= w
            first_width = first_width or w
            if gid:
                groups[gid] = True
            is_action[index] = True
        elif flags & IF_ROOM:
            in_group = groups.get(gid, False) if gid else False
            action = (max_actions > 0 or in_group) and width_limit > 0
            if action:
                w = measure(item)
                width_limit -= w
                first_width = first_width or w
                action = width_limit + first_width > 0
            if action and gid:
                groups[gid] = True
            elif in_group:
                groups[gid] = False
                for j in range(index):
                    if group(visible_items[j]) == gid and is_action.get(j):
                        max_actions += 1
                        is_action[j] = False
            if action:
                max_actions -= 1
            is_action[index] = action
        else:
            is_action[index] = False
    actions = [item for i, item in enumerate(visible_items) if is_action[i]]
    overflow = [item for i, item in enumerate(visible_items) if not is_action[i]]
    return actions, overflow

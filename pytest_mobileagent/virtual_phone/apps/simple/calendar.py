"""Simple Calendar Pro (`com.simplemobiletools.calendar.pro`) for the virtual phone.

Ids, texts and navigation follow the recorded screens of the app (DroidTask,
July 2023, the older non-Pro build) and, for what that build lacks (the
top search menu, tasks, `day_events`, "Start week on"), the Pro app's
layouts and strings:

* MainActivity: the search menu (`top_toolbar_search`) with menu_main placed
  by AppCompat's rule ("Change view" and, in the slot left, "Settings" as
  icons; the rest under "More options"); the monthly
  view (arrows and swipes move between months, a day opens its daily view),
  the daily, weekly, monthly-and-daily and yearly views and the simple
  event list (long press selects, "Delete" asks, then deletes); the FAB that
  opens "Event" and "Task"; search results.
* EventActivity and TaskActivity (`calendar_editors.py`): title,
  description, all-day, dates, save.
* SettingsActivity (`calendar_settings.py`): "Start week on" and "Snooze
  time" pickers, check boxes.

"Today" is the phone's clock (its time zone is UTC).
"""

from __future__ import annotations

import datetime as dt
from typing import Callable

from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    Column,
    Divider,
    FloatingActionButton,
    FrameLayout,
    ImageView,
    LinearLayout,
    MenuItem,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    ViewGroup,
    dp,
    sp,
)
from . import calendar_model as m
from ...framework.ui.text import line_height
from ...framework.app import Activity, Dialog
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER, SWIPE_REFRESH_LAYOUT
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..commons.commons_app import CommonsApp
from ..commons.commons_compose import AboutActivity
from ..commons.simple_commons import action_mode_bar
from .calendar_editors import DatePickerDialog, EventActivity, TaskActivity
from .calendar_settings import SettingsActivity
from ..commons.commons_dialogs import radio_dialog
from ..commons.search_menu import SearchMenu
from ..commons.simple_commons import CustomizationActivity

APP = "calendar"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.calendar.pro"
NAV_H = dp(54)
WEEKEND = (229, 57, 53)
TODAY_BG = (253, 226, 216)
EVENT_BG = (255, 204, 188)
GRID_LINE = (235, 235, 235)


def _drawn(view: View) -> View:
    """A view that is drawn but absent from dumps (what a custom View paints itself)."""
    view.in_dump = False
    return view


def _swipeable(view: View, on_swipe: Callable[[int], object]) -> View:
    """A ViewPager: a horizontal swipe calls `on_swipe(+1)` (next page) or `on_swipe(-1)`."""
    view.on_swipe = on_swipe  # type: ignore[attr-defined]
    return view


class _MonthGrid(ViewGroup):
    """MonthViewWrapper: `month_view` over the whole area, weekday letters, 6 x 7 day cells."""

    CLASS = "android.widget.FrameLayout"
    LETTERS_H = dp(28)

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        View.measure(self, avail_w, avail_h, exact_w, exact_h)
        cell_w, cell_h = self.mw // 7, (self.mh - self.LETTERS_H) // 6
        kids = self.children
        kids[0].measure(self.mw, self.mh, exact_w=self.mw, exact_h=self.mh)
        for child in kids[1:8]:
            child.measure(cell_w, self.LETTERS_H, exact_w=cell_w, exact_h=self.LETTERS_H)
        for child in kids[8:]:
            child.measure(cell_w, cell_h, exact_w=cell_w, exact_h=cell_h)
        return self.mw, self.mh

    def place_children(self, clip):
        x0, y0, _, _ = self.rect
        cell_w, cell_h = self.mw // 7, (self.mh - self.LETTERS_H) // 6
        kids = self.children
        kids[0].place(x0, y0, clip)
        for i, child in enumerate(kids[1:8]):
            child.place(x0 + i * cell_w, y0, clip)
        for i, child in enumerate(kids[8:]):
            row, col = divmod(i, 7)
            child.place(x0 + col * cell_w, y0 + self.LETTERS_H + row * cell_h, clip)


class _YearGrid(ViewGroup):
    """fragment_year.xml's GridLayout: 3 columns, 4 rows, every month 0dp x 0dp with row and column weight
    1, so the cells share the room equally; each cell's margins (yearly_padding_full 6dp at the outer
    edges' inner side, yearly_padding_half 3dp on both sides of the middle column) lie inside it."""

    CLASS = "android.widget.GridLayout"
    COLUMN_MARGINS = ((0, dp(6)), (dp(3), dp(3)), (dp(6), 0))

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        View.measure(self, avail_w, avail_h, exact_w, exact_h)
        for i, child in enumerate(self.children):
            start, end = self.COLUMN_MARGINS[i % 3]
            cell_w, cell_h = self._cell()
            child.measure(cell_w - start - end, cell_h, exact_w=cell_w - start - end, exact_h=cell_h)
        return self.mw, self.mh

    def _cell(self) -> tuple[int, int]:
        pl, pt, pr, pb = self.padding
        return (self.mw - pl - pr) // 3, (self.mh - pt - pb) // 4

    def place_children(self, clip):
        x0, y0, _, _ = self.rect
        pl, pt, _, _ = self.padding
        cell_w, cell_h = self._cell()
        for i, child in enumerate(self.children):
            row, col = divmod(i, 3)
            child.place(x0 + pl + col * cell_w + self.COLUMN_MARGINS[col][0], y0 + pt + row * cell_h, clip)


# ---------------------------------------------------------------------------
# MainActivity


class MainActivity(Activity):
    """The calendar: one of five views, the FAB, the search menu."""

    name = "com.simplemobiletools.calendar.pro.activities.MainActivity"

    def on_create(self) -> None:
        today = self.today()
        #: the day each view shows (its month, week or year follows from it)
        self.shown = today
        self.fab_open = False
        self.selected: list[int] = []
        self.search = SearchMenu(self, on_open=self._collapse_fab)

    # -- state ------------------------------------------------------------------
    def today(self) -> dt.date:
        return m.today_from_ms(self.host.clock_ms())

    @property
    def cal(self) -> m.CalendarData:
        return self.data

    def on_back(self) -> bool:
        if self.fab_open:
            self.fab_open = False
            return True
        if self.selected:
            self.selected = []
            return True
        if self.search.open:
            self.search.close()
            return True
        return False

    def _collapse_fab(self) -> None:
        self.fab_open = False

    def set_view(self, view: str) -> None:
        self.cal.view = view
        self.selected = []
        self.shown = self.today()

    def move(self, step: int) -> None:
        """The arrows and swipes: the next or previous month, day, week or year."""
        view = self.cal.view
        if view in ("month", "monthday"):
            self.shown = m.add_months(self.shown, step)
        elif view == "day":
            self.shown += dt.timedelta(days=step)
        elif view == "week":
            self.shown += dt.timedelta(days=7 * step)
        elif view == "year":
            self.shown = dt.date(self.shown.year + step, 1, 1)

    def go_to_today(self) -> None:
        self.shown = self.today()

    def open_day(self, day: dt.date) -> None:
        self.cal.view = "day"
        self.shown = day

    def showing_today(self) -> bool:
        today, view = self.today(), self.cal.view
        if view == "monthday":
            return self.shown == today
        if view == "month":
            return (self.shown.year, self.shown.month) == (today.year, today.month)
        if view == "day":
            return self.shown == today
        if view == "week":
            first = self.cal.first_weekday
            return m.week_start(self.shown, first) == m.week_start(today, first)
        if view == "year":
            return self.shown.year == today.year
        return True

    # -- actions -------------------------------------------------------------------
    def fab_clicked(self) -> None:
        if self.fab_open:
            self.fab_open = False
            self.new_event()
        else:
            self.fab_open = True

    def new_event(self) -> None:
        self.fab_open = False
        self.start(EventActivity, day=self._new_item_day())

    def new_task(self) -> None:
        self.fab_open = False
        self.start(TaskActivity, day=self._new_item_day())

    def _new_item_day(self) -> dt.date:
        # A new event starts on the shown (selected) day in the daily views, else today.
        return self.shown if self.cal.view in ("day", "monthday") else self.today()

    def show_change_view(self) -> None:
        keys = [key for key, _ in m.VIEWS]
        radio_dialog(self, [label for _, label in m.VIEWS], keys.index(self.cal.view),
                     lambda i: self.set_view(keys[i]))

    def toggle_selected(self, event_id: int) -> None:
        if event_id in self.selected:
            self.selected.remove(event_id)
        else:
            self.selected.append(event_id)

    def open_item(self, event: m.Event) -> None:
        if self.selected:
            self.toggle_selected(event.id)
        else:
            self.start(TaskActivity if event.is_task else EventActivity, event_id=event.id)

    def delete_selected(self) -> None:
        ids = list(self.selected)

        def delete(_d: Dialog) -> None:
            self.cal.delete(ids)
            self.selected = []

        self.show_dialog(Dialog(
            body=lambda: LinearLayout(
                TextView("Are you sure you want to proceed with the deletion?", "delete_event_description",
                         width=MATCH, padding=(dp(24), dp(20), dp(24), dp(8))),
                id="delete_event_holder"),
            positive=("Yes", delete), negative="No"))

    # -- screen ----------------------------------------------------------------------
    def _menu_items(self) -> list[MenuItem]:
        """menu_main as MainActivity.refreshMenuItems shows it.

        The filter needs more than one event type or an empty ``config.displayEventTypes``;
        a fresh install has the one "Regular event" type, which EventsDatabase.insertRegularEventType
        adds to displayEventTypes (managing event types is not modelled).  CalDAV sync is off.
        """
        view = self.cal.view
        hidden = ["filter", "refresh_caldav_calendars", *FDROID_HIDDEN]
        if self.showing_today() or self.search.open:
            hidden.append("go_to_today")
        if view == "monthday":
            hidden.append("print")
        if view == "list":
            hidden.append("go_to_date")
        return menu(APP, "menu_main", {
            "go_to_today": self.go_to_today, "change_view": self.show_change_view,
            "go_to_date": self._pick_date, "print": lambda: self.toast("No app found"),
            "add_holidays": lambda: self.toast("No app found"),
            "add_birthdays": lambda: self.toast("No contacts found"),
            "add_anniversaries": lambda: self.toast("No contacts found"),
            "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(AboutActivity)},
            hide=hidden)

    def _pick_date(self) -> None:
        DatePickerDialog(self, self.shown, self._go_to_date)

    def _go_to_date(self, day: dt.date) -> None:
        self.shown = day

    def build(self) -> View:
        searching = self.search.open or bool(self.search.query)
        selecting = bool(self.selected) and self.cal.view == "list"
        top = self._action_mode() if selecting else self.search.build(self._menu_items())
        holder_children: list[View] = [
            FrameLayout(
                FrameLayout(self._fragment(), id="fragments_holder", height=MATCH),
                id="swipe_refresh_layout", class_name=SWIPE_REFRESH_LAYOUT, height=MATCH),
        ]
        if not searching and not selecting:
            holder_children += self._fab()
        content: list[View] = [FrameLayout(*holder_children, id="main_holder", class_name=CONSTRAINT_LAYOUT,
                                           height=MATCH)]
        if searching:
            content.append(self._search_holder())
        return Column(
            top,
            FrameLayout(*content, id="calendar_coordinator", class_name=COORDINATOR_LAYOUT, weight=1,
                        height=MATCH),
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _action_mode(self) -> View:
        """EventListAdapter's action mode (cab_event_list; its prepareActionMode changes nothing)."""
        count = len(self.selected)
        total = len(self.cal.upcoming(self.today()))
        items = menu(APP, "cab_event_list", {"cab_share": lambda: self.toast("No app found"),
                                             "cab_delete": self.delete_selected}, kind=ACTION_MODE)
        return action_mode_bar(self, f"{count} / {total}", items, on_close=lambda: setattr(self, "selected", []),
                               on_title=(lambda: setattr(self, "selected", [])) if count >= total
                               else self._select_all)

    def _select_all(self) -> None:
        self.selected = [e.id for e in self.cal.upcoming(self.today())]

    def _fab(self) -> list[View]:
        fab = FloatingActionButton("calendar_fab", desc="New Event", icon="plus", on_click=self.fab_clicked)
        if not self.fab_open:
            return [fab]
        fab_right = dp(16) + dp(56) + dp(8)
        return [
            View("fab_extended_overlay", height=MATCH, bg=None, on_click=self._collapse_fab, focusable=True,
                 class_name="android.widget.RelativeLayout"),
            TextView("Event", "fab_event_label", size=sp(20), layout_gravity="bottom|end", on_click=self.new_event,
                     padding=(dp(8), dp(4), dp(16), dp(4)), margin=(0, 0, fab_right, dp(16) + dp(12)),
                     bg=(255, 255, 255), radius=dp(4)),
            ImageView("fab_task_icon", icon="check", tint=(255, 255, 255), bg=ACCENT, radius=dp(20),
                      width=dp(40), height=dp(40), layout_gravity="bottom|end", on_click=self.new_task,
                      margin=(0, 0, dp(24), dp(16) + dp(56) + dp(16))),
            TextView("Task", "fab_task_label", size=sp(20), layout_gravity="bottom|end", on_click=self.new_task,
                     padding=(dp(8), dp(4), dp(16), dp(4)), margin=(0, 0, fab_right, dp(16) + dp(56) + dp(20)),
                     bg=(255, 255, 255), radius=dp(4)),
            fab,
        ]

    def _search_holder(self) -> View:
        query = self.search.query
        children: list[View] = []
        if len(query) < 2:
            children.append(TextView("Type in at least 2 characters to start the search.", "search_placeholder_2",
                                     size=sp(18), color=TEXT_SECONDARY, width=MATCH, gravity="center",
                                     padding=(dp(16), dp(16))))
        else:
            found = self.cal.search(query)
            if found:
                children.append(RecyclerView(*self._event_rows(found), id="search_results_list"))
            else:
                children.append(TextView("No items found.", "search_placeholder", size=sp(18), color=TEXT_SECONDARY,
                                         width=MATCH, gravity="center", padding=(dp(16), dp(16))))
        return Column(*children, id="search_holder", class_name="android.widget.RelativeLayout", height=MATCH,
                      bg=(255, 255, 255), clickable=True)

    # -- the five views ---------------------------------------------------------------
    def _fragment(self) -> View:
        view = self.cal.view
        if view == "day":
            return self._day_view()
        if view == "week":
            return self._week_view()
        if view == "year":
            return self._year_view()
        if view == "list":
            return self._list_view()
        if view == "monthday":
            return self._month_day_view()
        return self._month_view()

    def _top_navigation(self, title: str) -> list[View]:
        arrow = dict(width=dp(56), height=NAV_H, tint=TEXT_SECONDARY)
        return [Row(
            ImageView("top_left_arrow", icon="back", on_click=lambda: self.move(-1), **arrow),
            TextView(title, "top_value", size=sp(22), weight=1, width=MATCH, gravity="center", height=NAV_H,
                     on_click=self._pick_date, max_lines=1),
            ImageView("top_right_arrow", icon="forward", on_click=lambda: self.move(1), **arrow),
            height=NAV_H)]

    def _month_title(self, day: dt.date) -> str:
        name = m.MONTHS[day.month - 1]
        return name if day.year == self.today().year else f"{name} {day.year}"

    def _month_grid(self, wrapper_id: str, on_day, selected: dt.date | None = None, **kw) -> View:
        """MonthViewWrapper: `month_view`, weekday letters and the 42 clickable day cells."""
        month = dt.date(self.shown.year, self.shown.month, 1)
        today = self.today()
        first = self.cal.first_weekday
        letters = [_drawn(TextView(letter, size=sp(14), color=TEXT_SECONDARY, gravity="center", width=MATCH,
                                   max_lines=1))
                   for letter in m.weekday_letters(first)]
        cells = []
        days = m.month_grid(month, first)
        events_by_day = self.cal.by_day(days)
        for day in days:
            inside = day.month == month.month
            texts: list[View] = [_drawn(TextView(
                str(day.day), size=sp(15), bold=day == today, width=MATCH, gravity="center", max_lines=1,
                color=ACCENT if day == today else (TEXT if inside else (190, 190, 190)),
                bg=TODAY_BG if day == today else None, radius=dp(10)))]
            for event in events_by_day[day][:3]:
                texts.append(_drawn(TextView(event.title, size=sp(11), max_lines=1, width=MATCH,
                                             bg=EVENT_BG, padding=(dp(2), 0), margin=(dp(1), dp(1), dp(1), 0))))
            cells.append(Column(*texts, id="month_view_background", class_name="android.view.View",
                                on_click=lambda d=day: on_day(d), focusable=True, key=f"cell-{day.isoformat()}",
                                padding=(0, dp(4), 0, 0), bg=(245, 245, 245) if day == selected else None))
        return _MonthGrid(View("month_view"), *letters, *cells, id=wrapper_id, **kw)

    def _month_view(self) -> View:
        grid = self._month_grid("month_view_wrapper", self.open_day, height=MATCH, weight=1)
        holder = Column(*self._top_navigation(self._month_title(self.shown)), grid, id="month_calendar_holder",
                        class_name="android.widget.RelativeLayout", height=MATCH)
        return _swipeable(FrameLayout(holder, id="fragment_months_viewpager", height=MATCH, focusable=True,
                                      class_name=MY_VIEW_PAGER, clickable=True),
                          self.move)

    def _select_day(self, day: dt.date) -> None:
        """The monthly and daily view: a tap on a day lists its events below the month."""
        self.shown = day

    def _month_day_view(self) -> View:
        day = self.shown
        events = self.cal.on_day(day)
        grid = self._month_grid("month_day_view_wrapper", self._select_day, selected=day, height=dp(330))
        if events:
            listing: View = RecyclerView(*self._event_rows(events, sections=False), id="month_day_events_list",
                                         weight=1)
        else:
            listing = TextView("No items found.", "month_day_no_events_placeholder", size=sp(16),
                               color=TEXT_SECONDARY, width=MATCH, gravity="center", padding=dp(16))
        holder = Column(
            *self._top_navigation(self._month_title(day)),
            grid,
            Divider("month_day_view_divider"),
            Column(TextView(f"{m.MONTHS[day.month - 1]} {day.day}", "month_day_selected_day_label", size=sp(16),
                            bold=True, padding=(dp(16), dp(8))),
                   listing, id="month_day_list_holder", class_name="android.widget.RelativeLayout", weight=1,
                   height=MATCH),
            id="month_day_calendar_holder", class_name="androidx.constraintlayout.widget.ConstraintLayout",
            height=MATCH)
        return _swipeable(FrameLayout(holder, id="fragment_months_days_viewpager", height=MATCH,
                                      class_name=MY_VIEW_PAGER), self.move)

    def _event_rows(self, events: list[m.Event], sections: bool = True, selectable: bool = False) -> list[View]:
        rows: list[View] = []
        last_day = None
        for event in events:
            if sections and event.day != last_day:
                last_day = event.day
                rows.append(TextView(m.format_section(event.day), "event_section_title", size=sp(15), bold=True,
                                     color=ACCENT, width=MATCH, padding=(dp(16), dp(12), dp(16), dp(4)),
                                     key=f"section-{event.day.isoformat()}"))
            selected = event.id in self.selected
            rows.append(RelativeLayout(
                Row(
                    _drawn(View(width=dp(4), height=dp(40), bg=ACCENT)),
                    ImageView("event_item_task_image", icon="check", tint=TEXT, width=dp(24), height=dp(24),
                              margin=(dp(8), 0, 0, 0)) if event.is_task else None,
                    Column(
                        TextView(event.title, "event_item_title", size=sp(16), max_lines=1, width=MATCH),
                        TextView(event.time_text(), "event_item_time", size=sp(14), color=TEXT_SECONDARY),
                        TextView(event.description, "event_item_description", size=sp(14),
                                 color=TEXT_SECONDARY, max_lines=1) if event.description else None,
                        weight=1, width=MATCH, margin=(dp(12), 0, 0, 0)),
                    padding=(dp(16), dp(8))),
                id="event_item_holder", class_name="androidx.constraintlayout.widget.ConstraintLayout",
                on_click=lambda e=event: self.open_item(e),
                on_long_click=(lambda e=event: self._long_press(e)) if selectable else None,
                long_clickable=True, selected=selected, bg=(255, 224, 214) if selected else None,
                key=f"event-{event.id}"))
        return rows

    def _long_press(self, event: m.Event) -> None:
        if event.id not in self.selected:
            self.selected.append(event.id)

    def _day_view(self) -> View:
        day = self.shown
        title = f"{m.MONTHS[day.month - 1]} {day.day} ({m.WEEKDAYS[day.weekday()]})"
        events = self.cal.on_day(day)
        holder = Column(
            *self._top_navigation(title),
            RecyclerView(*self._event_rows(events, sections=False), id="day_events", weight=1),
            id="day_holder", class_name="android.widget.RelativeLayout", height=MATCH)
        return _swipeable(FrameLayout(holder, id="fragment_days_viewpager", height=MATCH,
                                      class_name=MY_VIEW_PAGER), self.move)

    def _week_view(self) -> View:
        first = m.week_start(self.shown, self.cal.first_weekday)
        days = [first + dt.timedelta(days=i) for i in range(7)]
        today = self.today()
        letters = [Column(
            TextView(m.WEEKDAYS[d.weekday()][0], size=sp(13), color=TEXT_SECONDARY, width=MATCH, gravity="center"),
            TextView(str(d.day), size=sp(16), bold=d == today, color=ACCENT if d == today else TEXT, width=MATCH,
                     gravity="center"),
            weight=1, width=MATCH, key=f"letter-{d.isoformat()}") for d in days]
        columns = []
        for d in days:
            columns.append(Column(*[TextView(e.title, size=sp(11), max_lines=2, width=MATCH, bg=EVENT_BG,
                                             on_click=lambda e=e: self.open_item(e), key=f"wk-{e.id}",
                                             margin=(dp(1), dp(1)))
                                    for e in self.cal.on_day(d)],
                                  weight=1, width=MATCH, key=f"col-{d.isoformat()}"))
        hours = Column(*[TextView(f"{h:02d}:00", size=sp(12), color=TEXT_SECONDARY, height=dp(60),
                                  key=f"h{h}") for h in range(1, 24)], id="week_view_hours_holder", width=dp(48))
        week = Column(
            LinearLayout(*letters, orientation="horizontal", id="week_letters_holder"),
            ScrollView(LinearLayout(*columns, orientation="horizontal", id="week_events_columns_holder",
                                    min_height=dp(60) * 23),
                       id="week_events_scrollview"),
            id="week_holder", class_name="android.widget.RelativeLayout", height=MATCH, weight=1, width=MATCH)
        month_label = m.MONTHS[first.month - 1][:3]
        return Column(
            Row(TextView(month_label, "week_view_month_label", size=sp(14), color=ACCENT, width=dp(48),
                         gravity="center")),
            _swipeable(LinearLayout(
                ScrollView(hours, id="week_view_hours_scrollview", width=dp(48)),
                FrameLayout(week, id="week_view_view_pager", class_name=MY_VIEW_PAGER,
                            weight=1, width=MATCH, height=MATCH),
                orientation="horizontal", weight=1, height=MATCH), self.move),
            id="week_view_holder", class_name="android.widget.RelativeLayout", height=MATCH)

    def _year_view(self) -> View:
        """6.23.1 fragment_year.xml in fragment_years_holder.xml's MyViewPager: top_navigation over the
        `calendar_wrapper` GridLayout (3 x 4, padding yearly_padding_side) of twelve
        small_month_view_holder.xml includes `month_<n>_holder` (a RelativeLayout: `month_label`,
        textAllCaps, primary colour for the current month (YearFragment.markCurrentMonth), over the
        clickable `small_month_view`, a SmallMonthView that paints its day numbers itself)."""
        year = self.shown.year
        today = self.today()
        label_h = line_height(sp(14))
        months = []
        for i in range(1, 13):
            first = dt.date(year, i, 1)
            grid = m.month_grid(first, self.cal.first_weekday)
            weeks = [_drawn(Row(*[_drawn(TextView(str(d.day) if d.month == i else "", size=sp(8), width=MATCH,
                                                  weight=1, gravity="center", max_lines=1,
                                                  color=ACCENT if d == today else TEXT))
                                  for d in grid[w * 7:(w + 1) * 7]])) for w in range(6)]
            months.append(RelativeLayout(
                # the label's text is what AllCapsTransformationMethod shows (as recorded: "JANUARY")
                TextView(m.MONTHS[i - 1].upper(), "month_label", size=sp(14), width=MATCH,
                         gravity="center_horizontal", max_lines=1,
                         color=ACCENT if (year, i) == (today.year, today.month) else TEXT),
                # SmallMonthView has no onMeasure: wrap_content takes the room left below the label
                Column(*weeks, id="small_month_view", class_name="android.view.View", width=MATCH, height=MATCH,
                       margin=(0, label_h, 0, 0), on_click=lambda f=first: self._open_month(f)),
                id=f"month_{i}_holder", key=f"month-{i}"))
        holder = Column(
            *self._top_navigation(str(year)),
            _YearGrid(*months, id="calendar_wrapper", padding=dp(10), weight=1, height=MATCH),
            id="calendar_holder", class_name="android.widget.RelativeLayout", height=MATCH)
        return _swipeable(FrameLayout(holder, id="fragment_years_viewpager", height=MATCH,
                                      class_name=MY_VIEW_PAGER), self.move)

    def _open_month(self, first: dt.date) -> None:
        self.cal.view = "month"
        self.shown = first

    def _list_view(self) -> View:
        events = self.cal.upcoming(self.today())
        if events:
            body: list[View] = [RecyclerView(*self._event_rows(events, selectable=True), id="calendar_events_list")]
        else:
            body = [TextView("No upcoming events.", "calendar_empty_list_placeholder", size=sp(18),
                             color=TEXT_SECONDARY, width=MATCH, gravity="center", padding=(dp(16), dp(40), dp(16), 0)),
                    TextView("Create a new event", "calendar_empty_list_placeholder_2", size=sp(18), color=ACCENT,
                             layout_gravity="center_horizontal", padding=dp(8), on_click=self.new_event)]
        return Column(*body, id="calendar_events_list_holder", class_name="android.widget.RelativeLayout",
                      height=MATCH)


# ---------------------------------------------------------------------------
# the app


class CalendarApp(CommonsApp):
    """Simple Calendar Pro: no events after install, the monthly view first."""

    package = PACKAGE
    label = "Calendar"
    activities = (MainActivity, EventActivity, TaskActivity, SettingsActivity, CustomizationActivity)

    def new_data(self) -> m.CalendarData:
        return m.CalendarData()


__all__ = ["CalendarApp", "EventActivity", "MainActivity", "SettingsActivity", "TaskActivity"]

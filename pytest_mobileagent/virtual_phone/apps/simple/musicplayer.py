"""Simple Music Player (`com.simplemobiletools.musicplayer`) for the virtual phone.

Screens, ids and texts follow the recorded screens of the app (DroidTask,
July 2023) and the app's sources for what they do not show:

* MainActivity: the top search menu (Sort by, Equalizer, and "More options":
  Create new playlist -- on the Playlists tab --, Rescan media, Sleep timer,
  Settings, About), the Playlists, Folders, Artists, Albums, Tracks and
  Genres tabs with their Sort by dialogs and search, the current-track bar
  once a track plays, and selection mode on playlists (Rename, Delete,
  Select all) and tracks (Add to playlist, Select all);
* TracksActivity (the tracks of a playlist, folder, artist, album or genre),
  TrackActivity (the player), EqualizerActivity (its presets, Heavy Metal
  among them), SettingsActivity, and the commons Customize colors, About and
  FAQ screens.

The library is the app's own database, filled by its scanner from the media
store and shared storage (see `musicplayer_model`).
"""

from __future__ import annotations

import posixpath

from ...framework.ui.views import (
    ACCENT,
    ActionMenuView,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
    Button,
    CheckBox,
    Column,
    Divider,
    EditText,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    MenuItem,
    RadioButton,
    RadioGroup,
    RecyclerView,
    RelativeLayout,
    Row,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.intents import ACTION_VIEW, IntentFilter
from ...framework.ui.text import line_height
from . import musicplayer_model as m
from ...framework.app import Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER
from ..commons.commons_app import CommonsApp
from ..commons.bottom_sheet import BottomSheetDialog
from ..commons.commons_files import show_folder_picker
from ..commons.commons_intents import share_paths
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..commons.simple_commons import (
    ActionMode,
    CustomizationActivity,
    SimpleAboutActivity,
    bottom_tabs,
    radio_group_dialog,
    section_label,
    sorted_by,
    top_search_menu,
    value_row,
)

APP = "musicplayer"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.musicplayer"
TAB_ICONS = ("playlist", "folder", "artist", "album", "note", "genre")
PREFIX = {m.PLAYLISTS: "playlists", m.FOLDERS: "folders", m.ARTISTS: "artists", m.ALBUMS: "albums",
          m.TRACKS: "tracks", m.GENRES: "genres"}


def rescan(activity: Activity) -> None:
    host = activity.host
    m.refresh(activity.app.data, host.fs, getattr(host, "media_store", None), int(host._clock_ms()) // 1000)


def sort_dialog(activity: Activity, sorting: m.Sorting, fields: tuple[str, ...],
                use_for_this_only: tuple[str, bool] | None = None, on_ok=None) -> None:
    """The app's Sort by dialog (ChangeSortingDialog, dialog_change_sorting.xml): a field, then Ascending /
    Descending, hidden while "Custom" is checked; for a playlist's or folder's tracks also the
    "Use for this playlist/folder only" checkbox (``use_for_this_only``: its text and state). OK applies
    the choice to ``sorting``, or hands (field, descending, only) to ``on_ok``."""
    state = {"custom": sorting.field == "Custom"}

    def changed(index: int) -> None:
        state["custom"] = fields[index] == "Custom"  # sortingOrderDivider / radio order beVisibleIf(!custom)

    def body() -> View:
        extra: list[View] = []
        if use_for_this_only is not None:
            extra = [Divider("use_for_this_playlist_divider", margin=(0, dp(4))),
                     CheckBox(use_for_this_only[0], "sorting_dialog_use_for_this_only",
                              checked=use_for_this_only[1])]
        return ScrollView(
            LinearLayout(
                RadioGroup(*[RadioButton(f) for f in fields], id="sorting_dialog_radio_sorting",
                           checked_index=fields.index(sorting.field) if sorting.field in fields else 0,
                           on_checked_change=changed),
                Divider("sorting_order_divider", margin=(0, dp(4)), visible=not state["custom"]),
                RadioGroup(RadioButton("Ascending", "sorting_dialog_radio_ascending"),
                           RadioButton("Descending", "sorting_dialog_radio_descending"),
                           id="sorting_dialog_radio_order", checked_index=1 if sorting.descending else 0,
                           visible=not state["custom"]),
                *extra,
                id="sorting_dialog_holder", padding=(dp(16), dp(16), dp(16), 0)),
            id="sorting_dialog_scrollview", height=WRAP, focusable=False)

    def ok(d: Dialog) -> None:
        field_name = fields[max(0, d.find("sorting_dialog_radio_sorting").checked_index)]
        descending = d.find("sorting_dialog_radio_order").checked_index == 1
        if on_ok is not None:
            box = d.find("sorting_dialog_use_for_this_only")
            on_ok(field_name, descending, bool(box is not None and box.checked))
        else:
            sorting.field, sorting.descending = field_name, descending

    activity.show_dialog(Dialog("Sort by", body, positive=("OK", ok), negative="Cancel"))


def track_row(track: m.Track, on_click, on_long_click=None, selected: bool = False, current: bool = False,
              numbered: bool = False) -> View:
    """A track: its image (or, in an album, its number), title and duration."""
    lead = (TextView(str(track.number), "track_id", size=sp(16), width=dp(38), padding=(dp(8), 0, 0, 0))
            if numbered else ImageView("track_image", icon="note", width=dp(40), height=dp(40), margin=(dp(12), 0)))
    return Row(
        lead,
        TextView(track.title, "track_title", size=sp(16), max_lines=1, weight=1, width=MATCH,
                 color=ACCENT if current else TEXT),
        TextView(_duration(track.duration),
                 "track_duration", size=sp(16), padding=(dp(12), 0, dp(8), 0)),
        # item_track.xml's LinearLayout since db1f6140 (5.18.2; a ConstraintLayout before)
        id="track_frame", class_name="android.widget.LinearLayout", height=dp(72), selected=selected,
        bg=(255, 224, 214) if selected else None, on_click=on_click, on_long_click=on_long_click or (lambda: None),
        key=track.path)


def _duration(seconds: int) -> str:
    minutes, secs = divmod(max(0, int(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def tracks_summary(tracks) -> str:
    """"2 Tracks • 0:00:17": the count and total length shown over an album's or artist's tracks."""
    total = sum(t.duration for t in tracks)
    return f"{m.count(len(tracks), 'Track')} • {total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"


def album_row(group: m.Group, on_click) -> View:
    return FrameLayout(
        Row(ImageView("album_image", icon="album", width=dp(80), height=dp(80), margin=(dp(12), 0)),
            Column(TextView(group.title, "album_title", size=sp(16), max_lines=1, width=MATCH),
                   TextView(m.count(len(group.tracks), "Track"), "album_tracks", size=sp(14), color=TEXT_SECONDARY,
                            width=MATCH),
                   weight=1, width=MATCH),
            id="album_holder", class_name=CONSTRAINT_LAYOUT, height=dp(104)),
        id="album_frame", on_click=on_click, on_long_click=lambda: None, key=f"album-{group.title}")


class MainActivity(Activity):
    name = "com.simplemobiletools.musicplayer.activities.MainActivity"

    def on_create(self) -> None:
        self.query = ""
        self.playlist_selection = ActionMode()
        self.track_selection = ActionMode()
        # 5.18.3's MainActivity.onCreate runs refreshMenuItems() before initFragments() gives the
        # view pager its adapter, so getCurrentFragment() is null and the playlist items are hidden
        # on every tab; the restored page does not refresh them either (ViewPager.setCurrentItemInternal
        # dispatches onPageSelected only for another page, and before the first layout, when
        # ViewPagerAdapter.setPrimaryItem has not run yet). They show after a tab change.
        self.menu_refreshed = False
        rescan(self)

    @property
    def visible_tabs(self) -> list[int]:
        """Constants.tabsList filtered by Config.showTabs (Context.getVisibleTabs)."""
        return [tab for tab in range(len(m.TABS)) if tab in self.data.shown_tabs]

    @property
    def page(self) -> int:
        """The shown tab (a TABS index) at the view pager's position."""
        tabs = self.visible_tabs
        return tabs[min(self.data.last_page, len(tabs) - 1)]

    def on_resume(self) -> None:
        self.playlist_selection.finish()
        self.track_selection.finish()

    def on_back(self) -> bool:
        if self.playlist_selection.active or self.track_selection.active:
            self.on_resume()
            return True
        if self.query:
            self.query = ""
            return True
        return False

    def select_page(self, index: int) -> None:
        """A tab tapped: MainActivity.setupTabs' tabSelectedAction closes the search first (Commons'
        MySearchMenu.closeSearch: the text cleared, hideKeyboard: the keyboard hidden, focus cleared),
        then moves the view pager (onPageSelected finishes the action modes)."""
        self.close_search()
        if index != self.data.last_page:  # onPageSelected -> refreshMenuItems, the pager laid out
            self.menu_refreshed = True
        self.data.last_page = index
        self.on_resume()

    def close_search(self) -> None:
        self.query = ""
        if self.host.ime.shown and self.host.ime.target is self.window:
            self.host.ime.hide()
        self.window.set_focus(None)

    def search(self, text: str) -> None:
        self.query = text

    def matches(self, title: str) -> bool:
        return self.query.casefold() in title.casefold()

    # -- menu -----------------------------------------------------------------------------
    def _menu(self) -> list[MenuItem]:
        """menu_main as MainActivity.refreshMenuItems shows it (the playlist items on the Playlists tab only,
        once a tab change has refreshed them)."""
        playlists = self.menu_refreshed and self.page == m.PLAYLISTS
        return menu(APP, "menu_main", {
            "sort": self.show_sort, "equalizer": lambda: self.start(EqualizerActivity),
            "create_new_playlist": self.create_playlist,
            "create_playlist_from_folder": self.create_playlist_from_folder,
            "import_playlist": lambda: self.toast("No app found"), "rescan_media": self.rescan_media,
            "sleep_timer": self.sleep_timer, "settings": lambda: self.start(SettingsActivity),
            "about": lambda: self.start(SimpleAboutActivity)},
            hide=[*FDROID_HIDDEN,
                  *(() if playlists else ("create_new_playlist", "create_playlist_from_folder", "import_playlist"))])

    def create_playlist_from_folder(self) -> None:
        """MainActivity.createPlaylistFromFolder: Commons' FilePickerDialog for a folder, then NewPlaylistDialog;
        the new playlist gets the folder's tracks, sub-folders included (getFolderTrackPaths)."""
        def picked(folder: str) -> None:
            prefix = folder.rstrip("/") + "/"
            tracks = [t.path for t in self.data.tracks if t.path.startswith(prefix)]
            self.create_playlist(then=lambda playlist: playlist.paths.extend(
                path for path in tracks if path not in playlist.paths))

        show_folder_picker(self, "/storage/emulated/0", False, picked)

    def rescan_media(self) -> None:
        rescan(self)
        if not self.data.tracks:
            self.toast("No items found.")

    def sleep_timer(self) -> None:
        """MainActivity.showSleepTimer: 5/10/20/30 minutes, 1 hour, the last other length, Custom."""
        items = [(5 * 60, "5 minutes"), (10 * 60, "10 minutes"), (20 * 60, "20 minutes"), (30 * 60, "30 minutes"),
                 (60 * 60, "1 hour")]
        last = self.data.last_sleep_seconds
        if all(seconds != last for seconds, _ in items):
            minutes = last // 60
            items.append((last, f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"))
        items.sort()
        items.append((-1, "Custom"))
        checked = next((i for i, (seconds, _) in enumerate(items) if seconds == last), -1)

        def picked(index: int) -> None:
            seconds = items[index][0]
            if seconds == -1:
                self.custom_sleep_timer()
            elif seconds > 0:
                self.picked_sleep_timer(seconds)

        radio_group_dialog(self, [label for _, label in items], checked, picked)

    def picked_sleep_timer(self, seconds: int) -> None:
        """MainActivity.pickedSleepTimer: Config.lastSleepTimerSeconds and sleepInTS."""
        self.data.last_sleep_seconds = seconds
        self.data.sleep_at_ms = self.host.clock_ms() + seconds * 1000

    def custom_sleep_timer(self) -> None:
        """SleepTimerCustomDialog (dialog_custom_sleep_timer_picker.xml): "Sleep timer", a number field
        hinted "Minutes" (R.string.minutes_raw capitalised) with the keyboard up; OK starts the timer
        for that many minutes when more than 0 (an empty field counts 0); Cancel does nothing."""
        def ok(d: Dialog) -> None:
            # inputType="number": the field takes digits only (DigitsKeyListener)
            digits = "".join(c for c in d.find("minutes").text if c.isdigit())
            seconds = int(digits or "0") * 60
            if seconds > 0:
                self.picked_sleep_timer(seconds)

        self.show_dialog(Dialog("Sleep timer", lambda: LinearLayout(
            LinearLayout(FrameLayout(EditText("", "minutes", hint="Minutes", autofocus=True)), id="minutes_hint"),
            id="dialog_custom_sleep_timer_holder", padding=(dp(16), dp(16), dp(16), 0)),
            positive=("OK", ok), negative="Cancel"))

    def stop_sleep_timer(self) -> None:
        self.data.sleep_at_ms = 0

    def _sleep_timer_bar(self) -> View | None:
        """activity_main's sleep_timer_holder: "Sleep timer", the time left (getFormattedDuration), a cross."""
        if not self.data.sleep_at_ms:
            return None
        left = max(0, (self.data.sleep_at_ms - self.host.clock_ms()) // 1000)
        if left == 0:
            self.data.sleep_at_ms = 0  # the service stops playback; sleepTimerChanged(0) finishes the activity
            return None
        value = f"{left // 3600:02d}:{left // 60 % 60:02d}:{left % 60:02d}" if left >= 3600 else \
            f"{left // 60:02d}:{left % 60:02d}"
        return Row(
            ImageView("sleep_timer_divider_top", width=dp(1), height=dp(1)),
            ImageView("sleep_timer_divider_start", width=dp(1), height=dp(40)),
            TextView("Sleep timer", "sleep_timer_label", size=sp(16), padding=(dp(12), 0)),
            TextView(value, "sleep_timer_value", size=sp(16)),
            ImageView("sleep_timer_stop", icon="close", tint=TEXT, width=dp(40), height=dp(40),
                      on_click=self.stop_sleep_timer, margin=(dp(4), 0)),
            id="sleep_timer_holder", class_name=CONSTRAINT_LAYOUT, width=WRAP, height=WRAP,
            layout_gravity="end", gravity="center_vertical", clickable=True)

    def show_sort(self) -> None:
        sort_dialog(self, self.data.sorting[self.page], m.SORT_FIELDS[self.page])

    def create_playlist(self, then=None) -> None:
        def ok(d: Dialog) -> bool:
            try:
                playlist = self.data.add_playlist(d.find("new_playlist_title").text)
            except m.LibraryError as exc:
                self.toast(str(exc))
                return False
            if then is not None:
                then(playlist)
            return True

        self.show_dialog(Dialog("Create new playlist", lambda: LinearLayout(
            LinearLayout(FrameLayout(EditText("", "new_playlist_title", hint="Title", autofocus=True)),
                         id="new_playlist_hint"),
            id="new_playlist_dialog_holder", padding=(dp(16), dp(16), dp(16), 0)),
            positive=("OK", ok), negative="Cancel"))

    # -- screen ---------------------------------------------------------------------------------
    def build(self) -> View:
        page = self.page
        if page == m.PLAYLISTS and self.playlist_selection.active:
            top = self.playlist_selection.bar(self, len(self.data.playlists), self._playlist_actions())
        elif page == m.TRACKS and self.track_selection.active:
            top = self.track_selection.bar(self, len(self.data.tracks), self._track_actions())
        else:
            top = top_search_menu(self, query=self.query, on_query=self.search, items=self._menu())
        pager = FrameLayout(self._page(page), id="view_pager", class_name=MY_VIEW_PAGER, weight=1, height=MATCH)
        pager.scrollable = True  # type: ignore[misc] - swipeable between tabs
        holder: list[View] = [pager]
        sleep_bar = self._sleep_timer_bar()
        if sleep_bar is not None:
            holder.append(sleep_bar)
        current = self.data.track(self.data.current)
        if current is not None:
            holder.append(current_track_bar(self, current))
        tabs = self.visible_tabs
        holder.append(bottom_tabs([m.TABS[t] for t in tabs], [TAB_ICONS[t] for t in tabs], tabs.index(page),
                                  self.select_page))
        return Column(
            top,
            RelativeLayout(Column(*holder, id="main_holder", class_name=CONSTRAINT_LAYOUT, height=MATCH),
                           id="main_nested_scrollview", weight=1, height=MATCH),
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _page(self, page: int) -> View:
        """One tab's fragment (5.18.3 fragment_<tab>.xml, a RelativeLayout): the fast scroller with its
        list, and the "No items found." placeholder that setupFragment/onSearchQueryChanged make visible
        when the list is empty (beVisibleIf(items.isEmpty())).  Only FoldersFragment also hides the list
        (foldersFastscroller.beGoneIf(foldersPlaceholder.isVisible())); the other tabs keep their empty
        list under the text, as the recorded screens show (DroidTask musicplayer states)."""
        prefix = PREFIX[page]
        items = self._items(page)
        scroller = RelativeLayout(RecyclerView(*items, id=f"{prefix}_list", height=MATCH),
                                  id=f"{prefix}_fastscroller", height=MATCH)
        if items:
            return RelativeLayout(scroller, id=f"{prefix}_fragment_holder", height=MATCH)
        # MyTextView, bigger_text_size (16sp), paddingTop/Start/End activity_margin, no bottom padding
        size, pad = sp(16), dp(16)
        placeholder = TextView("No items found.", f"{prefix}_placeholder", width=MATCH, gravity="center",
                               size=size, color=TEXT_SECONDARY, padding=(pad, pad, pad, 0))
        if page == m.FOLDERS:
            return RelativeLayout(placeholder, id=f"{prefix}_fragment_holder", height=MATCH)
        if page != m.PLAYLISTS:
            # fragment_albums/artists/tracks.xml: the placeholder comes first, then the fast scroller
            return RelativeLayout(placeholder, scroller, id=f"{prefix}_fragment_holder", height=MATCH)
        # fragment_playlists.xml: the fast scroller, the placeholder, then playlists_placeholder_2
        # (layout_below the placeholder; PlaylistsFragment shows it whenever the list is empty, searching too)
        create = TextView("Create new playlist", "playlists_placeholder_2", color=ACCENT, size=size,
                          layout_gravity="center_horizontal", padding=pad,
                          margin=(0, pad + line_height(size), 0, 0), on_click=self.create_playlist)
        return RelativeLayout(scroller, placeholder, create, id=f"{prefix}_fragment_holder", height=MATCH)

    def _items(self, page: int) -> list[View]:
        data = self.data
        sorting = data.sorting[page]
        if page == m.PLAYLISTS:
            pairs = [(p, data.playlist_tracks(p)) for p in data.playlists if self.matches(p.title)]
            pairs = sorted_by(pairs, m.sort_key(page, sorting.field), sorting.descending)
            return [self._playlist_row(p, tracks) for p, tracks in pairs]
        if page == m.TRACKS:
            tracks = sorted_by([t for t in data.tracks if self.matches(t.title)], m.sort_key(page, sorting.field),
                               sorting.descending)
            mode = self.track_selection
            return [track_row(t, on_click=lambda t=t: self.tap_track(t, tracks),
                              on_long_click=lambda t=t: self.long_tap(mode, t.path),
                              selected=t.path in mode.selected, current=t.path == data.current) for t in tracks]
        found = [g for g in m.groups(data.tracks, page) if self.matches(g.title)]
        found = sorted_by(found, m.sort_key(page, sorting.field), sorting.descending)
        return [self._group_row(page, g) for g in found]

    def _playlist_row(self, playlist: m.Playlist, tracks: list[m.Track]) -> View:
        mode = self.playlist_selection
        key = str(playlist.id)

        def tap() -> None:
            if mode.active:
                mode.toggle(key)
            else:
                self.start(TracksActivity, kind="playlist", playlist=playlist.id)

        chosen = key in mode.selected
        return Column(
            TextView(playlist.title, "playlist_title", size=sp(16), width=MATCH, max_lines=1),
            TextView(m.count(len(tracks), "Track"), "playlist_tracks", size=sp(14), color=TEXT_SECONDARY, width=MATCH),
            id="playlist_frame", class_name=CONSTRAINT_LAYOUT, padding=(dp(8), dp(16)), selected=chosen,
            bg=(255, 224, 214) if chosen else None, on_click=tap, on_long_click=lambda: self.long_tap(mode, key),
            key=f"playlist-{playlist.id}")

    def _group_row(self, page: int, group: m.Group) -> View:
        def tap() -> None:
            if page == m.ARTISTS:
                self.start(AlbumsActivity, artist=group.title)
            else:
                self.start(TracksActivity, kind=page, title=group.title)

        if page == m.ALBUMS:
            return album_row(group, tap)

        if page == m.FOLDERS:
            return Column(
                TextView(group.title, "folder_title", size=sp(16), width=MATCH, max_lines=1),
                TextView(m.count(len(group.tracks), "Track"), "folder_tracks", size=sp(14), color=TEXT_SECONDARY,
                         width=MATCH),
                id="folder_frame", class_name=CONSTRAINT_LAYOUT, padding=(dp(8), dp(16)), on_click=tap,
                on_long_click=lambda: None, key=f"folder-{group.title}")
        name = {m.ARTISTS: "artist", m.GENRES: "genre"}[page]
        if page == m.ARTISTS:
            detail = f"{m.count(group.album_count, 'Album')}, {m.count(len(group.tracks), 'Track')}"
            detail_id = "artist_albums_tracks"
        else:
            detail, detail_id = m.count(len(group.tracks), "Track"), f"{name}_tracks"
        return FrameLayout(
            Row(ImageView(f"{name}_image", icon=name, width=dp(80), height=dp(80), margin=(dp(12), 0)),
                Column(TextView(group.title, f"{name}_title", size=sp(16), max_lines=1, width=MATCH),
                       TextView(detail, detail_id, size=sp(14), color=TEXT_SECONDARY, width=MATCH),
                       weight=1, width=MATCH),
                id=f"{name}_holder", class_name="android.view.ViewGroup", height=dp(104)),
            id=f"{name}_frame", on_click=tap, on_long_click=lambda: None, key=f"{name}-{group.title}")

    # -- playing and selecting ------------------------------------------------------------------
    def tap_track(self, track: m.Track, tracks: list[m.Track]) -> None:
        mode = self.track_selection
        if mode.active:
            mode.toggle(track.path)
        else:
            play(self, track, tracks)

    @staticmethod
    def long_tap(mode: ActionMode, key: str) -> None:
        if key not in mode.selected:
            mode.toggle(key)

    def _playlist_actions(self) -> list[MenuItem]:
        """cab_playlists as PlaylistsAdapter.prepareActionMode shows it."""
        one = len(self.playlist_selection.selected) == 1
        return menu(APP, "cab_playlists", {"cab_rename": self.rename_playlist, "cab_delete": self.delete_playlists,
                                           "cab_select_all": self.select_all_playlists},
                    hide=() if one else ("cab_rename",), kind=ACTION_MODE)

    def select_all_playlists(self) -> None:
        self.playlist_selection.selected = [str(p.id) for p in self.data.playlists]

    def _chosen_playlists(self) -> list[m.Playlist]:
        wanted = set(self.playlist_selection.selected)
        return [p for p in self.data.playlists if str(p.id) in wanted]

    def delete_playlists(self) -> None:
        chosen = self._chosen_playlists()
        if not chosen:
            return

        def ok(d: Dialog) -> None:
            for playlist in chosen:
                self.data.playlists.remove(playlist)
            self.playlist_selection.finish()

        # PlaylistsAdapter.askConfirmDelete: RemovePlaylistDialog(context) with no playlist, so the general
        # remove_playlist_description (5.18.3 dialog_remove_playlist.xml, strings.xml).  Deleting the files
        # too ("Delete the files too": context.deleteTracks) is not modelled: the playlists go either way.
        self.show_dialog(Dialog(
            "Remove playlist",
            lambda: Column(TextView("This will only remove the selected playlists. The actual files will not "
                                    "be deleted.", "remove_playlist_description", size=sp(16),
                                    padding=(dp(4), 0, dp(16), dp(16))),
                           CheckBox("Delete the files too", "remove_playlist_checkbox", width=MATCH,
                                    padding=(0, dp(4))),
                           id="remove_playlist_dialog_holder", padding=(dp(16), dp(16), dp(16), 0)),
            positive=("OK", ok), negative="Cancel"))

    def rename_playlist(self) -> None:
        chosen = self._chosen_playlists()
        if len(chosen) != 1:
            return
        playlist = chosen[0]

        def ok(d: Dialog) -> bool:
            title = d.find("new_playlist_title").text.strip()
            if not title:
                self.toast("Please enter a name")
                return False
            if any(p.title.casefold() == title.casefold() and p is not playlist for p in self.data.playlists):
                self.toast("A playlist with that name already exists")
                return False
            playlist.title = title
            self.playlist_selection.finish()
            return True

        self.show_dialog(Dialog("Rename playlist", lambda: LinearLayout(
            LinearLayout(FrameLayout(EditText(playlist.title, "new_playlist_title", hint="Title", autofocus=True)),
                         id="new_playlist_hint"),
            id="new_playlist_dialog_holder", padding=(dp(16), dp(16), dp(16), 0)),
            positive=("OK", ok), negative="Cancel"))

    def _track_actions(self) -> list[MenuItem]:
        """cab_tracks as TracksAdapter.prepareActionMode shows it on the Tracks tab (not a playlist,
        nothing playing, so no "Play next"); Share opens Android's share sheet (BaseMusicAdapter.
        shareFiles); deleting, renaming and the properties of tracks are not modelled (None: the menu closes)."""
        one = len(self.track_selection.selected) == 1
        return menu(APP, "cab_tracks", {
            "cab_delete": None, "cab_share": lambda: share_tracks(self, list(self.track_selection.selected)),
            "cab_properties": None, "cab_rename": None,
            "cab_add_to_playlist": self.add_to_playlist, "cab_add_to_queue": lambda: self.track_selection.finish(),
            "cab_select_all": self.select_all_tracks},
            hide=["cab_remove_from_playlist", "cab_play_next", *(() if one else ("cab_rename",))], kind=ACTION_MODE)

    def select_all_tracks(self) -> None:
        self.track_selection.selected = [t.path for t in self.data.tracks]

    def add_to_playlist(self) -> None:
        paths = list(self.track_selection.selected)
        add_to_playlist_dialog(self, paths, self.track_selection.finish)


def share_tracks(activity: Activity, paths: list[str]) -> None:
    """Activity.shareFiles -> Commons' sharePathsIntent (extensions/Activity.kt at the pinned commit)."""
    share_paths(activity, paths)


def add_to_playlist_dialog(activity: Activity, paths: list[str], done) -> None:
    """SelectPlaylistDialog: pick a playlist (or create one) to add the tracks to."""
    data = activity.data

    def add(playlist: m.Playlist) -> None:
        playlist.paths += [p for p in paths if p not in playlist.paths]
        activity.toast("Tracks added to the playlist" if len(paths) > 1 else "Track added to the playlist")
        done()

    def pick(playlist: m.Playlist) -> None:
        dialog.dismiss()
        add(playlist)

    def create() -> None:
        dialog.dismiss()
        activity.create_playlist(then=add)

    playlists = [p for p in data.playlists if p.id != 0]
    dialog = activity.show_dialog(Dialog(body=lambda: ScrollView(
        Column(RadioGroup(*[RadioButton(p.title, on_click=lambda p=p: pick(p)) for p in playlists],
                          id="dialog_select_playlist_linear"),
               Divider("dialog_select_playlist_divider"),
               RadioButton("Create new playlist", "dialog_select_playlist_new_radio", on_click=create),
               padding=(dp(16), dp(8))),
        id="dialog_select_playlist_holder", height=WRAP, focusable=False)))


def current_track_bar(activity: Activity, track: m.Track) -> View:
    return Column(
        ImageView("current_track_divider", width=MATCH, height=1, bg=(224, 224, 224)),
        Row(ImageView("current_track_image", icon="note", width=dp(48), height=dp(48), margin=(dp(8), 0)),
            TextView(f"{track.title} • {track.artist}", "current_track_label", max_lines=1, weight=1, width=MATCH),
            ImageView("current_track_play_pause", icon="play", width=dp(48), height=dp(48), on_click=lambda: None),
            height=dp(64)),
        id="current_track_bar", class_name="android.widget.RelativeLayout",
        on_click=lambda: activity.start(TrackActivity))


class TracksActivity(Activity):
    """The tracks of one playlist, folder, artist, album or genre."""

    name = "com.simplemobiletools.musicplayer.activities.TracksActivity"

    def on_create(self) -> None:
        self.query = ""
        self.searching = False
        self.album_sorting = m.Sorting("Track number")

    @property
    def _custom_key(self) -> str | None:
        """The key of this list's own sorting: a playlist's or a folder's (ChangeSortingDialog's playlist / path)."""
        kind = self.extras.get("kind")
        if kind == "playlist":
            return f"playlist:{self.extras.get('playlist')}"
        return f"folder:{self.extras.get('title', '')}" if kind == m.FOLDERS else None

    @property
    def sorting(self) -> m.Sorting:
        """TracksActivity's sorting: a playlist's or folder's own (getProperPlaylistSorting /
        getProperFolderSorting) else Config.playlistTracksSorting; a genre's Config.trackSorting."""
        kind = self.extras.get("kind")
        if kind == m.ALBUMS:
            return self.album_sorting
        if kind == m.GENRES:
            return self.data.sorting[m.TRACKS]
        return self.data.custom_sorting.get(self._custom_key, self.data.playlist_tracks_sorting)

    def show_sort(self) -> None:
        """ChangeSortingDialog(ACTIVITY_PLAYLIST_FOLDER): the Tracks fields, "Custom" for a playlist, and
        "Use for this playlist/folder only" for a playlist or folder (dialogConfirmed)."""
        playlist = self.extras.get("kind") == "playlist"
        key = self._custom_key
        fields = m.SORT_FIELDS[m.TRACKS] + (("Custom",) if playlist else ())
        only = None if key is None else (
            "Use for this playlist only" if playlist else "Use for this folder only", key in self.data.custom_sorting)

        def confirmed(field_name: str, descending: bool, only_this: bool) -> None:
            chosen = m.Sorting(field_name, descending)
            if key is None:
                self.data.sorting[m.TRACKS] = chosen
            elif only_this:
                self.data.custom_sorting[key] = chosen
            else:
                self.data.custom_sorting.pop(key, None)
                self.data.playlist_tracks_sorting = chosen

        sort_dialog(self, self.sorting, fields, only, confirmed)

    def _title_and_tracks(self) -> tuple[str, list[m.Track]]:
        data = self.data
        if self.extras.get("kind") == "playlist":
            playlist = data.playlist(self.extras.get("playlist"))
            if playlist is None:
                return "", []
            return playlist.title, data.playlist_tracks(playlist)
        title = self.extras.get("title", "")
        group = next((g for g in m.groups(data.tracks, self.extras["kind"]) if g.title == title), None)
        return title, list(group.tracks) if group else []

    def build(self) -> View:
        title, tracks = self._title_and_tracks()
        tracks = [t for t in tracks if self.query.casefold() in t.title.casefold()]
        tracks = sorted_by(tracks, m.sort_key(m.TRACKS, self.sorting.field), self.sorting.descending)
        # TracksActivity.refreshMenuItems: the playlist items only for a playlist's tracks.
        playlist = self.extras.get("kind") == "playlist"
        items = menu(APP, "menu_playlist", {
            "search": self.open_search,
            "sort": self.show_sort,
            "add_file_to_playlist": lambda: self.toast("No app found"),
            "add_folder_to_playlist": lambda: self.toast("No app found"),
            "export_playlist": lambda: self.toast("No app found")},
            hide=[*(() if playlist else ("add_file_to_playlist", "add_folder_to_playlist", "export_playlist")),
                  *(("search", "sort") if self.extras.get("kind") == m.ALBUMS else ())])
        header: list[View] = []
        album = self.extras.get("kind") == m.ALBUMS
        rows: list[View] = [track_row(t, on_click=lambda t=t: play(self, t, tracks),
                                      current=t.path == self.data.current, numbered=album) for t in tracks]
        if album and tracks:
            rows.insert(0, Row(
                ImageView("album_image", icon="album", width=dp(160), height=dp(160), margin=dp(16)),
                Column(TextView(title, "album_title", size=sp(20), bold=True, max_lines=1, width=MATCH),
                       TextView(tracks[0].artist, "album_artist", size=sp(16), max_lines=1, width=MATCH),
                       TextView(tracks_summary(tracks), "album_meta", size=sp(14), color=TEXT_SECONDARY, width=MATCH),
                       weight=1, width=MATCH),
                id="album_header_holder", class_name=CONSTRAINT_LAYOUT, on_click=lambda: None,
                on_long_click=lambda: None, key="album-header"))
        if rows:
            body: View = RelativeLayout(RecyclerView(*rows, id="tracks_list"), id="tracks_fastscroller", height=MATCH)
        else:
            body = TextView("No items found.", "tracks_placeholder", width=MATCH, gravity="center",
                            color=TEXT_SECONDARY, padding=dp(16))
        holder: list[View] = [*header, FrameLayout(body, weight=1, height=MATCH)]
        current = self.data.track(self.data.current)
        if current is not None:
            holder.append(current_track_bar(self, current))
        toolbar = self._search_toolbar(items) if self.searching else self.toolbar(
            "tracks_toolbar", title=title, items=items, back=True)
        return Column(
            toolbar,
            Column(*holder, id="tracks_holder", class_name="android.widget.RelativeLayout", weight=1, height=MATCH),
            id="tracks_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _search_toolbar(self, items: list[MenuItem]) -> View:
        """menu_playlist.xml's search item is an androidx SearchView action view (collapseActionView|always);
        expanded, the Toolbar shows its collapse button ("Collapse") in place of the navigation button and
        title, the SearchView, and the menu without the search item (Toolbar.ExpandedActionViewMenuPresenter
        keeps only mMenuView).  abc_search_view.xml: search_bar > search_edit_frame > search_plate >
        search_src_text (hint defaultQueryHint "Search…": TracksActivity has no searchable info) and
        search_close_btn, shown only with text (SearchView.updateCloseButton, expanded in an action view);
        search_button, search_mag_icon and submit_area are gone (updateViewsVisibility(false))."""
        plate: list[View] = [EditText(self.query, "search_src_text", hint="Search…", autofocus=True, weight=1,
                                      width=MATCH, on_text_changed=self._search, key="search_src_text")]
        if self.query:
            plate.append(ImageView("search_close_btn", icon="close", desc="Clear query", width=dp(48),
                                   height=dp(48), on_click=lambda: self._search("")))
        search_view = LinearLayout(
            LinearLayout(
                LinearLayout(
                    LinearLayout(*plate, id="search_plate", orientation="horizontal", weight=1, width=MATCH),
                    id="search_edit_frame", orientation="horizontal", weight=1, width=MATCH),
                id="search_bar", orientation="horizontal", weight=1, width=MATCH),
            orientation="horizontal", class_name="androidx.appcompat.widget.LinearLayoutCompat", weight=1,
            width=MATCH)
        return Row(
            ImageButton(icon="back", desc="Collapse", width=dp(56), height=dp(56), on_click=self.on_back,
                        margin=(0, 0, dp(4), 0)),
            search_view,
            ActionMenuView([i for i in items if i.id != "search"],
                           lambda anchor, overflow: self.show_menu(overflow, anchor), margin=(0, 0, dp(4), 0)),
            id="tracks_toolbar", class_name="android.view.ViewGroup", height=dp(64))

    def open_search(self) -> None:
        self.searching = True

    def _search(self, text: str) -> None:
        self.query = text

    def on_back(self) -> bool:
        if self.searching:
            self.searching = False
            self.query = ""
            return True
        return False



class AlbumsActivity(Activity):
    """An artist's albums, then all their tracks, under section headers."""

    name = "com.simplemobiletools.musicplayer.activities.AlbumsActivity"

    def build(self) -> View:
        artist = self.extras.get("artist", "")
        tracks = [t for t in self.data.tracks if t.artist == artist]
        albums = sorted(m.groups(tracks, m.ALBUMS), key=lambda g: g.title.casefold())
        rows: list[View] = []
        if albums:
            rows.append(self._section(m.count(len(albums), "Album")))
            rows += [album_row(g, lambda g=g: self.start(TracksActivity, kind=m.ALBUMS, title=g.title))
                     for g in albums]
            rows.append(self._section(tracks_summary(tracks)))
            shown = sorted(tracks, key=lambda t: t.title.casefold())
            rows += [track_row(t, on_click=lambda t=t: play(self, t, shown), current=t.path == self.data.current)
                     for t in shown]
        body = (RelativeLayout(RecyclerView(*rows, id="albums_list"), id="albums_fastscroller", height=MATCH) if rows
                else TextView("No items found.", "albums_placeholder", width=MATCH, gravity="center", padding=dp(16)))
        return Column(
            self.toolbar("albums_toolbar", title=artist, back=True),
            Column(body, id="albums_holder", class_name="android.widget.RelativeLayout", weight=1, height=MATCH),
            id="albums_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    @staticmethod
    def _section(text: str) -> View:
        return TextView(text, "item_section", size=sp(14), bold=True, color=ACCENT, width=MATCH,
                        padding=(dp(16), dp(16), dp(16), dp(8)), on_click=lambda: None, on_long_click=lambda: None,
                        key=f"section-{text}")



#: PlaybackSetting (helpers/PlaybackSetting.kt): the toast each shows, in nextPlaybackOption's order
PLAYBACK_SETTINGS = ("Repeat off", "Repeat all", "Repeat current song", "Stop playback after current song")


def play(activity: Activity, track: m.Track, tracks: list[m.Track]) -> None:
    """prepareAndPlay: the tapped list becomes the queue, the tapped track plays, TrackActivity opens."""
    data = activity.data
    data.queue = [t.path for t in tracks] or [track.path]
    data.current = track.path
    activity.start(TrackActivity)


def next_in_queue(data) -> m.Track | None:
    """PlaybackService.nextMediaItem: the item after the current one in play order (none at the end with
    repeat off). With shuffle on, ExoPlayer's shuffle order is random; the phone takes the queue order."""
    if data.current not in data.queue:
        return None
    index = data.queue.index(data.current) + 1
    if index >= len(data.queue):
        if data.playback_setting != 1 or not data.queue:  # REPEAT_PLAYLIST wraps around
            return None
        index = 0
    return data.track(data.queue[index])


class TrackActivity(Activity):
    """The player of the current track, as ``activity_track.xml`` and ``TrackActivity.kt`` (5.18.3) draw it."""

    name = "com.simplemobiletools.musicplayer.activities.TrackActivity"

    def on_create(self) -> None:
        self.playing = True
        intent = self.extras.get("intent")
        # isThirdPartyIntent (TrackActivity.onCreate): another app's ACTION_VIEW of an audio file
        self.third_party = intent is not None and intent.action == ACTION_VIEW
        self.track: m.Track | None = None
        if self.third_party:
            self.track = self._track_from_intent(intent)
            if self.track is None:
                self.toast("An unknown error occurred")
                self.finish()
                return
            # prepareAndPlay(listOf(track)): the file alone becomes the queue
            self.data.queue, self.data.current = [self.track.path], self.track.path

    def _track_from_intent(self, intent) -> "m.Track | None":
        """getTrackFromUri: the file's path (getRealPathFromURI: the media store's _data of the sender's
        getFilePublicUri), then the library's track of that path or one read from the file's tags."""
        path = intent.extras.get("real_file_path", "")
        fs = self.host.fs
        if not path or fs is None or not fs.exists(path):
            return None
        known = self.data.track(path)
        if known is not None:
            return known
        stat = fs.stat(path)
        tags = m.read_tags(fs, path, stat.mtime, stat.size)
        name = posixpath.basename(path)
        return m.Track(path, tags.get("title") or posixpath.splitext(name)[0], tags.get("artist") or m.UNKNOWN,
                       tags.get("album") or posixpath.basename(posixpath.dirname(path)), 0, tags.get("genre", ""),
                       0, tags.get("duration", 0), stat.mtime)

    def build(self) -> View:
        data = self.data
        track = self.track if self.third_party else data.track(data.current)
        title, artist = (track.title, track.artist) if track else ("", "")
        length = _duration(track.duration) if track else "00:00"
        setting = data.playback_setting
        # initThirdPartyIntent: no next track; shuffle, previous, next and the playback setting invisible
        next_track = None if self.third_party else next_in_queue(data)
        holder: list[View] = [
            ImageView("activity_track_image", desc="Album", icon="note", width=MATCH, height=dp(300)),
            ImageView("activity_track_top_shadow", width=MATCH, height=dp(80)),
            Row(TextView("00:00", "activity_track_progress_current", padding=dp(16), on_click=lambda: None),
                View("activity_track_progressbar", class_name="android.widget.SeekBar", weight=1, width=MATCH,
                     height=dp(42), clickable=True),
                TextView(length, "activity_track_progress_max", padding=dp(16), on_click=lambda: None)),
            FrameLayout(
                Row(ImageView("activity_track_speed_icon", icon="play", width=dp(24), height=dp(24)),
                    TextView(f"{data.playback_speed:.2f}".rstrip("0").rstrip(".") + "x", "activity_track_speed",
                             padding=(0, dp(12))),
                    width=WRAP, layout_gravity="center_horizontal", gravity="center_vertical"),
                ImageView("activity_track_speed_click_area", width=dp(56), height=dp(56),
                          layout_gravity="center_horizontal", on_click=self.show_speed_picker),
                height=dp(56)),
            TextView(title, "activity_track_title", size=sp(22), bold=True, width=MATCH, gravity="center",
                     padding=(dp(16), dp(16), dp(16), 0), max_lines=1),
            TextView(artist, "activity_track_artist", size=sp(16), color=TEXT_SECONDARY, width=MATCH,
                     gravity="center", max_lines=1),
            Row(ImageView("activity_track_toggle_shuffle", desc="Disable shuffle" if data.shuffle else "Enable shuffle",
                          icon="swap", on_click=self.toggle_shuffle, width=dp(56), height=dp(56)),
                ImageView("activity_track_previous", desc="Previous", icon="previous", on_click=lambda: None,
                          width=dp(56), height=dp(56)),
                ImageView("activity_track_play_pause", desc="Play / Pause", icon="play", on_click=self.toggle,
                          width=dp(72), height=dp(72)),
                ImageView("activity_track_next", desc="Next", icon="next", on_click=self.next, width=dp(56),
                          height=dp(56)),
                # contentDescriptionStringRes: the setting a tap switches to
                ImageView("activity_track_playback_setting", desc=PLAYBACK_SETTINGS[(setting + 1) % 4], icon="dot",
                          on_click=self.toggle_playback_setting, width=dp(56), height=dp(56)),
                gravity="center", width=MATCH, margin=(0, dp(16))),
        ]
        if self.third_party:
            controls = holder[-1]
            # beInvisibleIf: they keep their place but are not drawn nor in the dump
            controls.children = [child if child.id == "activity_track_play_pause"
                                 else View(width=child.width, height=child.height, important=False)
                                 for child in controls.children]
        if next_track is not None:
            known = next_track.artist.strip() and next_track.artist != "<unknown>"
            label = f"Next: {next_track.title}" + (f" • {next_track.artist}" if known else "")
            holder.append(RelativeLayout(
                ImageView("next_track_divider", width=MATCH, height=1),
                ImageView("next_track_image", icon="headset", width=dp(48), height=dp(48),
                          margin=(dp(16), dp(12), 0, dp(12))),
                TextView(label, "next_track_label", max_lines=1, width=MATCH, size=sp(18),
                         margin=(dp(76), dp(24), dp(16), 0)),
                id="next_track_holder", height=dp(72), on_click=lambda: None))
        holder.append(FrameLayout(self.toolbar("activity_track_toolbar", back=True), id="activity_track_appbar",
                                  class_name="android.widget.LinearLayout", height=WRAP))
        return ScrollView(Column(*holder, id="activity_track_holder", class_name=CONSTRAINT_LAYOUT),
                          id="activity_track_Scrollview", height=MATCH)

    def toggle(self) -> None:
        self.playing = not self.playing

    def next(self) -> None:
        following = next_in_queue(self.data)
        if following is not None:
            self.data.current = following.path

    def toggle_shuffle(self) -> None:
        self.data.shuffle = not self.data.shuffle
        self.toast("Shuffle enabled" if self.data.shuffle else "Shuffle disabled")

    def toggle_playback_setting(self) -> None:
        self.data.playback_setting = (self.data.playback_setting + 1) % 4
        self.toast(PLAYBACK_SETTINGS[self.data.playback_setting])

    def show_speed_picker(self) -> None:
        show_playback_speed(self)


#: PlaybackSpeedFragment's seek bar: 0.25x .. 3x in 0.05 steps around 1x at the middle
_MIN_SPEED, _MAX_SPEED, _STEP = 0.25, 3.0, 0.05
_MAX_PROGRESS = int(_MAX_SPEED * 100 + _MIN_SPEED * 100)
_HALF_PROGRESS = _MAX_PROGRESS // 2


def _speed_at(progress: int) -> float:
    """PlaybackSpeedFragment.getPlaybackSpeed."""
    if progress < _HALF_PROGRESS:
        speed = (1 - _MIN_SPEED) * (progress / _HALF_PROGRESS) + _MIN_SPEED
    elif progress > _HALF_PROGRESS:
        speed = (_MAX_SPEED - 1) * (progress / _HALF_PROGRESS - 1) + 1
    else:
        speed = 1.0
    speed = min(max(speed, _MIN_SPEED), _MAX_SPEED)
    return round(speed / _STEP) * _STEP


def show_playback_speed(activity: Activity) -> None:
    """PlaybackSpeedFragment (a bottom sheet): title, slower / faster buttons around the speed, a seek bar."""
    data = activity.data
    if data.playback_speed_progress == -1:
        data.playback_speed_progress = _HALF_PROGRESS

    def step(direction: int) -> None:
        # reduceSpeed / increaseSpeed: move the bar to the next progress that changes the speed
        progress = data.playback_speed_progress
        while 0 < progress < _MAX_PROGRESS or (progress == 0 and direction > 0) or \
                (progress == _MAX_PROGRESS and direction < 0):
            progress += direction
            speed = _speed_at(progress)
            if abs(speed - data.playback_speed) > 1e-6:
                data.playback_speed, data.playback_speed_progress = speed, progress
                return

    def body() -> View:
        return RelativeLayout(
            TextView("Playback speed", "playback_speed_title", size=sp(18), width=MATCH, gravity="center",
                     padding=(0, dp(16))),
            Row(ImageView("playback_speed_slow", icon="previous", width=dp(48), height=dp(48),
                          on_click=lambda: step(-1)),
                TextView(f"{data.playback_speed:.2f}x", "playback_speed_label", size=sp(16), weight=1, width=MATCH,
                         gravity="center"),
                ImageView("playback_speed_fast", icon="next", width=dp(48), height=dp(48), on_click=lambda: step(1)),
                margin=(dp(16), dp(56), dp(16), 0), gravity="center_vertical"),
            View("playback_speed_seekbar", class_name="android.widget.SeekBar", width=MATCH, height=dp(42),
                 clickable=True, margin=(dp(16), dp(112), dp(16), dp(24))),
            id="playback_speed_holder", height=WRAP)

    activity.show_dialog(BottomSheetDialog(body))


class EqualizerActivity(Activity):
    name = "com.simplemobiletools.musicplayer.activities.EqualizerActivity"
    BANDS = ("60 Hz", "230 Hz", "910 Hz", "3.6 kHz", "14 kHz")

    def build(self) -> View:
        bands = [RelativeLayout(
            TextView(label, "equalizer_band_label", layout_gravity="start|center_vertical", size=sp(14)),
            View("equalizer_band_seek_bar", class_name="android.widget.SeekBar", height=dp(50),
                 margin=(dp(70), 0, 0, 0), clickable=True),
            id="equalizer_band_holder", padding=(dp(16), dp(4)), key=label) for label in self.BANDS]
        return Column(
            self.toolbar("equalizer_toolbar", title="Equalizer", back=True),
            ScrollView(Column(
                RelativeLayout(
                    TextView("", "equalizer_label_margin", width=dp(67)),
                    TextView("-15", "equalizer_label_left", margin=(dp(75), 0, 0, 0)),
                    TextView("0", "equalizer_label_0", layout_gravity="center_horizontal"),
                    TextView("+15", "equalizer_label_right", layout_gravity="end"),
                    id="equalizer_db_labels_holder", padding=(dp(16), dp(16), dp(16), 0)),
                Column(*bands, id="equalizer_bands_holder"),
                TextView(self.data.equalizer_preset, "equalizer_preset", size=sp(18), color=ACCENT, bold=True,
                         layout_gravity="center_horizontal", padding=dp(16), on_click=self.pick_preset),
                id="equalizer_holder", class_name=CONSTRAINT_LAYOUT),
                id="equalizer_nested_scrollview", weight=1),
            id="equalizer_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def pick_preset(self) -> None:
        presets = m.EQUALIZER_PRESETS
        current = presets.index(self.data.equalizer_preset) if self.data.equalizer_preset in presets else -1
        radio_group_dialog(self, presets, current, lambda i: setattr(self.data, "equalizer_preset", presets[i]))


class SettingsActivity(Activity):
    name = "com.simplemobiletools.musicplayer.activities.SettingsActivity"

    def build(self) -> View:
        d = self.data
        blocks = [
            section_label("Color customization", "settings_color_customization_section_label"),
            value_row("settings_color_customization", "Customize colors", None,
                      lambda: self.start(CustomizationActivity), class_name=CONSTRAINT_LAYOUT),
            value_row("settings_widget_color_customization", "Customize widget colors", None,
                      lambda: self.start(WidgetConfigureActivity, is_customizing_colors=True),
                      class_name=CONSTRAINT_LAYOUT),
            Divider("settings_color_customization_divider"),
            section_label("General", "settings_general_settings_label"),
            value_row("settings_manage_excluded_folders", "Manage excluded folders", None,
                      lambda: self.start(ExcludedFoldersActivity), label_id="settings_manage_excluded_folders"),
            value_row("settings_manage_shown_tabs", "Manage shown tabs", None, self.manage_shown_tabs),
            settings_checkbox("settings_swap_prev_next", "Swap previous/next headphone buttons", d.swap_prev_next,
                              lambda v: setattr(d, "swap_prev_next", v)),
            value_row("settings_show_filename", "Show filename as song title", d.show_filename, self.pick_filename),
            Divider("settings_general_divider"),
            section_label("Audio", "settings_playback_section_label"),
            settings_checkbox("settings_gapless_playback", "Gapless playback", d.gapless_playback,
                              lambda v: setattr(d, "gapless_playback", v)),
        ]
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def manage_shown_tabs(self) -> None:
        """ManageVisibleTabsDialog (dialog_manage_visible_tabs.xml): a checkbox per tab; OK stores the
        checked ones in Config.showTabs, all of allTabsMask when none is checked. MainActivity.onResume
        then sees another showTabs, resets lastUsedViewPagerPage and exits the process (System.exit)."""
        ids = ("playlists", "folders", "artists", "albums", "tracks", "genres")
        boxes = [CheckBox(m.TABS[tab], f"manage_visible_tabs_{ids[tab]}", checked=tab in self.data.shown_tabs)
                 for tab in range(len(m.TABS))]

        def ok(d: Dialog) -> None:
            shown = frozenset(tab for tab in range(len(m.TABS)) if d.find(f"manage_visible_tabs_{ids[tab]}").checked)
            shown = shown or m.MusicData().shown_tabs
            if shown != self.data.shown_tabs:
                self.data.shown_tabs = shown
                self.data.last_page = 0

        self.show_dialog(Dialog(body=lambda: ScrollView(
            Column(*boxes, id="manage_visible_tabs_holder", padding=(dp(16), dp(16), dp(16), 0)),
            id="manage_visible_tabs_scroll_view", height=WRAP), positive=("OK", ok), negative="Cancel"))

    def pick_filename(self) -> None:
        options = ("Never", "If title is not available", "Always")
        radio_group_dialog(self, options, options.index(self.data.show_filename),
                           lambda i: setattr(self.data, "show_filename", options[i]))


class ExcludedFoldersActivity(Activity):
    """Settings' "Manage excluded folders" (5.18.3 ExcludedFoldersActivity, activity_excluded_folders.xml):
    the excluded folders, none at first (Config.excludedFolders), and the description while none is."""

    name = "com.simplemobiletools.musicplayer.activities.ExcludedFoldersActivity"

    def build(self) -> View:
        return FrameLayout(
            self.toolbar("excluded_folders_toolbar", title="Manage excluded folders", back=True),
            RelativeLayout(
                RecyclerView(id="excluded_folders_list"),
                TextView("Excluding a folder will prevent the displaying of all audio files within. Files manually "
                         "added to playlists will not be affected.", "excluded_folders_placeholder", width=MATCH,
                         gravity="center_horizontal", padding=(dp(32), dp(16), dp(32), 0)),
                id="excluded_folders_wrapper", margin=(0, dp(64), 0, 0)),
            id="excluded_folders_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


class WidgetConfigureActivity(Activity):
    """The widget's colours (5.18.3 WidgetConfigureActivity, layout/widget_config.xml, layout/widget.xml).

    Settings' "Customize widget colors" starts it with IS_CUSTOMIZING_COLORS (SettingsActivity.
    setupCustomizeWidgetColors); without that extra and without a widget id it finishes at once.
    The preview shows the current track, or R.string.artist / R.string.song_title as the source
    sets them (title and artist swapped). OK (config_save) stores the colours and finishes.
    The colour swatches open Commons' ColorPickerDialog, which the phone does not model: a tap on
    them does nothing here, as on CustomizationActivity's colour rows.
    """

    name = "com.simplemobiletools.musicplayer.activities.WidgetConfigureActivity"

    def on_create(self) -> None:
        if not self.extras.get("is_customizing_colors"):
            self.finish()  # mWidgetId == INVALID_APPWIDGET_ID && !isCustomizingColors

    def build(self) -> View:
        track = self.data.track(self.data.current) if self.data.current else None
        title, artist = (track.title, track.artist) if track else ("Artist", "Song title")
        controls = Row(*[ImageView(rid, icon=icon, tint=TEXT, weight=1, width=dp(48), height=dp(48),
                                   padding=(0, dp(8)), clickable=False)
                         for rid, icon in (("previous_btn", "previous"), ("play_pause_btn", "play"),
                                           ("next_btn", "next"))],
                       id="widget_controls", height=dp(64), gravity="center_vertical")
        player = RelativeLayout(
            ImageView("widget_background", width=MATCH, height=dp(128)),
            Column(TextView(title, "song_info_title", width=MATCH, gravity="center", size=sp(20), max_lines=1,
                            margin=(dp(16), 0)),
                   TextView(artist, "song_info_artist", width=MATCH, gravity="center", size=sp(18), max_lines=1,
                            margin=(dp(16), 0)),
                   controls, id="song_info_holder", class_name="android.widget.RelativeLayout",
                   padding=(0, dp(6), 0, 0)),
            id="config_player", margin=(0, dp(16)))
        swatch = dict(icon="dot", tint=ACCENT, width=dp(50), height=dp(50), margin=dp(2))
        return FrameLayout(
            Column(
                player,
                Row(ImageView("config_bg_color", on_click=lambda: None, **swatch),
                    RelativeLayout(View("config_bg_seekbar", class_name="android.widget.SeekBar", height=dp(30),
                                        padding=(dp(16), 0), clickable=True, layout_gravity="center_vertical"),
                                   id="config_bg_seekbar_holder", weight=1, height=dp(50), margin=(dp(8), 0, 0, 0)),
                    gravity="center_vertical"),
                Row(ImageView("config_text_color", on_click=lambda: None, **swatch),
                    View(weight=1, height=1),
                    Button("OK", "config_save", on_click=self.finish)),
                id="config_relative", class_name="android.widget.RelativeLayout", margin=dp(16)),
            id="config_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)


class MusicPlayerApp(CommonsApp):
    """Simple Music Player: an empty library until its scanner finds audio on the phone."""

    package = PACKAGE
    label = "Music Player"
    activities = (MainActivity, TracksActivity, AlbumsActivity, TrackActivity, EqualizerActivity, SettingsActivity,
                  ExcludedFoldersActivity, WidgetConfigureActivity, CustomizationActivity)
    #: AndroidManifest.xml (5.18.3): TrackActivity views audio files (content: and file: URIs)
    intent_filters = ((TrackActivity.name, "", IntentFilter(
        (ACTION_VIEW,), mime_types=("audio/*", "application/ogg", "application/x-ogg", "application/itunes"),
        schemes=("content", "file"))),)


    def new_data(self) -> m.MusicData:
        return m.MusicData()


__all__ = ["AlbumsActivity", "EqualizerActivity", "ExcludedFoldersActivity", "MainActivity", "MusicPlayerApp", "SettingsActivity",
           "TrackActivity", "TracksActivity", "WidgetConfigureActivity"]

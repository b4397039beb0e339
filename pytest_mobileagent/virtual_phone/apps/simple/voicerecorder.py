"""Simple Voice Recorder (`com.simplemobiletools.voicerecorder`) for the virtual phone.

Screens, ids and texts follow the recorded screens of the app (DroidTask,
July 2023) and, for what they do not show (the recycle bin, selection mode,
the rename and delete dialogs), the app's and the commons library's sources:

* MainActivity: the top search menu with Settings and About, a view pager
  with the Recorder tab (`toggle_recording_button` starts and stops a
  recording, which saves a new file in the recorder's folder), the Player tab
  (the recordings, newest first; tap plays, long press starts selection mode
  with Rename -- one item only --, Share, Delete and Select all; the item's
  overflow menu offers the same for that item) and, while "Move items into
  the Recycle Bin" is on, the Recycle Bin tab (Restore, Delete, Select all);
* SettingsActivity: colours, date format, notification, auto-record, folder,
  extension, audio source, bitrate, recycle bin options;
* the commons Customize colors, About and FAQ screens.

Recordings are files (see `voicerecorder_model`), so what the app does shows
through adb too.
"""

from __future__ import annotations

from ...framework.ui.views import (
    ACCENT,
    MATCH,
    TEXT,
    TEXT_SECONDARY,
    WRAP,
    Column,
    Divider,
    FrameLayout,
    ImageView,
    LinearLayout,
    MenuItem,
    RelativeLayout,
    ScrollView,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.ui.views import RecyclerView, CheckBox, EditText
from . import voicerecorder_model as m
from ...framework.app import Activity, Dialog, settings_checkbox
from ...framework.ui.accessibility_class import CONSTRAINT_LAYOUT, COORDINATOR_LAYOUT, MY_VIEW_PAGER
from ..commons.commons_app import CommonsApp
from ..commons.commons_files import show_folder_picker
from ..commons.commons_intents import open_path, share_paths
from ..commons.date_time_format import show_date_time_dialog
from ..commons.storage_format import format_date
from ..menus import ACTION_MODE, FDROID_HIDDEN, menu
from ..commons.simple_commons import (
    ActionMode,
    CustomizationActivity,
    SimpleAboutActivity,
    bottom_tabs,
    confirmation_dialog,
    radio_group_dialog,
    section_label,
    top_search_menu,
    value_row,
)

APP = "voicerecorder"  # its menus in data/menus.json
PACKAGE = "com.simplemobiletools.voicerecorder"
RECORDER, PLAYER, TRASH = 0, 1, 2


def now_ms(activity: Activity) -> int:
    """The phone's clock (the system hands its clock to the UI; apps read it through their host)."""
    return int(activity.host._clock_ms())


class MainActivity(Activity):
    name = "com.simplemobiletools.voicerecorder.activities.MainActivity"

    def on_create(self) -> None:
        self.query = ""
        self.recording = False
        self.playing = ""  # file name of the recording loaded in the player
        self.selection = ActionMode()
        self.trash_selection = ActionMode()
        if self.page >= len(self.tab_labels()):
            self.data.last_page = RECORDER

    # -- state ------------------------------------------------------------------------
    @property
    def fs(self):
        return self.host.fs

    @property
    def store(self):
        return getattr(self.host, "media_store", None)

    @property
    def page(self) -> int:
        return self.data.last_page

    def tab_labels(self) -> list[str]:
        labels = ["Recorder", "Player"]
        if self.data.settings.use_recycle_bin:
            labels.append("Recycle Bin")
        return labels

    def on_resume(self) -> None:
        if self.page >= len(self.tab_labels()):
            self.data.last_page = PLAYER
        self.selection.finish()
        self.trash_selection.finish()

    def on_back(self) -> bool:
        if self.selection.active or self.trash_selection.active:
            self.selection.finish()
            self.trash_selection.finish()
            return True
        if self.query:
            self.query = ""
            return True
        return False

    def select_page(self, index: int) -> None:
        self.data.last_page = index
        self.selection.finish()
        self.trash_selection.finish()

    def search(self, text: str) -> None:
        self.query = text
        if text and self.page == RECORDER:
            self.data.last_page = PLAYER

    def recordings(self, folder: str | None = None) -> list[m.Recording]:
        found = m.list_recordings(self.fs, folder or self.data.settings.save_folder)
        if self.query:
            found = [r for r in found if self.query.casefold() in r.name.casefold()]
        return found

    # -- recorder ------------------------------------------------------------------------
    def toggle_recording(self) -> None:
        if not self.recording:
            self.recording = True
            return
        self.recording = False
        if self.fs is None:  # a bare AndroidSystem has no storage to save to
            self.toast("Recording failed")
            return
        settings = self.data.settings
        self.playing = m.save_recording(self.fs, now_ms(self), m.EXTENSIONS[settings.extension], self.store,
                                         settings.save_folder)
        self.toast("Recording saved successfully")

    # -- screen ------------------------------------------------------------------------------
    def build(self) -> View:
        labels = self.tab_labels()
        page = min(self.page, len(labels) - 1)
        if page == PLAYER:
            content, mode, found = self._player(), self.selection, self.recordings()
        elif page == TRASH:
            content, mode, found = self._trash(), self.trash_selection, self.recordings(m.TRASH)
        else:
            content, mode, found = self._recorder(), None, []
        if mode is not None and mode.active:
            top = mode.bar(self, len(found), self._player_actions() if page == PLAYER else self._trash_actions(),
                           on_select_all=self.select_all if page == PLAYER else self.select_all_trash)
        else:
            top = top_search_menu(self, query=self.query, on_query=self.search, items=menu(APP, "menu", {
                "settings": lambda: self.start(SettingsActivity), "about": lambda: self.start(SimpleAboutActivity)},
                hide=FDROID_HIDDEN))
        pager = FrameLayout(content, id="view_pager", class_name=MY_VIEW_PAGER, weight=1, height=MATCH)
        pager.scrollable = True  # type: ignore[misc] - swipeable between tabs
        return Column(
            top,
            Column(pager, bottom_tabs(labels, ["microphone", "headset", "delete"][:len(labels)], page,
                                      self.select_page),
                   id="main_holder", class_name="android.widget.RelativeLayout", weight=1, height=MATCH),
            id="main_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def _recorder(self) -> View:
        return Column(
            View("recorder_visualizer", height=dp(405), margin=(dp(24), dp(24), dp(24), 0), bg=(250, 250, 250)),
            TextView("00:00", "recording_duration", size=sp(30), layout_gravity="center_horizontal",
                     margin=(0, dp(24), 0, dp(20)), color=ACCENT if self.recording else TEXT),
            ImageView("toggle_recording_button", icon="stop" if self.recording else "microphone", tint=(255, 255, 255),
                      width=dp(64), height=dp(64), bg=ACCENT, radius=dp(32), layout_gravity="center_horizontal",
                      on_click=self.toggle_recording),
            id="recorder_holder", class_name="android.view.ViewGroup", height=MATCH)

    def _item(self, recording: m.Recording, mode: ActionMode, actions) -> View:
        selected = recording.name in mode.selected

        def tap() -> None:
            if mode.active:
                mode.toggle(recording.name)
            elif actions is not None:
                self.playing = recording.name

        def long_tap() -> None:
            if recording.name not in mode.selected:
                mode.toggle(recording.name)

        current = recording.name == self.playing and actions is not None
        children = [
            TextView(recording.name, "recording_title", size=sp(16), max_lines=1, color=ACCENT if current else TEXT,
                     layout_gravity="top|start", margin=(0, 0, dp(90), 0)),
            TextView(m.format_duration(recording.duration), "recording_duration", size=sp(16),
                     layout_gravity="top|end", margin=(0, 0, dp(40), 0)),
            TextView(format_date(recording.mtime, use_24_hour=self.data.settings.use_24_hour,
                                 date_format=self.data.settings.date_format), "recording_date", size=sp(14), color=TEXT_SECONDARY,
                     layout_gravity="bottom|start"),
            TextView(m.format_size(recording.size), "recording_size", size=sp(14), color=TEXT_SECONDARY,
                     layout_gravity="bottom|end", margin=(0, 0, dp(40), 0)),
        ]
        if actions is not None:
            children.append(ImageView("overflow_menu_icon", icon="more", width=dp(32), height=dp(48),
                                      layout_gravity="end|center_vertical",
                                      on_click=lambda: self._item_menu(recording)))
        return FrameLayout(
            # item_recording.xml's ConstraintLayout since d7cee12 (5.11.4; a RelativeLayout before)
            RelativeLayout(*children, id="item_holder", height=dp(58), padding=(dp(16), 0, dp(8), 0),
                           class_name=CONSTRAINT_LAYOUT),
            id="recording_frame", padding=(0, dp(10)), selected=selected, bg=(255, 224, 214) if selected else None,
            on_click=tap, on_long_click=long_tap, key=recording.name)

    def _list(self, prefix: str, found: list[m.Recording], mode: ActionMode, actions) -> View:
        return RelativeLayout(
            RecyclerView(*[self._item(r, mode, actions) for r in found], id=f"{prefix}_list"),
            id=f"{prefix}_fastscroller", height=MATCH)

    def _player(self) -> View:
        found = self.recordings()
        if found:
            body: View = self._list("recordings", found, self.selection, True)
        else:
            text = "No items found." if self.query else "No recordings created by this app\nhave been found"
            body = TextView(text, "recordings_placeholder", width=MATCH, gravity="center", color=TEXT_SECONDARY,
                            padding=(dp(16), dp(40)))
        playing = next((r for r in found if r.name == self.playing), None)
        controls = RelativeLayout(
            View("player_divider", height=1, bg=(224, 224, 224), layout_gravity="top"),
            Column(
                TextView(playing.name if playing else "", "player_title", width=MATCH, gravity="center",
                         long_clickable=True, min_height=dp(56), padding=(dp(16), dp(16), dp(16), 0)),
                LinearLayout(
                    TextView("00:00", "player_progress_current", on_click=lambda: None, padding=(dp(16), dp(12))),
                    View("player_progressbar", class_name="android.widget.SeekBar", weight=1, width=MATCH,
                         height=dp(42), clickable=True),
                    TextView(m.format_duration(playing.duration) if playing else "00:00", "player_progress_max",
                             on_click=lambda: None, padding=(dp(16), dp(12))),
                    orientation="horizontal", gravity="center_vertical"),
                RelativeLayout(
                    ImageView("previous_btn", desc="Previous", icon="previous", width=dp(64), height=dp(64),
                              layout_gravity="start|center_vertical", margin=(dp(64), 0, 0, 0),
                              on_click=lambda: self._skip(found, -1)),
                    ImageView("play_pause_btn", desc="Play / Pause", icon="play", width=dp(64), height=dp(64),
                              layout_gravity="center", on_click=lambda: None),
                    ImageView("next_btn", desc="Next", icon="next", width=dp(64), height=dp(64),
                              layout_gravity="end|center_vertical", margin=(0, 0, dp(64), 0),
                              on_click=lambda: self._skip(found, 1)),
                    id="player_controls", height=dp(88))),
            id="player_controls_wrapper", height=WRAP)
        return Column(FrameLayout(body, weight=1, height=MATCH), controls, id="player_holder",
                      class_name="android.view.ViewGroup", height=MATCH)

    def _skip(self, found: list[m.Recording], step: int) -> None:
        names = [r.name for r in found]
        if names:
            index = names.index(self.playing) if self.playing in names else -step
            self.playing = names[(index + step) % len(names)]

    def _trash(self) -> View:
        found = self.recordings(m.TRASH)
        if found:
            body: View = self._list("trash", found, self.trash_selection, None)
        else:
            body = TextView("No items found." if self.query else "The Recycle Bin is empty", "trash_placeholder",
                            width=MATCH, gravity="center", color=TEXT_SECONDARY, padding=(dp(16), dp(40)))
        return Column(body, id="trash_holder", class_name="android.view.ViewGroup", height=MATCH)

    # -- selection mode --------------------------------------------------------------------
    def _selected(self, mode: ActionMode, folder: str) -> list[m.Recording]:
        by_name = {r.name: r for r in self.recordings(folder)}
        return [by_name[n] for n in mode.selected if n in by_name]

    def _player_actions(self) -> list[MenuItem]:
        """cab_recordings as RecordingsAdapter.prepareActionMode shows it."""
        one = len(self.selection.selected) == 1
        return menu(APP, "cab_recordings", {
            "cab_rename": self.rename_selected, "cab_share": self.share_selected,
            "cab_delete": self.delete_selected, "cab_open_with": self.open_selected_with,
            "cab_select_all": self.select_all},
            hide=() if one else ("cab_rename", "cab_open_with"), kind=ACTION_MODE)

    def _trash_actions(self) -> list[MenuItem]:
        return menu(APP, "cab_trash", {"cab_delete": self.delete_from_trash, "cab_restore": self.restore_selected,
                                       "cab_select_all": self.select_all_trash}, kind=ACTION_MODE)

    def select_all(self) -> None:
        self.selection.selected = [r.name for r in self.recordings()]

    def select_all_trash(self) -> None:
        self.trash_selection.selected = [r.name for r in self.recordings(m.TRASH)]

    def _item_menu(self, recording: m.Recording) -> None:
        self.selection.finish()

        def only(action, clear: bool = False):
            # executeItemMenuOperation: the item is selected for the action (and unselected after it)
            def run() -> None:
                self.selection.selected = [recording.name]
                action()
                if clear:
                    self.selection.selected = []
            return run

        self.show_menu([("Rename", only(self.rename_selected)), ("Share", only(self.share_selected, clear=True)),
                        ("Delete", only(self.delete_selected)), ("Open with", only(self.open_selected_with, clear=True))])

    def share_selected(self) -> None:
        """RecordingsAdapter.shareRecordings: Commons' sharePathsIntent (the share sheet)."""
        share_paths(self, [r.path for r in self._selected(self.selection, self.data.settings.save_folder)])

    def open_selected_with(self) -> None:
        """RecordingsAdapter.openRecordingWith: openPathIntent(.., forceChooser = false, .., "audio/*")."""
        chosen = self._selected(self.selection, self.data.settings.save_folder)
        if chosen:
            open_path(self, chosen[0].path, force_mime="audio/*")

    def rename_selected(self) -> None:
        chosen = self._selected(self.selection, self.data.settings.save_folder)
        if len(chosen) != 1:
            return
        recording = chosen[0]

        def ok(d: Dialog) -> bool:
            try:
                self.playing = m.rename(self.fs, recording, d.find("rename_recording_title").text, self.store)
            except m.RecorderError as exc:
                self.toast(str(exc))
                return False
            self.selection.finish()
            return True

        self.show_dialog(Dialog("Rename", lambda: LinearLayout(
            LinearLayout(EditText(recording.name.rsplit(".", 1)[0], "rename_recording_title", hint="Title",
                                  autofocus=True), id="rename_recording_hint"),
            id="rename_recording_holder", padding=(dp(20), dp(12), dp(20), 0)),
            positive=("OK", ok), negative="Cancel", on_dismiss=None))

    def delete_selected(self) -> None:
        chosen = self._selected(self.selection, self.data.settings.save_folder)
        if not chosen:
            return
        use_bin = self.data.settings.use_recycle_bin
        items = f'"{chosen[0].name}"' if len(chosen) == 1 else f"{len(chosen)} recordings"
        question = (f"Are you sure you want to move {items} into the Recycle Bin?" if use_bin
                    else f"Delete {items}?")

        def yes(d: Dialog) -> None:
            skip = d.find("skip_the_recycle_bin_checkbox")
            if use_bin and not (skip is not None and skip.checked):
                m.move_to_trash(self.fs, chosen, self.store)
            else:
                m.delete(self.fs, chosen, self.store)
            self.selection.finish()

        def body() -> View:
            return RelativeLayout(
                Column(TextView(question, "delete_remember_title", width=MATCH, size=sp(16)),
                       CheckBox("Skip the Recycle Bin, delete files directly", "skip_the_recycle_bin_checkbox",
                                visible=use_bin, margin=(0, dp(16), 0, 0))),
                id="delete_remember_holder", padding=(dp(24), dp(20), dp(24), dp(8)))

        self.show_dialog(Dialog(body=body, positive=("Yes", yes), negative="No"))

    def delete_from_trash(self) -> None:
        chosen = self._selected(self.trash_selection, m.TRASH)
        if not chosen:
            return
        items = f'"{chosen[0].name}"' if len(chosen) == 1 else f"{len(chosen)} recordings"

        def yes() -> None:
            m.delete(self.fs, chosen, self.store)
            self.trash_selection.finish()

        confirmation_dialog(self, f"Delete {items}?", yes)

    def restore_selected(self) -> None:
        chosen = self._selected(self.trash_selection, m.TRASH)
        m.restore(self.fs, chosen, self.store, self.data.settings.save_folder)
        self.trash_selection.finish()


class SettingsActivity(Activity):
    name = "com.simplemobiletools.voicerecorder.activities.SettingsActivity"

    @property
    def settings(self) -> m.Settings:
        return self.data.settings

    def build(self) -> View:
        s = self.settings
        blocks: list[View] = [
            section_label("Color customization", "settings_color_customization_section_label"),
            value_row("settings_color_customization", "Customize colors", None,
                      lambda: self.start(CustomizationActivity), class_name=CONSTRAINT_LAYOUT),
            value_row("settings_widget_color_customization", "Customize widget colors", None, lambda: None,
                      class_name=CONSTRAINT_LAYOUT),
            Divider("settings_color_customization_divider"),
            section_label("General", "settings_general_settings_label"),
            value_row("settings_change_date_time_format", "Change date and time format", None,
                      lambda: show_date_time_dialog(self, s), label_id="settings_change_date_time_format"),
            settings_checkbox("settings_hide_notification", "Try hiding the recording notification",
                              s.hide_notification, lambda v: setattr(s, "hide_notification", v)),
            settings_checkbox("settings_record_after_launch", "Start recording automatically after launching the app",
                              s.record_after_launch, lambda v: setattr(s, "record_after_launch", v)),
            # F-Droid build: pretend_thank_you_installed (app/src/fdroid/res/values/bools.xml), so the label
            # has no "(Locked)" and the tap opens the folder picker (setupSaveRecordingsFolder)
            value_row("settings_save_recordings", "Save recordings in", m.shown_folder(s.save_folder),
                      self.pick_save_folder),
            value_row("settings_extension", "Extension", m.EXTENSION_TEXTS[s.extension], self.pick_extension),
            value_row("settings_audio_source", "Audio source", m.AUDIO_SOURCES[s.audio_source],
                      self.pick_audio_source),
            value_row("settings_bitrate", "Bitrate", m.bitrate_text(s.bitrate), self.pick_bitrate),
            Divider("settings_general_settings_divider"),
            section_label("Recycle Bin", "settings_recycle_bin_label"),
            settings_checkbox("settings_use_recycle_bin", "Move items into the Recycle Bin instead of deleting",
                              s.use_recycle_bin, lambda v: setattr(s, "use_recycle_bin", v)),
        ]
        if s.use_recycle_bin:
            blocks.append(value_row("settings_empty_recycle_bin", "Empty the Recycle Bin",
                                    m.format_size(m.trash_size(self.host.fs)), self.empty_recycle_bin,
                                    value_id="settings_empty_recycle_bin_size"))
        return Column(
            self.toolbar("settings_toolbar", title="Settings", back=True),
            ScrollView(Column(*blocks, id="settings_holder"), id="settings_nested_scrollview", weight=1),
            id="settings_coordinator", class_name=COORDINATOR_LAYOUT, height=MATCH)

    def pick_save_folder(self) -> None:
        """FilePickerDialog(this, config.saveRecordingsFolder, false, showFAB = true): the picked folder
        becomes the save folder (handleSAFDialog / handleSAFDialogSdk30 ask nothing for a plain folder
        of internal storage)."""
        def picked(path: str) -> None:
            self.settings.save_folder = path
        show_folder_picker(self, self.settings.save_folder, False, picked, show_fab=True)

    def pick_extension(self) -> None:
        radio_group_dialog(self, m.EXTENSION_TEXTS, self.settings.extension,
                           lambda i: setattr(self.settings, "extension", i))

    def pick_audio_source(self) -> None:
        radio_group_dialog(self, m.AUDIO_SOURCES, self.settings.audio_source,
                           lambda i: setattr(self.settings, "audio_source", i))

    def pick_bitrate(self) -> None:
        rates = m.BITRATES
        radio_group_dialog(self, [m.bitrate_text(r) for r in rates],
                           rates.index(self.settings.bitrate) if self.settings.bitrate in rates else -1,
                           lambda i: setattr(self.settings, "bitrate", rates[i]))

    def empty_recycle_bin(self) -> None:
        fs = self.host.fs
        if m.trash_size(fs) == 0 and not m.list_recordings(fs, m.TRASH):
            self.toast("The Recycle Bin is empty")
            return

        def yes() -> None:
            m.empty_trash(fs, getattr(self.host, "media_store", None))
            self.toast("The Recycle Bin has been emptied successfully")

        confirmation_dialog(self, "Are you sure you want to empty the Recycle Bin? The files will be permanently lost.",
                            yes)


class VoiceRecorderApp(CommonsApp):
    """Simple Voice Recorder: no recordings and the default settings after install."""

    package = PACKAGE
    label = "Voice Recorder"
    activities = (MainActivity, SettingsActivity, CustomizationActivity)


    def new_data(self) -> m.RecorderData:
        return m.RecorderData()


__all__ = ["MainActivity", "SettingsActivity", "VoiceRecorderApp"]

"""What tests/test_release_facts.py does not hold to the release's strings and ids, and why.

``DATA``: texts that are not labels: what the user, a task's seed or the system
puts on the screen (names, file names, dates, sizes, typed text).  Keyed by the
view that shows them (its resource-id, or its nearest ancestor's for views
without one), or by the exact text when the view also shows labels.

``IDS`` and ``LABELS``: differences from the release's sources, each with its
reason; at most 1% of an app's ids and 3% of its labels.
"""

from __future__ import annotations

SEARCH = {"top_toolbar_search": "the user's query in Commons' MySearchMenu"}
#: Android's stock equalizer presets, named by the audio effect (Equalizer.getPresetName; AOSP
#: frameworks/av/media/libeffects/lvm/wrapper/Bundle/EffectBundle.h gEqualizerPresets), not the app
EQUALIZER_PRESETS = {name: "a preset name of the platform's equalizer effect" for name in (
    "Normal", "Classical", "Dance", "Flat", "Folk", "Heavy Metal", "Hip Hop", "Jazz", "Pop", "Rock")}

#: Commons' ChangeDateTimeFormatDialog shows its sample time in each format; the two with month
#: names are the ones that read like labels
DATE_FORMAT_SAMPLES = {f"change_date_time_dialog_radio_{n}": "the dialog's sample date in a format being offered"
                       for n in ("five", "six")}

DATA: dict[str, dict[str, str]] = {
    "applauncher": {
        **SEARCH,
        "launcher_label": "launchable apps' labels (the system's)",
        "launcher_checkbox": "launchable apps' labels in the add-apps dialog",
        "edit_launcher_edittext": "the label being edited",
    },
    "calculator": {
        "formula": "the typed formula", "result": "the computed result",
    },
    "calendar": {
        **SEARCH,
        "event_title": "the event's title", "event_item_title": "events' titles",
        "event_start_date": "a formatted date", "event_end_date": "a formatted date",
        "event_section_title": "a formatted date", "top_value": "a formatted date",
        "task_title": "the task's title", "task_description": "the task's description",
        "task_date": "a formatted date",
        # the framework's DatePickerDialog: the chosen date, the shown month
        "date_picker_header": "the picked date", "date_picker_header_year": "the picked year",
        "date_picker_header_date": "the picked date", "datePicker": "the shown month and year",
        "month_day_selected_day_label": "the selected day's date",
    },
    "contacts": {
        **SEARCH,
        "item_contact_name": "contacts' names", "contact_name": "the contact's name",
        "contact_first_name": "the name being edited", "contact_email": "the contact's e-mail address",
        "letter_fastscroller": "first letters of the contacts' names",
        "filter_contact_source_checkbox": "a contact source's name and its contact count "
                                          "(FilterContactSourcesAdapter: \"$name ($count)\")",
        "export_contacts_filename": "\"contacts_\" and the current date (ExportContactsDialog, "
                                    "getCurrentFormattedDateTime)",
        "group_name": "a group's title and member count (GroupsAdapter: \"$title ($count)\")",
    },
    "filemanager": {
        **SEARCH,
        "item_name": "file and folder names", "item_title": "file names", "item_details": "file sizes",
        "item_date": "formatted dates", "breadcrumb_text": "the path", "property_value": "a file's properties",
        "rename_item_name": "the name being edited", "rename_item_extension": "the extension being edited",
        "free_space_value": "the storage's free space",
        "list_item_name": "folder and file names in Commons' FilePickerDialog",
        "manage_favorite_title": "a favourite folder's path",
        **{f"{kind}_size": "a storage summary's size"
           for kind in ("images", "videos", "audio", "documents", "archives", "others")},
    },
    "gallery": {
        "dir_path": "a folder's path", "medium_viewer_toolbar": "the shown file's name",
        "property_value": "a file's properties",
        **DATE_FORMAT_SAMPLES,
    },
    "messenger": {
        **SEARCH,
        "conversation_body_short": "a message's text", "conversation_date": "a formatted time",
        "thread_message_body": "a message's text", "thread_date_time": "a formatted time",
        "thread_type_message": "the message being typed", "property_value": "a message's properties",
        "search_result_snippet": "a message's text", "search_result_date": "a formatted time",
        **DATE_FORMAT_SAMPLES,
    },
    "musicplayer": {
        **SEARCH, **EQUALIZER_PRESETS,
        "album_title": "albums' titles (the files' tags)", "folder_title": "folders' names",
        "track_title": "tracks' titles (tags)", "activity_track_title": "the track's title (tag)",
        "activity_track_artist": "the track's artist (tag)", "current_track_label": "the track's title and artist",
        "tracks_toolbar": "the playlist's or album's name as the title",
        "playlist_title": "playlists' names", "new_playlist_title": "the name being typed",
        "equalizer_band_label": "the equalizer bands' centre frequencies (the effect's)",
        "activity_track_speed": "the playback speed (TrackActivity.updatePlaybackSpeed: "
                                "DecimalFormat(\"#.##\") + \"x\")",
        "playback_speed_label": "the playback speed (PlaybackSpeedFragment: \"%.2f\" + \"x\")",
        "next_track_label": "\"Next:\" and the next track's title and artist, joined in setupNextTrackInfo",
        "sleep_timer_value": "the sleep timer's time left (getFormattedDuration)",
        "list_item_name": "folder and file names in Commons' FilePickerDialog",
    },
    "notes": {
        "pager_tab_strip": "notes' titles", "locked_note_title": "the title being typed",
        "checklist_title": "checklist items' texts", "title_edit_text": "the item being typed",
        "text_note_view": "the note's text", "search_query": "the user's query",
    },
    "voicerecorder": {
        "recording_title": "recordings' file names", "player_title": "the playing file's name",
        "rename_recording_title": "the name being edited", "recording_date": "a formatted date",
        "recording_size": "a file size", "settings_empty_recycle_bin_size": "the recycle bin's size",
        "settings_save_recordings": "the folder recordings are saved to",
        "breadcrumb_text": "the path in Commons' FilePickerDialog",
        "list_item_name": "folder and file names in Commons' FilePickerDialog",
        **DATE_FORMAT_SAMPLES,
    },
}

#: Commons' colour pickers show colours as hex codes, in every app's Customize colors: ColorPickerDialog the
#: colour being replaced and the one typed (dialog_color_picker.xml color_picker_old_hex / color_picker_new_hex),
#: LineColorPickerDialog the picked one (dialog_line_color_picker.xml hex_code)
COLOR_PICKER = {"color_picker_old_hex": "the old colour's hex code", "color_picker_new_hex": "the typed hex code",
                "hex_code": "the picked colour's hex code"}
for _app_data in DATA.values():
    _app_data.update(COLOR_PICKER)

IDS: dict[str, dict[str, str]] = {
}

#: Commons' CustomizationActivity.getMaterialYouString: "${getString(R.string.system_default)}
#: (${getString(R.string.material_you)})", two strings joined in code
MATERIAL_YOU = {"System default (Material You)": "two of Commons' strings joined by getMaterialYouString()"}

LABELS: dict[str, dict[str, str]] = {
    "voicerecorder": MATERIAL_YOU,
}

"""Issue 36's app and system screens, through the real adb server (uiautomator dump, input tap, am start).

Each test names the sources its behaviour was read from:

* Simple-Commons' colour pickers behind "Customize colors" (CustomizationActivity.kt,
  ColorPickerDialog.kt, LineColorPickerDialog.kt and their layouts at the commit the apps pin);
* a video opened from File Manager reaching Gallery's viewer (Simple-Gallery 6.28.1
  PhotoVideoActivity.checkIntent, Simple-Commons openPathIntent's REAL_FILE_PATH);
* Contacts 6.22.7's "Export contacts" saving a vCard through DocumentsUI (MainActivity.tryExportContacts,
  onActivityResult(PICK_EXPORT_FILE_INTENT), VcfExporter);
* Notes 6.17.0's "Create shortcut" (MainActivity.createShortcut -> ShortcutManager.requestPinShortcut)
  confirmed by Launcher3's AddItemActivity (udc-release: dragndrop/AddItemActivity.java,
  add_item_confirmation_activity.xml, widget_cell_content.xml, strings.xml);
* Android's premium SMS confirmation when Messenger 5.19.3 sends to a short code (frameworks/opt/telephony
  SMSDispatcher.checkDestination / handleConfirmShortCode / ConfirmDialogListener, SmsUsageMonitor,
  frameworks/base core/res/res/xml/sms_short_codes.xml and layout/sms_short_code_confirmation_dialog.xml;
  Messenger's SmsStatusSentReceiver and ThreadActivity.getThreadItems).
"""

from __future__ import annotations

import re

import pytest

from uitools import add_text_note, dumped, find_on, tap_on

FILES = "com.google.android.documentsui"
DOWNLOAD = "/sdcard/Download"
FILEMANAGER = "com.simplemobiletools.filemanager.pro"
GALLERY = "com.simplemobiletools.gallery.pro"
CONTACTS = "com.simplemobiletools.contacts.pro"
FIXTURES = __import__("pathlib").Path(__file__).resolve().parents[2] / "fixtures"


def _resumed(device) -> str:
    current = device.app_current()
    return f"{current.package}/{current.activity}"


# ---------------------------------------------------------------------------
# 2. A video opened from File Manager goes to Gallery's viewer


@pytest.fixture
def movie(adb_device):
    """/sdcard/Movies/clip_red.mp4, pushed and scanned; File Manager and Gallery fresh."""
    for package in (FILEMANAGER, GALLERY):
        adb_device.shell(f"am force-stop {package}")
        adb_device.shell(f"pm clear {package}")
    adb_device.sync.push(str(FIXTURES / "clip_red.mp4"), "/sdcard/Movies/clip_red.mp4")
    adb_device.shell("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE "
                     "-d file:///sdcard/Movies/clip_red.mp4")
    yield adb_device
    adb_device.shell("rm -f /sdcard/Movies/clip_red.mp4")
    for package in (FILEMANAGER, GALLERY):
        adb_device.shell(f"am force-stop {package}")


def test_a_video_tapped_in_file_manager_opens_in_gallerys_viewer(movie):
    """Commons' openPathIntent sends ACTION_VIEW with the file's path in REAL_FILE_PATH; Gallery 6.28.1's
    VideoActivity (PhotoVideoActivity.checkIntent) finds the file and hands it to ViewPagerActivity
    (sendViewPagerIntent), then finishes: BACK returns to File Manager."""
    movie.shell(f"monkey -p {FILEMANAGER} -c android.intent.category.LAUNCHER 1")
    tap_on(movie, **{"resource-id": f"{FILEMANAGER}:id/item_name", "text": "Movies"})
    tap_on(movie, **{"resource-id": f"{FILEMANAGER}:id/item_name", "text": "clip_red.mp4"})
    assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.ViewPagerActivity"
    assert find_on(movie, text="clip_red.mp4") is not None
    assert find_on(movie, **{"resource-id": f"{GALLERY}:id/video_holder"}) is not None
    movie.shell("input keyevent BACK")
    assert _resumed(movie) == f"{FILEMANAGER}/{FILEMANAGER}.activities.MainActivity"


def test_a_file_uri_view_intent_reaches_the_viewer_too(movie):
    """checkIntent's ``file:`` branch: a file URI whose name has an extension goes to ViewPagerActivity."""
    movie.shell("am start -W -a android.intent.action.VIEW -d file:///sdcard/Movies/clip_red.mp4 -t video/mp4")
    assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.ViewPagerActivity"


def test_a_video_in_a_nomedia_folder_stays_on_the_empty_holder(movie):
    """preventShowingHiddenFile: without all-files access a file under a ``.nomedia`` folder is not forwarded."""
    movie.shell("mkdir -p /sdcard/Movies/private && touch /sdcard/Movies/private/.nomedia")
    movie.shell("cp /sdcard/Movies/clip_red.mp4 /sdcard/Movies/private/clip.mp4")
    try:
        movie.shell("am start -W -a android.intent.action.VIEW -d file:///sdcard/Movies/private/clip.mp4 -t video/mp4")
        assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.VideoActivity"
        assert find_on(movie, **{"resource-id": f"{GALLERY}:id/fragment_holder"}) is not None
    finally:
        movie.shell("rm -rf /sdcard/Movies/private")



def test_a_media_store_uri_reaches_the_viewer_through_its_data_column(movie):
    """getRealPathFromURI -> getDataColumn: a MediaStore URI's ``_data`` is the file, so checkIntent hands it on."""
    row = re.search(r"_id=(\d+)", movie.shell("content query --uri content://media/external/video/media "
                                              "--projection _id:_data"))
    assert row is not None
    movie.shell(f"am start -W -a android.intent.action.VIEW -d content://media/external/video/media/{row.group(1)} "
                "-t video/mp4")
    assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.ViewPagerActivity"


def test_set_as_from_file_manager_opens_simple_wallpaper_on_the_file(movie):
    """Commons' setAsIntent sends ATTACH_DATA of File Manager's FileProvider URI; Gallery's
    SetWallpaperActivity opens the file behind it (provider_paths.xml: external_files is external-path ".")."""
    movie.sync.push(str(FIXTURES / "sunset.jpg"), "/sdcard/Pictures/sunset.jpg")
    movie.shell("am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard/Pictures/sunset.jpg")
    try:
        movie.shell(f"monkey -p {FILEMANAGER} -c android.intent.category.LAUNCHER 1")
        tap_on(movie, **{"resource-id": f"{FILEMANAGER}:id/item_name", "text": "Pictures"})
        node = find_on(movie, **{"resource-id": f"{FILEMANAGER}:id/item_name", "text": "sunset.jpg"})
        left, top, right, bottom = (int(v) for v in node["bounds"].replace("][", ",").strip("[]").split(","))
        movie.shell(f"input swipe {(left + right) // 2} {(top + bottom) // 2} {(left + right) // 2} "
                    f"{(top + bottom) // 2} 800")
        tap_on(movie, desc="More options")
        tap_on(movie, **{"resource-id": f"{FILEMANAGER}:id/title", "text": "Set as"})
        assert _resumed(movie) == f"{GALLERY}/{GALLERY}.activities.SetWallpaperActivity"
        assert find_on(movie, **{"resource-id": f"{GALLERY}:id/set_wallpaper_toolbar"}) is not None
    finally:
        movie.shell("rm -f /sdcard/Pictures/sunset.jpg")

# ---------------------------------------------------------------------------
# 3. Contacts' "Export contacts" saves a vCard through DocumentsUI


@pytest.fixture
def contacts_ui(adb_device, phone):
    from adb_ui import AdbUI
    from test_contacts_app import add_contact

    ui = AdbUI(adb_device, phone, CONTACTS)
    ui.sh(f"am force-stop {CONTACTS}")
    ui.sh(f"pm clear {CONTACTS}")
    ui.sh("pm clear com.android.providers.contacts")
    for permission in ("READ_CONTACTS", "WRITE_CONTACTS"):
        ui.sh(f"pm grant {CONTACTS} android.permission.{permission}")
    ui.sh(f"rm -f {DOWNLOAD}/contacts_*.vcf")
    add_contact(ui, "Alice Smith", "111111", "alice@example.com")
    ui.sh(f"monkey -p {CONTACTS} -c android.intent.category.LAUNCHER 1")
    yield ui
    ui.sh(f"rm -f {DOWNLOAD}/contacts_*.vcf")
    ui.sh(f"am force-stop {CONTACTS}")
    ui.sh("pm clear com.android.providers.contacts")
    ui.close()


def _open_export(ui) -> str:
    ui.tap(desc="More options").tap(id="title", text="Export contacts to a .vcf file")
    name = ui.text("export_contacts_filename")
    ui.tap(id="android:id/button1")
    return name


def test_export_contacts_opens_documents_ui_save_screen(contacts_ui):
    """Contacts 6.22.7 MainActivity.tryExportContacts (Android 10+): ACTION_CREATE_DOCUMENT of
    text/x-vcard with EXTRA_TITLE "<name>.vcf", answered by DocumentsUI's PickActivity."""
    name = _open_export(contacts_ui)
    assert contacts_ui.device.app_current().package == FILES
    assert find_on(contacts_ui.device, **{"resource-id": "android:id/title", "text": f"{name}.vcf"}) is not None


def test_saving_there_writes_the_vcard_into_the_document(contacts_ui):
    """onActivityResult(PICK_EXPORT_FILE_INTENT) opens the returned document and VcfExporter writes the
    contacts as vCard 4.0 (ez-vcard 0.11.3: PRODID first, N with trailing semicolons, TYPE=CELL)."""
    name = _open_export(contacts_ui)
    tap_on(contacts_ui.device, **{"resource-id": "android:id/button1", "text": "SAVE"})
    assert contacts_ui.device.app_current().package == CONTACTS
    vcf = contacts_ui.device.sync.read_bytes(f"{DOWNLOAD}/{name}.vcf").decode("utf-8")
    assert vcf == ("BEGIN:VCARD\r\nVERSION:4.0\r\nPRODID:ez-vcard 0.11.3\r\nFN:Alice Smith\r\n"
                   "N:Smith;Alice;;;\r\nTEL;TYPE=CELL:111111\r\nEMAIL;TYPE=HOME:alice@example.com\r\nEND:VCARD\r\n")


def test_cancelling_the_save_screen_writes_nothing(contacts_ui):
    """RESULT_CANCELED: onActivityResult does not export; no document is created."""
    _open_export(contacts_ui)
    contacts_ui.key("BACK")
    assert contacts_ui.device.app_current().package == CONTACTS
    assert "contacts_" not in contacts_ui.sh(f"ls {DOWNLOAD}")


def test_exporting_only_unchecked_sources_writes_no_entries(contacts_ui):
    """exportContactsTo: no contact outside the unchecked sources -> "No entries for exporting have been found",
    and the created document stays empty."""
    contacts_ui.tap(desc="More options").tap(id="title", text="Export contacts to a .vcf file")
    name = contacts_ui.text("export_contacts_filename")
    contacts_ui.tap(id="filter_contact_source_checkbox", text="Phone storage (1)").tap(id="android:id/button1")
    tap_on(contacts_ui.device, **{"resource-id": "android:id/button1", "text": "SAVE"})
    assert contacts_ui.device.sync.read_bytes(f"{DOWNLOAD}/{name}.vcf") == b""


# ---------------------------------------------------------------------------
# 1. Commons' colour picker behind "Customize colors"

#: the ids of ColorPickerDialog's recorded screens (DroidTask: App Launcher, Gallery, Music Player)
COLOR_PICKER_IDS = {"color_picker_scrollview", "color_picker_holder", "recent_colors", "recent_colors_flow",
                    "color_picker_top_holder", "color_picker_hue_cursor", "color_picker_cursor",
                    "color_picker_square", "color_picker_hue", "color_picker_hex_codes_holder",
                    "color_picker_old_hex", "color_picker_hex_arrow", "color_picker_new_hex_label",
                    "color_picker_new_hex", "color_picker_bottom_holder", "color_picker_old_color",
                    "color_picker_arrow", "color_picker_new_color"}


def _fm(name: str) -> str:
    return f"{FILEMANAGER}:id/{name}"


@pytest.fixture
def customize(adb_device):
    """File Manager's "Customize colors" on the Dark theme (picked through the theme dialog)."""
    adb_device.shell(f"am force-stop {FILEMANAGER}")
    adb_device.shell(f"pm clear {FILEMANAGER}")
    adb_device.shell(f"monkey -p {FILEMANAGER} -c android.intent.category.LAUNCHER 1")
    tap_on(adb_device, desc="More options")
    tap_on(adb_device, text="Settings")
    tap_on(adb_device, text="Customize colors")
    tap_on(adb_device, **{"resource-id": _fm("customization_theme_holder")})
    tap_on(adb_device, **{"resource-id": "android:id/button1", "text": "OK"})  # the app icon warning
    tap_on(adb_device, text="Dark")
    yield adb_device
    adb_device.shell(f"am force-stop {FILEMANAGER}")
    adb_device.shell(f"pm clear {FILEMANAGER}")  # the colours chosen here stay out of later tests


def _pick_color(device, row: str, hex_digits: str, button: str = "OK") -> None:
    """Open the picker of ``row`` (a customization_*_color_holder), type the hex code, close with ``button``."""
    tap_on(device, **{"resource-id": _fm(row)})
    tap_on(device, **{"resource-id": _fm("color_picker_new_hex")})
    device.shell("input keyevent MOVE_END")
    device.shell("input keyevent " + " ".join(["DEL"] * 6))
    device.shell(f"input text {hex_digits}")
    tap_on(device, **{"resource-id": "android:id/button1" if button == "OK" else "android:id/button2",
                      "text": button})


def test_text_color_row_opens_the_color_picker_with_the_recorded_ids(customize):
    """CustomizationActivity.pickTextColor -> ColorPickerDialog(curTextColor): dialog_color_picker.xml's
    ids, the old colour's hex (#EEEEEE, the dark theme's md_grey_200), five recent colours, Cancel / OK."""
    tap_on(customize, **{"resource-id": _fm("customization_text_color_holder")})
    ids = {n["resource-id"].split("/")[-1] for n in dumped(customize) if "color_picker" in n.get("resource-id", "")
           or "recent_colors" in n.get("resource-id", "")}
    assert ids == COLOR_PICKER_IDS
    assert find_on(customize, **{"resource-id": _fm("color_picker_old_hex")})["text"] == "#EEEEEE"
    assert find_on(customize, **{"resource-id": _fm("color_picker_new_hex")})["text"] == "EEEEEE"
    squares = [n for n in dumped(customize) if n["class"] == "android.widget.ImageView" and not n["resource-id"]
               and n["clickable"] == "true"]
    assert len(squares) == 5
    assert {n["text"] for n in dumped(customize) if n["resource-id"].startswith("android:id/button")} == {"Cancel", "OK"}
    # setupRecentColors: a recent colour's tap puts its hex in the field (the first default is md_red_700)
    _tap_node(customize, squares[0])
    assert find_on(customize, **{"resource-id": _fm("color_picker_new_hex")})["text"] == "D32F2F"


def test_ok_with_a_new_text_color_makes_the_theme_custom_and_save_keeps_it(customize):
    """pickTextColor's OK: setCurrentTextColor, colorChanged (Save shows), updateColorTheme(getCurrentThemeId())
    -> no predefined theme has these colours -> Custom; saveChanges writes BaseConfig.textColor, so the
    reopened screen says Custom and the picker's old colour is the saved one."""
    _pick_color(customize, "customization_text_color_holder", "00FF00")
    assert find_on(customize, **{"resource-id": _fm("customization_theme")})["text"] == "Custom"
    tap_on(customize, **{"resource-id": _fm("save"), "content-desc": "Save"})
    tap_on(customize, text="Customize colors")
    assert find_on(customize, **{"resource-id": _fm("customization_theme")})["text"] == "Custom"
    tap_on(customize, **{"resource-id": _fm("customization_text_color_holder")})
    assert find_on(customize, **{"resource-id": _fm("color_picker_old_hex")})["text"] == "#00FF00"


def test_cancel_leaves_the_color_and_theme_as_they_were(customize):
    """Cancel calls back (false, 0): pickTextColor changes nothing."""
    _pick_color(customize, "customization_background_color_holder", "123456", "Cancel")
    assert find_on(customize, **{"resource-id": _fm("customization_theme")})["text"] == "Dark"
    tap_on(customize, **{"resource-id": _fm("customization_background_color_holder")})
    assert find_on(customize, **{"resource-id": _fm("color_picker_old_hex")})["text"] == "#2D2D2D"


def test_picking_the_themes_own_color_back_keeps_the_predefined_theme(customize):
    """getCurrentThemeId: colours that match a predefined theme name it (Light's text is md_grey_800_dark)."""
    _pick_color(customize, "customization_background_color_holder", "FFFFFF")
    assert find_on(customize, **{"resource-id": _fm("customization_theme")})["text"] == "Custom"
    _pick_color(customize, "customization_text_color_holder", "2D2D2D")
    assert find_on(customize, **{"resource-id": _fm("customization_theme")})["text"] == "Light"



def _stripes(device, line: str) -> list[dict]:
    holder = find_on(device, **{"resource-id": _fm(line)})
    left, top, right, bottom = (int(v) for v in holder["bounds"].replace("][", ",").strip("[]").split(","))
    return [n for n in dumped(device) if n["resource-id"] == _fm("empty_image_view")
            and top <= int(n["bounds"].split(",")[1].split("]")[0]) <= bottom]


def _tap_node(device, node: dict) -> None:
    left, top, right, bottom = (int(v) for v in node["bounds"].replace("][", ",").strip("[]").split(","))
    device.shell(f"input tap {(left + right) // 2} {(top + bottom) // 2}")


def test_primary_color_opens_the_two_line_picker_and_ok_makes_the_theme_custom(customize):
    """pickPrimaryColor -> LineColorPickerDialog(curPrimaryColor, isPrimaryColorPicker = true):
    md_primary_colors' 19 families over the picked family's 9 shades (color_primary: oranges' 700,
    getColorIndexes), the hex below.  A tap picks a stripe (LineColorPicker.touchAt): reds keep the
    shade index (md_red_700 #D32F2F), then md_red_900; OK sets the primary colour, and with Dark's other
    colours no predefined theme matches: Custom.  Save keeps it."""
    tap_on(customize, **{"resource-id": _fm("customization_primary_color_holder")})
    assert len(_stripes(customize, "primary_line_color_picker")) == 19
    assert len(_stripes(customize, "secondary_line_color_picker")) == 9
    assert find_on(customize, **{"resource-id": _fm("hex_code")})["text"] == "#F57C00"
    assert find_on(customize, **{"resource-id": _fm("line_color_picker_icon")}) is None
    _tap_node(customize, _stripes(customize, "primary_line_color_picker")[0])
    assert find_on(customize, **{"resource-id": _fm("hex_code")})["text"] == "#D32F2F"
    _tap_node(customize, _stripes(customize, "secondary_line_color_picker")[8])
    assert find_on(customize, **{"resource-id": _fm("hex_code")})["text"] == "#B71C1C"
    tap_on(customize, **{"resource-id": "android:id/button1", "text": "OK"})
    assert find_on(customize, **{"resource-id": _fm("customization_theme")})["text"] == "Custom"
    tap_on(customize, **{"resource-id": _fm("save"), "content-desc": "Save"})
    tap_on(customize, text="Customize colors")
    tap_on(customize, **{"resource-id": _fm("customization_primary_color_holder")})
    assert find_on(customize, **{"resource-id": _fm("hex_code")})["text"] == "#B71C1C"


def test_app_icon_color_opens_the_one_line_picker_with_the_icon(adb_device):
    """The App icon color row (shown under the system theme too) asks the app-icon warning first, then
    pickAppIconColor -> LineColorPickerDialog(curAppIconColor, false, md_app_icon_colors): the app's icon,
    one line, no shades.  OK with md_blue_700 keeps the system theme (getCurrentThemeId) and shows Save."""
    adb_device.shell(f"am force-stop {FILEMANAGER}")
    adb_device.shell(f"pm clear {FILEMANAGER}")
    adb_device.shell(f"monkey -p {FILEMANAGER} -c android.intent.category.LAUNCHER 1")
    tap_on(adb_device, desc="More options")
    tap_on(adb_device, text="Settings")
    tap_on(adb_device, text="Customize colors")
    tap_on(adb_device, **{"resource-id": _fm("customization_app_icon_color_holder")})
    tap_on(adb_device, **{"resource-id": "android:id/button1", "text": "OK"})  # the app icon warning
    assert find_on(adb_device, **{"resource-id": _fm("line_color_picker_icon")}) is not None
    assert find_on(adb_device, **{"resource-id": _fm("secondary_line_color_picker")}) is None
    assert len(_stripes(adb_device, "primary_line_color_picker")) == 19
    _tap_node(adb_device, _stripes(adb_device, "primary_line_color_picker")[5])
    assert find_on(adb_device, **{"resource-id": _fm("hex_code")})["text"] == "#1976D2"
    tap_on(adb_device, **{"resource-id": "android:id/button1", "text": "OK"})
    assert find_on(adb_device, **{"resource-id": _fm("customization_theme")})["text"] == "System default (Material You)"
    assert find_on(adb_device, **{"resource-id": _fm("save"), "content-desc": "Save"}) is not None
    adb_device.shell(f"am force-stop {FILEMANAGER}")
    adb_device.shell(f"pm clear {FILEMANAGER}")

# ---------------------------------------------------------------------------
# 5. Messenger sending to a short code: Android's premium SMS confirmation

MESSENGER = "com.simplemobiletools.smsmessenger"
SMS_ROLE = "android.app.role.SMS"


@pytest.fixture
def messenger(adb_device):
    """Messenger as the default SMS app, the SMS provider empty; the SMS role as it was afterwards."""
    held = MESSENGER in adb_device.shell(f"cmd role get-role-holders {SMS_ROLE}").split()
    for package in (MESSENGER, "com.android.providers.telephony"):
        adb_device.shell(f"pm clear {package}")
    adb_device.shell(f"cmd role add-role-holder {SMS_ROLE} {MESSENGER}")
    yield adb_device
    adb_device.shell(f"am force-stop {MESSENGER}")
    adb_device.shell("pm clear com.android.providers.telephony")
    if not held:
        adb_device.shell(f"cmd role remove-role-holder {SMS_ROLE} {MESSENGER}")


def _send(device, number: str, text: str = "Hello") -> None:
    device.shell(f"am start -W -a android.intent.action.SENDTO -d sms:{number}")
    tap_on(device, **{"resource-id": f"{MESSENGER}:id/thread_type_message"})
    device.shell(f"input text {text}")
    tap_on(device, **{"resource-id": f"{MESSENGER}:id/thread_send_message"})


def _sms_types(device) -> list[str]:
    return re.findall(r"type=(\d+)", device.shell("content query --uri content://sms --projection type"))


def test_the_emulator_sim_is_american(messenger):
    """SMSDispatcher.checkDestination reads the SIM's country (PREMIUM_RULE_USE_SIM): the emulator's 310/260 SIM."""
    assert messenger.shell("getprop gsm.sim.operator.iso-country").strip() == "us"


def test_a_possible_premium_short_code_asks_first(messenger):
    """111111 matches the US pattern \\d{5,6} and none of its free, standard or premium codes: a possible
    premium short code, so handleConfirmShortCode shows the phone process's dialog and the message waits
    in the outbox (Messenger's "Sending…")."""
    _send(messenger, "111111")
    nodes = dumped(messenger)
    assert {n["package"] for n in nodes} == {"com.android.phone"}
    assert find_on(messenger, **{"resource-id": "android:id/sms_short_code_confirm_message"})["text"] == (
        "SMS Messenger would like to send a message to 111111.")
    assert find_on(messenger, **{"resource-id": "android:id/sms_short_code_detail_message"})["text"] == (
        "This may cause charges on your mobile account.")
    assert find_on(messenger, **{"resource-id": "android:id/sms_short_code_remember_choice_text"})["text"] == (
        "Remember my choice")
    assert [(n["resource-id"], n["text"]) for n in nodes if n["resource-id"] in ("android:id/button1", "android:id/button2")] == [
        ("android:id/button2", "Cancel"), ("android:id/button1", "Send")]
    assert _sms_types(messenger) == ["4"]


def test_send_sends_the_message(messenger):
    """ConfirmDialogListener: Send -> EVENT_SEND_CONFIRMED_SMS; the sent intent's RESULT_OK makes it
    MESSAGE_TYPE_SENT (SmsStatusSentReceiver), and the thread shows it sent."""
    _send(messenger, "111111")
    tap_on(messenger, **{"resource-id": "android:id/button1", "text": "Send"})
    assert _sms_types(messenger) == ["2"]
    assert find_on(messenger, **{"resource-id": f"{MESSENGER}:id/thread_success"}) is not None


def test_cancel_fails_the_message_and_retry_offers_it_again(messenger):
    """Cancel -> EVENT_STOP_SENDING: RESULT_ERROR_SHORT_CODE_NOT_ALLOWED, so the message is MESSAGE_TYPE_FAILED
    and getThreadItems adds "Not sent. Touch to retry.", whose tap puts the text back in the field."""
    _send(messenger, "111111")
    tap_on(messenger, **{"resource-id": "android:id/button2", "text": "Cancel"})
    assert _sms_types(messenger) == ["5"]
    tap_on(messenger, **{"resource-id": f"{MESSENGER}:id/thread_error", "text": "Not sent. Touch to retry."})
    assert find_on(messenger, **{"resource-id": f"{MESSENGER}:id/thread_type_message"})["text"] == "Hello"
    tap_on(messenger, **{"resource-id": f"{MESSENGER}:id/thread_send_message"})
    tap_on(messenger, **{"resource-id": "android:id/button1", "text": "Send"})
    assert _sms_types(messenger) == ["2"]  # the same message, sent this time (insertSmsMessage(messageId))


def test_back_cancels_the_dialog(messenger):
    """onCancel: BACK stops sending as Cancel does, and stores no choice (the next send asks again)."""
    _send(messenger, "111111")
    messenger.shell("input keyevent BACK")
    assert _sms_types(messenger) == ["5"]
    _send(messenger, "111111", "Again")
    assert find_on(messenger, **{"resource-id": "android:id/sms_short_code_confirm_message"}) is not None


def test_remember_my_choice_relabels_the_buttons(messenger):
    """onCheckedChanged: checked, the buttons read Always Allow / Never Allow and the undo hint shows."""
    _send(messenger, "111111")
    tap_on(messenger, **{"resource-id": "android:id/sms_short_code_remember_choice_checkbox"})
    assert find_on(messenger, **{"resource-id": "android:id/button1"})["text"] == "Always Allow"
    assert find_on(messenger, **{"resource-id": "android:id/button2"})["text"] == "Never Allow"
    assert find_on(messenger, **{"resource-id": "android:id/sms_short_code_remember_undo_instruction"})["text"] == (
        "You can change this later in Settings\u00a0>\u00a0Apps")
    messenger.shell("input keyevent BACK")  # cancelling stores nothing


@pytest.mark.parametrize("number, premium", [("20433", True), ("44567", None), ("122", None),
                                             ("1234567", None)])
def test_the_us_row_sorts_destinations(messenger, number, premium):
    """ShortCodePatternMatcher.getNumberCategory with sms_short_codes.xml's "us" row: 20433 is a listed
    premium code ("This will cause charges"), 44567 standard and 122 free (sent at once), and seven
    digits are no short code at all."""
    _send(messenger, number)
    detail = find_on(messenger, **{"resource-id": "android:id/sms_short_code_detail_message"})
    if premium:
        assert detail["text"] == "This will cause charges on your mobile account."
        messenger.shell("input keyevent BACK")
    else:
        assert detail is None
        assert _sms_types(messenger) == ["2"]


def test_always_allow_is_remembered_for_the_app(phone_factory, adb_server_port):
    """Always Allow stores PREMIUM_SMS_PERMISSION_ALWAYS_ALLOW for the package in the phone process
    (SmsUsageMonitor), which `pm clear` of the app does not reset: the next short code goes without asking.
    A phone of its own, as the choice outlives the test."""
    import adbutils

    own = phone_factory(1)[0]
    device = adbutils.AdbClient(port=adb_server_port).device(own.serial)
    device.shell(f"cmd role add-role-holder {SMS_ROLE} {MESSENGER}")
    _send(device, "111111")
    tap_on(device, **{"resource-id": "android:id/sms_short_code_remember_choice_checkbox"})
    tap_on(device, **{"resource-id": "android:id/button1", "text": "Always Allow"})
    device.shell(f"pm clear {MESSENGER}")
    device.shell(f"cmd role add-role-holder {SMS_ROLE} {MESSENGER}")
    _send(device, "222222", "Twice")
    assert find_on(device, **{"resource-id": "android:id/sms_short_code_confirm_message"}) is None
    assert _sms_types(device) == ["2", "2"]


# ---------------------------------------------------------------------------
# 4. Notes' Create shortcut: Launcher3's "Add to home screen" confirmation

NOTES = "com.simplemobiletools.notes.pro"
LAUNCHER = "com.android.launcher3"


@pytest.fixture
def notes_two(adb_device):
    """Notes with "General note" and "Diary" (current), the launcher's workspace without pinned shortcuts."""
    adb_device.shell(f"pm clear {LAUNCHER}")
    adb_device.shell(f"am force-stop {NOTES}")
    adb_device.shell(f"pm clear {NOTES}")
    add_text_note(adb_device, "Diary", "Sunny")
    yield adb_device
    adb_device.shell(f"am force-stop {NOTES}")
    adb_device.shell(f"pm clear {NOTES}")
    adb_device.shell(f"pm clear {LAUNCHER}")


def _create_shortcut(device) -> None:
    tap_on(device, desc="More options")
    tap_on(device, **{"resource-id": f"{NOTES}:id/title", "text": "Create shortcut"})


def _workspace_labels(device) -> list[str]:
    device.shell("input keyevent HOME")
    return [n["text"] for n in dumped(device) if n["class"] == "android.widget.TextView" and n["text"]]


def test_create_shortcut_opens_the_launchers_confirmation(notes_two):
    """requestPinShortcut starts the default launcher's CONFIRM_PIN_SHORTCUT activity, AddItemActivity:
    the app's label, the drag hint, the widget cell (the note's title, "1 × 1"), Cancel / Add to home screen."""
    _create_shortcut(notes_two)
    assert _resumed(notes_two) == f"{LAUNCHER}/{LAUNCHER}.dragndrop.AddItemActivity"
    assert find_on(notes_two, **{"resource-id": f"{LAUNCHER}:id/widget_appName"})["text"] == "Notes"
    assert find_on(notes_two, **{"resource-id": f"{LAUNCHER}:id/widget_drag_instruction"})["text"] == (
        "Touch & hold the widget to move it around the home screen")
    name = find_on(notes_two, **{"resource-id": f"{LAUNCHER}:id/widget_name"})
    assert (name["text"], name["content-desc"]) == ("Diary", "Diary widget")
    assert find_on(notes_two, **{"resource-id": f"{LAUNCHER}:id/widget_dims"})["text"] == "1 \u00d7 1"
    assert [n["text"] for n in dumped(notes_two) if n["class"] == "android.widget.Button"] == [
        "Cancel", "Add to home screen"]


def test_add_to_home_screen_pins_a_shortcut_that_opens_the_note(notes_two):
    """onPlaceAutomaticallyClick queues the shortcut for the workspace and closes: Notes is back; the home
    screen has a "Diary" icon whose tap starts SplashActivity with OPEN_NOTE_ID: Notes on that note."""
    _create_shortcut(notes_two)
    tap_on(notes_two, text="Add to home screen")
    assert _resumed(notes_two) == f"{NOTES}/{NOTES}.activities.MainActivity"
    # Notes on its other note, then home
    tap_on(notes_two, **{"resource-id": f"{NOTES}:id/open_note"})
    # 6.17.0's OpenNoteDialog: a card per note, its title in open_note_item_title
    tap_on(notes_two, text="General note", **{"resource-id": f"{NOTES}:id/open_note_item_title"})
    assert find_on(notes_two, **{"resource-id": f"{NOTES}:id/text_note_view"})["text"] != "Sunny"
    assert _workspace_labels(notes_two)[-1] == "Diary"
    tap_on(notes_two, text="Diary", desc="Diary")
    assert _resumed(notes_two) == f"{NOTES}/{NOTES}.activities.MainActivity"
    assert find_on(notes_two, **{"resource-id": f"{NOTES}:id/text_note_view"})["text"] == "Sunny"
    if "mInputShown=true" in notes_two.shell("dumpsys input_method"):
        notes_two.shell("input keyevent BACK")  # the first BACK hides the keyboard
    notes_two.shell("input keyevent BACK")  # NEW_TASK | CLEAR_TASK: the note's task is all there is
    assert _resumed(notes_two) == f"{LAUNCHER}/{LAUNCHER}.uioverride.QuickstepLauncher"


def test_cancel_and_back_add_nothing(notes_two):
    """onCancelClick and onBackPressed close the sheet without queueing anything."""
    _create_shortcut(notes_two)
    tap_on(notes_two, text="Cancel")
    assert _resumed(notes_two) == f"{NOTES}/{NOTES}.activities.MainActivity"
    _create_shortcut(notes_two)
    notes_two.shell("input keyevent BACK")
    assert _resumed(notes_two) == f"{NOTES}/{NOTES}.activities.MainActivity"
    assert "Diary" not in _workspace_labels(notes_two)


def test_a_shortcut_already_pinned_is_accepted_without_asking(notes_two):
    """ShortcutRequestPinProcessor.requestPinShortcutLocked: a shortcut the launcher already pinned
    succeeds at once, with no confirmation."""
    _create_shortcut(notes_two)
    tap_on(notes_two, text="Add to home screen")
    _create_shortcut(notes_two)
    assert _resumed(notes_two) == f"{NOTES}/{NOTES}.activities.MainActivity"
    assert _workspace_labels(notes_two).count("Diary") == 1

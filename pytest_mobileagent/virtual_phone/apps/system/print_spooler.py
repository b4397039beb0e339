"""Print Spooler (com.android.printspooler): the print dialog apps reach with PrintManager.print.

``PrintManager.print(jobName, adapter, attributes)`` starts the spooler's
``com.android.printspooler.ui.PrintActivity`` over the app.  With no print
service enabled (a stock emulator image has none) its only destination is the
built-in PDF printer, "Save as PDF".  The first screen is drawn as the
spooler's layouts have it (frameworks/base packages/PrintSpooler,
res/layout/print_activity.xml, print_activity_controls.xml,
printer_dropdown_item.xml, preview_page.xml), in the collapsed state
PrintContentView starts in: the destination spinner, the summary ("Copies:"
1, "Paper size:" Letter: MediaSizeUtils.getDefault reads mediasize_default,
NA_LETTER in res/values-en-rUS/donottranslate.xml), the print button (its
content description "Save to PDF", R.string.savetopdf_button, for the PDF
printer: PrintActivity.updateOptionsUi), the expand handle and the page
preview.

The print button asks DocumentsUI where to save (PrintActivity.startCreateDocumentActivity:
ACTION_CREATE_DOCUMENT, type application/pdf, EXTRA_TITLE the document's name);
once a file is chosen the PDF is written there and the activity finishes
(transformDocumentAndFinish).  A cancelled save leaves the dialog open.  BACK
cancels the print job and finishes.
"""

from __future__ import annotations

import io

from ...framework.intents import ACTION_CREATE_DOCUMENT, Intent
from ...framework.ui.views import (
    MATCH,
    TEXT_SECONDARY,
    Column,
    FrameLayout,
    ImageButton,
    ImageView,
    LinearLayout,
    RecyclerView,
    RelativeLayout,
    Row,
    TextView,
    View,
    dp,
    sp,
)
from ...framework.app import Activity, App

__all__ = ["PrintActivity", "PrintSpoolerApp", "print_job"]

PACKAGE = "com.android.printspooler"
#: the PDF printer's destination label (R.string.save_as_pdf) and the button's description
SAVE_AS_PDF = "Save as PDF"
SAVE_TO_PDF = "Save to PDF"
#: PrintAttributes.MediaSize.NA_LETTER in points (8.5 x 11 in), its label (framework mediasize_na_letter)
LETTER_POINTS = (612, 792)
LETTER = "Letter"


def render_pdf(text: str) -> bytes:
    """The printed pages as a PDF: the text, one Letter page per screenful, drawn by Pillow."""
    from PIL import Image, ImageDraw

    lines = text.splitlines() or [""]
    per_page = 48
    pages = []
    for start in range(0, len(lines), per_page):
        page = Image.new("RGB", LETTER_POINTS, "white")
        draw = ImageDraw.Draw(page)
        for row, line in enumerate(lines[start:start + per_page]):
            draw.text((36, 36 + row * 15), line, fill="black")
        pages.append(page)
    out = io.BytesIO()
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=72.0)
    return out.getvalue()


def print_job(caller: Activity, job_name: str, text: str) -> None:
    """PrintManager.print from ``caller``: the spooler's dialog for a document of ``text``."""
    host = caller.host
    host.push_activity(caller, PrintActivity, {"job": job_name, "text": text}, app=host.app(PACKAGE))


class PrintActivity(Activity):
    """The print dialog: destination "Save as PDF", the summary, the print button, the preview."""

    name = "com.android.printspooler.ui.PrintActivity"
    title = "Print dialog"  # R.string.print_dialog, the window's accessibility title

    def on_create(self) -> None:
        if "job" not in self.extras:
            # started bare (`am start -n`): PrintActivity finishes without a print job
            self.host.defer(self.finish)

    def build(self) -> View:
        if "job" not in self.extras:
            return FrameLayout(height=MATCH)
        return FrameLayout(
            Column(
                FrameLayout(
                    FrameLayout(
                        # printer_dropdown_item.xml: its icon is invisible for the PDF printer, the subtitle gone
                        LinearLayout(TextView(SAVE_AS_PDF, f"{PACKAGE}:id/title", size=sp(18), max_lines=1,
                                              margin=(dp(48), 0, 0, 0)),
                                     padding=(dp(8), 0), min_height=dp(56), gravity="start|center_vertical"),
                        id=f"{PACKAGE}:id/destination_spinner", class_name="android.widget.Spinner",
                        width=dp(220), margin=(0, dp(4), 0, 0), on_click=lambda: None, focusable=True),
                    id=f"{PACKAGE}:id/static_content", padding=(dp(8), 0, 0, 0), width=MATCH),
                Row(TextView("Copies:", size=sp(14), color=TEXT_SECONDARY, margin=(dp(12), 0, 0, 0)),
                    TextView("1", f"{PACKAGE}:id/copies_count_summary", margin=(dp(16), 0, 0, 0), max_lines=1),
                    TextView("Paper size:", size=sp(14), color=TEXT_SECONDARY, margin=(dp(32), 0, 0, 0)),
                    TextView(LETTER, f"{PACKAGE}:id/paper_size_summary", margin=(dp(16), 0, 0, 0), max_lines=1),
                    id=f"{PACKAGE}:id/summary_content", width=MATCH, padding=(dp(16), dp(2), dp(16), dp(8)),
                    desc=f"Summary, copies 1, paper size {LETTER}"),
                LinearLayout(
                    FrameLayout(ImageView(f"{PACKAGE}:id/expand_collapse_icon", icon="down", width=dp(24),
                                          height=dp(24), layout_gravity="center", margin=(0, dp(4))),
                                id=f"{PACKAGE}:id/expand_collapse_handle", width=MATCH, desc="Expand handle",
                                on_click=lambda: None),
                    id=f"{PACKAGE}:id/dynamic_content", width=MATCH),
                FrameLayout(
                    RecyclerView(self._page(), id=f"{PACKAGE}:id/preview_content", height=MATCH),
                    id=f"{PACKAGE}:id/embedded_content_container", class_name="android.widget.FrameLayout",
                    weight=1, height=MATCH),
                height=MATCH),
            # the print button floats at the end, over the handle (PrintContentView.onLayout)
            ImageButton(f"{PACKAGE}:id/print_button", icon="down", desc=SAVE_TO_PDF, width=dp(48),
                        height=dp(48), layout_gravity="end|top", margin=(0, dp(104), dp(16), 0),
                        tint=(255, 255, 255), bg=(26, 115, 232), radius=dp(24), on_click=self.save_to_pdf),
            id=f"{PACKAGE}:id/options_content", class_name="android.view.ViewGroup", height=MATCH)

    def _page(self) -> View:
        return LinearLayout(
            View(f"{PACKAGE}:id/page_content", width=dp(250), height=dp(323), bg=(255, 255, 255)),
            RelativeLayout(TextView("1", f"{PACKAGE}:id/page_number", size=sp(14), layout_gravity="center"),
                           id=f"{PACKAGE}:id/page_footer", width=dp(250), height=dp(32), bg=(158, 158, 158)),
            id=f"{PACKAGE}:id/preview_page", width=dp(250), margin=dp(16), layout_gravity="center_horizontal")

    # -- actions ---------------------------------------------------------------------------------
    def save_to_pdf(self) -> None:
        """PrintActivity.startCreateDocumentActivity: DocumentsUI picks the file to write."""
        intent = Intent(ACTION_CREATE_DOCUMENT, mime_type="application/pdf",
                        extras={"title": self.extras["job"], "on_result": self._written})
        self.start_intent(intent)

    def _written(self, path: str | None) -> None:
        if path is None or self.finished:
            return  # a cancelled save leaves the dialog as it was
        self.host.fs.write_file(path, render_pdf(self.extras["text"]))
        store = getattr(self.host, "media_store", None)
        if store is not None:
            store.scan(path)
        self.finish()


class PrintSpoolerApp(App):
    """The framework's print spooler (no launcher entry)."""

    package = PACKAGE
    label = "Print Spooler"  # R.string.app_label
    activities = (PrintActivity,)
    in_launcher = False
    version_name = "14"

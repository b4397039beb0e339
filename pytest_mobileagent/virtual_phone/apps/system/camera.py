"""The emulator image's Camera (AOSP Camera2, com.android.camera2): its capture screen.

Layout: Camera2's res/layout/activity_main.xml (``activity_root_view`` >
``camera_app_root``: ``preview_content``, ``focus_ring``, ``preview_overlay``,
``face_view``, the module's ``module_layout`` with its ``progress_overlay``, and
the StickyBottomCaptureLayout ``sticky_bottom_capture_layout``), mode_options_overlay.xml
(``mode_options_overlay`` with the "Options" toggle ``mode_options_toggle`` /
``three_dots``) and bottom_bar_contents.xml (``bottom_bar``: ``bottombar_capture``
with the ``shutter_button`` "Shutter"; for an IMAGE_CAPTURE intent, after the shot,
``bottombar_intent_review`` with ``retake_button`` "Retake", ``done_button`` "Done",
``cancel_button`` "Cancel", and the shot in ``intent_review_imageview``).  Sizes and
the tree are those of the DroidTask recording of this screen (Contacts' "Take photo"
on a Google emulator image, com.android.camera2/com.android.camera.CaptureActivity):
the bottom bar is 120 dp high, the preview a 4:3 rectangle whose bottom meets it
(CaptureLayoutHelper), the options toggle 48 dp, 12 dp inside the preview's corner.

The emulator's camera shows its virtual scene; the model draws a dark preview and its shot
is a dark 4:3 JPEG (made with Pillow; its size is the model's, not the emulator's sensor's).
Done (PhotoModule.onCaptureDone, packages/apps/Camera2 src/com/android/camera/PhotoModule.java)
writes the shot's JPEG through ``ContentResolver.openOutputStream`` to the intent's
MediaStore.EXTRA_OUTPUT URI and returns RESULT_OK; without EXTRA_OUTPUT Camera2 returns a scaled
bitmap in the result's "data" extra instead, which the model hands back as the JPEG.  Cancel
(onCaptureCancelled) and BACK return RESULT_CANCELED; Retake returns to the capture screen.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from ...framework.app import RESULT_OK, Activity
from ...framework.ui.views import MATCH, FrameLayout, ImageButton, ImageView, LinearLayout, View, dp

__all__ = ["CameraActivity", "CameraLauncher", "CaptureActivity"]

PACKAGE = "com.android.camera2"
_ID = f"{PACKAGE}:id"
BOTTOM_BAR_H = dp(120)
_WHITE = (255, 255, 255)
#: MediaStore.EXTRA_OUTPUT
EXTRA_OUTPUT = "output"


@lru_cache(maxsize=1)
def shot_jpeg() -> bytes:
    """The shot: a dark 4:3 frame, JPEG-encoded (what CaptureModule's JPEG callback holds)."""
    out = io.BytesIO()
    Image.new("RGB", (640, 480), (30, 30, 30)).save(out, "JPEG", quality=95)
    return out.getvalue()


class _Preview:
    """A view over the 4:3 preview: the screen's width, 4/3 of it high, its bottom on the bottom bar."""

    def measure(self, avail_w, avail_h, exact_w=None, exact_h=None):
        full_h = avail_h + self.margin[1]  # the parent gave the room below the previous top margin
        height = min(full_h - BOTTOM_BAR_H, avail_w * 4 // 3)
        self.margin = (0, max(0, full_h - BOTTOM_BAR_H - height), 0, 0)
        return super().measure(avail_w, avail_h, exact_w=avail_w, exact_h=height)


class _PreviewFrame(_Preview, FrameLayout):
    pass


class _PreviewView(_Preview, View):
    pass


class _CameraScreen(Activity):
    """Camera2's CameraActivity with its photo module; `reviewing` once an intent's shot was taken."""

    title = "Camera"
    #: whether the shot is reviewed (only when another app asked for a photo: IMAGE_CAPTURE)
    REVIEWS = False

    def on_create(self) -> None:
        self.reviewing = False

    def shutter(self) -> None:
        # PhotoModule.onShutterButtonClick; an intent's capture then shows the review bar
        # (PhotoUI.showCapturedImageForReview); a plain capture goes on (the shot is not modelled)
        if self.REVIEWS:
            self.reviewing = True

    def retake(self) -> None:
        self.reviewing = False

    def done(self) -> None:
        """PhotoModule.onCaptureDone (no crop asked): the JPEG to EXTRA_OUTPUT, RESULT_OK, finish."""
        intent = self.extras.get("intent")
        output = intent.extras.get(EXTRA_OUTPUT) if intent is not None else None
        if output:
            try:
                self.write_uri(output, shot_jpeg())
            except FileNotFoundError:
                # onCaptureDone catches the IOException and calls onError (its error dialog is not
                # modelled): no result is set and the activity stays
                return
            self.set_result(RESULT_OK)
        else:
            # Intent("inline-data").putExtra("data", bitmap): the model hands back the JPEG's bytes
            self.set_result(RESULT_OK, {"data": shot_jpeg()})
        self.finish()

    def build(self) -> View:
        full = dict(width=MATCH, height=MATCH)
        progress = _PreviewView(f"{_ID}/progress_overlay", width=MATCH)
        overlay: list[View] = []
        if not self.reviewing:
            toggle = LinearLayout(
                ImageView(f"{_ID}/three_dots", icon="more", desc="Options", tint=_WHITE, width=dp(24),
                          height=dp(24)),
                id=f"{_ID}/mode_options_toggle", desc="Options", width=dp(48), height=dp(48), gravity="center",
                layout_gravity="bottom|end", margin=dp(12), on_click=lambda: None)
            overlay.append(_PreviewFrame(toggle, id=f"{_ID}/mode_options_overlay", width=MATCH))
            bar = FrameLayout(
                ImageView(f"{_ID}/shutter_button", icon="dot", desc="Shutter", tint=_WHITE, **full,
                          on_click=self.shutter),
                id=f"{_ID}/bottombar_capture", **full)
        else:
            button = dict(tint=_WHITE, width=dp(80), height=dp(80), layout_gravity="center_vertical")
            bar = LinearLayout(
                ImageButton(f"{_ID}/retake_button", icon="refresh", desc="Retake", on_click=self.retake, **button),
                FrameLayout(ImageButton(f"{_ID}/done_button", icon="check", desc="Done", tint=_WHITE, width=dp(84),
                                        height=dp(84), layout_gravity="center", on_click=self.done),
                            weight=1, width=MATCH, height=dp(84), layout_gravity="center_vertical"),
                ImageButton(f"{_ID}/cancel_button", icon="close", desc="Cancel", on_click=self.finish, **button),
                id=f"{_ID}/bottombar_intent_review", orientation="horizontal", gravity="center_vertical", **full)
        sticky = FrameLayout(
            *overlay,
            FrameLayout(bar, id=f"{_ID}/bottom_bar", width=MATCH, height=BOTTOM_BAR_H, layout_gravity="bottom",
                        bg=(0, 0, 0)),
            id=f"{_ID}/sticky_bottom_capture_layout", **full)
        review = [_PreviewView(f"{_ID}/intent_review_imageview", width=MATCH, bg=(60, 60, 60),
                               class_name="android.widget.ImageView")] if self.reviewing else []
        return FrameLayout(FrameLayout(
            View(f"{_ID}/preview_content", **full, bg=(30, 30, 30)),
            View(f"{_ID}/focus_ring", **full),
            View(f"{_ID}/preview_overlay", **full),
            View(f"{_ID}/face_view", **full),
            FrameLayout(FrameLayout(progress, **full), id=f"{_ID}/module_layout", **full),
            sticky,
            *review,
            id=f"{_ID}/camera_app_root", **full), id=f"{_ID}/activity_root_view", **full, bg=(0, 0, 0))


class CameraActivity(_CameraScreen):
    """STILL_IMAGE_CAMERA (Camera2's AndroidManifest.xml)."""

    name = "com.android.camera.CameraActivity"


class CameraLauncher(_CameraScreen):
    """The launcher entry (an activity-alias of CameraActivity in Camera2's manifest)."""

    name = "com.android.camera.CameraLauncher"


class CaptureActivity(_CameraScreen):
    """IMAGE_CAPTURE: another app asks for a photo, so the shot is reviewed before it is returned."""

    name = "com.android.camera.CaptureActivity"
    REVIEWS = True

"""The class name the accessibility framework reports for a view: one rule for every dump.

A view keeps its real widget class (the one its layout XML names); what `uiautomator dump`,
the accessibility events' ``className`` and the AccessibilityNodeInfo of uiautomator2 / Appium
servers report is the view's ``getAccessibilityClassName()``, or the class name its
accessibility delegate sets (View.java ``onInitializeAccessibilityNodeInfoInternal`` calls
``info.setClassName(getAccessibilityClassName())``, then the delegate may overwrite it).

The rule, in `accessibility_class_name()`:

- the platform's own widgets (``android.widget.*``, ``android.view.*``) each override
  ``getAccessibilityClassName()`` with their own class (frameworks/base
  core/java/android/widget/TextView.java ``return TextView.class.getName()``, and so on for
  Button, ImageView, LinearLayout, ScrollView...): they report themselves;
- a library widget reports the nearest class in `REPORTED_AS` (its own override or delegate,
  else the platform superclass whose override it inherits), each entry with its source, at the
  versions the pinned Simple-Commons builds with (gradle/libs.versions.toml at 73d78e5cd3:
  AppCompat 1.6.1, ConstraintLayout 2.1.4, Material 1.9.0);
- a widget whose delegate reports ``SomeClass.class.getName()`` of a class that R8 renamed in
  the minified release APK reports the renamed class: those names differ per APK (each build
  has its own R8 mapping), so they are recorded per app in `R8_RENAMED`, each from the
  recordings of the real app.
"""

from __future__ import annotations

#: Layout XML names of library widgets the apps' layouts use often (for the apps' views' `class_name`).
CONSTRAINT_LAYOUT = "androidx.constraintlayout.widget.ConstraintLayout"
COORDINATOR_LAYOUT = "androidx.coordinatorlayout.widget.CoordinatorLayout"
SWIPE_REFRESH_LAYOUT = "androidx.swiperefreshlayout.widget.SwipeRefreshLayout"
MATERIAL_TOOLBAR = "com.google.android.material.appbar.MaterialToolbar"
MY_VIEW_PAGER = "com.simplemobiletools.commons.views.MyViewPager"

#: A library widget -> the class name it reports (its override or delegate, or the platform class
#: whose ``getAccessibilityClassName()`` it inherits).
REPORTED_AS: dict[str, str] = {
    # ViewGroup subclasses that set no class name of their own, so ViewGroup.getAccessibilityClassName():
    # the recordings show android.view.ViewGroup for every id the pinned layouts give these classes
    # (ConstraintLayout: settings_color_customization_holder, main_holder...; CoordinatorLayout:
    # main_coordinator; SwipeRefreshLayout: items_swipe_refresh; MaterialToolbar: top_toolbar...).
    # A CoordinatorLayout whose AppBarLayout scrolls reports ScrollView instead (Material 1.9.0
    # AppBarLayout.BaseBehavior sets that delegate at run time): apps name that case directly.
    CONSTRAINT_LAYOUT: "android.view.ViewGroup",
    COORDINATOR_LAYOUT: "android.view.ViewGroup",
    SWIPE_REFRESH_LAYOUT: "android.view.ViewGroup",
    MATERIAL_TOOLBAR: "android.view.ViewGroup",
    # AppCompat's decor (AppCompatDelegateImpl.createSubDecor): abc_screen_simple.xml and
    # abc_dialog_title_material.xml root a FitWindowsLinearLayout (extends LinearLayout),
    # abc_screen_simple_overlay_action_mode.xml a FitWindowsFrameLayout (extends FrameLayout);
    # ContentFrameLayout (android:id/content) extends FrameLayout.  None overrides the class name.
    "androidx.appcompat.widget.FitWindowsLinearLayout": "android.widget.LinearLayout",
    "androidx.appcompat.widget.FitWindowsFrameLayout": "android.widget.FrameLayout",
    "androidx.appcompat.widget.ContentFrameLayout": "android.widget.FrameLayout",
    # LinearLayoutCompat.onInitializeAccessibilityNodeInfo / ...Event set LinearLayoutCompat's own name
    # (appcompat LinearLayoutCompat.java); the recordings show it unrenamed for the AlertDialog's
    # parentPanel (abc_alert_dialog_material.xml).
    "androidx.appcompat.widget.LinearLayoutCompat": "androidx.appcompat.widget.LinearLayoutCompat",
    # AppCompatButton.onInitializeAccessibilityNodeInfo sets Button.class.getName() (appcompat AppCompatButton.java).
    "androidx.appcompat.widget.AppCompatButton": "android.widget.Button",
    # SwitchCompat sets ACCESSIBILITY_EVENT_CLASS_NAME = "android.widget.Switch" (appcompat SwitchCompat.java).
    "androidx.appcompat.widget.SwitchCompat": "android.widget.Switch",
    # NestedScrollView's AccessibilityDelegate sets ScrollView.class.getName() (androidx.core NestedScrollView.java).
    "androidx.core.widget.NestedScrollView": "android.widget.ScrollView",
    # RecyclerViewAccessibilityDelegate sets RecyclerView.class.getName(); the recordings show it
    # unrenamed in every app ("androidx.recyclerview.widget.RecyclerView").
    "androidx.recyclerview.widget.RecyclerView": "androidx.recyclerview.widget.RecyclerView",
    # DrawerLayout's AccessibilityDelegate sets DrawerLayout.class.getName() (drawerlayout DrawerLayout.java);
    # the recordings show it unrenamed.
    "androidx.drawerlayout.widget.DrawerLayout": "androidx.drawerlayout.widget.DrawerLayout",
    # ViewPager's MyAccessibilityDelegate sets ViewPager.class.getName() in
    # onInitializeAccessibilityEvent / onInitializeAccessibilityNodeInfo (viewpager ViewPager.java);
    # in a minified APK that is R8's name for the class: see R8_RENAMED.
    "androidx.viewpager.widget.ViewPager": "androidx.viewpager.widget.ViewPager",
    # Commons' MyViewPager extends RtlViewPager (com.duolingo.open.rtlviewpager), a ViewPager: ViewPager's delegate.
    MY_VIEW_PAGER: "androidx.viewpager.widget.ViewPager",
    # Commons' MyDialogViewPager extends ViewPager (MyDialogViewPager.kt).
    "com.simplemobiletools.commons.views.MyDialogViewPager": "androidx.viewpager.widget.ViewPager",
    # Material 1.9.0: MaterialCardView sets ACCESSIBILITY_CLASS_NAME = "androidx.cardview.widget.CardView";
    # MaterialButton.getA11yClassName() is Button (CompoundButton when checkable);
    # FloatingActionButton extends VisibilityAwareImageButton (ImageButton) without an override
    # (its "FloatingActionButton" role came in 1.13.0); TextInputLayout extends LinearLayout and
    # AppBarLayout extends LinearLayout, neither sets a class name of its own (no setClassName in either at
    # 1.9.0; the recordings show LinearLayout for top_app_bar_layout and the *_hint layouts).
    "com.google.android.material.card.MaterialCardView": "androidx.cardview.widget.CardView",
    "com.google.android.material.button.MaterialButton": "android.widget.Button",
    "com.google.android.material.floatingactionbutton.FloatingActionButton": "android.widget.ImageButton",
    "com.google.android.material.textfield.TextInputLayout": "android.widget.LinearLayout",
    "com.google.android.material.appbar.AppBarLayout": "android.widget.LinearLayout",
    # barteksc's PDFView (android-pdf-viewer) is ``class PDFView extends RelativeLayout`` without an override.
    "com.github.barteksc.pdfviewer.PDFView": "android.widget.RelativeLayout",
    # RecyclerViewFastScroller (com.qtalk, Commons' recyclerviewFastscroller 5a95285b1f): the recordings
    # show android.widget.RelativeLayout for its fastscroller ids (it is a RelativeLayout subclass).
    "com.qtalk.recyclerviewfastscroller.RecyclerViewFastScroller": "android.widget.RelativeLayout",
}

#: Platform widgets that inherit their superclass's name: DayPickerView (DatePicker's calendar) is
#: ``class DayPickerView extends ViewGroup`` without an override
#: (frameworks/base core/java/android/widget/DayPickerView.java); the recordings show ViewGroup.
PLATFORM_REPORTED_AS: dict[str, str] = {
    "android.widget.DayPickerView": "android.view.ViewGroup",
}

#: Per app package: a class that a delegate names with ``X.class.getName()`` -> R8's name for it in
#: that app's minified release APK, as the DroidTask recordings of the real app show it
#: (tests/data/conformance/<app>.json ``classes``; Commons' MyViewPager extends RtlViewPager, a
#: ViewPager, so its delegate reports ViewPager's renamed class).
R8_RENAMED: dict[str, dict[str, str]] = {
    "com.simplemobiletools.contacts.pro": {"androidx.viewpager.widget.ViewPager": "androidx.viewpager.widget.b"},
    "com.simplemobiletools.filemanager.pro": {"androidx.viewpager.widget.ViewPager": "androidx.viewpager.widget.b"},
    "com.simplemobiletools.musicplayer": {"androidx.viewpager.widget.ViewPager": "androidx.viewpager.widget.b"},
    "com.simplemobiletools.voicerecorder": {"androidx.viewpager.widget.ViewPager": "androidx.viewpager.widget.b"},
    "com.simplemobiletools.notes.pro": {"androidx.viewpager.widget.ViewPager": "androidx.viewpager.widget.c"},
}

#: Framework packages whose widgets each report their own class (see the module docstring; WebView too:
#: frameworks/base core/java/android/webkit/WebView.java ``return WebView.class.getName()``).
_PLATFORM = ("android.widget.", "android.view.", "android.webkit.", "com.android.internal.widget.")


def accessibility_class_name(widget_class: str, package: str = "") -> str:
    """The class name the accessibility framework reports for a `widget_class` view in `package`'s window."""
    if widget_class.startswith(_PLATFORM):
        reported = PLATFORM_REPORTED_AS.get(widget_class, widget_class)
    else:
        try:
            reported = REPORTED_AS[widget_class]
        except KeyError:
            raise ValueError(f"no accessibility class name known for {widget_class!r}: add it to "
                             "accessibility_class.REPORTED_AS with its source") from None
    return R8_RENAMED.get(package, {}).get(reported, reported)

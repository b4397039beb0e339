package io.github.mobileagent.listener;

import android.accessibilityservice.AccessibilityService;
import android.content.Context;
import android.graphics.Point;
import android.graphics.Rect;
import android.view.Display;
import android.view.WindowManager;
import android.view.accessibility.AccessibilityNodeInfo;

/**
 * Answers the host's hierarchy requests from {@code getRootInActiveWindow()}.
 *
 * Runs on the server's reader thread, never on the UI thread: node queries are
 * binder calls into the app, which may take a few milliseconds each.
 */
final class HierarchyRequests implements ListenerServer.RequestHandler {
    private final AccessibilityService service;

    HierarchyRequests(AccessibilityService service) {
        this.service = service;
    }

    @Override
    public String reply(String line) {
        long id = HierarchyReply.requestId(line);
        if (id < 0) {
            return null;  // not a request this version knows: ignored, so newer hosts keep working
        }
        AccessibilityNodeInfo root = service.getRootInActiveWindow();
        String xml;
        try {
            Point size = new Point();
            Display display = ((WindowManager) service.getSystemService(Context.WINDOW_SERVICE)).getDefaultDisplay();
            display.getRealSize(size);
            xml = HierarchyXml.document(root == null ? null : new InfoNode(root), display.getRotation(),
                    size.x, size.y);
        } finally {
            if (root != null) {
                root.recycle();
            }
        }
        return HierarchyReply.line(id, xml);
    }

    /** An AccessibilityNodeInfo seen through HierarchyXml.Node. */
    private static final class InfoNode implements HierarchyXml.Node {
        private final AccessibilityNodeInfo info;

        InfoNode(AccessibilityNodeInfo info) {
            this.info = info;
        }

        @Override public int childCount() { return info.getChildCount(); }

        @Override
        public HierarchyXml.Node child(int i) {
            AccessibilityNodeInfo c = info.getChild(i);
            return c == null ? null : new InfoNode(c);
        }

        @Override public boolean visible() { return info.isVisibleToUser(); }
        @Override public CharSequence text() { return info.getText(); }
        @Override public CharSequence resourceId() { return info.getViewIdResourceName(); }
        @Override public CharSequence className() { return info.getClassName(); }
        @Override public CharSequence packageName() { return info.getPackageName(); }
        @Override public CharSequence contentDesc() { return info.getContentDescription(); }
        @Override public boolean checkable() { return info.isCheckable(); }
        @Override public boolean checked() { return info.isChecked(); }
        @Override public boolean clickable() { return info.isClickable(); }
        @Override public boolean enabled() { return info.isEnabled(); }
        @Override public boolean focusable() { return info.isFocusable(); }
        @Override public boolean focused() { return info.isFocused(); }
        @Override public boolean scrollable() { return info.isScrollable(); }
        @Override public boolean longClickable() { return info.isLongClickable(); }
        @Override public boolean password() { return info.isPassword(); }
        @Override public boolean selected() { return info.isSelected(); }

        @Override
        public int[] bounds() {
            Rect r = new Rect();
            info.getBoundsInScreen(r);
            return new int[] {r.left, r.top, r.right, r.bottom};
        }
    }
}

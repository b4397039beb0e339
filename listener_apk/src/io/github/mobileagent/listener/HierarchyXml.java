package io.github.mobileagent.listener;

/**
 * Writes a view tree in {@code uiautomator dump}'s XML: the same header,
 * attribute order, two-space indentation and self-closing leaves, so the
 * plugin parses the listener's hierarchy exactly as it parses a dump.
 *
 * Pure Java over the {@link Node} interface, so it is tested on the JVM; the
 * service adapts AccessibilityNodeInfo to it.
 */
public final class HierarchyXml {
    /** What the writer needs to know about one view. */
    public interface Node {
        int childCount();
        /** The child, or null when it cannot be read (the window changed). */
        Node child(int i);
        boolean visible();
        CharSequence text();
        CharSequence resourceId();
        CharSequence className();
        CharSequence packageName();
        CharSequence contentDesc();
        boolean checkable();
        boolean checked();
        boolean clickable();
        boolean enabled();
        boolean focusable();
        boolean focused();
        boolean scrollable();
        boolean longClickable();
        boolean password();
        boolean selected();
        /** left, top, right, bottom on screen. */
        int[] bounds();
    }

    public static final String HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n";

    private HierarchyXml() {}

    // uiautomator does not flag these containers as NAF ("not accessibility friendly").
    private static final String[] NAF_EXCLUDED_CLASSES = {
        "android.widget.GridView", "android.widget.GridLayout", "android.widget.ListView", "android.widget.TableLayout"
    };

    /**
     * The whole document; an empty hierarchy when {@code root} is null. Bounds
     * are clipped to the {@code width} x {@code height} screen, as uiautomator
     * clips them.
     */
    public static String document(Node root, int rotation, int width, int height) {
        StringBuilder out = new StringBuilder(16 * 1024);
        out.append(HEADER).append("<hierarchy rotation=\"").append(rotation).append("\">\n");
        if (root != null) {
            node(out, root, 0, 1, width, height);
        }
        out.append("</hierarchy>\n");
        return out.toString();
    }

    private static void node(StringBuilder out, Node n, int index, int depth, int width, int height) {
        for (int i = 0; i < depth; i++) {
            out.append("  ");
        }
        out.append("<node");
        if (!nafExcluded(n) && !nafCheck(n)) {
            out.append(" NAF=\"true\"");
        }
        out.append(" index=\"").append(index).append('"');
        attr(out, "text", n.text());
        attr(out, "resource-id", n.resourceId());
        attr(out, "class", n.className());
        attr(out, "package", n.packageName());
        attr(out, "content-desc", n.contentDesc());
        flag(out, "checkable", n.checkable());
        flag(out, "checked", n.checked());
        flag(out, "clickable", n.clickable());
        flag(out, "enabled", n.enabled());
        flag(out, "focusable", n.focusable());
        flag(out, "focused", n.focused());
        flag(out, "scrollable", n.scrollable());
        flag(out, "long-clickable", n.longClickable());
        flag(out, "password", n.password());
        flag(out, "selected", n.selected());
        int[] b = n.bounds();
        out.append(" bounds=\"[").append(clip(b[0], width)).append(',').append(clip(b[1], height)).append("][")
                .append(clip(b[2], width)).append(',').append(clip(b[3], height)).append("]\"");
        int shown = 0;
        int count = n.childCount();
        for (int i = 0; i < count; i++) {
            Node child = n.child(i);
            if (child == null || !child.visible()) {
                continue;  // uiautomator skips views that are not on screen
            }
            if (shown == 0) {
                out.append(">\n");
            }
            // The index is the child's place among all children, as uiautomator writes it.
            node(out, child, i, depth + 1, width, height);
            shown++;
        }
        if (shown == 0) {
            out.append(" />\n");
        } else {
            for (int i = 0; i < depth; i++) {
                out.append("  ");
            }
            out.append("</node>\n");
        }
    }

    private static int clip(int value, int limit) {
        return value < 0 ? 0 : (limit > 0 && value > limit ? limit : value);
    }

    private static boolean nafExcluded(Node n) {
        CharSequence cls = n.className();
        if (cls == null) {
            return false;
        }
        String name = cls.toString();
        for (String excluded : NAF_EXCLUDED_CLASSES) {
            if (name.endsWith(excluded)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isEmpty(CharSequence value) {
        return value == null || value.length() == 0;
    }

    /** False for a clickable, enabled node with no text or description anywhere in it. */
    private static boolean nafCheck(Node n) {
        boolean naf = n.clickable() && n.enabled() && isEmpty(n.contentDesc()) && isEmpty(n.text());
        return !naf || childNafCheck(n);
    }

    private static boolean childNafCheck(Node n) {
        int count = n.childCount();
        for (int i = 0; i < count; i++) {
            Node child = n.child(i);
            if (child == null) {
                continue;
            }
            if (!isEmpty(child.contentDesc()) || !isEmpty(child.text()) || childNafCheck(child)) {
                return true;
            }
        }
        return false;
    }

    private static void flag(StringBuilder out, String name, boolean value) {
        out.append(' ').append(name).append("=\"").append(value ? "true" : "false").append('"');
    }

    private static void attr(StringBuilder out, String name, CharSequence value) {
        out.append(' ').append(name).append("=\"");
        escape(out, value);
        out.append('"');
    }

    /** XML attribute escaping as uiautomator's serializer does it. */
    static void escape(StringBuilder out, CharSequence value) {
        if (value == null) {
            return;
        }
        int n = value.length();
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&': out.append("&amp;"); break;
                case '<': out.append("&lt;"); break;
                case '>': out.append("&gt;"); break;
                case '"': out.append("&quot;"); break;
                case '\'': out.append("&apos;"); break;
                case '\n': out.append("&#10;"); break;
                case '\r': out.append("&#13;"); break;
                case '\t': out.append("&#9;"); break;
                default:
                    if (c < 0x20) {
                        out.append('?');  // XML 1.0 cannot carry other control characters
                    } else {
                        out.append(c);
                    }
            }
        }
    }
}

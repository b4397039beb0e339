package io.github.mobileagent.listener;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;

public class HierarchyXmlTest {
    /** A plain node for tests. */
    static final class FakeNode implements HierarchyXml.Node {
        String text = "";
        String id = "";
        String cls = "android.widget.FrameLayout";
        String desc = "";
        boolean visible = true;
        boolean clickable;
        int[] bounds = {0, 0, 100, 50};
        List<FakeNode> children = new ArrayList<FakeNode>();

        public int childCount() { return children.size(); }
        public HierarchyXml.Node child(int i) { return children.get(i); }
        public boolean visible() { return visible; }
        public CharSequence text() { return text; }
        public CharSequence resourceId() { return id; }
        public CharSequence className() { return cls; }
        public CharSequence packageName() { return "com.x"; }
        public CharSequence contentDesc() { return desc; }
        public boolean checkable() { return false; }
        public boolean checked() { return false; }
        public boolean clickable() { return clickable; }
        public boolean enabled() { return true; }
        public boolean focusable() { return false; }
        public boolean focused() { return false; }
        public boolean scrollable() { return false; }
        public boolean longClickable() { return false; }
        public boolean password() { return false; }
        public boolean selected() { return false; }
        public int[] bounds() { return bounds; }
    }

    @Test
    public void writesUiautomatorsFormat() {
        FakeNode root = new FakeNode();
        FakeNode hidden = new FakeNode();
        hidden.visible = false;
        FakeNode button = new FakeNode();
        button.cls = "android.widget.Button";
        button.text = "Save & \"close\"";
        button.id = "com.x:id/save";
        button.clickable = true;
        button.bounds = new int[] {10, 20, 30, 40};
        root.children.addAll(Arrays.asList(hidden, button));
        String xml = HierarchyXml.document(root, 0, 1080, 2340);
        assertEquals("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
                + "<hierarchy rotation=\"0\">\n"
                + "  <node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"com.x\""
                + " content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" enabled=\"true\""
                + " focusable=\"false\" focused=\"false\" scrollable=\"false\" long-clickable=\"false\""
                + " password=\"false\" selected=\"false\" bounds=\"[0,0][100,50]\">\n"
                + "    <node index=\"1\" text=\"Save &amp; &quot;close&quot;\" resource-id=\"com.x:id/save\""
                + " class=\"android.widget.Button\" package=\"com.x\" content-desc=\"\" checkable=\"false\""
                + " checked=\"false\" clickable=\"true\" enabled=\"true\" focusable=\"false\" focused=\"false\""
                + " scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\""
                + " bounds=\"[10,20][30,40]\" />\n"
                + "  </node>\n"
                + "</hierarchy>\n", xml);
    }

    @Test
    public void noWindowIsAnEmptyHierarchy() {
        assertEquals(HierarchyXml.HEADER + "<hierarchy rotation=\"0\">\n</hierarchy>\n",
                HierarchyXml.document(null, 0, 1080, 2340));
    }

    @Test
    public void flagsClickableNodesWithoutAnyTextAsNaf() {
        FakeNode icon = new FakeNode();
        icon.clickable = true;
        FakeNode labelled = new FakeNode();
        labelled.clickable = true;
        FakeNode label = new FakeNode();
        label.text = "OK";
        labelled.children.add(label);
        assertTrue(HierarchyXml.document(icon, 0, 100, 100).contains("<node NAF=\"true\" index=\"0\""));
        assertFalse(HierarchyXml.document(labelled, 0, 100, 100).contains("NAF"));
    }

    @Test
    public void clipsBoundsToTheScreen() {
        FakeNode wide = new FakeNode();
        wide.bounds = new int[] {-20, 2000, 1500, 2600};
        assertTrue(HierarchyXml.document(wide, 0, 1080, 2340).contains("bounds=\"[0,2000][1080,2340]\""));
    }

    @Test
    public void escapesLineBreaksAndControlCharacters() {
        StringBuilder out = new StringBuilder();
        HierarchyXml.escape(out, "a\nb\tc\u0001<'>");
        assertEquals("a&#10;b&#9;c?&lt;&apos;&gt;", out.toString());
    }

    @Test
    public void parsesRequestIds() {
        assertEquals(42, HierarchyReply.requestId("{\"req\":\"hierarchy\",\"req_id\":42}"));
        assertEquals(7, HierarchyReply.requestId("{\"req_id\": 7, \"req\":\"hierarchy\"}"));
        assertEquals(-1, HierarchyReply.requestId("{\"req\":\"other\",\"req_id\":1}"));
        assertEquals(-1, HierarchyReply.requestId("{\"req\":\"hierarchy\"}"));
        assertEquals(-1, HierarchyReply.requestId("garbage"));
    }
}

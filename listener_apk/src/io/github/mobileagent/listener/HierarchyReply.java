package io.github.mobileagent.listener;

/**
 * The request/reply lines of the hierarchy path, in pure Java.
 *
 * The host writes {@code {"req":"hierarchy","req_id":N}} on the event connection;
 * the listener answers with one line {@code {"v":1,"type":"hierarchy","req_id":N,"xml":"..."}}
 * among the events, after every event that preceded it (ListenerServer orders them).
 */
public final class HierarchyReply {
    private HierarchyReply() {}

    /** The request id of a hierarchy request line, or -1 when the line is not one. */
    public static long requestId(String line) {
        if (line == null || !line.contains("\"req\":\"hierarchy\"")) {
            return -1;
        }
        int at = line.indexOf("\"req_id\":");
        if (at < 0) {
            return -1;
        }
        int i = at + 9;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        long id = 0;
        int start = i;
        while (i < line.length() && Character.isDigit(line.charAt(i)) && i - start < 18) {
            id = id * 10 + (line.charAt(i) - '0');
            i++;
        }
        return i == start ? -1 : id;
    }

    /** The reply line, newline included. */
    public static String line(long id, String xml) {
        StringBuilder out = new StringBuilder(xml.length() + 64);
        out.append("{\"v\":1,\"type\":\"hierarchy\",\"req_id\":").append(id).append(",\"xml\":");
        EventJson.quote(out, xml);
        out.append("}\n");
        return out.toString();
    }
}

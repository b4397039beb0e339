package io.github.mobileagent.listener;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The handshake lines of listener protocol 2 (README, "Protocol"), in pure Java.
 *
 * The client's first line is {@code {"req":"hello","protocol":2}}; the listener
 * answers with {@link #helloLine} or, for anything else, one {@link #refusedLine}
 * before it closes the connection.
 */
public final class Handshake {
    /** The protocol this listener speaks. */
    public static final int PROTOCOL = 2;

    // The fields of the hello, whitespace allowed around the colon (Python's
    // json.dumps writes {"req": "hello", "protocol": 2}), in either order.
    private static final Pattern REQ_HELLO = Pattern.compile("\"req\"\\s*:\\s*\"hello\"");
    private static final Pattern PROTOCOL_FIELD = Pattern.compile("\"protocol\"\\s*:\\s*(-?[0-9]{1,9})(?![0-9.eE])");

    private Handshake() {}

    /** Why the client's first line is refused, or null when it is a hello for this protocol. */
    public static String refusal(String line) {
        String t = line == null ? "" : line.trim();
        if (!t.startsWith("{") || !t.endsWith("}") || !REQ_HELLO.matcher(t).find()) {
            return "the first line must be a hello: {\"req\":\"hello\",\"protocol\":" + PROTOCOL + "}";
        }
        Matcher protocol = PROTOCOL_FIELD.matcher(t);
        if (!protocol.find()) {
            return "the hello names no protocol: send {\"req\":\"hello\",\"protocol\":" + PROTOCOL + "}";
        }
        int asked = Integer.parseInt(protocol.group(1));
        if (asked != PROTOCOL) {
            return "this listener speaks protocol " + PROTOCOL + ", not " + asked;
        }
        return null;
    }

    /** The answer to a good hello, newline included. */
    public static String helloLine(String pkg, long versionCode, long dropped) {
        StringBuilder out = new StringBuilder(128);
        out.append("{\"v\":1,\"type\":\"hello\",\"protocol\":").append(PROTOCOL).append(",\"package\":");
        EventJson.quote(out, pkg);
        out.append(",\"version_code\":").append(versionCode).append(",\"dropped\":").append(dropped).append("}\n");
        return out.toString();
    }

    /** The one line a refused connection gets before it is closed, newline included. */
    public static String refusedLine(String reason) {
        StringBuilder out = new StringBuilder(96 + reason.length());
        out.append("{\"v\":1,\"type\":\"refused\",\"reason\":");
        EventJson.quote(out, reason);
        out.append("}\n");
        return out.toString();
    }
}

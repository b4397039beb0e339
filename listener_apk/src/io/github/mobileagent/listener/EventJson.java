package io.github.mobileagent.listener;

import java.util.List;

/**
 * Writes one event as a JSON line in the plugin's format (DESIGN.md, "Events").
 *
 * Pure Java, no android.*, so it is tested on the JVM. Strings are escaped by
 * hand because org.json on old Android versions escapes differently per release;
 * the output is strict JSON and valid UTF-8 once encoded: a lone surrogate (which
 * UTF-8 cannot carry) becomes U+FFFD.
 */
public final class EventJson {
    private EventJson() {}

    /** One event line, newline included. Null strings are written as "". */
    public static String line(String type, CharSequence pkg, CharSequence id, List<? extends CharSequence> texts,
                              CharSequence desc, CharSequence cls, long timeMs) {
        StringBuilder out = new StringBuilder(128);
        out.append("{\"v\":1,\"type\":");
        quote(out, type);
        out.append(",\"package\":");
        quote(out, pkg);
        out.append(",\"id\":");
        quote(out, id);
        out.append(",\"text\":[");
        if (texts != null) {
            boolean first = true;
            for (CharSequence text : texts) {
                if (text == null) {
                    continue;  // getText() may hold nulls for views without text
                }
                if (!first) {
                    out.append(',');
                }
                quote(out, text);
                first = false;
            }
        }
        out.append("],\"desc\":");
        quote(out, desc);
        out.append(",\"class\":");
        quote(out, cls);
        out.append(",\"time_ms\":").append(timeMs).append("}\n");
        return out.toString();
    }

    /** Appends {@code value} as a JSON string literal. */
    public static void quote(StringBuilder out, CharSequence value) {
        out.append('"');
        if (value != null) {
            int n = value.length();
            for (int i = 0; i < n; i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '"': out.append("\\\""); break;
                    case '\\': out.append("\\\\"); break;
                    case '\n': out.append("\\n"); break;
                    case '\r': out.append("\\r"); break;
                    case '\t': out.append("\\t"); break;
                    case '\b': out.append("\\b"); break;
                    case '\f': out.append("\\f"); break;
                    default:
                        if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                            appendEscape(out, c);
                        } else if (Character.isHighSurrogate(c)) {
                            if (i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                                out.append(c).append(value.charAt(i + 1));
                                i++;
                            } else {
                                out.append('\uFFFD');
                            }
                        } else if (Character.isLowSurrogate(c)) {
                            out.append('\uFFFD');
                        } else {
                            out.append(c);
                        }
                }
            }
        }
        out.append('"');
    }

    private static void appendEscape(StringBuilder out, char c) {
        String hex = Integer.toHexString(c);
        out.append("\\u");
        for (int pad = hex.length(); pad < 4; pad++) {
            out.append('0');
        }
        out.append(hex);
    }
}

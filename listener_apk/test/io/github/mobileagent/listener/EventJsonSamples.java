package io.github.mobileagent.listener;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * Prints event lines with awkward contents, then a hello and a refused line;
 * the Python tests parse them with the plugin's event parser and json
 * (tests/listener/test_listener_apk.py).
 */
public final class EventJsonSamples {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        String emoji = new String(Character.toChars(0x1F600));
        out.print(EventJson.line("click", "com.simplemobiletools.notes.pro",
                "com.simplemobiletools.notes.pro:id/save", Arrays.asList("Save"), "", "android.widget.Button",
                1714554000000L));
        out.print(EventJson.line("text_changed", "p", "p:id/t",
                Arrays.asList("say \"hi\"\n\t\\", "café 中文 " + emoji, "lone \uD83D here"), "d\u0001e",
                "android.widget.EditText", 5));
        out.print(EventJson.line("window_state", null, null, null, null, null, 0));
        out.print(HierarchyReply.line(7, "<?xml version='1.0' ?>\n<hierarchy rotation=\"0\">\n</hierarchy>\n"));
        out.print(Handshake.helloLine("io.github.mobileagent.listener", 3, 12));
        out.print(Handshake.refusedLine("uid 10057 may not read the listener: only shell (2000) and root (0)"));
    }
}

package io.github.mobileagent.listener;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class EventJsonTest {
    private static String quoted(String value) {
        StringBuilder out = new StringBuilder();
        EventJson.quote(out, value);
        return out.toString();
    }

    @Test
    public void writesEveryFieldInOrder() {
        String line = EventJson.line("click", "com.x", "com.x:id/save", Arrays.asList("Save"),
                "Save note", "android.widget.Button", 1714554000000L);
        assertEquals("{\"v\":1,\"type\":\"click\",\"package\":\"com.x\",\"id\":\"com.x:id/save\","
                + "\"text\":[\"Save\"],\"desc\":\"Save note\",\"class\":\"android.widget.Button\","
                + "\"time_ms\":1714554000000}\n", line);
    }

    @Test
    public void nullsBecomeEmpty() {
        String line = EventJson.line("window_state", null, null, null, null, null, 0);
        assertEquals("{\"v\":1,\"type\":\"window_state\",\"package\":\"\",\"id\":\"\",\"text\":[],"
                + "\"desc\":\"\",\"class\":\"\",\"time_ms\":0}\n", line);
    }

    @Test
    public void nullTextsAreSkipped() {
        String line = EventJson.line("click", "p", "", Arrays.asList(null, "a", null, "b"), "", "", 1);
        assertTrue(line, line.contains("\"text\":[\"a\",\"b\"]"));
    }

    @Test
    public void escapesQuotesAndBackslashes() {
        assertEquals("\"say \\\"hi\\\" \\\\ bye\"", quoted("say \"hi\" \\ bye"));
    }

    @Test
    public void escapesControlCharacters() {
        assertEquals("\"a\\nb\\rc\\td\\be\\ff\"", quoted("a\nb\rc\td\be\ff"));
        assertEquals("\"\\u0000\\u001f\\u007f\"", quoted("\u0000\u001f\u007f"));
        // Valid JSON but not valid JavaScript, so escaped as browsers' JSON.stringify does not.
        assertEquals("\"\\u2028\\u2029\"", quoted("\u2028\u2029"));
    }

    @Test
    public void keepsUnicodeAsIs() {
        assertEquals("\"café 中文 ñ\"", quoted("café 中文 ñ"));
    }

    @Test
    public void keepsSurrogatePairs() {
        String emoji = new String(Character.toChars(0x1F600));
        assertEquals("\"x" + emoji + "y\"", quoted("x" + emoji + "y"));
        byte[] utf8 = quoted(emoji).getBytes(Charset.forName("UTF-8"));
        assertEquals(6, utf8.length);  // two quotes and one 4-byte sequence
    }

    @Test
    public void replacesLoneSurrogates() {
        assertEquals("\"a\uFFFDb\"", quoted("a\uD83Db"));
        assertEquals("\"a\uFFFDb\"", quoted("a\uDE00b"));
        assertEquals("\"\uFFFD\"", quoted("\uD83D"));
        assertEquals("\"\uFFFD\uFFFD\"", quoted("\uDE00\uD83D"));
    }

    @Test
    public void emptyListIsEmptyArray() {
        String line = EventJson.line("t", "", "", Collections.<String>emptyList(), "", "", 0);
        assertTrue(line.contains("\"text\":[]"));
    }
}

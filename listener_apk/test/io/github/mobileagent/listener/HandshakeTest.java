package io.github.mobileagent.listener;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.Test;

/** The handshake lines, byte for byte, and the hello check. */
public class HandshakeTest {
    @Test
    public void helloLine() {
        assertEquals("{\"v\":1,\"type\":\"hello\",\"protocol\":2,\"package\":\"io.github.mobileagent.listener\","
                + "\"version_code\":3,\"dropped\":17}\n",
                Handshake.helloLine("io.github.mobileagent.listener", 3, 17));
    }

    @Test
    public void refusedLineEscapesItsReason() {
        assertEquals("{\"v\":1,\"type\":\"refused\",\"reason\":\"another client is connected\"}\n",
                Handshake.refusedLine("another client is connected"));
        assertEquals("{\"v\":1,\"type\":\"refused\",\"reason\":\"say \\\"hi\\\"\\n\"}\n",
                Handshake.refusedLine("say \"hi\"\n"));
    }

    @Test
    public void aHelloForThisProtocolPasses() {
        assertNull(Handshake.refusal("{\"req\":\"hello\",\"protocol\":2}"));
        assertNull(Handshake.refusal("{\"req\": \"hello\", \"protocol\": 2}"));
        assertNull(Handshake.refusal(" {\"protocol\":2,\"req\":\"hello\",\"client\":\"pytest\"} "));
    }

    @Test
    public void everythingElseIsRefusedWithAReason() {
        String notHello = "the first line must be a hello: {\"req\":\"hello\",\"protocol\":2}";
        assertEquals(notHello, Handshake.refusal(null));
        assertEquals(notHello, Handshake.refusal(""));
        assertEquals(notHello, Handshake.refusal("{\"req\":\"hierarchy\",\"req_id\":1}"));
        assertEquals(notHello, Handshake.refusal("\"req\":\"hello\",\"protocol\":2"));
        String noProtocol = "the hello names no protocol: send {\"req\":\"hello\",\"protocol\":2}";
        assertEquals(noProtocol, Handshake.refusal("{\"req\":\"hello\"}"));
        assertEquals(noProtocol, Handshake.refusal("{\"req\":\"hello\",\"protocol\":\"2\"}"));
        assertEquals(noProtocol, Handshake.refusal("{\"req\":\"hello\",\"protocol\":2.5}"));
        assertEquals(noProtocol, Handshake.refusal("{\"req\":\"hello\",\"protocol\":12345678901}"));
        assertEquals("this listener speaks protocol 2, not 1", Handshake.refusal("{\"req\":\"hello\",\"protocol\":1}"));
        assertEquals("this listener speaks protocol 2, not 20", Handshake.refusal("{\"req\":\"hello\",\"protocol\":20}"));
        assertEquals("this listener speaks protocol 2, not -2", Handshake.refusal("{\"req\":\"hello\",\"protocol\":-2}"));
    }

    @Test
    public void theTimeoutReadsInSeconds() {
        assertEquals("5 s", ListenerServer.duration(5000));
        assertEquals("250 ms", ListenerServer.duration(250));
    }

    @Test
    public void readLineSplitsOnNewlinesAndSkipsOverlongLines() throws Exception {
        ByteArrayInputStream in = new ByteArrayInputStream(
                "one\r\ntwo\n0123456789abc\nthree\ncafé\npartial".getBytes(StandardCharsets.UTF_8));
        assertEquals("one", ListenerServer.readLine(in, 10));
        assertEquals("two", ListenerServer.readLine(in, 10));
        assertEquals("", ListenerServer.readLine(in, 10));
        assertEquals("three", ListenerServer.readLine(in, 10));
        assertEquals("café", ListenerServer.readLine(in, 10));
        assertNull(ListenerServer.readLine(in, 10));
    }
}

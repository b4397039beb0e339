package io.github.mobileagent.listener;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/**
 * The server over real Unix-domain sockets (listener protocol 2): handshake,
 * buffered then live events, hierarchy requests, one client at a time, the uid
 * check and the refusals.
 */
public class ListenerServerTest {
    private static final String PKG = "io.github.mobileagent.listener";
    private static final long VERSION_CODE = 3;

    @Rule
    public Timeout guard = Timeout.seconds(60);

    private UnixSockets sockets;
    private EventBuffer buffer;
    private ListenerServer server;

    @Before
    public void setUp() throws Exception {
        sockets = new UnixSockets();
        buffer = new EventBuffer(4096);
    }

    @After
    public void tearDown() {
        if (server != null) {
            server.stop();
        }
    }

    private ListenerServer start(long helloTimeoutMs) throws Exception {
        server = new ListenerServer(sockets, buffer, new ListenerServer.RequestHandler() {
            @Override
            public String reply(String line) {
                long id = HierarchyReply.requestId(line);
                return id < 0 ? null : HierarchyReply.line(id, "<hierarchy n=\"" + id + "\"/>");
            }
        }, PKG, VERSION_CODE, helloTimeoutMs, 20);
        server.start();
        return server;
    }

    private UnixSockets.Peer connect() throws Exception {
        return sockets.connect();
    }

    private static String event(String type, String pkg, String id) {
        return EventJson.line(type, pkg, pkg + ":id/" + id, Collections.singletonList(id), "", "android.widget.Button", 7);
    }

    private void offer(String type, String pkg, String id) {
        buffer.offer(type, pkg, event(type, pkg, id));
    }

    private static String unterminated(String line) {
        return line.substring(0, line.length() - 1);
    }

    private static String refused(String reason) {
        return unterminated(Handshake.refusedLine(reason));
    }

    @Test
    public void helloThenBufferedEventsThenLiveOnes() throws Exception {
        offer("window_state", "app", "a");
        offer("click", "app", "b");
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            assertEquals("{\"v\":1,\"type\":\"hello\",\"protocol\":2,\"package\":\"" + PKG
                    + "\",\"version_code\":3,\"dropped\":0}", p.hello());
            assertEquals(unterminated(event("window_state", "app", "a")), p.line());
            assertEquals(unterminated(event("click", "app", "b")), p.line());
            offer("click", "app", "live");
            assertEquals(unterminated(event("click", "app", "live")), p.line());
        }
        assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
        assertEquals(0, buffer.size());
    }

    @Test
    public void aHelloWithSpacesAsPythonsJsonDumpsWritesIt() throws Exception {
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            p.send("{\"req\": \"hello\", \"protocol\": 2}");
            assertTrue(p.line().startsWith("{\"v\":1,\"type\":\"hello\",\"protocol\":2,"));
        }
    }

    @Test
    public void hierarchyRequestsAreAnsweredOnTheSameConnectionAfterEarlierEvents() throws Exception {
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            p.hello();
            offer("click", "app", "before");
            p.send("{\"req\":\"hierarchy\",\"req_id\":41}");
            assertEquals(unterminated(event("click", "app", "before")), p.line());
            assertEquals("{\"v\":1,\"type\":\"hierarchy\",\"req_id\":41,\"xml\":\"<hierarchy n=\\\"41\\\"/>\"}",
                    p.line());
            p.send("{\"req\":\"something newer\"}");  // unknown requests get no answer
            p.send("{\"req\":\"hierarchy\",\"req_id\":42}");
            assertTrue(p.line().startsWith("{\"v\":1,\"type\":\"hierarchy\",\"req_id\":42,"));
            offer("click", "app", "after");
            assertEquals(unterminated(event("click", "app", "after")), p.line());
        }
    }

    @Test
    public void aReplyComesAfterEveryEventBufferedBeforeIt() throws Exception {
        for (int i = 0; i < 500; i++) {
            offer("click", "app", "e" + i);
        }
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            // The request comes with the hello, while the 500 lines are still to be written.
            p.send("{\"req\":\"hello\",\"protocol\":2}\n{\"req\":\"hierarchy\",\"req_id\":9}");
            assertTrue(p.line().startsWith("{\"v\":1,\"type\":\"hello\","));
            for (int i = 0; i < 500; i++) {
                assertEquals(unterminated(event("click", "app", "e" + i)), p.line());
            }
            assertTrue(p.line().startsWith("{\"v\":1,\"type\":\"hierarchy\",\"req_id\":9,"));
        }
    }

    @Test
    public void eventsKeepBeingBufferedWhileNoClientIsConnected() throws Exception {
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            p.hello();
            offer("click", "app", "one");
            assertEquals(unterminated(event("click", "app", "one")), p.line());
        }
        assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
        offer("click", "app", "two");
        offer("click", "app", "three");
        assertEquals(2, buffer.size());
        try (UnixSockets.Peer p = connect()) {
            p.hello();
            assertEquals(unterminated(event("click", "app", "two")), p.line());
            assertEquals(unterminated(event("click", "app", "three")), p.line());
        }
    }

    @Test
    public void theHelloCountsTheLinesDroppedSoFar() throws Exception {
        buffer = new EventBuffer(3);
        offer("window_state", "app", "w");
        offer("click", "launcher", "l1");
        offer("click", "app", "a1");
        offer("click", "launcher", "l2");  // the launcher's oldest goes: l1
        offer("click", "app", "a2");       // then l2
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            assertTrue(p.hello().endsWith(",\"dropped\":2}"));
            assertEquals(unterminated(event("window_state", "app", "w")), p.line());
            assertEquals(unterminated(event("click", "app", "a1")), p.line());
            assertEquals(unterminated(event("click", "app", "a2")), p.line());
        }
    }

    @Test
    public void aSecondClientIsRefusedAndTheFirstKeepsReceiving() throws Exception {
        start(5000);
        try (UnixSockets.Peer first = connect()) {
            first.hello();
            try (UnixSockets.Peer second = connect()) {
                second.send("{\"req\":\"hello\",\"protocol\":2}");
                assertEquals(refused("another client is connected"), second.line());
                second.assertEnded();
            }
            offer("click", "app", "still");
            assertEquals(unterminated(event("click", "app", "still")), first.line());
            first.send("{\"req\":\"hierarchy\",\"req_id\":5}");
            assertTrue(first.line().startsWith("{\"v\":1,\"type\":\"hierarchy\",\"req_id\":5,"));
        }
        // Once the first has gone, the next connection is served.
        assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
        try (UnixSockets.Peer next = connect()) {
            next.hello();
        }
    }

    @Test
    public void anAppUidIsRefusedWithTheLineAndTakesNothing() throws Exception {
        offer("click", "app", "kept");
        start(5000);
        sockets.uid = 10057;
        try (UnixSockets.Peer p = connect()) {
            p.send("{\"req\":\"hello\",\"protocol\":2}");
            assertEquals("{\"v\":1,\"type\":\"refused\",\"reason\":\"uid 10057 may not read the listener: "
                    + "only shell (2000) and root (0)\"}", p.line());
            p.assertEnded();
        }
        assertEquals(1, buffer.size());
        // A refused app does not hold the slot: root is served, and gets the event.
        sockets.uid = ListenerServer.ROOT_UID;
        try (UnixSockets.Peer p = connect()) {
            p.hello();
            assertEquals(unterminated(event("click", "app", "kept")), p.line());
        }
    }

    @Test
    public void shellAndRootAreServedAndNoOtherUid() throws Exception {
        start(5000);
        for (int uid : Arrays.asList(2000, 0, 1000, 1, 10000, 99999, -1)) {
            assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
            sockets.uid = uid;
            try (UnixSockets.Peer p = connect()) {
                p.send("{\"req\":\"hello\",\"protocol\":2}");
                String line = p.line();
                if (uid == 2000 || uid == 0) {
                    assertTrue(line, line.startsWith("{\"v\":1,\"type\":\"hello\","));
                } else {
                    assertEquals(refused("uid " + uid + " may not read the listener: only shell (2000) and root (0)"),
                            line);
                    p.assertEnded();
                }
            }
        }
    }

    @Test
    public void aFirstLineThatIsNoHelloIsRefused() throws Exception {
        offer("click", "app", "kept");
        start(5000);
        for (String bad : Arrays.asList("{\"req\":\"hierarchy\",\"req_id\":1}", "hello", "", "{\"protocol\":2}",
                "[\"req\",\"hello\"]")) {
            assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
            try (UnixSockets.Peer p = connect()) {
                p.send(bad);
                assertEquals(bad, refused("the first line must be a hello: {\"req\":\"hello\",\"protocol\":2}"),
                        p.line());
                p.assertEnded();
            }
        }
        assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
        try (UnixSockets.Peer p = connect()) {
            p.send("{\"req\":\"hello\"}");
            assertEquals(refused("the hello names no protocol: send {\"req\":\"hello\",\"protocol\":2}"), p.line());
            p.assertEnded();
        }
        assertEquals("refused clients take no events", 1, buffer.size());
    }

    @Test
    public void anOverlongFirstLineIsRefused() throws Exception {
        start(5000);
        char[] junk = new char[ListenerServer.MAX_HELLO_BYTES * 4];
        Arrays.fill(junk, 'x');
        try (UnixSockets.Peer p = connect()) {
            p.send("{\"req\":\"hello\",\"protocol\":2,\"pad\":\"" + new String(junk) + "\"}");
            assertTrue(p.line().startsWith("{\"v\":1,\"type\":\"refused\",\"reason\":\"the first line must be a hello"));
            p.assertEnded();
        }
    }

    @Test
    public void aClientThatSendsNoHelloIsRefusedAfterTheTimeout() throws Exception {
        start(100);  // the app waits 5 s; a short wait keeps the test quick
        try (UnixSockets.Peer p = connect()) {
            assertEquals(refused("no hello within 100 ms"), p.line());
            p.assertEnded();
        }
        assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
        try (UnixSockets.Peer p = connect()) {
            p.hello();
        }
    }

    @Test
    public void anotherProtocolIsRefused() throws Exception {
        start(5000);
        for (int version : Arrays.asList(1, 3)) {
            assertTrue(server.awaitNoClient(UnixSockets.WAIT_S * 1000));
            try (UnixSockets.Peer p = connect()) {
                p.send("{\"req\":\"hello\",\"protocol\":" + version + "}");
                assertEquals(refused("this listener speaks protocol 2, not " + version), p.line());
                p.assertEnded();
            }
        }
    }

    @Test
    public void aNameStillHeldIsBoundAgainAfterThePause() throws Exception {
        final int[] calls = {0};
        server = new ListenerServer(new ListenerServer.Opener() {
            @Override
            public ListenerServer.Endpoint open() throws java.io.IOException {
                if (++calls[0] <= 2) {
                    throw new java.net.BindException("Address already in use");
                }
                return sockets.open();
            }
        }, buffer, null, PKG, VERSION_CODE, 5000, 20);
        server.start();
        offer("click", "app", "waiting");
        try (UnixSockets.Peer p = connect()) {
            p.hello();
            assertEquals(unterminated(event("click", "app", "waiting")), p.line());
        }
        assertEquals(3, calls[0]);
    }

    @Test
    public void stopEndsTheClientsStreamAndKeepsTheBuffer() throws Exception {
        start(5000);
        try (UnixSockets.Peer p = connect()) {
            p.hello();
            server.stop();
            p.assertEnded();
        }
        offer("click", "app", "later");
        assertEquals(1, buffer.size());
    }
}

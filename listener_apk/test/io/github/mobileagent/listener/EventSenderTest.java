package io.github.mobileagent.listener;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The sender against a real local socket: delivery, reconnect, bounds, requests. */
public class EventSenderTest {
    private ServerSocket server;
    private EventSender sender;

    @Before
    public void listen() throws Exception {
        server = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"));
        server.setSoTimeout(10000);
    }

    @After
    public void close() throws Exception {
        if (sender != null) {
            sender.stop();
        }
        server.close();
    }

    private EventSender newSender(int capacity) {
        sender = new EventSender("127.0.0.1", server.getLocalPort(), capacity, 20);
        return sender;
    }

    private static BufferedReader reader(Socket s) throws Exception {
        s.setSoTimeout(10000);
        return new BufferedReader(new InputStreamReader(s.getInputStream(), "UTF-8"));
    }

    @Test
    public void deliversLinesInOrder() throws Exception {
        newSender(100).start();
        for (int i = 0; i < 50; i++) {
            sender.offer("line " + i + "\n");
        }
        try (Socket s = server.accept()) {
            BufferedReader in = reader(s);
            for (int i = 0; i < 50; i++) {
                assertEquals("line " + i, in.readLine());
            }
        }
    }

    @Test
    public void reconnectsWhenTheHostGoesAway() throws Exception {
        newSender(100).start();
        sender.offer("before\n");
        try (Socket first = server.accept()) {
            assertEquals("before", reader(first).readLine());
        }
        // The host closed the connection; the sender notices and dials again.
        sender.offer("after\n");
        try (Socket second = server.accept()) {
            BufferedReader in = reader(second);
            sender.offer("more\n");
            String line = in.readLine();
            // "after" may have gone into the dying socket before its end was seen;
            // everything offered once the new connection is up arrives.
            if ("after".equals(line)) {
                line = in.readLine();
            }
            assertEquals("more", line);
        }
        assertTrue(sender.connections() >= 2);
    }

    @Test
    public void waitsForAHostThatIsNotThereYet() throws Exception {
        int port = server.getLocalPort();
        server.close();  // nothing listens: connects are refused
        sender = new EventSender("127.0.0.1", port, 100, 20);
        sender.start();
        sender.offer("kept\n");
        server = new ServerSocket(port, 5, InetAddress.getByName("127.0.0.1"));
        server.setSoTimeout(10000);
        try (Socket s = server.accept()) {
            assertEquals("kept", reader(s).readLine());
        }
    }

    @Test
    public void boundsItsQueueDroppingTheOldest() throws Exception {
        newSender(10);
        for (int i = 0; i < 15; i++) {
            boolean kept = sender.offer("n" + i + "\n");
            assertEquals(i < 10, kept);
        }
        assertEquals(10, sender.queued());
        assertEquals(5, sender.dropped());
        sender.start();
        try (Socket s = server.accept()) {
            BufferedReader in = reader(s);
            for (int i = 5; i < 15; i++) {
                assertEquals("n" + i, in.readLine());
            }
        }
    }

    @Test
    public void offerNeverBlocksWhileTheHostIsAway() throws Exception {
        newSender(1000).start();
        long start = System.nanoTime();
        for (int i = 0; i < 100000; i++) {
            sender.offer("x\n");
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue("100000 offers took " + ms + " ms", ms < 5000);
        assertTrue(sender.queued() <= 1000);
    }

    @Test
    public void handsHostLinesToTheRequestHandler() throws Exception {
        final BlockingQueue<String> requests = new ArrayBlockingQueue<String>(10);
        newSender(100).setRequestHandler(new EventSender.RequestHandler() {
            @Override
            public void onRequest(String line, EventSender s) {
                requests.add(line);
                long id = HierarchyReply.requestId(line);
                s.offer(HierarchyReply.line(id, "<hierarchy/>"));
            }
        });
        sender.start();
        try (Socket s = server.accept()) {
            OutputStream out = s.getOutputStream();
            out.write("{\"req\":\"hierarchy\",\"req_id\":42}\n".getBytes("UTF-8"));
            out.flush();
            assertEquals("{\"req\":\"hierarchy\",\"req_id\":42}", requests.poll(10, TimeUnit.SECONDS));
            assertEquals("{\"v\":1,\"type\":\"hierarchy\",\"req_id\":42,\"xml\":\"<hierarchy/>\"}", reader(s).readLine());
        }
    }

    @Test
    public void stopClosesTheConnection() throws Exception {
        newSender(100).start();
        try (Socket s = server.accept()) {
            BufferedReader in = reader(s);
            sender.stop();
            assertEquals(null, in.readLine());
        }
        assertFalse(sender.queued() > 0);
    }
}

package io.github.mobileagent.listener;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Real Unix-domain stream sockets for the server's JVM tests (Java 16+), the
 * same kind of socket as Android's LocalServerSocket; only the name differs
 * (a path here: the JDK cannot bind the abstract namespace).
 *
 * The peer uid is injected: every connection accepted from now on reports
 * {@link #uid}, since the test process cannot connect as shell or as an app.
 */
final class UnixSockets implements ListenerServer.Opener {
    /** How long a test waits for a line before it fails (a hang guard, not a measure). */
    static final long WAIT_S = 20;

    private final Path path;
    private final CountDownLatch bound = new CountDownLatch(1);
    /** The uid the next accepted connections report. */
    volatile int uid = ListenerServer.SHELL_UID;

    UnixSockets() throws IOException {
        Path dir = Files.createTempDirectory("listener-test");
        dir.toFile().deleteOnExit();
        path = dir.resolve("sock");
    }

    /** Binds the path (removing a previous binding's file), as LocalEndpoint binds its name. */
    @Override
    public ListenerServer.Endpoint open() throws IOException {
        Files.deleteIfExists(path);
        final ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(path));
        bound.countDown();
        return new ListenerServer.Endpoint() {
            @Override
            public ListenerServer.Client accept() throws IOException {
                final SocketChannel ch = server.accept();
                final int peer = uid;
                return new ListenerServer.Client() {
                    @Override public InputStream input() { return in(ch); }
                    @Override public OutputStream output() { return out(ch); }
                    @Override public int peerUid() { return peer; }

                    @Override
                    public void close() {
                        closeQuietly(ch);
                    }
                };
            }

            @Override
            public void close() {
                closeQuietly(server);
            }
        };
    }

    /** Connects (once the server has bound) as a client that reads lines on a thread of its own. */
    Peer connect() throws IOException, InterruptedException {
        assertTrue("the server did not bind within " + WAIT_S + " s", bound.await(WAIT_S, TimeUnit.SECONDS));
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(path));
        return new Peer(ch);
    }

    /** A connected client; {@link #line} waits for the next line the server wrote. */
    static final class Peer implements AutoCloseable {
        /** What {@link #line} returns once the server closed the connection. */
        static final String END = "<end of stream>";

        private final SocketChannel ch;
        private final OutputStream out;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<String>();

        Peer(SocketChannel ch) {
            this.ch = ch;
            this.out = out(ch);
            final InputStream in = in(ch);
            Thread t = new Thread(new Runnable() {
                @Override
                public void run() {
                    try {
                        String line;
                        while ((line = ListenerServer.readLine(in, Integer.MAX_VALUE)) != null) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        // A reset after the server closed with our bytes unread (AF_UNIX
                        // delivers the data first, then ECONNRESET): the stream ended.
                    }
                    lines.add(END);
                }
            }, "test-peer-reader");
            t.setDaemon(true);
            t.start();
        }

        /**
         * Writes one line; false when the listener had already closed the
         * connection (a refusal at accept comes before the client's hello).
         */
        boolean send(String line) {
            try {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /** The next line the server wrote, or {@link #END}. */
        String line() throws InterruptedException {
            String line = lines.poll(WAIT_S, TimeUnit.SECONDS);
            assertNotNull("no line from the listener within " + WAIT_S + " s", line);
            return line;
        }

        /** Sends the hello and reads the answer, which must be a hello. */
        String hello() throws Exception {
            assertTrue("the listener closed before the hello", send("{\"req\":\"hello\",\"protocol\":2}"));
            String line = line();
            assertEquals("{\"v\":1,\"type\":\"hello\"", line.substring(0, Math.min(line.length(), 21)));
            return line;
        }

        void assertEnded() throws InterruptedException {
            assertEquals(END, line());
        }

        @Override
        public void close() {
            closeQuietly(ch);
        }
    }

    // Plain adapters: Channels.newInputStream/newOutputStream hold the channel's
    // blockingLock while they block, so a reader would stop the writer (JDK 17).
    static InputStream in(final SocketChannel ch) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return len == 0 ? 0 : ch.read(ByteBuffer.wrap(b, off, len));
            }
        };
    }

    static OutputStream out(final SocketChannel ch) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
        };
    }

    static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // Already closed.
        }
    }
}

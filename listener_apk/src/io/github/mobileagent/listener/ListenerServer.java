package io.github.mobileagent.listener;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.ArrayDeque;
import java.util.Timer;
import java.util.TimerTask;

/**
 * Serves the buffered events to one client at a time: listener protocol 2
 * (listener_apk/README.md, "Protocol").
 *
 * An accept thread takes each connection: a peer whose uid is not shell (2000)
 * or root (0) gets one refused line, and so does a second connection while a
 * client is being served (the first is not disturbed). The served client's first
 * line must be a hello for this protocol within {@code helloTimeoutMs}; then a
 * writer thread sends the buffered lines, oldest first, and each new one as it
 * is offered, while a reader thread answers the client's requests (hierarchy
 * requests) on the same connection, each reply written whole between two event
 * lines and after every event offered before it. When the client goes, its slot
 * frees and the buffer keeps filling for the next one.
 *
 * Pure Java, no android.*: the socket is reached through {@link Endpoint}, so
 * the JVM tests run it over real Unix-domain sockets and the app over
 * {@code LocalServerSocket} (LocalEndpoint).
 */
public final class ListenerServer {
    /** adbd's uid once it drops root (AID_SHELL), and root's. */
    public static final int SHELL_UID = 2000;
    public static final int ROOT_UID = 0;
    /** Longest first line read; a hello is some 30 bytes. */
    static final int MAX_HELLO_BYTES = 1024;
    /** Longest request line read; longer ones are skipped whole. */
    static final int MAX_REQUEST_BYTES = 65536;

    private static final Charset UTF8 = Charset.forName("UTF-8");

    /** One accepted connection. */
    public interface Client {
        InputStream input() throws IOException;

        OutputStream output() throws IOException;

        /** The connecting process's uid, as the kernel recorded it at connect (SO_PEERCRED). */
        int peerUid() throws IOException;

        /** Closes the connection and wakes any thread blocked reading or writing it; idempotent. */
        void close();
    }

    /** A bound, listening server socket. */
    public interface Endpoint {
        /** Blocks until a connection arrives; throws once {@link #close} was called. */
        Client accept() throws IOException;

        /** Stops listening and wakes a blocked {@link #accept}; idempotent. */
        void close();
    }

    /** Binds the server socket; called again after a failure, every {@code retryMs}. */
    public interface Opener {
        Endpoint open() throws IOException;
    }

    /** Answers one request line (without its newline): the reply line, or null for none. */
    public interface RequestHandler {
        String reply(String line);
    }

    private final Opener opener;
    private final EventBuffer buffer;
    private final RequestHandler handler;
    private final String pkg;
    private final long versionCode;
    private final long helloTimeoutMs;
    private final long retryMs;

    private final Object lock = new Object();
    // Guarded by lock.
    private boolean running;
    private Thread acceptThread;
    private Endpoint endpoint;
    private Session session;
    private Timer timer;

    public ListenerServer(Opener opener, EventBuffer buffer, RequestHandler handler, String pkg, long versionCode,
                          long helloTimeoutMs, long retryMs) {
        this.opener = opener;
        this.buffer = buffer;
        this.handler = handler;
        this.pkg = pkg;
        this.versionCode = versionCode;
        this.helloTimeoutMs = helloTimeoutMs;
        this.retryMs = retryMs;
    }

    public void start() {
        synchronized (lock) {
            if (running) {
                return;
            }
            running = true;
            timer = new Timer("mobileagent-listener-hello", true);
            acceptThread = new Thread(new Runnable() {
                @Override
                public void run() {
                    acceptLoop();
                }
            }, "mobileagent-listener-accept");
            acceptThread.setDaemon(true);
            acceptThread.start();
        }
    }

    /** Stops listening and drops the client; the buffer keeps its lines. */
    public void stop() {
        Thread old;
        Session s;
        synchronized (lock) {
            running = false;
            old = acceptThread;
            acceptThread = null;
            if (endpoint != null) {
                endpoint.close();
            }
            s = session;
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
            lock.notifyAll();
        }
        if (s != null) {
            s.end();
        }
        if (old != null) {
            try {
                old.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits up to {@code ms} until no client is being served; true when none is. */
    boolean awaitNoClient(long ms) throws InterruptedException {
        long deadline = System.currentTimeMillis() + ms;
        synchronized (lock) {
            long left;
            while (session != null && (left = deadline - System.currentTimeMillis()) > 0) {
                lock.wait(left);
            }
            return session == null;
        }
    }

    private boolean isRunning() {
        synchronized (lock) {
            return running;
        }
    }

    private void acceptLoop() {
        while (isRunning()) {
            Endpoint ep = null;
            try {
                ep = opener.open();
                synchronized (lock) {
                    if (!running) {
                        return;
                    }
                    endpoint = ep;
                }
                while (true) {
                    Client c = ep.accept();
                    try {
                        admit(c);
                    } catch (RuntimeException e) {
                        c.close();  // one odd connection must not stop the listener
                    }
                }
            } catch (IOException e) {
                // Not bound (the name is still held), or closed by stop(), or accept
                // failed: bind again after the pause unless stopping.
            } catch (RuntimeException e) {
                // Same: an uncaught exception here would take the app down.
            } finally {
                if (ep != null) {
                    ep.close();
                }
                synchronized (lock) {
                    if (endpoint == ep) {
                        endpoint = null;
                    }
                }
            }
            pause();
        }
    }

    /** The peer and slot checks at accept; a client that passes both gets a session. */
    private void admit(Client c) {
        int uid;
        try {
            uid = c.peerUid();
        } catch (IOException e) {
            refuse(c, "the peer's uid could not be read: " + e.getMessage());
            return;
        }
        if (uid != SHELL_UID && uid != ROOT_UID) {
            refuse(c, "uid " + uid + " may not read the listener: only shell (2000) and root (0)");
            return;
        }
        Session s;
        synchronized (lock) {
            if (!running) {
                c.close();
                return;
            }
            if (session != null) {
                s = null;
            } else {
                s = new Session(c);
                session = s;
            }
        }
        if (s == null) {
            refuse(c, "another client is connected");
            return;
        }
        s.start();
    }

    private void sessionEnded(Session s) {
        synchronized (lock) {
            if (session == s) {
                session = null;
            }
            lock.notifyAll();
        }
    }

    private Timer timer() {
        synchronized (lock) {
            return timer;
        }
    }

    private void pause() {
        synchronized (lock) {
            long deadline = System.currentTimeMillis() + retryMs;
            long left;
            while (running && (left = deadline - System.currentTimeMillis()) > 0) {
                try {
                    lock.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** "5 s" for 5000, "100 ms" for 100. */
    static String duration(long ms) {
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }

    /** Writes the one refused line, then closes; a peer already gone is not an error. */
    static void refuse(Client c, String reason) {
        try {
            OutputStream out = c.output();
            out.write(Handshake.refusedLine(reason).getBytes(UTF8));
            out.flush();
        } catch (IOException e) {
            // The peer left first: nothing to tell it.
        } finally {
            c.close();
        }
    }

    private static void write(OutputStream out, String line) throws IOException {
        out.write(line.getBytes(UTF8));
        out.flush();
    }

    /**
     * One line from {@code in}, without its newline (or a trailing CR), or null at
     * end of stream before a newline. A line longer than {@code max} bytes is read
     * to its end and returned as "", which is neither a hello nor a request.
     */
    static String readLine(InputStream in, int max) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        boolean tooLong = false;
        while (true) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            if (b == '\n') {
                break;
            }
            if (line.size() >= max) {
                tooLong = true;
            } else {
                line.write(b);
            }
        }
        if (tooLong) {
            return "";
        }
        String s = new String(line.toByteArray(), UTF8);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    /** A reply waiting to be written once every line up to seq {@code after} is out. */
    private static final class Reply {
        final long after;
        final String line;

        Reply(long after, String line) {
            this.after = after;
            this.line = line;
        }
    }

    /** The served client: handshake, then a writer (this thread) and a reader. */
    private final class Session {
        private final Client client;
        /** Guarded by the buffer's monitor, which the writer waits on. */
        private final ArrayDeque<Reply> replies = new ArrayDeque<Reply>();
        private volatile boolean ended;
        // Guarded by this: the hello and the hello timeout race for the connection.
        private boolean helloRead;
        private boolean timedOut;

        Session(Client client) {
            this.client = client;
        }

        void start() {
            Thread t = new Thread(new Runnable() {
                @Override
                public void run() {
                    try {
                        serve();
                    } catch (IOException e) {
                        // The client went away (or was closed): its slot frees below.
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        // Never let a client take the app down.
                    } finally {
                        end();
                        sessionEnded(Session.this);
                    }
                }
            }, "mobileagent-listener-writer");
            t.setDaemon(true);
            t.start();
        }

        void end() {
            ended = true;
            client.close();
            synchronized (buffer) {
                buffer.notifyAll();
            }
        }

        private void serve() throws IOException, InterruptedException {
            InputStream in = new BufferedInputStream(client.input());
            OutputStream out = client.output();
            TimerTask watchdog = new TimerTask() {
                @Override
                public void run() {
                    synchronized (Session.this) {
                        if (helloRead) {
                            return;
                        }
                        timedOut = true;
                    }
                    refuse(client, "no hello within " + duration(helloTimeoutMs));
                }
            };
            Timer t = timer();
            if (t == null) {
                return;  // stopping
            }
            try {
                t.schedule(watchdog, helloTimeoutMs);
            } catch (IllegalStateException e) {
                return;  // the timer was cancelled by stop()
            }
            String first = readLine(in, MAX_HELLO_BYTES);
            synchronized (this) {
                if (timedOut) {
                    return;
                }
                helloRead = true;
            }
            watchdog.cancel();
            if (first == null) {
                return;  // connected and left without a word
            }
            String why = Handshake.refusal(first);
            if (why != null) {
                refuse(client, why);
                return;
            }
            write(out, Handshake.helloLine(pkg, versionCode, buffer.dropped()));
            startReader(in);
            pump(out);
        }

        /** Writes buffered lines and replies until the client goes. */
        private void pump(OutputStream out) throws IOException, InterruptedException {
            while (true) {
                String line;
                EventBuffer.Entry taken = null;
                synchronized (buffer) {
                    while (!ended && buffer.isEmpty() && replies.isEmpty()) {
                        buffer.wait();
                    }
                    if (ended) {
                        return;
                    }
                    Reply r = replies.peekFirst();
                    if (r != null && buffer.oldestSeq() > r.after) {
                        replies.pollFirst();
                        line = r.line;
                    } else {
                        taken = buffer.poll();
                        line = taken.line;
                    }
                }
                try {
                    write(out, line);
                } catch (IOException e) {
                    if (taken != null) {
                        buffer.putBack(taken);  // not sent: the next client gets it
                    }
                    throw e;
                }
            }
        }

        private void startReader(final InputStream in) {
            Thread t = new Thread(new Runnable() {
                @Override
                public void run() {
                    try {
                        String line;
                        while ((line = readLine(in, MAX_REQUEST_BYTES)) != null) {
                            if (line.length() > 0) {
                                answer(line);
                            }
                        }
                    } catch (IOException e) {
                        // Closed under us: the writer ends too.
                    } finally {
                        end();
                    }
                }
            }, "mobileagent-listener-reader");
            t.setDaemon(true);
            t.start();
        }

        private void answer(String line) {
            String reply;
            try {
                reply = handler == null ? null : handler.reply(line);
            } catch (RuntimeException e) {
                // A request that fails (the window went away under the node walk)
                // gets no reply rather than taking the app down; the host times out.
                return;
            }
            if (reply == null) {
                return;
            }
            synchronized (buffer) {
                replies.addLast(new Reply(buffer.lastSeq(), reply));
                buffer.notifyAll();
            }
        }
    }
}

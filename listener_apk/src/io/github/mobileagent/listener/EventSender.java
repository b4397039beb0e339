package io.github.mobileagent.listener;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.Charset;
import java.util.ArrayDeque;

/**
 * Sends lines to the host over one TCP connection, from a thread of its own.
 *
 * {@link #offer} never blocks: it is called on the UI thread. The queue is
 * bounded; when it is full the oldest line is dropped (and counted), since the
 * newest events are the ones a judge is waiting for. When the connection fails
 * (the host went away, or nothing listens on the device port yet because no
 * {@code adb reverse} is set), the sender retries every {@code retryMs} and
 * keeps what it had not sent yet. Lines the host sends back are handed to the
 * {@link RequestHandler} on the connection's reader thread.
 *
 * Pure Java, no android.*, so its reconnect logic is tested on the JVM.
 */
public final class EventSender {
    /** Receives each line the host writes (a request), without its newline. */
    public interface RequestHandler {
        void onRequest(String line, EventSender sender);
    }

    private static final Charset UTF8 = Charset.forName("UTF-8");

    private final String host;
    private final int port;
    private final int capacity;
    private final long retryMs;
    private final ArrayDeque<String> queue = new ArrayDeque<String>();
    private final Object lock = new Object();
    private volatile RequestHandler handler;
    private Thread thread;
    private boolean running;
    private Socket socket;
    private long dropped;
    private long connections;

    public EventSender(String host, int port, int capacity, long retryMs) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.host = host;
        this.port = port;
        this.capacity = capacity;
        this.retryMs = retryMs;
    }

    public void setRequestHandler(RequestHandler handler) {
        this.handler = handler;
    }

    /** Queues one line (newline included); never blocks. False when an old line was dropped for it. */
    public boolean offer(String line) {
        synchronized (lock) {
            boolean kept = true;
            if (queue.size() >= capacity) {
                queue.pollFirst();
                dropped++;
                kept = false;
            }
            queue.addLast(line);
            lock.notifyAll();
            return kept;
        }
    }

    /** Lines dropped because the queue was full. */
    public long dropped() {
        synchronized (lock) {
            return dropped;
        }
    }

    /** Lines waiting to be sent. */
    public int queued() {
        synchronized (lock) {
            return queue.size();
        }
    }

    /** How many times a connection to the host was opened. */
    public long connections() {
        synchronized (lock) {
            return connections;
        }
    }

    public void start() {
        synchronized (lock) {
            if (running) {
                return;
            }
            running = true;
            thread = new Thread(new Runnable() {
                @Override
                public void run() {
                    loop();
                }
            }, "mobileagent-event-sender");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Stops sending and closes the connection; queued lines stay queued. */
    public void stop() {
        Thread old;
        synchronized (lock) {
            running = false;
            old = thread;
            thread = null;
            closeQuietly(socket);
            lock.notifyAll();
        }
        if (old != null) {
            try {
                old.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean isRunning() {
        synchronized (lock) {
            return running;
        }
    }

    private void loop() {
        while (isRunning()) {
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(host, port), 2000);
                synchronized (lock) {
                    if (!running) {
                        closeQuietly(s);
                        return;
                    }
                    socket = s;
                    connections++;
                }
                startReader(s);
                pump(s);
            } catch (IOException e) {
                // Refused or broken: the host is not there (yet); retry below.
            } finally {
                closeQuietly(s);
                synchronized (lock) {
                    if (socket == s) {
                        socket = null;
                    }
                }
            }
            waitBeforeRetry();
        }
    }

    /** Writes queued lines until the socket fails or the sender stops. */
    private void pump(Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        while (true) {
            String line;
            synchronized (lock) {
                while (running && queue.isEmpty() && !s.isClosed()) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (!running || s.isClosed()) {
                    return;
                }
                line = queue.pollFirst();
            }
            try {
                out.write(line.getBytes(UTF8));
                out.flush();
            } catch (IOException e) {
                synchronized (lock) {
                    queue.addFirst(line);  // not sent: it goes first on the next connection
                    while (queue.size() > capacity) {
                        queue.pollLast();
                        dropped++;
                    }
                }
                throw e;
            }
        }
    }

    /** Reads the host's lines; end of stream means the host went away, so the socket is closed. */
    private void startReader(final Socket s) throws IOException {
        final BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), UTF8));
        Thread reader = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    String line;
                    while ((line = in.readLine()) != null) {
                        RequestHandler h = handler;
                        if (h != null && line.length() > 0) {
                            h.onRequest(line, EventSender.this);
                        }
                    }
                } catch (IOException e) {
                    // Closed under us: the writer notices too.
                } finally {
                    synchronized (lock) {
                        closeQuietly(s);
                        lock.notifyAll();
                    }
                }
            }
        }, "mobileagent-event-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void waitBeforeRetry() {
        synchronized (lock) {
            if (!running) {
                return;
            }
            // offer() notifies too, so wait out the whole pause rather than one wake-up.
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

    private static void closeQuietly(Socket s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException e) {
            // Nothing left to do with a socket that will not close.
        }
    }
}

package io.github.mobileagent.listener;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The event lines waiting for a client (listener protocol 2, README "The buffer").
 *
 * Bounded: when it is full, the line that goes is the oldest line of a package
 * other than the foreground app's, the foreground app being the package of the
 * newest {@code window_state} event the listener has seen; only when every
 * buffered line is the app's does the app's oldest go. The judges read the app's
 * events, so another package's older noise (the launcher, the system UI) goes
 * first. Each drop adds one to {@link #dropped}, a running count.
 *
 * Thread-safe; every method holds this object's monitor only briefly and does no
 * I/O, so {@link #offer} never blocks the accessibility callback for long. The
 * monitor is notified on every offer, so a writer may wait on it.
 *
 * Pure Java, no android.*, so it is tested on the JVM.
 */
public final class EventBuffer {
    /** One buffered line with its order and package. */
    public static final class Entry {
        /** Offer order: a larger seq was offered later. */
        public final long seq;
        public final String pkg;
        public final String line;

        Entry(long seq, String pkg, String line) {
            this.seq = seq;
            this.pkg = pkg;
            this.line = line;
        }
    }

    private final int capacity;
    /** Every buffered entry by seq: the oldest is the first key. */
    private final TreeMap<Long, Entry> bySeq = new TreeMap<Long, Entry>();
    /** The same entries per package, oldest first; a package with none has no key. */
    private final Map<String, ArrayDeque<Entry>> byPackage = new HashMap<String, ArrayDeque<Entry>>();
    private long nextSeq;
    private long dropped;
    private String foreground;

    public EventBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Buffers one event line (newline included) of package {@code pkg} (null is
     * taken as ""). A {@code window_state} event makes its package the foreground
     * app before anything is dropped for it.
     */
    public synchronized void offer(String type, CharSequence pkg, String line) {
        String p = pkg == null ? "" : pkg.toString();
        if ("window_state".equals(type)) {
            foreground = p;
        }
        add(new Entry(nextSeq++, p, line));
        notifyAll();
    }

    /** Takes the oldest line out, or null when there is none. */
    public synchronized Entry poll() {
        Map.Entry<Long, Entry> first = bySeq.pollFirstEntry();
        if (first == null) {
            return null;
        }
        Entry e = first.getValue();
        removeFromPackage(e);  // the oldest overall is the oldest of its package
        return e;
    }

    /**
     * Puts back a line {@link #poll} took and could not send, in its old place
     * (before every later line); when the buffer filled up meanwhile, the usual
     * rule picks what goes, which may be this very line.
     */
    public synchronized void putBack(Entry e) {
        add(e);
        notifyAll();
    }

    /** Lines dropped since this buffer was made. */
    public synchronized long dropped() {
        return dropped;
    }

    public synchronized int size() {
        return bySeq.size();
    }

    public synchronized boolean isEmpty() {
        return bySeq.isEmpty();
    }

    /** The seq of the oldest buffered line, or Long.MAX_VALUE when empty. */
    public synchronized long oldestSeq() {
        return bySeq.isEmpty() ? Long.MAX_VALUE : bySeq.firstKey();
    }

    /** The seq the last offered line got (-1 before the first). */
    public synchronized long lastSeq() {
        return nextSeq - 1;
    }

    /** The package of the newest window_state event seen, or null before the first. */
    public synchronized String foreground() {
        return foreground;
    }

    /**
     * Adds, then drops one line if that went over the bound: the line just added
     * is a candidate too, so another package's new line never pushes out one of
     * the app's.
     */
    private void add(Entry e) {
        bySeq.put(e.seq, e);
        ArrayDeque<Entry> q = byPackage.get(e.pkg);
        if (q == null) {
            q = new ArrayDeque<Entry>();
            byPackage.put(e.pkg, q);
        }
        // put() keeps bySeq ordered; a package's deque stays ordered because a
        // put-back line is older than every line of its package still buffered.
        if (q.isEmpty() || q.peekLast().seq < e.seq) {
            q.addLast(e);
        } else {
            q.addFirst(e);
        }
        if (bySeq.size() > capacity) {
            evictOne();
        }
    }

    /** Drops the oldest line of another package than the foreground's, else the oldest. */
    private void evictOne() {
        Entry victim = null;
        for (Map.Entry<String, ArrayDeque<Entry>> pq : byPackage.entrySet()) {
            if (pq.getKey().equals(foreground)) {
                continue;
            }
            Entry head = pq.getValue().peekFirst();
            if (victim == null || head.seq < victim.seq) {
                victim = head;
            }
        }
        if (victim == null) {
            victim = bySeq.firstEntry().getValue();
        }
        bySeq.remove(victim.seq);
        removeFromPackage(victim);
        dropped++;
    }

    /** Removes {@code e}, the oldest of its package, from the per-package index. */
    private void removeFromPackage(Entry e) {
        ArrayDeque<Entry> q = byPackage.get(e.pkg);
        q.pollFirst();
        if (q.isEmpty()) {
            byPackage.remove(e.pkg);
        }
    }

    /** For tests: the buffered lines, oldest first. */
    synchronized String[] lines() {
        String[] out = new String[bySeq.size()];
        Iterator<Entry> it = bySeq.values().iterator();
        for (int i = 0; it.hasNext(); i++) {
            out[i] = it.next().line;
        }
        return out;
    }
}

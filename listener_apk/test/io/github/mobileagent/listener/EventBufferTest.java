package io.github.mobileagent.listener;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The buffer's bound: which line goes when it is full, and the dropped count. */
public class EventBufferTest {
    private static void offer(EventBuffer b, String type, String pkg, String name) {
        b.offer(type, pkg, name);
    }

    @Test
    public void theOldestGoFirstWhenEveryLineIsTheApps() {
        EventBuffer b = new EventBuffer(3);
        offer(b, "window_state", "app", "w");
        for (int i = 0; i < 4; i++) {
            offer(b, "click", "app", "c" + i);
        }
        assertArrayEquals(new String[] {"c1", "c2", "c3"}, b.lines());
        assertEquals(2, b.dropped());
    }

    @Test
    public void withNoWindowStateYetTheOldestGoFirst() {
        EventBuffer b = new EventBuffer(2);
        offer(b, "click", "a", "a1");
        offer(b, "click", "b", "b1");
        offer(b, "click", "a", "a2");
        assertNull(b.foreground());
        assertArrayEquals(new String[] {"b1", "a2"}, b.lines());
        assertEquals(1, b.dropped());
    }

    @Test
    public void otherPackagesLinesGoBeforeTheApps() {
        EventBuffer b = new EventBuffer(4);
        offer(b, "window_state", "app", "w");
        offer(b, "click", "launcher", "l1");
        offer(b, "click", "app", "a1");
        offer(b, "focus", "systemui", "s1");
        offer(b, "click", "app", "a2");  // the oldest other line goes: l1
        assertArrayEquals(new String[] {"w", "a1", "s1", "a2"}, b.lines());
        offer(b, "click", "app", "a3");  // then s1
        assertArrayEquals(new String[] {"w", "a1", "a2", "a3"}, b.lines());
        offer(b, "click", "app", "a4");  // all the app's now: its oldest goes
        assertArrayEquals(new String[] {"a1", "a2", "a3", "a4"}, b.lines());
        assertEquals(3, b.dropped());
    }

    @Test
    public void anotherPackagesNewLineNeverPushesOutTheApps() {
        EventBuffer b = new EventBuffer(2);
        offer(b, "window_state", "app", "w");
        offer(b, "click", "app", "a1");
        offer(b, "click", "launcher", "l1");
        assertArrayEquals(new String[] {"w", "a1"}, b.lines());
        assertEquals(1, b.dropped());
    }

    @Test
    public void theAppIsThePackageOfTheNewestWindowState() {
        EventBuffer b = new EventBuffer(3);
        offer(b, "window_state", "one", "w1");
        offer(b, "click", "one", "o1");
        offer(b, "window_state", "two", "w2");
        assertEquals("two", b.foreground());
        offer(b, "click", "two", "t1");  // "one" is no longer the app: its oldest goes
        assertArrayEquals(new String[] {"o1", "w2", "t1"}, b.lines());
        // The foreground stays what the newest window_state said after its line is sent.
        b.poll();
        b.poll();
        assertEquals("two", b.foreground());
        offer(b, "click", "one", "o2");
        offer(b, "click", "two", "t2");
        offer(b, "click", "two", "t3");  // o2 goes, though it is newer than t1
        assertArrayEquals(new String[] {"t1", "t2", "t3"}, b.lines());
    }

    @Test
    public void aNullPackageIsTheEmptyOne() {
        EventBuffer b = new EventBuffer(2);
        offer(b, "window_state", null, "w");
        offer(b, "click", "", "c");
        offer(b, "click", "other", "o");
        assertEquals("", b.foreground());
        assertArrayEquals(new String[] {"w", "c"}, b.lines());
    }

    @Test
    public void pollTakesTheOldestAndPutBackRestoresItsPlace() {
        EventBuffer b = new EventBuffer(3);
        offer(b, "click", "a", "1");
        offer(b, "click", "b", "2");
        EventBuffer.Entry first = b.poll();
        assertEquals("1", first.line);
        assertEquals(first.seq, b.oldestSeq() - 1);
        offer(b, "click", "a", "3");
        b.putBack(first);
        assertArrayEquals(new String[] {"1", "2", "3"}, b.lines());
        assertEquals("1", b.poll().line);
        assertEquals("2", b.poll().line);
        assertEquals("3", b.poll().line);
        assertNull(b.poll());
        assertEquals(Long.MAX_VALUE, b.oldestSeq());
        assertEquals(0, b.dropped());
    }

    @Test
    public void aLinePutBackIntoAFullBufferFollowsTheRule() {
        EventBuffer b = new EventBuffer(2);
        offer(b, "window_state", "app", "w");
        EventBuffer.Entry w = b.poll();
        offer(b, "click", "other", "o1");
        offer(b, "click", "app", "a1");
        b.putBack(w);  // three lines for two places: the other package's goes
        assertArrayEquals(new String[] {"w", "a1"}, b.lines());
        assertEquals(1, b.dropped());
    }

    @Test
    public void theCountRunsAcrossPolls() {
        EventBuffer b = new EventBuffer(1);
        for (int i = 0; i < 10; i++) {
            offer(b, "click", "a", "x" + i);
            if (i % 2 == 0) {
                b.poll();
            }
        }
        // Even i: offered into an empty buffer, then taken. Odd i: kept, then pushed
        // out by the next even offer (except the last).
        assertEquals(4, b.dropped());
        assertArrayEquals(new String[] {"x9"}, b.lines());
    }

    @Test
    public void concurrentOffersAndPollsLoseNothingUncounted() throws Exception {
        final EventBuffer b = new EventBuffer(64);
        final int producers = 4;
        final int each = 20000;
        Thread[] threads = new Thread[producers];
        for (int t = 0; t < producers; t++) {
            final String pkg = "p" + t;
            threads[t] = new Thread(new Runnable() {
                @Override
                public void run() {
                    for (int i = 0; i < each; i++) {
                        b.offer(i % 100 == 0 ? "window_state" : "click", pkg, pkg + " " + i);
                    }
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        List<String> taken = new ArrayList<String>();
        boolean alive = true;
        while (alive) {
            alive = false;
            for (Thread t : threads) {
                alive |= t.isAlive();
            }
            EventBuffer.Entry e;
            while ((e = b.poll()) != null) {
                taken.add(e.line);
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        EventBuffer.Entry e;
        while ((e = b.poll()) != null) {
            taken.add(e.line);
        }
        assertEquals((long) producers * each, taken.size() + b.dropped());
        // Each producer's lines come out in the order it offered them.
        int[] last = new int[producers];
        java.util.Arrays.fill(last, -1);
        for (String line : taken) {
            String[] parts = line.split(" ");
            int p = Integer.parseInt(parts[0].substring(1));
            int i = Integer.parseInt(parts[1]);
            assertTrue(line, i > last[p]);
            last[p] = i;
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void aBufferHoldsAtLeastOneLine() {
        new EventBuffer(0);
    }
}

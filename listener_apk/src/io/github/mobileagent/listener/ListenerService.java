package io.github.mobileagent.listener;

import android.accessibilityservice.AccessibilityService;
import android.content.pm.PackageManager;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityNodeInfo;

/**
 * The accessibility service: turns each event it is sent into one JSON line,
 * buffers it, and serves the buffer to the host on the abstract socket
 * {@code mobileagent-listener} (listener protocol 2, README "Protocol"); the
 * pytest worker dials it through adb's {@code localabstract:} service.
 *
 * onAccessibilityEvent runs on the UI thread, so it only builds the line and
 * buffers it; {@link ListenerServer} does all socket work on its own threads.
 */
public final class ListenerService extends AccessibilityService {
    /** The abstract socket name the host dials (localabstract:mobileagent-listener). */
    static final String SOCKET_NAME = "mobileagent-listener";
    /** Lines kept while no client reads them; past that, other packages' oldest go first. */
    static final int BUFFER_CAPACITY = 4096;
    /** How long a client has to send its hello. */
    static final long HELLO_TIMEOUT_MS = 5000;
    /** Pause before binding the socket again after a failure. */
    static final long RETRY_MS = 500;

    private volatile EventBuffer buffer;
    private ListenerServer server;

    @Override
    protected void onServiceConnected() {
        super.onServiceConnected();
        if (server != null) {
            return;  // connected again without a destroy: the socket and buffer stay
        }
        EventBuffer b = new EventBuffer(BUFFER_CAPACITY);
        server = new ListenerServer(LocalEndpoint.opener(SOCKET_NAME), b, new HierarchyRequests(this),
                getPackageName(), versionCode(), HELLO_TIMEOUT_MS, RETRY_MS);
        buffer = b;
        server.start();
    }

    @Override
    public void onAccessibilityEvent(AccessibilityEvent event) {
        EventBuffer b = buffer;
        String type = typeName(event.getEventType());
        if (b == null || type == null) {
            return;
        }
        String id = "";
        AccessibilityNodeInfo source = event.getSource();
        if (source != null) {
            String name = source.getViewIdResourceName();
            if (name != null) {
                id = name;
            }
            source.recycle();
        }
        CharSequence pkg = event.getPackageName();
        b.offer(type, pkg, EventJson.line(type, pkg, id, event.getText(),
                event.getContentDescription(), event.getClassName(), System.currentTimeMillis()));
    }

    @Override
    public void onInterrupt() {
        // Feedback services are interrupted; this one gives no feedback to stop.
    }

    @Override
    public void onDestroy() {
        buffer = null;
        ListenerServer s = server;
        server = null;
        if (s != null) {
            s.stop();  // frees the socket name for the next instance
        }
        super.onDestroy();
    }

    /** This APK's versionCode, which the hello reports. */
    private long versionCode() {
        try {
            return getPackageManager().getPackageInfo(getPackageName(), 0).versionCode;
        } catch (PackageManager.NameNotFoundException e) {
            return -1;  // cannot happen for our own package
        }
    }

    /** The plugin's name for an event type, or null for types it does not use. */
    static String typeName(int eventType) {
        switch (eventType) {
            case AccessibilityEvent.TYPE_VIEW_CLICKED: return "click";
            case AccessibilityEvent.TYPE_VIEW_LONG_CLICKED: return "long_click";
            case AccessibilityEvent.TYPE_VIEW_TEXT_CHANGED: return "text_changed";
            case AccessibilityEvent.TYPE_VIEW_FOCUSED: return "focus";
            case AccessibilityEvent.TYPE_VIEW_SCROLLED: return "scroll";
            case AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED: return "window_state";
            case AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED: return "window_content";
            default: return null;
        }
    }
}

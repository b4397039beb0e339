package io.github.mobileagent.listener;

import android.accessibilityservice.AccessibilityService;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityNodeInfo;

/**
 * The accessibility service: turns each event it is sent into one JSON line for
 * the host at 127.0.0.1:8888 on the device, which {@code adb reverse} maps to the
 * event server of the pytest worker that owns this device.
 *
 * onAccessibilityEvent runs on the UI thread, so it only builds the line and
 * queues it; {@link EventSender} does all network work on its own thread.
 */
public final class ListenerService extends AccessibilityService {
    /** The device port the plugin reverses to its event server. */
    static final int HOST_PORT = 8888;
    /** Lines kept while the host is away; past that the oldest go first. */
    static final int QUEUE_CAPACITY = 4096;
    static final long RETRY_MS = 500;

    private EventSender sender;

    @Override
    protected void onServiceConnected() {
        super.onServiceConnected();
        sender = new EventSender("127.0.0.1", HOST_PORT, QUEUE_CAPACITY, RETRY_MS);
        sender.setRequestHandler(new HierarchyRequests(this));
        sender.start();
    }

    @Override
    public void onAccessibilityEvent(AccessibilityEvent event) {
        EventSender s = sender;
        String type = typeName(event.getEventType());
        if (s == null || type == null) {
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
        s.offer(EventJson.line(type, event.getPackageName(), id, event.getText(),
                event.getContentDescription(), event.getClassName(), System.currentTimeMillis()));
    }

    @Override
    public void onInterrupt() {
        // Feedback services are interrupted; this one gives no feedback to stop.
    }

    @Override
    public void onDestroy() {
        EventSender s = sender;
        sender = null;
        if (s != null) {
            s.stop();
        }
        super.onDestroy();
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

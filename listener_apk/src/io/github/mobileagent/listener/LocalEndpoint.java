package io.github.mobileagent.listener;

import android.net.LocalServerSocket;
import android.net.LocalSocket;
import android.system.ErrnoException;
import android.system.Os;
import android.system.OsConstants;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The listener's socket on the device: {@code LocalServerSocket(name)}, which
 * binds {@code name} in the Linux abstract namespace (frameworks/base
 * core/java/android/net/LocalServerSocket.java: "On the Android platform, the
 * name is created in the Linux abstract namespace"; LocalSocketAddress(name)
 * defaults to Namespace.ABSTRACT). adbd reaches it as
 * {@code localabstract:NAME}; SELinux lets it (system/sepolicy private/adbd.te:
 * {@code allow adbd appdomain:unix_stream_socket connectto;}).
 *
 * The peer's uid comes from {@code LocalSocket.getPeerCredentials()}, which is
 * getsockopt(SO_PEERCRED) on the accepted socket (frameworks/base
 * core/jni/android_net_LocalSocketImpl.cpp, socket_get_peer_credentials): the
 * uid of the process that connected, which for adb is adbd itself (shell, 2000,
 * or root after {@code adb root}).
 */
final class LocalEndpoint implements ListenerServer.Endpoint {
    private final LocalServerSocket server;

    LocalEndpoint(String name) throws IOException {
        server = new LocalServerSocket(name);
    }

    /** Binds {@code name} each time the server asks (again after a failure). */
    static ListenerServer.Opener opener(final String name) {
        return new ListenerServer.Opener() {
            @Override
            public ListenerServer.Endpoint open() throws IOException {
                return new LocalEndpoint(name);
            }
        };
    }

    @Override
    public ListenerServer.Client accept() throws IOException {
        final LocalSocket s = server.accept();
        return new ListenerServer.Client() {
            @Override
            public InputStream input() throws IOException {
                return s.getInputStream();
            }

            @Override
            public OutputStream output() throws IOException {
                return s.getOutputStream();
            }

            @Override
            public int peerUid() throws IOException {
                return s.getPeerCredentials().getUid();
            }

            @Override
            public void close() {
                // LocalSocket.close() is a bare close(2) (LocalSocketImpl.close), which
                // does not wake a thread blocked in recv or send on the same socket;
                // shutdown(2) does, so the reader and writer see the end at once.
                shutdown(s.getFileDescriptor());
                try {
                    s.close();
                } catch (IOException e) {
                    // Already closed.
                }
            }
        };
    }

    @Override
    public void close() {
        // As above: close(2) alone leaves accept() blocked; shutdown(2) on a listening
        // AF_UNIX socket makes it return EINVAL (Linux net/unix/af_unix.c, unix_accept:
        // "This means receive shutdown").
        shutdown(server.getFileDescriptor());
        try {
            server.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    private static void shutdown(FileDescriptor fd) {
        if (fd == null) {
            return;
        }
        try {
            Os.shutdown(fd, OsConstants.SHUT_RDWR);
        } catch (ErrnoException e) {
            // Not connected any more, or closed: nothing to wake.
        }
    }
}

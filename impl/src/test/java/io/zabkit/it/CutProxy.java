package io.zabkit.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP relay in front of a server that a test can cut: {@link #cut()} closes every relayed
 * connection and refuses new ones until {@link #heal()}. A client behind it stays disconnected for
 * exactly as long as the test wants, which lets changes happen while it cannot see them.
 */
final class CutProxy implements AutoCloseable {
    private final int targetPort;
    private final ServerSocket listener;
    private final List<Socket> open = new ArrayList<>();
    private volatile boolean cut;
    private final Thread acceptor;

    CutProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        acceptor = new Thread(this::acceptLoop, "cut-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String connectString() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    synchronized void cut() {
        cut = true;
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    void heal() {
        cut = false;
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream = new Socket("127.0.0.1", targetPort);
                synchronized (this) {
                    open.add(client);
                    open.add(upstream);
                }
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // listener closed, or the server is down: the client sees a closed connection and retries
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed: close both below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "cut-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cut();
    }
}

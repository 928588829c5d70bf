package io.zabkit.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.proto.ConnectRequest;
import org.apache.zookeeper.proto.RequestHeader;

/** A client speaking the wire format byte by byte, for input no official client would send. */
final class RawClient implements AutoCloseable {
    /** xid (int), zxid (long), err (int): every reply and notification starts with one. */
    static final int REPLY_HEADER_BYTES = 16;
    final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawClient(int port, int readTimeoutMs) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(readTimeoutMs);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** A framed ConnectRequest for a new session, as the Java client sends it (with the readOnly flag). */
    static byte[] connectFrame(int timeoutMs) throws IOException {
        return connectFrame(0, new byte[16], timeoutMs);
    }

    /** A framed ConnectRequest resuming a session (0 for a new one). */
    static byte[] connectFrame(long sessionId, byte[] password, int timeoutMs) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        BinaryOutputArchive a = BinaryOutputArchive.getArchive(body);
        new ConnectRequest(0, 0, timeoutMs, sessionId, password, false).serialize(a, "connect");
        return frame(body.toByteArray());
    }

    /** A framed request: header then body (body may be null). */
    static byte[] requestFrame(int xid, int type, Record body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryOutputArchive a = BinaryOutputArchive.getArchive(bytes);
        new RequestHeader(xid, type).serialize(a, "header");
        if (body != null) {
            body.serialize(a, "request");
        }
        return frame(bytes.toByteArray());
    }

    static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one framed packet; null when the server closed the connection. */
    byte[] readFrame() throws IOException {
        try {
            int length = in.readInt();
            if (length < 0 || length > 16 << 20) {
                throw new IOException("server sent a frame length of " + length);
            }
            byte[] body = new byte[length];
            in.readFully(body);
            return body;
        } catch (EOFException | SocketException e) {
            return null; // closed (or reset) by the server
        }
    }

    /**
     * Reads until the server closes the connection; returns the number of frames received before it,
     * each of which must be at least a reply header. A read timeout means the server kept the
     * connection open.
     */
    int framesUntilClosed() throws IOException {
        int frames = 0;
        while (true) {
            try {
                byte[] frame = readFrame();
                if (frame == null) {
                    return frames;
                }
                if (frame.length < REPLY_HEADER_BYTES) {
                    throw new AssertionError("the server sent a " + frame.length
                            + "-byte frame, shorter than a reply header");
                }
                frames++;
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server kept the connection open after " + frames + " frames", e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

package io.zabkit.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A client socket behind the JDK's SSLEngine, for the non-blocking event loop: {@link #read} takes what
 * the socket has and returns the plaintext it decrypts (answering the handshake on the way), and the
 * gathering {@link #write} encrypts queued replies. Encrypted bytes the socket did not take wait in
 * {@link #netOut}; the loop keeps OP_WRITE while {@link #hasPendingOutput} says so.
 */
final class TlsChannel implements GatheringByteChannel {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** Handshake steps per call: a peer cannot keep the loop in one call forever. */
    private static final int STEPS_MAX = 64;

    private final SocketChannel socket;
    private final SSLEngine engine;
    /** Encrypted bytes from the socket, write mode (filled from position). */
    private ByteBuffer netIn;
    /** Decrypted bytes of one record, before they are copied to the caller. */
    private final ByteBuffer appIn;
    /** Encrypted bytes for the socket, read mode (between position and limit). */
    private final ByteBuffer netOut;
    /** Set when the engine reports the handshake finished; taken once by {@link #takeFinishedHandshake}. */
    private boolean handshakeFinished;

    TlsChannel(SocketChannel socket, SSLEngine engine) throws SSLException {
        this.socket = socket;
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet);
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.netOut = ByteBuffer.allocate(packet).flip();
        engine.beginHandshake();
    }

    /**
     * One socket read, then every whole record it completes, decrypted into {@code dst}; -1 once the
     * socket or the TLS session is closed. Throws SSLException on a failed handshake or a bad record
     * (a plaintext client, an untrusted certificate).
     */
    public int read(ByteBuffer dst) throws IOException {
        int start = dst.position();
        boolean socketClosed = socket.read(netIn) < 0;
        boolean closed = false; // the client's close_notify
        netIn.flip();
        try {
            for (int steps = 0; steps < STEPS_MAX && !closed; steps++) {
                HandshakeStatus hs = engine.getHandshakeStatus();
                if (hs == HandshakeStatus.NEED_TASK) {
                    runTasks();
                    continue;
                }
                if (hs == HandshakeStatus.NEED_WRAP) {
                    if (!flushNet()) {
                        break; // OP_WRITE resumes the handshake
                    }
                    wrap(new ByteBuffer[] {EMPTY}, 0, 1);
                    continue;
                }
                SSLEngineResult r = engine.unwrap(netIn, appIn);
                handshakeFinished |= r.getHandshakeStatus() == HandshakeStatus.FINISHED;
                appIn.flip();
                assert dst.remaining() >= appIn.remaining() : "read buffer smaller than one socket read's plaintext";
                dst.put(appIn);
                appIn.clear();
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    closed = true;
                } else if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                    growNetInIfFull();
                    break;
                } else if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    throw new SSLException("a TLS record larger than the session's application buffer");
                } else if (r.bytesConsumed() == 0 && r.bytesProduced() == 0
                        && r.getHandshakeStatus() != HandshakeStatus.NEED_TASK
                        && r.getHandshakeStatus() != HandshakeStatus.NEED_WRAP) {
                    break;
                }
            }
        } finally {
            netIn.compact();
        }
        flushNet();
        int produced = dst.position() - start;
        return produced == 0 && (closed || socketClosed) ? -1 : produced;
    }

    private void runTasks() {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
            task.run(); // on the loop thread: a handshake's signature is short work
        }
    }

    /**
     * Moves the handshake on without the peer: runs tasks, queues and writes handshake messages. Returns
     * false when it waits, for the peer's messages or for the socket to take what is queued.
     */
    boolean progressHandshake() throws IOException {
        for (int steps = 0; steps < STEPS_MAX; steps++) {
            HandshakeStatus hs = engine.getHandshakeStatus();
            if (hs == HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (hs == HandshakeStatus.NEED_WRAP && flushNet()) {
                wrap(new ByteBuffer[] {EMPTY}, 0, 1);
            } else {
                return flushNet() && !handshaking();
            }
        }
        return false;
    }

    private void growNetInIfFull() {
        if (netIn.remaining() == netIn.capacity()) { // a record larger than the buffer: make room for it
            ByteBuffer bigger = ByteBuffer.allocate(netIn.capacity() * 2);
            bigger.put(netIn).flip();
            netIn = bigger;
        }
    }

    /** Appends the engine's output for {@code srcs} to {@link #netOut}; returns the plaintext bytes it took. */
    private int wrap(ByteBuffer[] srcs, int offset, int length) throws IOException {
        netOut.compact();
        SSLEngineResult r;
        try {
            r = engine.wrap(srcs, offset, length, netOut);
        } finally {
            netOut.flip();
        }
        handshakeFinished |= r.getHandshakeStatus() == HandshakeStatus.FINISHED;
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("the TLS session is closed");
        }
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW && netOut.position() == 0
                && netOut.limit() == netOut.capacity()) {
            throw new SSLException("a TLS record larger than the session's packet buffer");
        }
        return r.bytesConsumed();
    }

    /** Writes {@link #netOut} to the socket; returns whether all of it is out. */
    boolean flushNet() throws IOException {
        while (netOut.hasRemaining()) {
            if (socket.write(netOut) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The engine, once, right after its handshake finished (the client's certificate is known then). */
    SSLEngine takeFinishedHandshake() {
        if (!handshakeFinished) {
            return null;
        }
        handshakeFinished = false;
        return engine;
    }

    boolean hasPendingOutput() {
        return netOut.hasRemaining();
    }

    private boolean handshaking() {
        HandshakeStatus hs = engine.getHandshakeStatus();
        return hs != HandshakeStatus.NOT_HANDSHAKING && hs != HandshakeStatus.FINISHED;
    }

    /**
     * Encrypts what fits of {@code srcs} and writes it; returns the plaintext bytes taken (0 while the
     * socket is full or the handshake is not done).
     */
    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long taken = 0;
        for (int steps = 0; steps < STEPS_MAX; steps++) {
            if (!flushNet()) {
                return taken;
            }
            if (handshaking() && !progressHandshake()) {
                return taken; // waiting for the client's handshake messages, or for the socket
            }
            if (!hasRemaining(srcs, offset, length)) {
                return taken;
            }
            taken += wrap(srcs, offset, length);
        }
        return taken;
    }

    private static boolean hasRemaining(ByteBuffer[] srcs, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (srcs[i].hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return write(srcs, 0, srcs.length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        engine.closeOutbound();
        socket.close();
    }
}

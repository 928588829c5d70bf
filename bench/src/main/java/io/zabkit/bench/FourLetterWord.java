package io.zabkit.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Four-letter words (srvr, ruok, mntr) on a client port; every call is bounded by a connect and a read timeout. */
public final class FourLetterWord {
    private static final int CONNECT_TIMEOUT_MS = 500;
    private static final int READ_TIMEOUT_MS = 1000;
    private static final int REPLY_BYTES_MAX = 64 * 1024;
    private static final Pattern MODE = Pattern.compile("Mode: (\\w+)");
    private static final Pattern ZXID = Pattern.compile("Zxid: 0x([0-9a-fA-F]+)");

    private FourLetterWord() {}

    /** The reply, or empty if the server does not answer (down, starting, or not serving). */
    static Optional<String> send(InetSocketAddress address, String word) {
        return send(address, word, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS);
    }

    /** {@link #send(InetSocketAddress, String)} with the caller's timeouts (e.g. longer ones on a loaded host). */
    public static Optional<String> send(InetSocketAddress address, String word, int connectTimeoutMs, int readTimeoutMs) {
        assert connectTimeoutMs > 0 && readTimeoutMs > 0 : "an unbounded four-letter word";
        try (Socket s = new Socket()) {
            s.connect(address, connectTimeoutMs);
            s.setSoTimeout(readTimeoutMs);
            s.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            for (int n; reply.size() < REPLY_BYTES_MAX && (n = in.read(buf)) > 0; ) {
                reply.write(buf, 0, n);
            }
            return Optional.of(reply.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** "leader", "follower", "standalone", ... from a srvr reply; empty when it is not serving. */
    static Optional<String> mode(String srvrReply) {
        Matcher m = MODE.matcher(srvrReply);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The server's last processed zxid from a srvr reply. */
    static Optional<Long> zxid(String srvrReply) {
        Matcher m = ZXID.matcher(srvrReply);
        return m.find() ? Optional.of(Long.parseUnsignedLong(m.group(1), 16)) : Optional.empty();
    }
}

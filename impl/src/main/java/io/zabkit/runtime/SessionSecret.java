package io.zabkit.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * The secret that session passwords derive from, kept in dataDir. Sessions outlive a restart (they
 * are in the log and snapshots), so their passwords must too: a fresh secret per start would turn
 * every client's reconnect after a restart into "wrong password", i.e. an expired session.
 */
final class SessionSecret {
    static final String FILE = "zabkit-session-secret";
    private static final int BYTES = Long.BYTES;

    private SessionSecret() {}

    /** Reads the secret, or draws one from SecureRandom and writes it durably on first start. */
    static long loadOrCreate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        if (Files.exists(file)) {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length != BYTES) {
                throw new IOException(file + " holds " + bytes.length + " bytes, not " + BYTES
                        + "; delete it to start over (every existing session is then lost)");
            }
            return ByteBuffer.wrap(bytes).getLong();
        }
        long secret = new SecureRandom().nextLong();
        Path temp = dataDir.resolve(FILE + ".tmp");
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.allocate(BYTES).putLong(secret).flip());
            ch.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        return secret;
    }
}

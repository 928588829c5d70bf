package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ways ServerMain refuses to start, and their exit statuses. */
class ServerMainTest {
    @TempDir
    Path dir;

    private Path config(String... extra) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "dataDir=" + dir.resolve("data") + "\nclientPortAddress=127.0.0.1\nclientPort=1\n"
                + String.join("\n", extra) + "\n");
        return cfg;
    }

    @Test
    void badConfigExitsWithTwo() throws IOException {
        assertEquals(2, ServerMain.run(config("tickTime=soon")));
        assertEquals(2, ServerMain.run(dir.resolve("missing.cfg")));
    }

    @Test
    void ensembleConfigIsRefusedForNow() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/myid"), "1");
        assertEquals(2, ServerMain.run(config("initLimit=5", "syncLimit=2", "server.1=127.0.0.1:2888:3888",
                "server.2=127.0.0.1:2889:3889")));
    }

    @Test
    void unrecoverableStorageExitsWithThree() throws IOException {
        Path storage = dir.resolve("data").resolve(ServerMain.STORAGE_DIR);
        Files.createDirectories(storage);
        Files.write(storage.resolve("log.1"), new byte[] {1, 2, 3}); // torn, but not the newest file
        Files.write(storage.resolve("log.2"), new byte[] {1, 2, 3});
        assertEquals(3, ServerMain.run(config()));
    }

    @Test
    void aLockedDataDirExitsWithThree() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        DataDirLock held = DataDirLock.acquire(dir.resolve("data"));
        try {
            assertEquals(3, ServerMain.run(config()));
        } finally {
            held.close();
        }
    }
}

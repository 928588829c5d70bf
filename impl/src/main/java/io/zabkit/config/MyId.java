package io.zabkit.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The {@code myid} file in dataDir: this server's id, one integer. */
final class MyId {
    private MyId() {}

    /** The id in dataDir/myid, or -1 when there is no such file. */
    static long read(Path dataDir) throws ConfigException {
        Path file = dataDir.resolve("myid");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException e) {
            throw new ConfigException("cannot read " + file + ": " + e);
        }
        try {
            long id = Long.parseLong(text);
            if (id >= 0 && id <= 254) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(file + ": '" + text + "' is not a server id (an integer from 0 to 254)");
    }
}

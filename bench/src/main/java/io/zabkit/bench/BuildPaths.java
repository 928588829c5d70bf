package io.zabkit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository and the Maven-resolved ZooKeeper classpath are, for tests and for `make bench`. */
final class BuildPaths {
    private BuildPaths() {}

    /** -Dzabkit.root, else the first directory upwards from the working dir that holds bin/zabkit-server. */
    static Path repoRoot() {
        String given = System.getProperty("zabkit.root");
        if (given != null) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (int depth = 0; dir != null && depth < 8; depth++, dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("bin/zabkit-server")) && Files.isDirectory(dir.resolve("bench"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the zabkit checkout (bin/zabkit-server) above "
                + Path.of("").toAbsolutePath() + "; pass -Dzabkit.root=/path/to/zabkit");
    }

    /** The classpath file Maven wrote (bench/target/zookeeper-server-classpath.txt), read once. */
    static String zookeeperClasspath() {
        String given = System.getProperty("zabkit.zookeeperClasspath");
        Path file = given != null ? Path.of(given) : repoRoot().resolve("bench/target/zookeeper-server-classpath.txt");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing: build the module first "
                    + "(mvn -pl bench -am -DskipTests package, or make bench)");
        }
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }
}

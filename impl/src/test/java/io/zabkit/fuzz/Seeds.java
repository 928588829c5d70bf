package io.zabkit.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a fuzz test's committed inputs live (Jazzer's JUnit convention: the test class's resources,
 * {@code <Class>Inputs/<method>/}), and how the seed writers put real frames and files there. The seeds
 * are written by each fuzz test's writeSeeds test, run with -Dzabkit.fuzz.writeSeeds=true (`make
 * fuzz-seeds`); the fuzzer's own findings land in the same directories.
 */
public final class Seeds {
    public static final String WRITE_PROPERTY = "zabkit.fuzz.writeSeeds";

    private Seeds() {}

    public static Path dir(Class<?> test, String method) {
        Path impl = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        return impl.resolve("src/test/resources").resolve(test.getPackageName().replace('.', '/'))
                .resolve(test.getSimpleName() + "Inputs").resolve(method);
    }

    public static void write(Class<?> test, String method, String name, byte[] bytes) {
        assert name.startsWith("seed-") : "seeds are named seed-*, findings crash-*: " + name;
        try {
            Path d = dir(test, method);
            Files.createDirectories(d);
            Files.write(d.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.zabkit.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * What an experiment adds to an {@link Ensemble}'s defaults, for both systems alike: where the
 * temporary directories go (a tmpfs or a disk), extra JVM options for every server (e.g.
 * -Djute.maxbuffer, read by ZooKeeper's server) and extra zoo.cfg lines (e.g. jute.maxbuffer, which
 * zabkit reads from zoo.cfg).
 *
 * @param parentDir where the ensemble's temporary directory is created; null: java.io.tmpdir
 */
public record ServerExtras(Path parentDir, List<String> jvmOptions, List<String> cfgLines) {
    public static final ServerExtras NONE = new ServerExtras(null, List.of(), List.of());

    public ServerExtras {
        jvmOptions = List.copyOf(jvmOptions);
        cfgLines = List.copyOf(cfgLines);
        for (String line : cfgLines) {
            if (!line.matches("[A-Za-z][A-Za-z0-9._]*=\\S.*")) {
                throw new IllegalArgumentException("not a zoo.cfg key=value line: '" + line + "'");
            }
        }
    }
}

package io.zabkit.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Draws client operations from the seed over a small key space so that clients collide: creates
 * (persistent, ephemeral, sequential), setData and deletes with expected versions (CAS), reads with
 * watches, sync and multi. Data values are unique per write, so the checkers can tell writes apart.
 */
final class Workload {
    /** Workload options drawn from the seed. */
    record Options(int keyCount, double writeFraction, double multiProbability, double closeSessionProbability) {}

    private final Options options;
    private long writes;

    Workload(Options options) {
        this.options = options;
    }

    /**
     * @param knownVersion the version the client last saw for a path, or -1: a CAS that often wins
     */
    ClientOp next(Prng prng, int client, ToIntFunction<String> knownVersion, List<String> ownSequential) {
        if (prng.chance(options.closeSessionProbability())) {
            return ClientOp.of(ClientOp.Kind.CLOSE_SESSION, null);
        }
        if (prng.chance(options.multiProbability())) {
            return multi(prng, client, knownVersion);
        }
        if (prng.chance(options.writeFraction())) {
            return write(prng, client, knownVersion, ownSequential);
        }
        return read(prng);
    }

    private ClientOp write(Prng prng, int client, ToIntFunction<String> knownVersion, List<String> ownSequential) {
        int r = prng.below(10);
        if (r < 3) {
            return create(prng, client);
        }
        if (r < 7) {
            String path = key(prng);
            return new ClientOp(ClientOp.Kind.SET_DATA, path, value(client), version(prng, path, knownVersion), null,
                    false, List.of());
        }
        String path = !ownSequential.isEmpty() && prng.chance(0.3)
                ? ownSequential.get(prng.below(ownSequential.size()))
                : prng.chance(0.5) ? key(prng) : prng.chance(0.5) ? child(prng) : ephemeralKey(prng);
        return new ClientOp(ClientOp.Kind.DELETE, path, null, version(prng, path, knownVersion), null, false, List.of());
    }

    private ClientOp create(Prng prng, int client) {
        ClientOp.Mode mode = prng.pick(ClientOp.Mode.values());
        String path = switch (mode) {
            case PERSISTENT -> prng.chance(0.3) ? child(prng) : key(prng);
            case EPHEMERAL -> prng.chance(0.2) ? child(prng) : prng.chance(0.1) ? ephemeralKey(prng) + "/c0"
                    : ephemeralKey(prng);
            case PERSISTENT_SEQUENTIAL -> "/s-";
            case EPHEMERAL_SEQUENTIAL -> "/es-";
        };
        return new ClientOp(ClientOp.Kind.CREATE, path, value(client), -1, mode, false, List.of());
    }

    private ClientOp read(Prng prng) {
        boolean watch = prng.chance(0.5);
        switch (prng.below(5)) {
            case 0:
                return new ClientOp(ClientOp.Kind.EXISTS, prng.chance(0.5) ? key(prng)
                        : prng.chance(0.5) ? child(prng) : ephemeralKey(prng), null, -1, null, watch, List.of());
            case 1:
                return new ClientOp(ClientOp.Kind.GET_CHILDREN, prng.chance(0.5) ? "/" : key(prng), null, -1, null,
                        watch, List.of());
            case 2:
                if (prng.chance(0.15)) {
                    boolean recursive = prng.chance(0.5);
                    return ClientOp.addWatch(recursive && prng.chance(0.5) ? "/" : key(prng), recursive);
                }
                return ClientOp.of(ClientOp.Kind.SYNC, "/");
            default:
                return new ClientOp(ClientOp.Kind.GET_DATA, key(prng), null, -1, null, watch, List.of());
        }
    }

    private ClientOp multi(Prng prng, int client, ToIntFunction<String> knownVersion) {
        int n = prng.between(1, 3);
        List<ClientOp> ops = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String path = key(prng);
            switch (prng.below(4)) {
                case 0 -> {
                    ClientOp.Mode mode = prng.pick(ClientOp.Mode.values());
                    String target = mode.sequential() ? "/m-" : mode.ephemeral() ? ephemeralKey(prng)
                            : prng.chance(0.3) ? child(prng) : path;
                    ops.add(new ClientOp(ClientOp.Kind.CREATE, target, value(client), -1, mode, false, List.of()));
                }
                case 1 -> ops.add(new ClientOp(ClientOp.Kind.SET_DATA, path, value(client),
                        version(prng, path, knownVersion), null, false, List.of()));
                case 2 -> ops.add(new ClientOp(ClientOp.Kind.DELETE, path, null, version(prng, path, knownVersion),
                        null, false, List.of()));
                default -> ops.add(new ClientOp(ClientOp.Kind.CHECK, path, null, version(prng, path, knownVersion),
                        null, false, List.of()));
            }
        }
        return new ClientOp(ClientOp.Kind.MULTI, null, null, -1, null, false, ops);
    }

    /** Every path a read of this workload names, for the ReadChecker. */
    static List<String> readPaths(Options options) {
        List<String> paths = new ArrayList<>();
        paths.add("/");
        for (int i = 0; i < options.keyCount(); i++) {
            paths.add("/k" + i);
            paths.add("/k" + i + "/c0");
            paths.add("/k" + i + "/c1");
        }
        for (int i = 0; i < Math.max(1, options.keyCount() / 2); i++) {
            paths.add("/e" + i);
        }
        return paths;
    }

    private String key(Prng prng) {
        return "/k" + prng.below(options.keyCount());
    }

    /** A child of a key: creates fail with NoNode while the parent is missing, deletes of the parent with NotEmpty. */
    private String child(Prng prng) {
        return key(prng) + "/c" + prng.below(2);
    }

    private String ephemeralKey(Prng prng) {
        return "/e" + prng.below(Math.max(1, options.keyCount() / 2));
    }

    private static int version(Prng prng, String path, ToIntFunction<String> knownVersion) {
        if (prng.chance(0.25)) {
            return -1;
        }
        int known = knownVersion.applyAsInt(path);
        return Math.max(0, known + prng.between(-1, 1) * (prng.chance(0.7) ? 0 : 1));
    }

    private byte[] value(int client) {
        writes++;
        return ("c" + client + "-" + writes).getBytes(StandardCharsets.UTF_8);
    }
}

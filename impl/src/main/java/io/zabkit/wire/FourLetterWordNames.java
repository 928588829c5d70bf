package io.zabkit.wire;

import java.util.Set;

/** The four-letter words ZooKeeper recognises at the start of a client connection. */
public final class FourLetterWordNames {
    private FourLetterWordNames() {}

    public static final Set<String> ALL = Set.of("ruok", "srvr", "stat", "mntr", "conf", "cons", "wchs", "wchc",
            "wchp", "envi", "dump", "crst", "srst", "isro", "reqs", "dirs", "gtmk", "stmk", "hash");

    public static boolean isKnown(String word) {
        return ALL.contains(word);
    }
}

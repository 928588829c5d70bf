package io.zabkit.sim.replay;

import io.zabkit.txn.Txn;
import java.util.List;
import java.util.stream.Collectors;

/** zxids as the spec writes them, <<epoch, counter>>, for reports. */
final class Zxids {
    private Zxids() {
    }

    static String show(long zxid) {
        return "<<" + Txn.epochOf(zxid) + "," + Txn.counterOf(zxid) + ">>";
    }

    static String show(List<Long> zxids) {
        return zxids.stream().map(Zxids::show).collect(Collectors.joining(" ", "[", "]"));
    }
}

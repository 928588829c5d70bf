package io.zabkit.wire;

import java.util.List;
import org.apache.jute.Record;

/**
 * The body of a multi or multiRead request: ZooKeeper's MultiOperationRecord, a sequence of
 * (MultiHeader, op record) pairs ended by a header with done = true.
 */
public record MultiOps(List<Op> ops) {
    public record Op(int type, Record body) {}
}

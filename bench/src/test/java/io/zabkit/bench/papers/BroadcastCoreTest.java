package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Fig 7's core-only harness: every server commits every transaction, with classic Zab's message count. */
class BroadcastCoreTest {
    @Test
    void everyServerCommitsEveryTransactionWithProposalAckCommitPerFollower() {
        for (int servers : new int[] {3, 5}) {
            BroadcastCore.Result r = BroadcastCore.run(servers, 5_000, 500, 1024);
            assertEquals(5_000, r.txns());
            // classic Zab: per transaction and follower one PROPOSAL, one ACK, one COMMIT
            assertEquals(3L * (servers - 1) * 5_000, r.messages(), "messages of " + servers + " servers");
            assertTrue(r.txnsPerSecond() > 1_000, "an in-memory broadcast of 1 KB txns: " + r.txnsPerSecond() + "/s");
        }
    }
}

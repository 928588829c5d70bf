package io.zabkit.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.zabkit.tree.Acls;
import io.zabkit.wire.OpCode;
import io.zabkit.wire.ZkException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.txn.CreateTxn;
import org.junit.jupiter.api.Test;

class TxnTest {
    /**
     * A session that authenticated as an emoji user (addauth digest) creates a node with the auth ACL:
     * the follower that decodes the PROPOSAL must hold the ACL the leader applied from its own txn
     * (with ZooKeeper's archive it held U+FFFD in place of each surrogate).
     */
    @Test
    void anAclIdBeyondTheBmpIsTheSameInTheLeaderAndTheFollower() throws IOException, ZkException {
        Id user = Acls.digestIdentity("\uD83D\uDE00:secret".getBytes(StandardCharsets.UTF_8));
        assertEquals("\uD83D\uDE00", user.getId().substring(0, user.getId().indexOf(':')), "the digest user");
        CreateTxn body = new CreateTxn("/a", new byte[] {1}, List.of(new ACL(ZooDefs.Perms.ALL, user)), false, 0);
        Txn leaders = new Txn(Txn.zxid(1, 1), 0x100000001L, 1, 1_700_000_000_000L, OpCode.CREATE, body);
        byte[] proposal = leaders.encode();
        Txn followers = Txn.decode(proposal, 1 << 20);
        assertEquals(user, ((CreateTxn) followers.body()).getAcl().get(0).getId(), "the follower's ACL is the leader's");
        assertArrayEquals(proposal, followers.encode(), "and it logs the same bytes");
    }
}

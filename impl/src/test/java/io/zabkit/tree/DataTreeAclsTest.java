package io.zabkit.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;

/** Nodes with equal ACLs share one list, counted, as ZooKeeper's ACL cache does; changes keep the counts. */
class DataTreeAclsTest {
    private static List<ACL> decoded(String id) { // a fresh list and ACL, as each request decodes its own
        return new ArrayList<>(List.of(new ACL(31, new Id("digest", id))));
    }

    @Test
    void equalAclsAreOneSharedListAndTheCountsFollowEveryChange() {
        DataTree tree = new DataTree();
        tree.create("/a", null, decoded("u:x"), 0, 1, 1, 10);
        tree.create("/b", null, decoded("u:x"), 0, 2, 2, 11);
        tree.create("/c", null, decoded("v:y"), 0, 3, 3, 12);
        assertSame(tree.get("/a").acl(), tree.get("/b").acl());
        assertNotSame(tree.get("/a").acl(), tree.get("/c").acl());
        tree.checkInvariants(); // the counts sum to the nodes

        List<ACL> mine = decoded("u:x");
        tree.setAcl("/c", mine, 1);
        mine.clear(); // the caller's list may change; the tree's must not
        assertSame(tree.get("/a").acl(), tree.get("/c").acl());
        assertEquals(decoded("u:x"), tree.get("/c").acl());
        tree.delete("/a", 4);
        tree.delete("/b", 5);
        tree.checkInvariants();
        assertEquals(decoded("u:x"), tree.get("/c").acl());
    }
}

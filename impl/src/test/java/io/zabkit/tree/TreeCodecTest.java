package io.zabkit.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;

/** A snapshot's nodes read back as written: null data as null, empty data as empty. */
class TreeCodecTest {
    @Test
    void nullAndEmptyDataSurviveASnapshot() throws IOException {
        DataTree tree = new DataTree();
        tree.create("/null", null, Acls.OPEN, 0, 1, 1, 10);
        tree.create("/empty", new byte[0], Acls.OPEN, 0, 2, 2, 11);
        tree.create("/full", new byte[] {1, 2}, Acls.OPEN, 0, 3, 3, 12);

        DataTree back = roundTrip(tree);
        assertNull(back.get("/null").data());
        assertArrayEquals(new byte[0], back.get("/empty").data());
        assertArrayEquals(new byte[] {1, 2}, back.get("/full").data());
        assertEquals(tree.digest(), back.digest());
    }

    @Test
    void digestTellsNullDataFromEmptyData() {
        DataTree withNull = new DataTree();
        withNull.create("/n", null, Acls.OPEN, 0, 1, 1, 10);
        DataTree withEmpty = new DataTree();
        withEmpty.create("/n", new byte[0], Acls.OPEN, 0, 1, 1, 10);
        assertEquals(false, withNull.digest() == withEmpty.digest());
    }

    @Test
    void aNegativeLengthOtherThanNullIsCorrupt() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(1);
        out.writeUTF("/");
        out.writeInt(-2);
        assertThrows(IOException.class, () -> TreeCodec.read(
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 1 << 20,
                TreeCodec.FORMAT_MODIFIED_UTF8));
        IOException e = assertThrows(IOException.class, () -> TreeCodec.read(
                new DataInputStream(new ByteArrayInputStream(new byte[] {0, 0, 0, 1, 0, 0, 0, 1, '/', -1, -1, -1, -2})),
                1 << 20));
        assertTrue(e.getMessage().contains("-2 data bytes"), e.getMessage());
    }

    /**
     * A path and an ACL id longer than 65,535 bytes, which a client may send (a request may be 1 MB):
     * format 1's modified UTF-8 could not write them and the snapshot failed.
     */
    @Test
    void aLongPathAndALongAclIdSurviveASnapshot() throws IOException {
        DataTree tree = new DataTree();
        String name = "/" + "n".repeat(70_000);
        Id longId = new Id("digest", "\uD83D\uDE00".repeat(20_000) + ":hash");
        tree.create(name, new byte[] {7}, List.of(new ACL(ZooDefs.Perms.ALL, longId)), 0, 1, 1, 10);
        DataTree back = roundTrip(tree);
        assertEquals(longId, back.get(name).acl.get(0).getId());
        assertEquals(tree.digest(), back.digest());
    }

    /** A tree a server wrote before format 2 (modified UTF-8 strings) is still read. */
    @Test
    void aFormatOneTreeIsStillRead() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(2);
        for (String path : List.of("/", "/a")) {
            out.writeUTF(path);
            out.writeInt(1);
            out.write(path.length());
            out.writeInt(1);
            out.writeInt(ZooDefs.Perms.READ);
            out.writeUTF("digest");
            out.writeUTF("\u00e9:hash");
            for (int i = 0; i < 5; i++) {
                out.writeLong(i + 1);
            }
            for (int i = 0; i < 3; i++) {
                out.writeInt(i);
            }
            out.writeLong(0);
        }
        DataTree back = TreeCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 1 << 20,
                TreeCodec.FORMAT_MODIFIED_UTF8);
        assertArrayEquals(new byte[] {2}, back.get("/a").data());
        assertEquals(new Id("digest", "\u00e9:hash"), back.get("/a").acl.get(0).getId());
    }

    private static DataTree roundTrip(DataTree tree) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeCodec.write(tree, new DataOutputStream(bytes));
        return TreeCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 1 << 20);
    }

    /** The snapshot's buffer is sized from this count; it must be String#getBytes' length for any string. */
    @Test
    void utf8LengthMatchesGetBytesForAnyString() {
        for (String s : List.of("", "/a", "/\u00fc", "/\u20ac", "/\uD834\uDD1E", "/lone\uD834", "/lone\uDD1E/x",
                "/\uD834\uD834\uDD1E")) {
            assertEquals(s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, TreeCodec.utf8Bytes(s), s);
        }
        DataTree tree = new DataTree();
        tree.create("/\u20ac", new byte[] {1}, List.of(new ACL(31, new Id("digest", "\u00fc:x"))), 0, 1, 1, 10);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            TreeCodec.write(tree, out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(bytes.size(), TreeCodec.encodedBytes(TreeCodec.capture(tree)));
    }
}

package io.zabkit.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
                new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 1 << 20));
    }

    private static DataTree roundTrip(DataTree tree) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TreeCodec.write(tree, new DataOutputStream(bytes));
        return TreeCodec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 1 << 20);
    }
}

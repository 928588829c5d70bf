package io.zabkit.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.ReplyHeader;
import org.junit.jupiter.api.Test;

class JuteTest {
    private static GetDataResponse getData(int bytes, byte fill) {
        byte[] data = new byte[bytes];
        Arrays.fill(data, fill);
        return new GetDataResponse(data, new Stat(1, 2, 3, 4, 5, 6, 7, 8, bytes, 0, 9));
    }

    @Test
    void encodeFrameIsFrameOfEncodeAcrossSizesAndReuse() {
        // small, the 1 KB of make bench, beyond the initial scratch, beyond what the scratch keeps, then small again
        int[] sizes = {0, 1024, 10_000, Jute.SCRATCH_BYTES_KEPT_MAX + 1, 3};
        for (int i = 0; i < sizes.length; i++) {
            ReplyHeader h = new ReplyHeader(i, 0x100000000L + i, 0);
            GetDataResponse body = getData(sizes[i], (byte) ('a' + i));
            byte[] framed = Jute.encodeFrame(h, body);
            assertArrayEquals(Jute.frame(Jute.encode(h, body)), framed, "size " + sizes[i]);
            int length = ((framed[0] & 0xff) << 24) | ((framed[1] & 0xff) << 16) | ((framed[2] & 0xff) << 8)
                    | (framed[3] & 0xff);
            assertEquals(framed.length - 4, length, "length prefix of size " + sizes[i]);
        }
    }

    @Test
    void encodeFrameSkipsAbsentRecordsLikeEncode() {
        ReplyHeader h = new ReplyHeader(7, 42, -101);
        assertArrayEquals(Jute.frame(Jute.encode(h, null)), Jute.encodeFrame(h, null));
        assertEquals(4 + 16, Jute.encodeFrame(h, null).length); // xid, zxid, err
    }

    private static byte[] zooKeepersBytes(Record r) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.serialize(BinaryOutputArchive.getArchive(bytes), "");
        return bytes.toByteArray();
    }

    @Test
    void everyStringWithoutSurrogatesIsWrittenAsZooKeeperWritesIt() throws IOException {
        // every char of the Basic Multilingual Plane but the surrogates, NUL and U+FFFF included
        StringBuilder all = new StringBuilder();
        for (int c = 0; c <= 0xffff; c++) {
            if (!Character.isSurrogate((char) c)) {
                all.append((char) c);
            }
        }
        Id id = new Id("digest", all.toString());
        assertArrayEquals(zooKeepersBytes(id), Jute.encode(id), "the wire and log formats are ZooKeeper's");
        Id empty = new Id("", null);
        assertArrayEquals(zooKeepersBytes(empty), Jute.encode(empty), "empty and null strings");
    }

    @Test
    void aCharacterBeyondTheBmpDecodesToItself() throws IOException {
        // U+1F600 and U+E57DF (the plane-14 character of StorageReaderFuzzTest's crash-84328e...)
        String user = "u\uD83D\uDE00\uDB55\uDFDF:hash";
        Id id = new Id("digest", user);
        byte[] bytes = Jute.encode(id);
        assertEquals(user, Jute.decode(bytes, new Id(), 1 << 20).getId(), "decoded as written");
        assertEquals(4 + 6 + 4 + 1 + 4 + 4 + 5, bytes.length, "two 4-byte characters of standard UTF-8");
        // ZooKeeper's own archive writes each surrogate on its own, which its reader turns into U+FFFD
        String zooKeepers = Jute.decode(zooKeepersBytes(id), new Id(), 1 << 20).getId();
        assertNotEquals(user, zooKeepers, "ZooKeeper's archive does not round-trip: " + zooKeepers);
    }

    @Test
    void aLoneSurrogateIsNotWellFormed() {
        assertTrue(Utf8OutputArchive.wellFormed("a\uD83D\uDE00b"));
        assertFalse(Utf8OutputArchive.wellFormed("a\uD83D"));
        assertFalse(Utf8OutputArchive.wellFormed("\uDE00\uD83D"));
    }
}

package io.zabkit.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
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
}

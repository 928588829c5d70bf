package io.zabkit.zab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.junit.jupiter.api.Test;

class MessageCodecTest {
    private static final int MAX = 1 << 20;

    /** Every record type, with edge values: extremes of longs and ints, empty and non-empty arrays and lists. */
    static List<Message> samples() {
        Txn create = new Txn(Txn.zxid(7, 0xffffffffL), 0x0100000000000001L, Integer.MAX_VALUE, Long.MAX_VALUE,
                OpCode.CREATE, new CreateTxn("/a/ü", "v".getBytes(StandardCharsets.UTF_8),
                List.of(new ACL(31, new Id("world", "anyone"))), true, -1));
        Txn setData = new Txn(1, 0, Integer.MIN_VALUE, 0, OpCode.SET_DATA, new SetDataTxn("/x", new byte[0], 0));
        List<Message> all = new ArrayList<>();
        for (Message.ServerState s : Message.ServerState.values()) {
            all.add(new Message.Notification(Long.MAX_VALUE, s, 254, -1, 0));
        }
        all.add(new Message.Notification(0, Message.ServerState.LOOKING, 0, Long.MIN_VALUE, Long.MAX_VALUE));
        all.add(new Message.FollowerInfo(0, -1));
        all.add(new Message.LeaderInfo(0xffffffffL));
        all.add(new Message.AckEpoch(-1, Long.MAX_VALUE));
        all.add(new Message.Diff(0));
        all.add(new Message.Trunc(Long.MIN_VALUE));
        all.add(new Message.Snap(42, new byte[] {0, 1, -1, 127, -128}));
        all.add(new Message.Snap(0, new byte[] {7}));
        all.add(new Message.Proposal(create, true));
        all.add(new Message.Proposal(setData, false));
        all.add(new Message.NewLeader(Txn.zxid(3, 0)));
        all.add(new Message.Ack(Long.MAX_VALUE, -1));
        all.add(new Message.Ack(3, 7, false));
        all.add(new Message.UpToDate(1));
        all.add(new Message.Commit(Long.MAX_VALUE));
        all.add(new Message.Inform(create));
        all.add(new Message.Ping(List.of()));
        all.add(new Message.Ping(List.of(new Message.SessionTouch(Long.MIN_VALUE, 0),
                new Message.SessionTouch(-1, Integer.MAX_VALUE))));
        all.add(new Message.Forward(0, 0, OpCode.CREATE_SESSION, 30_000, new byte[0], List.of()));
        all.add(new Message.Forward(-1, Integer.MIN_VALUE, OpCode.SET_DATA, -1, new byte[] {9, 8, 7},
                List.of(new Id("digest", "bob:hash=="), new Id("ip", "127.0.0.1"), new Id("", ""),
                        new Id(null, null))));
        all.add(new Message.SyncRequest(Long.MAX_VALUE, -1));
        all.add(new Message.SyncReply(1, 2, Long.MIN_VALUE));
        return all;
    }

    @Test
    void everyRecordTypeRoundTrips() throws IOException {
        java.util.Set<Class<?>> covered = new java.util.HashSet<>();
        for (Message m : samples()) {
            byte[] frame = MessageCodec.encode(m);
            Message back = MessageCodec.decode(frame, MAX);
            assertSame(m, back);
            assertArrayEquals(frame, MessageCodec.encode(back), "re-encoding " + m);
            covered.add(m.getClass());
        }
        assertEquals(Message.class.getPermittedSubclasses().length, covered.size(),
                "every Message record has a sample");
    }

    /** Records holding arrays compare by identity; compare them field by field. */
    private static void assertSame(Message m, Message back) {
        if (m instanceof Message.Snap s && back instanceof Message.Snap b) {
            assertEquals(s.zxid(), b.zxid());
            assertArrayEquals(s.snapshot(), b.snapshot());
        } else if (m instanceof Message.Forward f && back instanceof Message.Forward b) {
            assertEquals(List.of(f.sessionId(), f.cxid(), f.type(), f.timeoutMs(), idStrings(f.authIds())),
                    List.of(b.sessionId(), b.cxid(), b.type(), b.timeoutMs(), idStrings(b.authIds())));
            assertArrayEquals(f.packet(), b.packet());
        } else {
            assertEquals(m, back);
        }
    }

    /** Id.equals fails on a null scheme; "scheme:id" strings keep nulls visible. */
    private static List<String> idStrings(List<Id> ids) {
        return ids.stream().map(i -> i.getScheme() + ":" + i.getId()).toList();
    }

    @Test
    void everyTruncationIsRejectedWithAnIOException() {
        for (Message m : samples()) {
            byte[] frame = MessageCodec.encode(m);
            for (int len = 0; len < frame.length; len++) {
                byte[] cut = Arrays.copyOf(frame, len);
                IOException e = assertThrows(IOException.class, () -> MessageCodec.decode(cut, MAX),
                        m + " cut to " + len + " of " + frame.length + " bytes");
                assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("claims length")
                        || e.getMessage().contains("empty") || e.getMessage().contains("not a transaction"),
                        e.getMessage());
            }
        }
    }

    @Test
    void truncationNamesTypeAndField() {
        byte[] frame = MessageCodec.encode(new Message.Ack(1, 2));
        IOException e = assertThrows(IOException.class,
                () -> MessageCodec.decode(Arrays.copyOf(frame, 12), MAX));
        assertEquals("peer message type 10 truncated in field zxid: needs 8 bytes at offset 9, frame has 12",
                e.getMessage());
    }

    @Test
    void trailingBytesAreRejected() {
        byte[] frame = MessageCodec.encode(new Message.Commit(5));
        IOException e = assertThrows(IOException.class,
                () -> MessageCodec.decode(Arrays.copyOf(frame, frame.length + 1), MAX));
        assertTrue(e.getMessage().contains("1 trailing bytes"), e.getMessage());
    }

    @Test
    void unknownTypeIsRejected() {
        for (byte type : new byte[] {0, 18, -1, 127}) {
            IOException e = assertThrows(IOException.class,
                    () -> MessageCodec.decode(new byte[] {type, 0, 0, 0, 0, 0, 0, 0, 0}, MAX));
            assertTrue(e.getMessage().startsWith("unknown peer message type " + type), e.getMessage());
        }
    }

    @Test
    void badEnumAndBooleanValuesAreRejected() {
        byte[] notification = MessageCodec.encode(
                new Message.Notification(1, Message.ServerState.LEADING, 2, 3, 4));
        notification[9] = 4;
        IOException e = assertThrows(IOException.class, () -> MessageCodec.decode(notification, MAX));
        assertTrue(e.getMessage().contains("field state is 4"), e.getMessage());
        byte[] proposal = MessageCodec.encode(new Message.Proposal(
                new Txn(1, 0, 0, 0, OpCode.SET_DATA, new SetDataTxn("/x", new byte[0], 0)), true));
        proposal[proposal.length - 1] = 2;
        e = assertThrows(IOException.class, () -> MessageCodec.decode(proposal, MAX));
        assertTrue(e.getMessage().contains("field fast is 2"), e.getMessage());
    }

    /** Found by PeerMessageFuzzTest: a SNAP without a snapshot (or at a negative zxid) tripped Snapshot's assertion. */
    @Test
    void aSnapWithoutASnapshotIsRejected() {
        for (Message.Snap bad : new Message.Snap[] {new Message.Snap(5, new byte[0]), new Message.Snap(-1, new byte[] {1})}) {
            IOException e = assertThrows(IOException.class, () -> MessageCodec.decode(MessageCodec.encode(bad), MAX));
            assertTrue(e.getMessage().contains("not a snapshot"), e.getMessage());
        }
    }

    @Test
    void oversizeFramesAndLengthsAreRejected() {
        byte[] frame = MessageCodec.encode(new Message.Snap(1, new byte[100]));
        IOException e = assertThrows(IOException.class, () -> MessageCodec.decode(frame, 50));
        assertEquals("peer message of " + frame.length + " bytes exceeds the limit of 50", e.getMessage());
        // a length field that claims more than the frame holds, and a negative one
        byte[] lying = frame.clone();
        lying[9] = 0x7f;
        e = assertThrows(IOException.class, () -> MessageCodec.decode(lying, MAX));
        assertTrue(e.getMessage().contains("field snapshot claims length"), e.getMessage());
        lying[9] = (byte) 0xff;
        e = assertThrows(IOException.class, () -> MessageCodec.decode(lying, MAX));
        assertTrue(e.getMessage().contains("claims length -"), e.getMessage());
    }

    @Test
    void aProposalWithGarbageForATransactionIsRejected() {
        byte[] frame = {MessageCodec.PROPOSAL, 0, 0, 0, 3, 1, 2, 3, 0};
        IOException e = assertThrows(IOException.class, () -> MessageCodec.decode(frame, MAX));
        assertTrue(e.getMessage().contains("field txn (3 bytes) is not a transaction"), e.getMessage());
    }
}

package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.zab.Message;
import io.zabkit.zab.Message.Notification;
import io.zabkit.zab.Message.ServerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The election channel behaves as ZooKeeper's QuorumCnxManager does, as SimElectionChannel says. */
class SimElectionChannelTest {
    private final SimClock clock = new SimClock(10);
    private final Map<Integer, SimPeerNetwork.Peer> peers = new TreeMap<>();
    private final Set<Long> cut = new TreeSet<>();
    /** What each server received, as "from:round". */
    private final Map<Integer, List<String>> received = new TreeMap<>();

    private SimElectionChannel channel(double stallProbability, int connectTimeoutTicks, boolean crashedHostSilent) {
        for (int s = 1; s <= 3; s++) {
            up(s);
        }
        SimElectionChannel.Options o = new SimElectionChannel.Options(0.0, 0, stallProbability, 50, 0.0,
                connectTimeoutTicks, crashedHostSilent);
        return new SimElectionChannel(clock, new Prng(7), o, new Trace(clock, 10, null), new SimElectionChannel.Reach() {
            @Override
            public boolean up(int server) {
                return peers.containsKey(server);
            }

            @Override
            public boolean cut(int a, int b) {
                return cut.contains(((long) Math.min(a, b) << 16) | Math.max(a, b));
            }
        }, peers);
    }

    private void up(int server) {
        received.putIfAbsent(server, new ArrayList<>());
        peers.put(server, new SimPeerNetwork.Peer() {
            @Override
            public void peerMessage(long from, Message m) {
                received.get(server).add(from + ":" + ((Notification) m).electionEpoch());
            }

            @Override
            public void peerDisconnected(long peer) {
            }
        });
    }

    private static Notification vote(long round) {
        return new Notification(round, ServerState.LOOKING, 1, 0, 0);
    }

    private void ticks(SimElectionChannel c, int n) {
        for (int i = 0; i < n; i++) {
            clock.advance();
            c.deliver();
        }
    }

    @Test
    void aStallDelaysNotificationsButKeepsTheirOrder() {
        SimElectionChannel c = channel(1.0, 10, false);
        c.send(1, 2, vote(1));
        c.maybeBreakOrStall(); // every connection stalls, what is in flight with it
        c.send(1, 2, vote(2));
        ticks(c, 60);
        assertEquals(List.of("1:1", "1:2"), received.get(2));
    }

    @Test
    void aNewerNotificationReplacesOneNotYetWrittenAndTheLastWrittenIsResentOnANewConnection() {
        SimElectionChannel c = channel(0.0, 10, false);
        c.send(2, 1, vote(5)); // 2 -> 1 written: 2's last sent to 1
        ticks(c, 1);
        c.down(2); // refused at once from now on: a crashed process on a live host
        peers.remove(2);
        c.send(1, 2, vote(1));
        c.send(1, 2, vote(2));
        up(2);
        c.send(1, 2, vote(3)); // the slot held 2, replaced by 3; the connection opens
        ticks(c, 1);
        assertEquals(List.of("1:3"), received.get(2), "only the newest unsent notification goes");
        received.get(1).clear();
        c.partition(1, 2); // the connection breaks; 1's last written to 2 is round 3
        c.send(2, 1, vote(9)); // 2 restarted: a fresh process that has sent 1 nothing before
        ticks(c, 1);
        assertEquals(List.of("1:3", "1:3"), received.get(2), "1 re-sends its last notification on the new connection");
        assertEquals(List.of("2:9"), received.get(1));
    }

    @Test
    void aConnectToAHostThatDoesNotAnswerHoldsEverythingTheSenderQueuedBehindIt() {
        SimElectionChannel c = channel(0.0, 25, true);
        cut.add((1L << 16) | 3); // 3 is cut off from 1: nothing answers the connect
        c.send(1, 3, vote(1));
        c.send(1, 2, vote(1)); // behind the blocked connect in 1's send queue
        ticks(c, 24);
        assertTrue(received.get(2).isEmpty(), "the worker still waits out the connect timeout");
        ticks(c, 1);
        assertEquals(List.of("1:1"), received.get(2));
        assertTrue(received.get(3).isEmpty());
    }
}

package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The quorum port's admission rule, decided without sockets (the simulator's stray peers meet the same rule). */
class PeerAdmissionTest {
    private static InetAddress ip(int a, int d) throws Exception {
        return InetAddress.getByAddress(new byte[] {(byte) a, 0, 0, (byte) d});
    }

    private static Map<Long, InetSocketAddress> members() throws Exception {
        return Map.of(1L, new InetSocketAddress(ip(127, 1), 2888), 2L, new InetSocketAddress(ip(127, 2), 2888),
                3L, new InetSocketAddress(ip(127, 3), 2888));
    }

    @Test
    void aSmallerMemberFromItsOwnAddressIsAccepted() throws Exception {
        assertEquals(PeerAdmission.Verdict.ACCEPT, PeerAdmission.decide(3, 1, ip(127, 1), members(), true));
    }

    @Test
    void aClaimedIdFromAnotherAddressIsRefusedUnlessTheSwitchPlantsTheFinding() throws Exception {
        assertEquals(PeerAdmission.Verdict.WRONG_SOURCE, PeerAdmission.decide(3, 1, ip(10, 7), members(), true));
        assertEquals(PeerAdmission.Verdict.WRONG_SOURCE, PeerAdmission.decide(3, 1, ip(127, 2), members(), true));
        assertEquals(PeerAdmission.Verdict.WRONG_SOURCE, PeerAdmission.decide(3, 1, null, members(), true));
        assertEquals(PeerAdmission.Verdict.ACCEPT, PeerAdmission.decide(3, 1, ip(10, 7), members(), false));
    }

    @Test
    void nonMembersItselfAndLargerIdsAreRefusedWhateverTheAddress() throws Exception {
        assertEquals(PeerAdmission.Verdict.NOT_A_MEMBER, PeerAdmission.decide(3, 4, ip(127, 4), members(), false));
        assertEquals(PeerAdmission.Verdict.NOT_A_MEMBER, PeerAdmission.decide(3, 3, ip(127, 3), members(), false));
        assertEquals(PeerAdmission.Verdict.WE_CONNECT_TO_IT, PeerAdmission.decide(1, 3, ip(127, 3), members(), false));
    }
}

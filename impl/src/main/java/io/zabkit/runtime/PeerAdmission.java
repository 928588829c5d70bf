package io.zabkit.runtime;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Whether a link on the quorum port that says "I am server N" is taken as server N's link. One rule,
 * used by {@link PeerLinks} for every accepted link and by the simulator for the stray peers it
 * injects, so that what the simulator checks is what the server runs. Without authentication on the
 * quorum port the source address is all there is: a claimed id alone let a stray displace a member
 * (issue 23, finding 1; the class of CVE-2018-8012 and CVE-2023-44981).
 */
public final class PeerAdmission {
    /** The decision, with the reason a refusal is logged under. */
    public enum Verdict {
        ACCEPT("accepted"),
        NOT_A_MEMBER("not a server of this ensemble"),
        WE_CONNECT_TO_IT("this server connects to it, not the other way round"),
        WRONG_SOURCE("its server line names another address");

        public final String reason;

        Verdict(String reason) {
            this.reason = reason;
        }
    }

    private PeerAdmission() {}

    /**
     * @param myId        this server's id
     * @param claimedId   the id the link's handshake claims
     * @param source      the link's remote address (null when the OS no longer knows it)
     * @param members     every server's quorum address by id, this one's included
     * @param checkSource false only under the bug-zoo switch that re-plants the finding (the id alone decides)
     */
    public static Verdict decide(long myId, long claimedId, InetAddress source, Map<Long, InetSocketAddress> members,
            boolean checkSource) {
        assert members.containsKey(myId) : "this server " + myId + " is one of the members " + members.keySet();
        InetSocketAddress line = members.get(claimedId);
        if (line == null || claimedId == myId) {
            return Verdict.NOT_A_MEMBER;
        }
        if (myId < claimedId) {
            return Verdict.WE_CONNECT_TO_IT; // the smaller id connects (PeerLinks), so a link from a larger one is not its
        }
        if (checkSource && (line.isUnresolved() || source == null || !source.equals(line.getAddress()))) {
            return Verdict.WRONG_SOURCE;
        }
        return Verdict.ACCEPT;
    }
}

package io.zabkit.zab;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.util.List;

/**
 * The replicated state machine and its clients, as Zab sees them: the server core implements it.
 * Zab decides what is committed and when a server may serve; the replica applies and answers.
 */
public interface Replica {
    /** zxid of the last transaction applied to the data tree (spec: lastProcessed). */
    long lastProcessedZxid();

    /** Applies a committed transaction, next in zxid order, and answers whoever waits for it. */
    void deliver(Txn txn);

    /** The applied state as a snapshot, for SNAP. */
    Snapshot snapshotOfAppliedState();

    /** Replaces the applied state by the leader's (SNAP). */
    void install(Snapshot snapshot) throws IOException;

    /** Broadcast begins on this server: take clients. */
    void startServing(boolean leading);

    /** Broadcast ended (a new election): drop every client connection, with the reason for the log. */
    void stopServing(String why);

    /** Leader: turns a write a follower relayed into the transaction at zxid. */
    Txn prepareForwarded(Message.Forward forward, long zxid) throws IOException;

    /** Follower: the leader answered a client's sync: reply once everything up to zxid is applied. */
    void syncReplied(long sessionId, int cxid, long zxid);

    /** Leader: sessions a follower saw alive. */
    void sessionsAlive(List<Message.SessionTouch> touches);

    /** Follower: the sessions touched since the last ping, to relay to the leader. */
    List<Message.SessionTouch> drainTouchedSessions();
}

package io.zabkit.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SessionsTest {
    @Test
    void aCloseThatNeverCommittedDoesNotExemptItsSessionFromExpiryInTheNextTerm() {
        Sessions s = new Sessions(1, 7);
        s.applyCreate(42, 1_000, 0);
        s.markClosing(42); // this leader proposed closeSession(42); then it lost its quorum
        assertEquals(List.of(), s.expired(5_000), "a session being closed is not expired twice");
        s.forgetPipeline(); // it leads again: the old term's proposal is gone
        s.touchAll(5_000);
        assertEquals(List.of(), s.expired(5_999));
        assertEquals(List.of(42L), s.expired(6_000), "expired again, once its timeout passed");
        assertTrue(s.isActive(42));
    }

    @Test
    void aCreateThatNeverCommittedLeavesNoActiveSession() {
        Sessions s = new Sessions(1, 7);
        s.beginCreate(9);
        assertTrue(s.isActive(9), "requests may queue behind the connect");
        s.forgetPipeline();
        assertFalse(s.isActive(9));
    }
}

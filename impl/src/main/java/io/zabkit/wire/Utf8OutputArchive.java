package io.zabkit.wire;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.jute.BinaryOutputArchive;

/**
 * Jute's binary format with every string written as standard UTF-8, so that decoding what it writes
 * gives back the same string: a transaction's bytes are the same in the leader that built it, in the
 * log and in every follower that decodes its PROPOSAL.
 *
 * <p>ZooKeeper's BinaryOutputArchive encodes each UTF-16 char on its own, so a character outside the
 * Basic Multilingual Plane (4 bytes of UTF-8, a surrogate pair in Java) goes out as two 3-byte
 * surrogates (CESU-8), which its BinaryInputArchive (standard UTF-8) reads back as U+FFFD. Paths
 * cannot hold such characters (PathUtils refuses \ud800-\uf8ff), but ACL ids can: ZooKeeper's digest
 * provider only asks for one ':', and an addauth digest user name becomes the id. For every string
 * without surrogates both archives write the same bytes, so the wire and the log formats do not change
 * for anything ZooKeeper itself round-trips (JuteTest compares the two).
 */
public final class Utf8OutputArchive extends BinaryOutputArchive {
    public Utf8OutputArchive(OutputStream out) {
        super(new DataOutputStream(out));
    }

    @Override
    public void writeString(String s, String tag) throws IOException {
        if (s == null) {
            super.writeString(null, tag); // jute's null string: length -1
            return;
        }
        // a lone surrogate cannot come out of a decoder (UTF-8 decoding replaces it), and UTF-8 cannot carry it
        assert wellFormed(s) : "a string with a lone surrogate has no UTF-8 encoding: " + tag;
        writeBuffer(s.getBytes(StandardCharsets.UTF_8), tag); // a string is its bytes behind their length
    }

    /** Every high surrogate is followed by a low one and every low one follows a high one. */
    static boolean wellFormed(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}

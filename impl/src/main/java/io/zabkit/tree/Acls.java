package io.zabkit.tree;

import io.zabkit.wire.Err;
import io.zabkit.wire.ZkException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;

/**
 * ZooKeeper's access control: the world, auth, digest and ip schemes, and sasl when the server has SASL's
 * provider. A connection's identities are its ip plus whatever it proved with addauth or SASL; a node's
 * ACL grants permissions to identities.
 */
public final class Acls {
    private Acls() {}

    public static final int READ = 1;
    public static final int WRITE = 2;
    public static final int CREATE = 4;
    public static final int DELETE = 8;
    public static final int ADMIN = 16;
    public static final int ALL = READ | WRITE | CREATE | DELETE | ADMIN;

    public static final Id ANYONE = new Id("world", "anyone");
    public static final List<ACL> OPEN = List.of(new ACL(ALL, ANYONE));
    /** What ZooKeeper gives /zookeeper/config: readable by everyone. */
    public static final List<ACL> READ_ONLY = List.of(new ACL(READ, ANYONE));

    /** True when {@code acl} grants {@code perm} to one of {@code ids}. An empty ACL grants everything. */
    public static boolean permits(List<ACL> acl, int perm, List<Id> ids) {
        if (acl == null || acl.isEmpty()) {
            return true;
        }
        for (Id id : ids) {
            if (id.getScheme().equals("super")) {
                return true;
            }
        }
        for (ACL a : acl) {
            if ((a.getPerms() & perm) == 0) {
                continue;
            }
            Id granted = a.getId();
            if (granted.getScheme().equals("world") && granted.getId().equals("anyone")) {
                return true;
            }
            for (Id id : ids) {
                if (id.getScheme().equals(granted.getScheme()) && matches(id, granted)) {
                    return true;
                }
            }
        }
        return false;
    }

    public static void check(List<ACL> acl, int perm, List<Id> ids, String path) throws ZkException {
        if (!permits(acl, perm, ids)) {
            throw new ZkException(Err.NO_AUTH, path);
        }
    }

    private static boolean matches(Id have, Id granted) {
        if (have.getScheme().equals("ip")) {
            return ipMatches(have.getId(), granted.getId());
        }
        return have.getId().equals(granted.getId());
    }

    /** ip ACL ids are an address or address/bits (IPv4). */
    private static boolean ipMatches(String address, String pattern) {
        int slash = pattern.indexOf('/');
        if (slash < 0) {
            return address.equals(pattern);
        }
        long a = ipv4(address);
        long p = ipv4(pattern.substring(0, slash));
        int bits;
        try {
            bits = Integer.parseInt(pattern.substring(slash + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (a < 0 || p < 0 || bits < 0 || bits > 32) {
            return false;
        }
        long mask = bits == 0 ? 0 : (0xffffffffL << (32 - bits)) & 0xffffffffL;
        return (a & mask) == (p & mask);
    }

    private static long ipv4(String s) {
        String[] parts = s.split("\\.");
        if (parts.length != 4) {
            return -1;
        }
        long v = 0;
        for (String part : parts) {
            try {
                int octet = Integer.parseInt(part);
                if (octet < 0 || octet > 255) {
                    return -1;
                }
                v = (v << 8) | octet;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return v;
    }

    /**
     * The ACL a create or setACL stores: "auth" entries become the caller's authenticated identities,
     * and every entry must name a known scheme with a well-formed id (else InvalidACL, as in ZooKeeper).
     */
    public static List<ACL> fixup(List<ACL> acl, List<Id> ids, String path) throws ZkException {
        return fixup(acl, ids, path, java.util.Set.of());
    }

    /**
     * As {@link #fixup(List, List, String)}, knowing also {@code providerSchemes} (sasl, x509: in ZooKeeper,
     * those authProvider.N names).
     */
    public static List<ACL> fixup(List<ACL> acl, List<Id> ids, String path, java.util.Set<String> providerSchemes)
            throws ZkException {
        if (acl == null || acl.isEmpty()) {
            throw new ZkException(Err.INVALID_ACL, path + " (empty ACL)");
        }
        List<ACL> result = new ArrayList<>();
        for (ACL a : acl) {
            Id id = a.getId();
            if (id == null || id.getScheme() == null) {
                throw new ZkException(Err.INVALID_ACL, path + " (ACL entry without a scheme)");
            }
            // The auth scheme ignores its id, which may be null: kazoo sends "" as jute's null string,
            // and ZooKeeper accepts it. Any other scheme with a null id fails inside ZooKeeper's
            // validation, which answers MarshallingError; so does this server.
            if (id.getId() == null && !id.getScheme().equals("auth")) {
                throw new ZkException(Err.MARSHALLING_ERROR, path + " (" + id.getScheme() + " ACL entry without an id)");
            }
            switch (id.getScheme()) {
                case "world":
                    if (!id.getId().equals("anyone")) {
                        throw new ZkException(Err.INVALID_ACL, path + " (world scheme only knows 'anyone')");
                    }
                    addOnce(result, a);
                    break;
                case "auth": {
                    boolean any = false;
                    for (Id have : ids) {
                        if (isAuthenticated(have)) {
                            addOnce(result, new ACL(a.getPerms(), have));
                            any = true;
                        }
                    }
                    if (!any) {
                        throw new ZkException(Err.INVALID_ACL, path + " (auth scheme but no addauth identity)");
                    }
                    break;
                }
                case "digest":
                    if (id.getId().indexOf(':') <= 0) {
                        throw new ZkException(Err.INVALID_ACL, path + " (digest id must be user:hash)");
                    }
                    addOnce(result, a);
                    break;
                case "ip":
                    if (ipv4(id.getId().split("/", 2)[0]) < 0 && !id.getId().contains(":")) {
                        throw new ZkException(Err.INVALID_ACL, path + " (bad ip " + id.getId() + ")");
                    }
                    addOnce(result, a);
                    break;
                case "x509":
                    if (!providerSchemes.contains("x509")) {
                        throw new ZkException(Err.INVALID_ACL, path + " (unknown scheme x509: no X509 provider)");
                    }
                    if (!isX500Name(id.getId())) {
                        throw new ZkException(Err.INVALID_ACL, path + " (bad x509 id " + id.getId() + ")");
                    }
                    addOnce(result, a);
                    break;
                case "sasl":
                    if (!providerSchemes.contains("sasl")) {
                        throw new ZkException(Err.INVALID_ACL, path + " (unknown scheme sasl: no SASL provider)");
                    }
                    if (!isSaslName(id.getId())) {
                        throw new ZkException(Err.INVALID_ACL, path + " (bad sasl id " + id.getId() + ")");
                    }
                    addOnce(result, a);
                    break;
                default:
                    throw new ZkException(Err.INVALID_ACL, path + " (unknown scheme " + id.getScheme() + ")");
            }
        }
        return List.copyOf(result);
    }

    /**
     * ZooKeeper's SASL provider takes an id that parses as a Kerberos name: a simple name (no '/' or
     * '@'), or primary[/instance]@realm.
     */
    private static boolean isSaslName(String id) {
        return KERBEROS_NAME.matcher(id).matches() || (id.indexOf('/') < 0 && id.indexOf('@') < 0);
    }

    /** ZooKeeper's X509AuthenticationProvider takes an id that parses as an X.500 name. */
    private static boolean isX500Name(String id) {
        try {
            new javax.security.auth.x500.X500Principal(id);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static final java.util.regex.Pattern KERBEROS_NAME =
            java.util.regex.Pattern.compile("([^/@]*)(/([^/@]*))?@([^/@]*)");

    private static void addOnce(List<ACL> acl, ACL a) {
        if (!acl.contains(a)) {
            acl.add(a);
        }
    }

    /** ip identities come with the connection; only schemes proved with addauth count for the auth scheme. */
    private static boolean isAuthenticated(Id id) {
        return !id.getScheme().equals("ip");
    }

    /** addauth digest user:password proves the identity digest:user:base64(sha1(user:password)). */
    public static Id digestIdentity(byte[] auth) throws ZkException {
        String credentials = new String(auth, StandardCharsets.UTF_8);
        int colon = credentials.indexOf(':');
        if (colon <= 0) {
            throw new ZkException(Err.AUTH_FAILED, "digest credentials must be user:password");
        }
        return new Id("digest", digest(credentials));
    }

    /** user:base64(sha1(user:password)), the form digest ACLs store. */
    public static String digest(String userColonPassword) {
        String user = userColonPassword.substring(0, userColonPassword.indexOf(':'));
        try {
            byte[] sha = MessageDigest.getInstance("SHA1").digest(userColonPassword.getBytes(StandardCharsets.UTF_8));
            return user + ":" + Base64.getEncoder().encodeToString(sha);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA1", e);
        }
    }
}

package io.zabkit.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Value parsers that turn a bad value into an error naming the entry. */
final class Values {
    private Values() {}

    /** Decimal, or hex with 0x (as jute.maxbuffer is often written), within [min, max]. */
    static int integer(CfgFile.Entry e, long min, long max) throws ConfigException {
        long v;
        try {
            v = Long.decode(e.value());
        } catch (NumberFormatException x) {
            throw ConfigException.at(e, "not an integer");
        }
        if (v < min || v > max) {
            throw ConfigException.at(e, "must be between " + min + " and " + max);
        }
        return (int) v;
    }

    static boolean yesNo(CfgFile.Entry e) throws ConfigException {
        switch (e.value().toLowerCase(java.util.Locale.ROOT)) {
            case "yes": case "true": return true;
            case "no": case "false": return false;
            default: throw ConfigException.at(e, "must be yes or no");
        }
    }

    static int port(CfgFile.Entry e, String text) throws ConfigException {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException x) {
            // reported below
        }
        throw ConfigException.at(e, "'" + text + "' is not a port (1-65535)");
    }

    static InetAddress host(CfgFile.Entry e, String host) throws ConfigException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.isEmpty()) {
            throw ConfigException.at(e, "empty host");
        }
        try {
            return InetAddress.getByName(bare);
        } catch (UnknownHostException x) {
            throw ConfigException.at(e, "cannot resolve host '" + bare + "'");
        }
    }
}

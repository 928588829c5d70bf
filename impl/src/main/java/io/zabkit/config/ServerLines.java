package io.zabkit.config;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Parses {@code server.N} lines; IPv6 hosts go in brackets, as in ZooKeeper. */
final class ServerLines {
    static final String PREFIX = "server.";

    private ServerLines() {}

    static ServerAddress parse(CfgFile.Entry e) throws ConfigException {
        long id = serverId(e);
        String[] sides = e.value().split(";", -1);
        if (sides.length > 2) {
            throw ConfigException.at(e, "more than one ';'");
        }
        List<String> parts = splitHostPorts(e, sides[0]);
        if (parts.size() < 3 || parts.size() > 4) {
            throw ConfigException.at(e, "expected host:quorumPort:electionPort[:participant|observer]");
        }
        Values.host(e, parts.get(0));
        int quorumPort = Values.port(e, parts.get(1));
        int electionPort = Values.port(e, parts.get(2));
        boolean observer = false;
        if (parts.size() == 4) {
            if (!parts.get(3).equals("participant") && !parts.get(3).equals("observer")) {
                throw ConfigException.at(e, "role '" + parts.get(3) + "' is neither participant nor observer");
            }
            observer = parts.get(3).equals("observer");
        }
        InetSocketAddress client = sides.length == 2 ? clientAddress(e, sides[1].strip()) : null;
        return new ServerAddress(id, parts.get(0), quorumPort, electionPort, observer, client);
    }

    private static long serverId(CfgFile.Entry e) throws ConfigException {
        String text = e.key().substring(PREFIX.length());
        try {
            long id = Long.parseLong(text);
            if (id >= 1 && id <= 254) {
                return id;
            }
        } catch (NumberFormatException x) {
            // reported below
        }
        throw ConfigException.at(e, "server id '" + text + "' is not an integer from 1 to 254");
    }

    /** "[addr:]port"; a bare port listens on every interface, as in ZooKeeper. */
    static InetSocketAddress clientAddress(CfgFile.Entry e, String text) throws ConfigException {
        List<String> parts = splitHostPorts(e, text);
        if (parts.size() == 1) {
            return new InetSocketAddress(Values.port(e, parts.get(0)));
        }
        if (parts.size() != 2) {
            throw ConfigException.at(e, "client address '" + text + "' is not [host:]port");
        }
        return new InetSocketAddress(Values.host(e, parts.get(0)), Values.port(e, parts.get(1)));
    }

    /** Splits on ':' except inside a leading [IPv6] host. */
    private static List<String> splitHostPorts(CfgFile.Entry e, String text) throws ConfigException {
        List<String> parts = new ArrayList<>();
        String rest = text.strip();
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0) {
                throw ConfigException.at(e, "unclosed '[' in an IPv6 address");
            }
            parts.add(rest.substring(0, close + 1));
            rest = rest.substring(close + 1);
            if (!rest.startsWith(":")) {
                throw ConfigException.at(e, "expected ':' after the IPv6 address");
            }
            rest = rest.substring(1);
        }
        for (String p : rest.split(":", -1)) {
            parts.add(p.strip());
        }
        return parts;
    }
}

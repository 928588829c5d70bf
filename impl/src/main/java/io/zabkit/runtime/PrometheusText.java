package io.zabkit.runtime;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * mntr's lines in Prometheus' text exposition format. ZooKeeper's Prometheus provider names its figures
 * without mntr's "zk_" prefix (znode_count, watch_count, ...), so a dashboard built on ZooKeeper reads
 * zabkit's the same way; zabkit's own figures keep their zabkit_ prefix. Every figure is a gauge (mntr does
 * not say which are counters); zxids become numbers; a text value (the server state) becomes a label.
 */
final class PrometheusText {
    private PrometheusText() {}

    static String fromMntr(String mntr) {
        StringBuilder out = new StringBuilder();
        Set<String> seen = new LinkedHashSet<>();
        for (String line : mntr.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab <= 0) {
                continue;
            }
            String key = line.substring(0, tab);
            String value = line.substring(tab + 1).trim();
            String name = metricName(key);
            if (!seen.add(name)) {
                throw new IllegalStateException("mntr repeats " + key + "; a metric may appear once");
            }
            Double number = number(value);
            if (number != null) {
                gauge(out, name, "", number);
            } else if (key.equals("zk_version")) {
                gauge(out, "zabkit_version_info", "version=\"" + escape(value) + "\"", 1);
            } else {
                // zk_server_state, zk_peer_state: the state as a label of a gauge that is 1
                gauge(out, name, "state=\"" + escape(value) + "\"", 1);
            }
        }
        return out.toString();
    }

    /** zk_znode_count -> znode_count (ZooKeeper's Prometheus name); anything else sanitized as it is. */
    static String metricName(String mntrKey) {
        String name = mntrKey.startsWith("zk_") ? mntrKey.substring(3) : mntrKey;
        name = name.replaceAll("[^a-zA-Z0-9_]", "_");
        assert !name.isEmpty() && !Character.isDigit(name.charAt(0)) : "not a Prometheus name: " + name;
        return name;
    }

    static void gauge(StringBuilder out, String name, String labels, double value) {
        sample(out, name, "gauge", labels, value);
    }

    static void counter(StringBuilder out, String name, double value) {
        sample(out, name, "counter", "", value);
    }

    private static void sample(StringBuilder out, String name, String type, String labels, double value) {
        String typeLine = "# TYPE " + name + " " + type + "\n";
        if (out.indexOf(typeLine) < 0) { // one TYPE line per metric, before its first sample
            out.append(typeLine);
        }
        out.append(name);
        if (!labels.isEmpty()) {
            out.append('{').append(labels).append('}');
        }
        out.append(' ').append(format(value)).append('\n');
    }

    /** A number as mntr writes it (decimal, or a 0x zxid); null for text. */
    static Double number(String value) {
        try {
            if (value.startsWith("0x")) {
                return (double) Long.parseUnsignedLong(value.substring(2), 16);
            }
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}

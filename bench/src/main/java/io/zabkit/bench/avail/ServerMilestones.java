package io.zabkit.bench.avail;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.SystemUnderTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The servers' own account of a leader fault, from their logs: when the first survivor left its role
 * (LOOKING), when the new leader was elected, and when it finished synchronizing a quorum and served.
 * ZooKeeper 3.9 logs "Peer state changed: looking", "LEADING - LEADER ELECTION TOOK" and "Peer state
 * changed: leading - broadcast"; zabkit logs "LOOKING (...)", "LEADING (...)" and "leading epoch ...".
 * Times are ms since the fault; NaN where no such line follows the fault.
 */
record ServerMilestones(SystemUnderTest system, Fault fault, String client, int clients, double lookingMs,
        double electedMs, double servingMs) {

    private static final Pattern ZK_TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) ");
    private static final Pattern ZABKIT_TIME = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z) ");

    static ServerMilestones read(Ensemble e, Round r) throws IOException {
        double looking = Double.NaN;
        double elected = Double.NaN;
        double serving = Double.NaN;
        boolean zk = r.system() == SystemUnderTest.ZOOKEEPER;
        Pattern lookingLine = Pattern.compile(zk ? "Peer state changed: looking" : "\\bLOOKING \\(");
        Pattern electedLine = Pattern.compile(zk ? "LEADING - LEADER ELECTION TOOK" : "\\bLEADING \\(");
        Pattern servingLine = Pattern.compile(zk ? "Peer state changed: leading - broadcast" : "leading epoch \\d+");
        for (int id : e.ids()) {
            if (id == r.victim() || !Files.exists(e.logFile(id))) {
                continue;
            }
            for (String line : Files.readAllLines(e.logFile(id), StandardCharsets.ISO_8859_1)) {
                double t = msSinceFault(line, r.faultWallMs(), zk);
                if (Double.isNaN(t) || t < 0 || t > 120_000) {
                    continue;
                }
                if (lookingLine.matcher(line).find() && !(t >= looking)) {
                    looking = t;
                }
                if (id == r.newLeader() && electedLine.matcher(line).find() && Double.isNaN(elected)) {
                    elected = t;
                }
                if (id == r.newLeader() && servingLine.matcher(line).find() && Double.isNaN(serving)) {
                    serving = t;
                }
            }
        }
        return new ServerMilestones(r.system(), r.fault(), r.client(), r.clients(), looking, elected, serving);
    }

    /** The line's time minus the fault's, in ms; NaN for a line without a time stamp (a stack trace). */
    static double msSinceFault(String line, long faultWallMs, boolean zookeeperFormat) {
        Matcher m = (zookeeperFormat ? ZK_TIME : ZABKIT_TIME).matcher(line);
        if (!m.find()) {
            return Double.NaN;
        }
        long at;
        if (zookeeperFormat) { // local time of day only: the day of the fault, in this JVM's zone (same host)
            ZoneId zone = ZoneId.systemDefault();
            LocalDate day = Instant.ofEpochMilli(faultWallMs).atZone(zone).toLocalDate();
            at = LocalTime.parse(m.group(1)).atDate(day).atZone(zone).toInstant().toEpochMilli();
        } else {
            at = Instant.parse(m.group(1)).toEpochMilli();
        }
        return at - faultWallMs;
    }

    static List<String> header() {
        return List.of("system", "client", "fault", "clients", "looking_ms", "elected_ms", "serving_ms");
    }
}

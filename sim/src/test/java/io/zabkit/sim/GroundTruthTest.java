package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.zab.Variant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ground-truth side file names exactly the operations the history leaves open, and places each at a
 * zxid no acknowledged write holds, or :absent; across ensemble seeds with crashes both answers occur.
 */
class GroundTruthTest {
    private static final Pattern INDEX = Pattern.compile(":index (\\d+) :type :(\\w+) :process (\\S+) :f :([\\w-]+)");
    private static final Pattern ZXID = Pattern.compile(" :zxid (\\d+)");
    private static final Pattern ENTRY = Pattern.compile("(\\d+) (:absent|\\d+)");
    private static final Pattern SET_DATA_INVOKE = Pattern.compile(":type :invoke .* :f :set-data :value (\"[^\"]*\")");
    private static final Pattern READ = Pattern.compile(":type :ok .* :f :get-data :value (\"[^\"]*\").* :mzxid (\\d+)");

    @Test
    void truthKeysAreTheOpenOperationsAndZxidsNeverCollideWithAcknowledgedWrites(@TempDir Path dir) throws Exception {
        int placed = 0;
        int absent = 0;
        int seen = 0;
        // At least 12 seeds, and on until the cross-checks below have evidence (seed numbers shift whenever the
        // simulator draws a new fault), bounded so a vacuous run still fails rather than loops.
        for (long seed = 1; seed <= 12 || (seed <= 80 && (seen < 3 || placed == 0 || absent == 0)); seed++) {
            SimResult r = new Simulator(SimOptions.fromSeed(seed, 600, SimDisk.Mode.HONEST, 3, Variant.Zab), null, true)
                    .run();
            assertTrue(r.ok(), r.report());
            Path file = dir.resolve("s" + seed + ".edn");
            r.history().write(file);
            r.history().writeTruth(file, r.replayCommand());
            Map<Integer, String> truth = placements(Files.readString(History.truthFile(file)));
            List<String> lines = Files.readAllLines(file);
            Expected e = expected(lines);
            seen += readsAgreeWithTheTruth(lines, truth, seed);
            assertEquals(e.open, truth.keySet(), "seed " + seed + ": truth keys are not the open operations");
            for (Map.Entry<Integer, String> t : truth.entrySet()) {
                if (t.getValue().equals(":absent")) {
                    absent++;
                } else {
                    placed++;
                    assertFalse(e.okWriteZxids.contains(Long.parseLong(t.getValue())),
                            "seed " + seed + ": open op " + t.getKey() + " placed on an acknowledged write's zxid");
                }
            }
        }
        assertTrue(placed > 0 && absent > 0, "vacuous: placed " + placed + ", absent " + absent);
        assertTrue(seen > 0, "no read ever showed the value of an :info set-data: the cross-check is vacuous");
    }

    /**
     * Values are unique per write, so a read showing an :info set-data's value must find it placed, at the
     * read's mzxid; an :info set-data the truth calls absent is never read. Returns how many such reads.
     */
    private static int readsAgreeWithTheTruth(List<String> lines, Map<Integer, String> truth, long seed) {
        Map<String, String> infoValue = new HashMap<>();
        for (Map.Entry<Integer, String> t : truth.entrySet()) {
            Matcher m = SET_DATA_INVOKE.matcher(lines.get(t.getKey()));
            if (m.find()) {
                infoValue.put(m.group(1), t.getValue());
            }
        }
        int seen = 0;
        for (String line : lines) {
            Matcher r = READ.matcher(line);
            if (r.find() && infoValue.containsKey(r.group(1))) {
                seen++;
                assertEquals(infoValue.get(r.group(1)), r.group(2),
                        "seed " + seed + ": a read shows the :info write " + r.group(1) + " at mzxid " + r.group(2));
            }
        }
        return seen;
    }

    private record Expected(Set<Integer> open, Set<Long> okWriteZxids) {}

    /** Open: an :invoke of a write whose completion is :info or missing; a :session-expired without :zxid. */
    private static Expected expected(List<String> lines) {
        Set<String> writes = Set.of("create", "delete", "set-data", "multi", "close-session");
        Map<String, Integer> pendingByProcess = new HashMap<>();
        Set<Integer> open = new HashSet<>();
        Set<Long> okZxids = new HashSet<>();
        for (String line : lines) {
            Matcher m = INDEX.matcher(line);
            assertTrue(m.find(), line);
            int index = Integer.parseInt(m.group(1));
            String type = m.group(2);
            String f = m.group(4);
            Matcher z = ZXID.matcher(line);
            if (f.equals("session-expired") && !z.find()) {
                open.add(index);
            } else if (writes.contains(f) && type.equals("invoke")) {
                pendingByProcess.put(m.group(3), index);
            } else if (writes.contains(f)) {
                Integer invoke = pendingByProcess.remove(m.group(3));
                if (type.equals("info")) {
                    open.add(invoke);
                } else if (type.equals("ok") && z.find()) {
                    okZxids.add(Long.parseLong(z.group(1)));
                }
            }
        }
        open.addAll(pendingByProcess.values());
        return new Expected(open, okZxids);
    }

    private static Map<Integer, String> placements(String truth) {
        int start = truth.indexOf(":placements {") + ":placements {".length();
        String body = truth.substring(start, truth.indexOf('}', start));
        Map<Integer, String> m = new HashMap<>();
        Matcher e = ENTRY.matcher(body);
        while (e.find()) {
            m.put(Integer.parseInt(e.group(1)), e.group(2));
        }
        return m;
    }
}

package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** The EDN history a run writes follows the project's history format and Jepsen's process rules. */
class HistoryTest {
    private static final Pattern LINE = Pattern.compile(
            "^\\{:index (\\d+) :type :(invoke|ok|fail|info) :process (\\d+|:nemesis) :f :([a-zA-Z-]+) :value .* :time (\\d+).*}$");

    @Test
    void historyLinesAreWellFormedAndEveryInvokeCompletesOnItsProcess(@TempDir Path dir) throws Exception {
        SimOptions options = SimOptions.fromSeed(5, 300, SimDisk.Mode.HONEST).withCrashes(0.01, 20);
        SimResult r = new Simulator(options, null, true).run();
        assertTrue(r.ok(), r.report());
        Path file = dir.resolve("h.edn");
        r.history().write(file);
        List<String> lines = Files.readAllLines(file);
        assertTrue(lines.size() > 100, "history too short: " + lines.size());
        Map<String, String> open = new HashMap<>();
        Set<String> retired = new HashSet<>();
        Set<String> kinds = new HashSet<>();
        long lastTime = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = LINE.matcher(lines.get(i));
            assertTrue(m.matches(), "not a history line: " + lines.get(i));
            assertEquals(i, Integer.parseInt(m.group(1)), "indexes count lines");
            long time = Long.parseLong(m.group(5));
            assertTrue(time >= lastTime, "time goes back at " + lines.get(i));
            lastTime = time;
            String type = m.group(2);
            String process = m.group(3);
            String f = m.group(4);
            kinds.add(f);
            if (process.equals(":nemesis") || f.equals("watch-event") || f.equals("connect")
                    || f.equals("session-expired")) {
                continue;
            }
            if (type.equals("invoke")) {
                assertNull(open.put(process, f), "process " + process + " has two ops outstanding: " + lines.get(i));
                assertTrue(!retired.contains(process), "retired process " + process + " reused: " + lines.get(i));
            } else {
                assertEquals(open.remove(process), f, "completion without its invoke: " + lines.get(i));
                if (type.equals("info")) {
                    retired.add(process);
                }
            }
        }
        assertTrue(open.isEmpty(), "ops never completed: " + open);
        for (String f : List.of("create", "set-data", "get-data", "NodeCrash", "NodeStart")) {
            assertNotNull(kinds.contains(f) ? f : null, "history has no :" + f + " op; kinds seen: " + kinds);
        }
    }
}

package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper's two documented watch behaviours across a reconnect (SetWatches), each on the campaign history that
 * showed it (minimised, in test resources), and the other side of each rule: without the reconnect, or with an
 * outcome SetWatches cannot give, the same history is a WatchOrdering violation.
 */
class WatchReconnectRulesTest {
  private static List<String> lines(String name) throws Exception {
    Path p = Path.of(WatchReconnectRulesTest.class.getResource("/histories/" + name).toURI());
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(p)) if (!l.isBlank() && !l.startsWith(";")) out.add(l);
    return out;
  }

  private static Result check(List<String> lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return new ZkChecker().check(History.of(ops));
  }

  private static List<String> without(List<String> lines, String needle) {
    List<String> out = new ArrayList<>();
    for (String l : lines) if (!l.contains(needle)) out.add(l);
    assertEquals(lines.size() - 1, out.size(), "exactly one line holds " + needle);
    return out;
  }

  private static void assertWatchViolation(Result r) {
    assertEquals(List.of(Property.WatchOrdering), r.failed(), r.table());
  }

  @Test
  void anExistWatchIsMissedWhenTheNodeCameAndWentWhileDisconnected() throws Exception {
    List<String> h = lines("watch-missed-exists-across-reconnect.edn");
    Result r = check(h);
    assertTrue(r.valid(), r.table());
    // without the reconnect the session was connected all along: the create at 0x300000005 was due before the reply
    assertWatchViolation(check(without(h, ":f :connect")));
    // the node still exists at the first reply after the reconnect: SetWatches (or the re-added watch) fired
    List<String> kept = new ArrayList<>(h);
    kept.removeIf(l -> l.matches(".*:index (15|16|19|20|21) .*")); // the last delete (and what follows) never happened
    kept.replaceAll(l -> l.contains(":index 18 ") ? l.replace(":value false", ":value true") : l);
    assertWatchViolation(check(kept));
  }

  @Test
  void setWatchesReportsTheNodesStateAtTheReconnect() throws Exception {
    List<String> h = lines("watch-set-watches-reports-state-at-reconnect.edn");
    Result r = check(h);
    assertTrue(r.valid(), r.table());
    // without the reconnect the first change after the watch (the delete at 0x200000074) decides the type
    assertWatchViolation(check(without(h, ":f :connect")));
    // a data watch is never reported as NodeCreated, reconnect or not
    List<String> created = new ArrayList<>(h);
    created.replaceAll(l -> l.replace(":event :node-data-changed", ":event :node-created"));
    assertWatchViolation(check(created));
  }
}

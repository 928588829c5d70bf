package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The child log answers "which children at zxid z" from checkpoints plus a tail of changes; a plain replay of every
 * change up to z is the reference. Enough changes to cross many checkpoints, several changes per zxid (a multi, a
 * session end), and the zxids between and beyond the changes.
 */
class ChildLogTest {
  private record Change(long zxid, String name, boolean add) {}

  @Test
  void childrenAtEveryZxidMatchAReplayOfTheChanges() {
    Random rnd = new Random(7);
    ModelTree.ChildLog log = new ModelTree.ChildLog();
    List<Change> applied = new ArrayList<>();
    TreeSet<String> live = new TreeSet<>();
    long zxid = 10;
    for (int i = 0; i < 20 * ModelTree.ChildLog.CHECKPOINT_CHANGES; i++) {
      zxid += rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(3); // some zxids carry several changes
      String name = "n" + rnd.nextInt(40);
      boolean add = !live.contains(name);
      log.change(zxid, name, add);
      applied.add(new Change(zxid, name, add));
      if (add) live.add(name);
      else live.remove(name);
    }
    int compared = 0;
    for (long z = 0; z <= zxid + 2; z++) {
      assertEquals(replay(applied, z), log.at(z), "children at zxid " + z);
      compared++;
    }
    assertTrue(compared > 2 * applied.size() / 3, "the zxids compared cover the changes");
  }

  @Test
  void aChangeThatChangesNothingIsNotRecorded() {
    ModelTree.ChildLog log = new ModelTree.ChildLog();
    log.change(5, "a", true);
    log.change(6, "a", true); // already there
    log.change(7, "b", false); // never there
    assertEquals(new TreeSet<>(List.of("a")), log.at(7));
    assertTrue(log.at(4).isEmpty(), "nothing before the first change");
  }

  private static SortedSet<String> replay(List<Change> changes, long zxid) {
    TreeSet<String> out = new TreeSet<>();
    for (Change c : changes) {
      if (c.zxid() > zxid) break;
      if (c.add()) out.add(c.name());
      else out.remove(c.name());
    }
    return out;
  }
}

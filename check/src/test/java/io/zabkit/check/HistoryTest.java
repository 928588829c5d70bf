package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {
  @TempDir Path dir;

  @Test
  void fileStreamsOperationsSkippingBlankAndCommentLines() throws IOException {
    Path f = dir.resolve("h.edn");
    Files.writeString(f, "; a comment\n{:type :invoke, :process 0, :f :read, :time 1}\n\n{:type :ok, :process 0, :f :read, :value 3, :time 2, :zxid 7}\n");
    List<Op> ops = new ArrayList<>();
    History.file(f).forEach(ops::add);
    assertEquals(2, ops.size());
    assertEquals(1, ops.get(1).index());
    assertEquals(7L, ops.get(1).zxid());
    assertEquals(3L, ops.get(1).value());
  }

  @Test
  void jepsenVectorFormIsAccepted() throws IOException {
    Path f = dir.resolve("history.edn");
    Files.writeString(f, "[{:type :invoke, :process 0, :f :write, :value 1, :time 1}\n {:type :ok, :process 0, :f :write, :value 1, :time 2}]\n");
    List<Op> ops = new ArrayList<>();
    History.file(f).forEach(ops::add);
    assertEquals(2, ops.size());
  }

  @Test
  void badLineNamesFileLineAndField() throws IOException {
    Path f = dir.resolve("bad.edn");
    Files.writeString(f, "{:type :invoke, :process 0, :f :read}\n{:type :ok, :process \"p\", :f :read}\n");
    History.BadLineException e = assertThrows(History.BadLineException.class, () -> History.file(f).forEach(o -> {}));
    assertTrue(e.getMessage().contains("bad.edn:2") && e.getMessage().contains(":process"), e.getMessage());
  }

  @Test
  void pairingErrorsAreSpecific() {
    List<Op> twice = List.of(op("{:index 0 :type :invoke :process 1 :f :read}"), op("{:index 1 :type :invoke :process 1 :f :read}"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ZkChecker().check(History.of(twice)));
    assertTrue(e.getMessage().contains("still open"), e.getMessage());
    List<Op> orphan = List.of(op("{:index 0 :type :ok :process 1 :f :read}"));
    e = assertThrows(IllegalArgumentException.class, () -> new ZkChecker().check(History.of(orphan)));
    assertTrue(e.getMessage().contains("without an open :invoke"), e.getMessage());
  }

  static Op op(String edn) {
    return Op.fromEdn(Edn.read(edn), 0);
  }
}

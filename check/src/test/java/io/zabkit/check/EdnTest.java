package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EdnTest {
  @Test
  void readsTheSubsetHistoriesUse() {
    Object v = Edn.read("{:a 1, :b -2 :c \"x\\\"y\\n\" :d [1 2 (3)] :e nil :f true :g #{:k} :h 1.5 :i sym ; comment\n}");
    Map<?, ?> m = (Map<?, ?>) v;
    assertEquals(1L, m.get(Keyword.of("a")));
    assertEquals(-2L, m.get(Keyword.of("b")));
    assertEquals("x\"y\n", m.get(Keyword.of("c")));
    assertEquals(List.of(1L, 2L, List.of(3L)), m.get(Keyword.of("d")));
    assertTrue(m.containsKey(Keyword.of("e")));
    assertNull(m.get(Keyword.of("e")));
    assertEquals(Boolean.TRUE, m.get(Keyword.of("f")));
    assertEquals(Set.of(Keyword.of("k")), m.get(Keyword.of("g")));
    assertEquals(1.5, m.get(Keyword.of("h")));
    assertEquals(new Edn.Symbol("sym"), m.get(Keyword.of("i")));
  }

  @Test
  void numbersParseAtTheirLimits() {
    assertEquals(List.of(Long.MAX_VALUE, Long.MIN_VALUE, 0L, -7L, 12L, 2.5e3), Edn.read("[9223372036854775807 -9223372036854775808 0 -7 12N 2.5e3]"));
    assertThrows(Edn.ParseException.class, () -> Edn.read("99999999999999999999"));
  }

  @Test
  void taggedLiteralReadsAsItsValue() {
    Map<?, ?> m = (Map<?, ?>) Edn.read("#jepsen.history.Op{:index 3, :type :ok}");
    assertEquals(3L, m.get(Keyword.of("index")));
    assertEquals(Keyword.of("ok"), m.get(Keyword.of("type")));
  }

  @Test
  void writerRoundTrips() {
    String line = "{:index 0, :type :invoke, :value {:data \"a\\\\b\\\"c\", :mode :ephemeral}, :v [1 -2 nil true]}";
    Object v = Edn.read(line);
    assertEquals(line, Edn.write(v));
    assertEquals(v, Edn.read(Edn.write(v)));
  }

  @Test
  void malformedInputNamesWhereItStopped() {
    Edn.ParseException e = assertThrows(Edn.ParseException.class, () -> Edn.read("{:a 1"));
    assertTrue(e.getMessage().contains("missing '}'"), e.getMessage());
    assertThrows(Edn.ParseException.class, () -> Edn.read("\"open"));
    assertThrows(Edn.ParseException.class, () -> Edn.read("{:a}"));
    assertThrows(Edn.ParseException.class, () -> Edn.read("[1] 2"));
  }
}

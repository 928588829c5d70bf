package io.zabkit.check;

import java.util.Map;

/** Writes a results map with one top-level key per line, the way Jepsen's results.edn reads. */
final class EdnPretty {
  private EdnPretty() {}

  static String results(Map<Object, Object> m) {
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<Object, Object> e : m.entrySet()) {
      if (!first) b.append(",\n ");
      first = false;
      Edn.write(e.getKey(), b);
      b.append(' ');
      Edn.write(e.getValue(), b);
    }
    return b.append("}\n").toString();
  }
}

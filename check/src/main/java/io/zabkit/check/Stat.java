package io.zabkit.check;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A znode's Stat as a reply returned it. Every field is nullable: producers write only what they know, and the
 * checkers compare only the fields that are present.
 */
public record Stat(
    Long czxid,
    Long mzxid,
    Long pzxid,
    Long ctime,
    Long mtime,
    Long version,
    Long cversion,
    Long aversion,
    Long ephemeralOwner,
    Long dataLength,
    Long numChildren) {

  static final String[] KEYS = {
    "czxid", "mzxid", "pzxid", "ctime", "mtime", "version", "cversion", "aversion", "ephemeral-owner",
    "data-length", "num-children"
  };
  private static final Keyword[] KEYWORDS = new Keyword[KEYS.length];

  static {
    for (int i = 0; i < KEYS.length; i++) KEYWORDS[i] = Keyword.of(KEYS[i]);
  }

  /** Reads the EDN map form; unknown keys are an error so that a typo does not silently disable a check. */
  public static Stat fromEdn(Object o) {
    if (o == null) return null;
    if (!(o instanceof Map<?, ?> m)) throw new IllegalArgumentException(":stat must be a map, got " + Edn.write(o));
    Long[] f = new Long[KEYS.length];
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(e.getKey() instanceof Keyword k)) throw new IllegalArgumentException(":stat key must be a keyword");
      int i = indexOf(k);
      if (i < 0) throw new IllegalArgumentException("unknown :stat field :" + k.name());
      Object v = e.getValue();
      if (v != null && !(v instanceof Long)) throw new IllegalArgumentException(":stat :" + k.name() + " must be an integer");
      f[i] = (Long) v;
    }
    return new Stat(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]);
  }

  private static int indexOf(Keyword k) {
    for (int i = 0; i < KEYWORDS.length; i++) if (KEYWORDS[i] == k) return i;
    return -1;
  }

  Long[] fields() {
    return new Long[] {czxid, mzxid, pzxid, ctime, mtime, version, cversion, aversion, ephemeralOwner, dataLength, numChildren};
  }

  public Map<Object, Object> toEdn() {
    Map<Object, Object> m = new LinkedHashMap<>();
    Long[] f = fields();
    for (int i = 0; i < KEYS.length; i++) if (f[i] != null) m.put(Keyword.of(KEYS[i]), f[i]);
    return m;
  }

  public Stat withMzxid(Long z) {
    return new Stat(czxid, z, pzxid, ctime, mtime, version, cversion, aversion, ephemeralOwner, dataLength, numChildren);
  }

  public Stat withVersion(Long v) {
    return new Stat(czxid, mzxid, pzxid, ctime, mtime, v, cversion, aversion, ephemeralOwner, dataLength, numChildren);
  }
}

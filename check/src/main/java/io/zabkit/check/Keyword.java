package io.zabkit.check;

import java.util.concurrent.ConcurrentHashMap;

/** An EDN keyword such as {@code :ok}. Interned, so keywords compare with {@code ==} as well as equals. */
public final class Keyword {
  private static final ConcurrentHashMap<String, Keyword> INTERNED = new ConcurrentHashMap<>();

  private final String name;

  private Keyword(String name) {
    this.name = name;
  }

  /** The keyword with this name (without the leading colon). */
  public static Keyword of(String name) {
    Keyword k = INTERNED.get(name);
    return k != null ? k : INTERNED.computeIfAbsent(name, Keyword::new);
  }

  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return ":" + name;
  }
}

package io.zabkit.check;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of a history: an invocation or a completion (see check/README.md for every field).
 *
 * @param index 0-based position in the history
 * @param process client process, or {@link #NEMESIS}
 * @param f operation name without the colon, e.g. "set-data"
 * @param session ZooKeeper session id, null when unknown
 * @param version expected version of a conditional write (-1 = any), null when absent
 * @param zxid zxid in the reply header (for a watch event: the zxid of the change)
 * @param error ZooKeeper error keyword name, e.g. "bad-version"
 * @param watch true when the read registered a watch
 */
public record Op(
    long index,
    Type type,
    int process,
    String f,
    Object value,
    long time,
    Long session,
    String path,
    Long version,
    Long zxid,
    Stat stat,
    String error,
    boolean watch) {

  public static final int NEMESIS = -1;
  private static final Keyword K_INDEX = Keyword.of("index");
  private static final Keyword K_TYPE = Keyword.of("type");
  private static final Keyword K_PROCESS = Keyword.of("process");
  private static final Keyword K_F = Keyword.of("f");
  private static final Keyword K_TIME = Keyword.of("time");
  private static final Keyword K_PATH = Keyword.of("path");
  private static final Keyword K_ERROR = Keyword.of("error");
  private static final Keyword K_WATCH = Keyword.of("watch");
  private static final Keyword K_VALUE = Keyword.of("value");
  private static final Keyword K_SESSION = Keyword.of("session");
  private static final Keyword K_VERSION = Keyword.of("version");
  private static final Keyword K_ZXID = Keyword.of("zxid");
  private static final Keyword K_STAT = Keyword.of("stat");
  private static final Keyword K_NEMESIS = Keyword.of("nemesis");

  public enum Type {
    INVOKE, OK, FAIL, INFO;

    public Keyword keyword() {
      return Keyword.of(name().toLowerCase());
    }
  }

  public boolean isInvoke() {
    return type == Type.INVOKE;
  }

  /** Parses the map of one history line. Throws IllegalArgumentException naming the bad field. */
  public static Op fromEdn(Object parsed, long defaultIndex) {
    if (!(parsed instanceof Map<?, ?> m)) throw new IllegalArgumentException("an operation must be an EDN map");
    Long index = optLong(m, K_INDEX);
    Object t = req(m, K_TYPE);
    Type type = switch (t instanceof Keyword k ? k.name() : "") {
      case "invoke" -> Type.INVOKE;
      case "ok" -> Type.OK;
      case "fail" -> Type.FAIL;
      case "info" -> Type.INFO;
      default -> throw new IllegalArgumentException(":type must be :invoke, :ok, :fail or :info, got " + Edn.write(t));
    };
    Object p = req(m, K_PROCESS);
    int process;
    if (p instanceof Long l) process = Math.toIntExact(l);
    else if (p instanceof Keyword k && k.name().equals("nemesis")) process = NEMESIS;
    else throw new IllegalArgumentException(":process must be an integer or :nemesis, got " + Edn.write(p));
    Object fo = req(m, K_F);
    if (!(fo instanceof Keyword fk)) throw new IllegalArgumentException(":f must be a keyword, got " + Edn.write(fo));
    Long time = optLong(m, K_TIME);
    Object path = m.get(K_PATH);
    if (path != null && !(path instanceof String)) throw new IllegalArgumentException(":path must be a string");
    Object err = m.get(K_ERROR);
    String error = err == null ? null : err instanceof Keyword ek ? ek.name() : Edn.write(err);
    Object w = m.get(K_WATCH);
    return new Op(
        index != null ? index : defaultIndex,
        type,
        process,
        fk.name(),
        m.get(K_VALUE),
        time != null ? time : 0L,
        optLong(m, K_SESSION),
        (String) path,
        optLong(m, K_VERSION),
        optLong(m, K_ZXID),
        Stat.fromEdn(m.get(K_STAT)),
        error,
        Boolean.TRUE.equals(w));
  }

  private static Object req(Map<?, ?> m, Keyword key) {
    Object v = m.get(key);
    if (v == null) throw new IllegalArgumentException("missing " + key);
    return v;
  }

  private static Long optLong(Map<?, ?> m, Keyword key) {
    Object v = m.get(key);
    if (v == null) return null;
    if (!(v instanceof Long l)) throw new IllegalArgumentException(key + " must be an integer, got " + Edn.write(v));
    return l;
  }

  /** The EDN map form, keys in the documented order, absent fields omitted. */
  public Map<Object, Object> toEdn() {
    Map<Object, Object> m = new LinkedHashMap<>();
    m.put(K_INDEX, index);
    m.put(K_TYPE, type.keyword());
    m.put(K_PROCESS, process == NEMESIS ? K_NEMESIS : (Object) (long) process);
    m.put(K_F, Keyword.of(f));
    m.put(K_VALUE, value);
    m.put(K_TIME, time);
    if (session != null) m.put(K_SESSION, session);
    if (path != null) m.put(K_PATH, path);
    if (version != null) m.put(K_VERSION, version);
    if (watch) m.put(K_WATCH, true);
    if (zxid != null) m.put(K_ZXID, zxid);
    if (stat != null) m.put(K_STAT, stat.toEdn());
    if (error != null) m.put(K_ERROR, Keyword.of(error));
    return m;
  }

  public String toEdnLine() {
    return Edn.write(toEdn());
  }

  public Op withIndex(long i) {
    return new Op(i, type, process, f, value, time, session, path, version, zxid, stat, error, watch);
  }

  public Op withValue(Object v) {
    return new Op(index, type, process, f, v, time, session, path, version, zxid, stat, error, watch);
  }

  public Op withStat(Stat s) {
    return new Op(index, type, process, f, value, time, session, path, version, zxid, s, error, watch);
  }

  public Op withZxid(Long z) {
    return new Op(index, type, process, f, value, time, session, path, version, z, stat, error, watch);
  }

  public Op withTime(long t) {
    return new Op(index, type, process, f, value, t, session, path, version, zxid, stat, error, watch);
  }

  public Op withTypeError(Type t, String e) {
    return new Op(index, t, process, f, value, time, session, path, version, zxid, stat, e, watch);
  }

  /** A short human form for verdicts: index, process, session, f, path, outcome. */
  public String brief() {
    StringBuilder b = new StringBuilder();
    b.append('#').append(index).append(' ').append(type.name().toLowerCase()).append(" p").append(process == NEMESIS ? "nemesis" : process);
    if (session != null) b.append(" s").append(Long.toHexString(session));
    b.append(" :").append(f);
    if (path != null) b.append(' ').append(path);
    if (value != null) {
      String v = Edn.write(value);
      b.append(' ').append(v.length() > 60 ? v.substring(0, 57) + "..." : v);
    }
    if (zxid != null) b.append(" zxid=0x").append(Long.toHexString(zxid));
    if (error != null) b.append(" :").append(error);
    return b.toString();
  }
}

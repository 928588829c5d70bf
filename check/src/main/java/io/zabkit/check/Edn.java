package io.zabkit.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reader and writer for the subset of EDN that histories use: nil, booleans, integers, floats, strings,
 * keywords, symbols (read as {@link Symbol}), vectors and lists (read as {@link List}), maps (read as
 * insertion-ordered {@link Map}) and sets. Commas are whitespace, {@code ;} starts a comment, and a tagged
 * literal ({@code #tag value}) reads as its value, so Jepsen's {@code #jepsen.history.Op{...}} records read as maps.
 * No Clojure dependency: one line of a history parses in about a microsecond.
 */
public final class Edn {
  private Edn() {}

  /** A symbol (a bare word that is not nil, true or false). */
  public record Symbol(String name) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Malformed EDN, with the character offset where reading stopped. */
  public static final class ParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public final int offset;

    ParseException(String message, int offset) {
      super(message + " at character " + (offset + 1));
      this.offset = offset;
    }
  }

  /** Parses exactly one EDN value from {@code text} (surrounding whitespace and comments allowed). */
  public static Object read(String text) {
    Reader r = new Reader(text);
    r.skipSpace();
    if (r.pos >= text.length()) throw new ParseException("no EDN value", r.pos);
    Object v = r.value();
    r.skipSpace();
    if (r.pos < text.length()) throw new ParseException("unexpected text after the value", r.pos);
    return v;
  }

  /** True when the line holds no value (blank or only a comment). */
  public static boolean isBlank(String line) {
    Reader r = new Reader(line);
    r.skipSpace();
    return r.pos >= line.length();
  }

  private static final Keyword[] KEYWORD_CACHE = new Keyword[1024];

  private static boolean isDelimiter(char c) {
    return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r' || c == '{' || c == '}' || c == '[' || c == ']'
        || c == '(' || c == ')' || c == '"' || c == ';';
  }

  private static final class Reader {
    final String s;
    int pos;

    Reader(String s) {
      this.s = s;
    }

    void skipSpace() {
      while (pos < s.length()) {
        char c = s.charAt(pos);
        if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r') pos++;
        else if (c == ';') {
          while (pos < s.length() && s.charAt(pos) != '\n') pos++;
        } else break;
      }
    }

    Object value() {
      if (pos >= s.length()) throw new ParseException("unexpected end of input", pos);
      char c = s.charAt(pos);
      switch (c) {
        case '{':
          pos++;
          return map();
        case '[':
          pos++;
          return seq(']');
        case '(':
          pos++;
          return seq(')');
        case '"':
          pos++;
          return string();
        case ':':
          pos++;
          return keyword();
        case '#':
          return dispatch();
        default:
          if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
            if (c >= '0' && c <= '9' || (pos + 1 < s.length() && Character.isDigit(s.charAt(pos + 1)))) {
              return number();
            }
          }
          int start = pos;
          String t = token();
          if (t.isEmpty()) throw new ParseException("unexpected character '" + c + "'", start);
          switch (t) {
            case "nil":
              return null;
            case "true":
              return Boolean.TRUE;
            case "false":
              return Boolean.FALSE;
            default:
              return new Symbol(t);
          }
      }
    }

    Object dispatch() {
      int start = pos;
      pos++;
      if (pos < s.length() && s.charAt(pos) == '{') {
        pos++;
        return new HashSet<>(seq('}'));
      }
      if (pos < s.length() && s.charAt(pos) == '_') {
        pos++;
        skipSpace();
        value();
        skipSpace();
        return value();
      }
      String tag = token();
      if (tag.isEmpty()) throw new ParseException("bad dispatch character after '#'", start);
      skipSpace();
      return value(); // tagged literal: keep the value, drop the tag
    }

    String token() {
      int start = pos;
      while (pos < s.length()) {
        char c = s.charAt(pos);
        if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r' || c == '{' || c == '}' || c == '['
            || c == ']' || c == '(' || c == ')' || c == '"' || c == ';') break;
        pos++;
      }
      return s.substring(start, pos);
    }

    /** Keywords repeat on every line: look them up by their characters without making a String first. */
    Keyword keyword() {
      int start = pos;
      int h = 0;
      while (pos < s.length()) {
        char c = s.charAt(pos);
        if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r' || c == '{' || c == '}' || c == '['
            || c == ']' || c == '(' || c == ')' || c == '"' || c == ';') break;
        h = 31 * h + c;
        pos++;
      }
      int len = pos - start;
      int slot = (h ^ (h >>> 16)) & (KEYWORD_CACHE.length - 1);
      Keyword k = KEYWORD_CACHE[slot];
      if (k != null && k.name().length() == len && s.regionMatches(start, k.name(), 0, len)) return k;
      k = Keyword.of(s.substring(start, pos));
      KEYWORD_CACHE[slot] = k; // a racy cache of interned values: any hit is correct
      return k;
    }

    Object number() {
      int start = pos;
      long v = 0;
      boolean neg = false;
      int i = pos;
      if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
        neg = s.charAt(i) == '-';
        i++;
      }
      int digits = 0;
      while (i < s.length() && digits < 18) {
        char c = s.charAt(i);
        if (c < '0' || c > '9') break;
        v = v * 10 + (c - '0');
        i++;
        digits++;
      }
      if (digits > 0 && (i >= s.length() || isDelimiter(s.charAt(i)))) {
        pos = i;
        return neg ? -v : v;
      }
      String t = token();
      try {
        if (t.endsWith("N")) t = t.substring(0, t.length() - 1);
        if (t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0 || t.endsWith("M")) {
          return Double.parseDouble(t.endsWith("M") ? t.substring(0, t.length() - 1) : t);
        }
        return Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
      } catch (NumberFormatException e) {
        throw new ParseException("bad number '" + t + "'", start);
      }
    }

    String string() {
      int start = pos - 1;
      StringBuilder b = null;
      int runStart = pos;
      while (true) {
        if (pos >= s.length()) throw new ParseException("unterminated string", start);
        char c = s.charAt(pos);
        if (c == '"') {
          String out = b == null ? s.substring(runStart, pos) : b.append(s, runStart, pos).toString();
          pos++;
          return out;
        }
        if (c == '\\') {
          if (b == null) b = new StringBuilder();
          b.append(s, runStart, pos);
          pos++;
          if (pos >= s.length()) throw new ParseException("unterminated string", start);
          char e = s.charAt(pos++);
          switch (e) {
            case 'n' -> b.append('\n');
            case 't' -> b.append('\t');
            case 'r' -> b.append('\r');
            case '"' -> b.append('"');
            case '\\' -> b.append('\\');
            case 'u' -> {
              if (pos + 4 > s.length()) throw new ParseException("bad \\u escape", pos);
              b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
              pos += 4;
            }
            default -> throw new ParseException("bad escape '\\" + e + "'", pos - 1);
          }
          runStart = pos;
        } else {
          pos++;
        }
      }
    }

    List<Object> seq(char close) {
      List<Object> out = new ArrayList<>();
      while (true) {
        skipSpace();
        if (pos >= s.length()) throw new ParseException("missing '" + close + "'", pos);
        if (s.charAt(pos) == close) {
          pos++;
          return out;
        }
        out.add(value());
      }
    }

    Map<Object, Object> map() {
      Map<Object, Object> out = new LinkedHashMap<>();
      while (true) {
        skipSpace();
        if (pos >= s.length()) throw new ParseException("missing '}'", pos);
        if (s.charAt(pos) == '}') {
          pos++;
          return out;
        }
        Object k = value();
        skipSpace();
        if (pos >= s.length() || s.charAt(pos) == '}') throw new ParseException("map key without a value", pos);
        out.put(k, value());
      }
    }
  }

  /** Writes {@code v} as EDN. Lists and arrays print as vectors, maps keep their iteration order. */
  public static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(v, b);
    return b.toString();
  }

  public static void write(Object v, StringBuilder b) {
    if (v == null) {
      b.append("nil");
    } else if (v instanceof Keyword || v instanceof Symbol || v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      b.append(((Number) v).longValue());
    } else if (v instanceof Number n) {
      double d = n.doubleValue();
      b.append(Double.isFinite(d) ? Double.toString(d) : "nil");
    } else if (v instanceof String s) {
      writeString(s, b);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) b.append(", ");
        first = false;
        write(e.getKey(), b);
        b.append(' ');
        write(e.getValue(), b);
      }
      b.append('}');
    } else if (v instanceof java.util.Set<?> set) {
      b.append("#{");
      writeItems(set, b);
      b.append('}');
    } else if (v instanceof Collection<?> c) {
      b.append('[');
      writeItems(c, b);
      b.append(']');
    } else if (v instanceof long[] a) {
      b.append('[');
      for (int i = 0; i < a.length; i++) {
        if (i > 0) b.append(' ');
        b.append(a[i]);
      }
      b.append(']');
    } else {
      throw new IllegalArgumentException("no EDN form for " + v.getClass().getName());
    }
  }

  private static void writeItems(Collection<?> c, StringBuilder b) {
    boolean first = true;
    for (Object o : c) {
      if (!first) b.append(' ');
      first = false;
      write(o, b);
    }
  }

  private static void writeString(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
        }
      }
    }
    b.append('"');
  }
}

package io.zabkit.sim.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A reader of the TLA+ values TLC prints in its trace files: integers, strings, TRUE/FALSE, model values
 * (bare names, {@link ModelValue}), sequences and tuples {@code <<a, b>>} (a {@link List}), sets
 * {@code {a, b}} (a {@link Set}), records {@code [f |-> v]} (a {@link Map} from field names) and functions
 * {@code (k :> v @@ ...)} (a {@link Map} from keys). TLC 2.18 has no JSON output, so this is the format.
 */
final class TlaValues {
    /** A model value of the configuration (a server, such as s1). */
    record ModelValue(String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Thrown with the position and what was expected. */
    static final class ParseException extends RuntimeException {
        ParseException(String what, String text, int at) {
            super(what + " at offset " + at + ": ..." + text.substring(Math.max(0, at - 20), Math.min(text.length(), at + 40))
                    + "...");
        }
    }

    private final String text;
    private int at;

    private TlaValues(String text) {
        this.text = text;
    }

    /** The value text holds, all of it. */
    static Object parse(String text) {
        TlaValues p = new TlaValues(text);
        Object v = p.value();
        p.skipSpace();
        if (p.at != text.length()) {
            throw new ParseException("text after the value", text, p.at);
        }
        return v;
    }

    private Object value() {
        Object first = primary();
        if (!lookingAt(":>")) {
            return first;
        }
        Map<Object, Object> f = new LinkedHashMap<>();
        Object key = first;
        while (true) {
            expect(":>");
            f.put(key, primary());
            if (!lookingAt("@@")) {
                return f;
            }
            expect("@@");
            key = primary();
        }
    }

    private Object primary() {
        skipSpace();
        if (at >= text.length()) {
            throw new ParseException("a value", text, at);
        }
        char c = text.charAt(at);
        if (lookingAt("<<")) {
            expect("<<");
            List<Object> seq = new ArrayList<>();
            list(">>", seq);
            return seq;
        }
        if (c == '{') {
            at++;
            List<Object> elems = new ArrayList<>();
            list("}", elems);
            Set<Object> set = new LinkedHashSet<>(elems);
            return set;
        }
        if (c == '[') {
            at++;
            Map<Object, Object> rec = new LinkedHashMap<>();
            skipSpace();
            if (lookingAt("]")) {
                at++;
                return rec;
            }
            while (true) {
                String field = name();
                expect("|->");
                rec.put(field, value());
                skipSpace();
                if (lookingAt("]")) {
                    at++;
                    return rec;
                }
                expect(",");
            }
        }
        if (c == '(') {
            at++;
            Object v = value();
            expect(")");
            return v;
        }
        if (c == '"') {
            return string();
        }
        if (c == '-' || Character.isDigit(c)) {
            int start = at++;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                at++;
            }
            return Long.parseLong(text.substring(start, at));
        }
        String n = name();
        return switch (n) {
            case "TRUE" -> Boolean.TRUE;
            case "FALSE" -> Boolean.FALSE;
            default -> new ModelValue(n);
        };
    }

    private void list(String close, List<Object> into) {
        skipSpace();
        if (lookingAt(close)) {
            expect(close);
            return;
        }
        while (true) {
            into.add(value());
            skipSpace();
            if (lookingAt(close)) {
                expect(close);
                return;
            }
            expect(",");
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        at++;
        while (at < text.length() && text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c == '\\' && at < text.length()) {
                c = text.charAt(at++);
            }
            b.append(c);
        }
        expect("\"");
        return b.toString();
    }

    private String name() {
        skipSpace();
        int start = at;
        while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
            at++;
        }
        if (start == at) {
            throw new ParseException("a name", text, at);
        }
        return text.substring(start, at);
    }

    private boolean lookingAt(String s) {
        skipSpace();
        return text.startsWith(s, at);
    }

    private void expect(String s) {
        if (!lookingAt(s)) {
            throw new ParseException("'" + s + "'", text, at);
        }
        at += s.length();
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }
}

package io.zabkit.tree;

import io.zabkit.wire.Err;
import io.zabkit.wire.ZkException;

/** Znode path rules (ZooKeeper's PathUtils): absolute, no empty, "." or ".." segments, no bad characters. */
public final class Paths {
    private Paths() {}

    public static void validate(String path) throws ZkException {
        String problem = problem(path);
        if (problem != null) {
            throw new ZkException(Err.BAD_ARGUMENTS, "path " + quote(path) + ": " + problem);
        }
    }

    /** Validates a path that will get a sequence suffix: it may end in '/'. */
    public static void validateSequential(String path) throws ZkException {
        validate(path == null ? null : path + "1");
    }

    static String problem(String path) {
        if (path == null || path.isEmpty()) {
            return "path must not be empty";
        }
        if (path.charAt(0) != '/') {
            return "path must start with /";
        }
        if (path.length() == 1) {
            return null;
        }
        if (path.charAt(path.length() - 1) == '/') {
            return "path must not end with /";
        }
        char previous = '/';
        for (int i = 1; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == 0) {
                return "null character at " + i;
            }
            if (c == '/' && previous == '/') {
                return "empty node name at " + i;
            }
            if (c == '.' && previous == '.' && path.charAt(i - 2) == '/'
                    && (i + 1 == path.length() || path.charAt(i + 1) == '/')) {
                return "relative paths not allowed at " + i;
            }
            if (c == '.' && previous == '/' && (i + 1 == path.length() || path.charAt(i + 1) == '/')) {
                return "relative paths not allowed at " + i;
            }
            if ((c > '\u0000' && c <= '\u001f') || (c >= '\u007f' && c <= '\u009F')
                    || (c >= '\ud800' && c <= '\uf8ff') || (c >= '\ufff0' && c <= '\uffff')) {
                return "invalid character @" + i;
            }
            previous = c;
        }
        return null;
    }

    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    public static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public static String child(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }

    static String quote(String s) {
        return s == null ? "null" : "'" + s + "'";
    }
}

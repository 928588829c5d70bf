package io.zabkit.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lines of a zoo.cfg: {@code key=value} pairs, {@code #} and {@code !} comments, blank lines.
 * Keeps each key's line number so every error can point at it. A repeated key is an error:
 * ZooKeeper silently takes the last one, which hides mistakes.
 */
final class CfgFile {

    record Entry(String source, int line, String key, String value) {
        String where() {
            return source + " line " + line;
        }
    }

    private final String source;
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    private CfgFile(String source) {
        this.source = source;
    }

    static CfgFile read(Path path) throws ConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read config " + path + ": " + e);
        }
        return parse(path.toString(), lines);
    }

    static CfgFile parse(String source, List<String> lines) throws ConfigException {
        CfgFile cfg = new CfgFile(source);
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i).strip();
            if (text.isEmpty() || text.startsWith("#") || text.startsWith("!")) {
                continue;
            }
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(source + " line " + (i + 1) + ": expected key=value, got '" + text + "'");
            }
            Entry entry = new Entry(source, i + 1, text.substring(0, eq).strip(), text.substring(eq + 1).strip());
            Entry earlier = cfg.entries.putIfAbsent(entry.key(), entry);
            if (earlier != null) {
                throw ConfigException.at(entry, "repeats " + entry.key() + " from line " + earlier.line());
            }
        }
        return cfg;
    }

    /** The file name, for messages. */
    String source() {
        return source;
    }

    Entry get(String key) {
        return entries.get(key);
    }

    List<Entry> all() {
        return new ArrayList<>(entries.values());
    }
}

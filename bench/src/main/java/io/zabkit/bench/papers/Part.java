package io.zabkit.bench.papers;

import io.zabkit.bench.SystemUnderTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One reproduced table or figure: its markdown section (PART.md) and data (PART.tsv) in the paper's
 * results folder, with when it ran and the load average before and after. A paper's README.md is its
 * parts' sections in order, so rerunning one part keeps the others.
 */
final class Part {
    final Path dir;
    final String name;
    final String title;
    final String started = Machine.now();
    final String loadBefore = Machine.loadAverage();
    private final List<String> tsv = new ArrayList<>();
    private final StringBuilder md = new StringBuilder();
    private final Consumer<String> log;

    Part(Path dir, String name, String title, String tsvHeader, Consumer<String> log) {
        this.dir = dir;
        this.name = name;
        this.title = title;
        this.tsv.add(tsvHeader);
        this.log = log;
        log.accept("== " + title + " (load average " + loadBefore + ")");
    }

    void row(Object... fields) {
        log.accept("   " + add(fields).replace('\t', ' '));
    }

    /** A row of a long series (one per 100 ms bucket): into the TSV only, not the console. */
    void rowQuiet(Object... fields) {
        add(fields);
    }

    private String add(Object... fields) {
        List<String> f = new ArrayList<>();
        for (Object o : fields) {
            f.add(o instanceof Double d ? String.format("%.3f", d) : String.valueOf(o));
        }
        String line = String.join("\t", f);
        tsv.add(line);
        return line;
    }

    /**
     * A markdown table's head: the leading columns, then one column per server count and system (both
     * systems side by side at each size), and its rule line.
     */
    Part tableHead(String leading, int leadingColumns, List<Integer> sizes, List<SystemUnderTest> systems) {
        assert leadingColumns > 0 && !sizes.isEmpty() && !systems.isEmpty() : "a table has columns";
        StringBuilder head = new StringBuilder(leading);
        StringBuilder rule = new StringBuilder("|" + "---|".repeat(leadingColumns));
        for (int n : sizes) {
            for (SystemUnderTest s : systems) {
                head.append(' ').append(s.label()).append(' ').append(n).append(" |");
                rule.append("---|");
            }
        }
        return text(head.toString()).text(rule.toString());
    }

    Part text(String s) {
        md.append(s).append('\n');
        return this;
    }

    void log(String s) {
        log.accept(s);
    }

    /** Writes PART.md and PART.tsv, then the paper's README.md from every PART.md present, in `order`. */
    void finish(List<String> order, String paperHeader) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".tsv"), tsv);
        String head = "## " + title + "\n\nRun " + started + " to " + Machine.now() + " (UTC); " + Machine.describe()
                + "; load average " + loadBefore + " before, " + Machine.loadAverage() + " after. Data: ["
                + name + ".tsv](" + name + ".tsv).\n\n";
        Files.writeString(dir.resolve(name + ".md"), head + md);
        StringBuilder readme = new StringBuilder(paperHeader).append('\n');
        for (String p : order) {
            Path f = dir.resolve(p + ".md");
            if (Files.exists(f)) {
                readme.append(Files.readString(f)).append('\n');
            }
        }
        Files.writeString(dir.resolve("README.md"), readme);
        log.accept("wrote " + dir.resolve(name + ".md") + " and README.md (load average " + Machine.loadAverage() + ")");
    }

    static String f0(double v) {
        return String.format("%,.0f", v);
    }

    static String f2(double v) {
        return String.format("%.2f", v);
    }
}

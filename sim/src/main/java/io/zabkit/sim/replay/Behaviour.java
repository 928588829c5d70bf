package io.zabkit.sim.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One behaviour of spec/ReplayZab.tla as TLC's simulation mode writes it ({@code -simulate file=PREFIX}):
 * a module of definitions {@code STATE_1 == /\ var = value ...}, one per state, in order. Each state is a
 * map from variable name to its value ({@link TlaValues}); {@code act} names the step that led to it.
 */
record Behaviour(Path file, List<Map<String, Object>> states) {
    private static final Pattern STATE = Pattern.compile("^STATE_(\\d+) ==\\s*$", Pattern.MULTILINE);
    private static final Pattern VAR = Pattern.compile("^/\\\\ (\\w+) = ", Pattern.MULTILINE);

    static Behaviour read(Path file) throws IOException {
        String text = Files.readString(file);
        Matcher m = STATE.matcher(text);
        List<Integer> starts = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        while (m.find()) {
            starts.add(m.end());
            numbers.add(Integer.parseInt(m.group(1)));
        }
        if (starts.isEmpty()) {
            throw new IOException(file + ": no STATE_n definitions; is it a TLC -simulate trace file?");
        }
        int end = text.lastIndexOf("\n====");
        List<Map<String, Object>> states = new ArrayList<>();
        for (int k = 0; k < starts.size(); k++) {
            if (numbers.get(k) != k + 1) {
                throw new IOException(file + ": STATE_" + numbers.get(k) + " where STATE_" + (k + 1) + " was expected");
            }
            int stop = k + 1 < starts.size() ? text.lastIndexOf("STATE_", starts.get(k + 1)) : (end > 0 ? end : text.length());
            try {
                states.add(parseState(text.substring(starts.get(k), stop)));
            } catch (RuntimeException e) {
                throw new IOException(file + ": STATE_" + (k + 1) + ": " + e.getMessage(), e);
            }
        }
        return new Behaviour(file, List.copyOf(states));
    }

    private static Map<String, Object> parseState(String body) {
        Matcher v = VAR.matcher(body);
        List<int[]> spans = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (v.find()) {
            spans.add(new int[] {v.start(), v.end()});
            names.add(v.group(1));
        }
        Map<String, Object> state = new LinkedHashMap<>();
        for (int k = 0; k < spans.size(); k++) {
            int stop = k + 1 < spans.size() ? spans.get(k + 1)[0] : body.length();
            state.put(names.get(k), TlaValues.parse(body.substring(spans.get(k)[1], stop).trim()));
        }
        if (!state.containsKey("act")) {
            throw new IllegalArgumentException("no variable act: the behaviour must come from spec/ReplayZab.tla");
        }
        return state;
    }

    int steps() {
        return states.size() - 1;
    }
}

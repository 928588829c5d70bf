package io.zabkit.sim.replay;

import io.zabkit.sim.replay.TlaValues.ModelValue;
import io.zabkit.txn.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One state of a behaviour, read the way the replay needs it: per server (model value sN is server N),
 * zxids as the code's longs (Txn.zxid(epoch, counter)), messages as records.
 */
record SpecState(Map<String, Object> vars) {

    static long server(Object modelValue) {
        String n = ((ModelValue) modelValue).name();
        if (!n.matches("s\\d+")) {
            throw new IllegalArgumentException("server model values must be named s1, s2, ...; got " + n);
        }
        return Long.parseLong(n.substring(1));
    }

    static ModelValue name(long server) {
        return new ModelValue("s" + server);
    }

    @SuppressWarnings("unchecked")
    private Object of(String var, long server) {
        return ((Map<Object, Object>) vars.get(var)).get(name(server));
    }

    @SuppressWarnings("unchecked")
    List<Long> servers() {
        List<Long> ids = new ArrayList<>();
        for (Object k : ((Map<Object, Object>) vars.get("state")).keySet()) {
            ids.add(server(k));
        }
        ids.sort(null);
        return ids;
    }

    String state(long i) {
        return (String) of("state", i);
    }

    String zabState(long i) {
        return (String) of("zabState", i);
    }

    long acceptedEpoch(long i) {
        return (Long) of("acceptedEpoch", i);
    }

    long currentEpoch(long i) {
        return (Long) of("currentEpoch", i);
    }

    int durable(long i) {
        return ((Long) of("durable", i)).intValue();
    }

    int lastCommitted(long i) {
        return ((Long) of("lastCommitted", i)).intValue();
    }

    boolean up(long i) {
        return (Boolean) of("up", i);
    }

    /** The leader i follows or leads, -1 for none. */
    long leaderOf(long i) {
        Object l = of("leaderOf", i);
        return l instanceof ModelValue mv && mv.name().startsWith("s") ? server(mv) : -1;
    }

    @SuppressWarnings("unchecked")
    List<Long> history(long i) {
        List<Long> zxids = new ArrayList<>();
        for (Object e : (List<Object>) of("history", i)) {
            zxids.add(zxid(((Map<Object, Object>) e).get("zxid")));
        }
        return zxids;
    }

    @SuppressWarnings("unchecked")
    static long zxid(Object pair) {
        List<Object> p = (List<Object>) pair;
        return Txn.zxid((Long) p.get(0), (Long) p.get(1));
    }

    /** The channel from j to i, head first. */
    @SuppressWarnings("unchecked")
    List<Map<Object, Object>> channel(long from, long to) {
        Map<Object, Object> row = (Map<Object, Object>) ((Map<Object, Object>) vars.get("msgs")).get(name(from));
        return (List<Map<Object, Object>>) (List<?>) row.get(name(to));
    }

    @SuppressWarnings("unchecked")
    boolean partitioned(long a, long b) {
        for (Object pair : (Set<Object>) vars.get("partitioned")) {
            Set<Object> p = (Set<Object>) pair;
            if (p.contains(name(a)) && p.contains(name(b))) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    String actionName() {
        return (String) ((Map<Object, Object>) vars.get("act")).get("name");
    }

    @SuppressWarnings("unchecked")
    List<Object> actionArgs() {
        return (List<Object>) ((Map<Object, Object>) vars.get("act")).get("args");
    }

    String action() {
        return actionName() + actionArgs().toString().replace('[', '(').replace(']', ')');
    }

    /** Server i's variables, for a mismatch report. */
    String describe(long i) {
        return "state=" + state(i) + " zabState=" + zabState(i) + " up=" + up(i) + " leaderOf=" + leaderOf(i)
                + " acceptedEpoch=" + acceptedEpoch(i) + " currentEpoch=" + currentEpoch(i) + " history="
                + Zxids.show(history(i)) + " durable=" + durable(i) + " lastCommitted=" + lastCommitted(i);
    }
}

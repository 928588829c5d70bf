package io.zabkit.bench.avail;

import java.util.ArrayList;
import java.util.List;

/**
 * What a round must show to count as measured (make test-avail): the fault disconnected clients
 * (a follower kill its share, a leader kill every client), each of them got a post-fault change,
 * every window is positive and no shorter than the client's own milestones, and a leader kill shows
 * the new leader serving (srvr and the logs) before the windows close.
 */
final class RoundCheck {
    private RoundCheck() {}

    static List<String> problems(List<Round> rounds, List<ServerMilestones> milestones) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < rounds.size(); i++) {
            Round r = rounds.get(i);
            String at = r.system().label() + " " + r.client() + " " + r.fault().label() + " N=" + r.clients() + ": ";
            int expected = r.fault().hitsLeader() ? r.clients() : (int) r.windows().stream()
                    .filter(w -> w.home() + 1 == r.victim()).count();
            if (r.affected().size() < Math.max(1, expected)) {
                out.add(at + r.affected().size() + " clients lost their connection, expected at least "
                        + Math.max(1, expected));
            }
            for (ClientWindow w : r.affected()) {
                if (!w.measured() || w.windowMs() <= 0) {
                    out.add(at + "client " + w.client() + " window " + w.windowMs());
                } else if (w.detectMs() > w.windowMs() || w.sessionMs() > w.windowMs()
                        || w.rewatchMs() > w.windowMs()) {
                    out.add(at + "client " + w.client() + " window " + w.windowMs() + " ms ends before its loss "
                            + w.detectMs() + ", session " + w.sessionMs() + " or re-registration " + w.rewatchMs());
                } else if (r.client().equals("lean") && (Double.isNaN(w.sessionMs()) || Double.isNaN(w.rewatchMs()))) {
                    out.add(at + "client " + w.client() + " has no renewed session or re-registration time");
                }
            }
            if (r.fault().hitsLeader()) {
                ServerMilestones m = milestones.get(i);
                if (Double.isNaN(r.servingMs()) || Double.isNaN(m.lookingMs()) || Double.isNaN(m.electedMs())
                        || Double.isNaN(m.servingMs()) || !(m.lookingMs() <= m.electedMs())
                        || !(m.electedMs() <= m.servingMs())) {
                    out.add(at + "server milestones incomplete or out of order: srvr " + r.servingMs() + " ms, logs "
                            + m);
                }
            }
        }
        return out;
    }
}

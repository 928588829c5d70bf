package io.zabkit.bench.papers;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a barrier run must show whatever the recipe: no client passes barrier i before every one of
 * the `clients` has arrived at it (a client counts its arrival before it calls the recipe).
 */
final class BarrierAudit {
    private final int clients;
    private final AtomicIntegerArray arrived;
    private final AtomicInteger early = new AtomicInteger();
    private final AtomicReference<String> first = new AtomicReference<>();

    BarrierAudit(int barriers, int clients) {
        assert barriers > 0 && clients > 0 : "a barrier run has barriers and clients";
        this.clients = clients;
        this.arrived = new AtomicIntegerArray(barriers);
    }

    void arrive(int barrier) {
        int n = arrived.incrementAndGet(barrier);
        assert n <= clients : "more arrivals than clients at barrier " + barrier;
    }

    void passed(int barrier) {
        int n = arrived.get(barrier);
        if (n < clients) {
            early.incrementAndGet();
            first.compareAndSet(null, "a client passed barrier " + barrier + " when " + n + " of " + clients
                    + " had arrived");
        }
    }

    int early() {
        return early.get();
    }

    /** The first early pass, or null. */
    String firstViolation() {
        return first.get();
    }
}

package io.zabkit.bench.avail;

/**
 * One watch client's view of one fault, every time in ms since the fault (NaN: did not happen or
 * cannot be observed with this client library).
 *
 * @param home the server the client was connected to when the fault struck
 * @param lostConnection whether the client lost its connection after the fault
 * @param windowMs until the first change issued after the fault reached it (notification, then the
 *     getData that re-sets the watch returned that value): the watch-unavailable window
 * @param detectMs until it saw its connection break
 * @param sessionMs until its session was established again (after the client's own retries)
 * @param rewatchMs until the server acknowledged its re-registered watches (SetWatches)
 * @param attempts connection attempts between the loss and the renewed session
 * @param expired whether the server refused to renew the session
 */
record ClientWindow(int client, int home, boolean lostConnection, double windowMs, double detectMs, double sessionMs,
        double rewatchMs, int attempts, boolean expired) {
    ClientWindow {
        assert Double.isNaN(windowMs) || windowMs >= 0 : "a window ends before the fault";
        assert Double.isNaN(detectMs) || Double.isNaN(sessionMs) || sessionMs >= detectMs : "session before loss";
    }

    boolean measured() { return !Double.isNaN(windowMs); }
}

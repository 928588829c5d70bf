package io.zabkit.it;

/** Observers beside a 3-server ensemble of zabkit's production server (ServerMain, one JVM each). */
class ProductionObserverTest extends ObserverContract {
    @Override
    ProcessEnsemble.Kind kind() {
        return ProcessEnsemble.Kind.ZABKIT;
    }
}

package io.zabkit.it;

/** Read-only mode on a 3-server ensemble of zabkit's production server (ServerMain, one JVM each). */
class ProductionReadOnlyTest extends ReadOnlyContract {
    @Override
    ProcessEnsemble.Kind kind() {
        return ProcessEnsemble.Kind.ZABKIT;
    }
}

package io.zabkit.it;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** A contract whose tests share one server (of the subclass's target), started once per class. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SharedServerContract {
    Target server;

    abstract Target.Factory factory();

    @BeforeAll
    void startServer(@TempDir Path dir) throws Exception {
        server = factory().start(dir, Clients.freePort(), Target.Settings.FAST);
    }

    @AfterAll
    void stopServer() throws Exception {
        server.close();
    }
}

package io.sessionmesh.sidecar.embedded;

import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A master running in the sidecar's own process, for local development mode ({@code masters=embedded}): one
 * process, real TCP between the two on loopback. The sidecar does not depend on the master: the local module
 * (local/, {@code sessionmesh-local.jar}) carries both and provides the {@link Factory} through
 * {@link ServiceLoader}. The sidecar's own jar has none, and refuses {@code masters=embedded} at start.
 */
public interface EmbeddedMaster extends AutoCloseable {
    /** Where the master listens (loopback, a free port). */
    InetSocketAddress address();

    /** The master's effective configuration, one setting a line, for the start-up log. */
    String describe();

    /** Stops the master; the sidecar calls it last, after its own connections are closed. */
    @Override
    void close();

    /** Starts embedded masters. */
    interface Factory {
        /** Starts a master on a free loopback port with its default settings. */
        EmbeddedMaster start() throws InterruptedException;
    }

    /** The factory on the class path, if any (the local module's). */
    static Optional<Factory> factory() {
        return ServiceLoader.load(Factory.class, EmbeddedMaster.class.getClassLoader()).findFirst();
    }

    /** Why {@code masters=embedded} cannot start here. */
    String MISSING = "masters=embedded needs a master in this process, and the sidecar's jar carries none: run "
            + "sessionmesh-local.jar (local/target/), the sidecar with a master inside, or point --masters at a master";
}

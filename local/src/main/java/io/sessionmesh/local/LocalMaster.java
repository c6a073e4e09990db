package io.sessionmesh.local;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.embedded.EmbeddedMaster;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The master of local development mode: a {@link MasterServer} with its defaults on a free loopback port, in the
 * sidecar's process. Found by the sidecar through {@link java.util.ServiceLoader} ({@link EmbeddedMaster.Factory}).
 */
public final class LocalMaster implements EmbeddedMaster {
    private final MasterServer server;

    private LocalMaster(MasterServer server) {
        this.server = server;
    }

    @Override
    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public String describe() {
        return server.config().describe();
    }

    @Override
    public void close() {
        server.close();
    }

    /** What the sidecar's ServiceLoader finds: starts a {@link LocalMaster}. */
    public static final class Factory implements EmbeddedMaster.Factory {
        @Override
        public EmbeddedMaster start() throws InterruptedException {
            try {
                return new LocalMaster(MasterServer.start(MasterConfig.of(Map.of("bind", "127.0.0.1", "port", "0"))));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e); // a master on its own opens no file
            }
        }
    }
}

package io.sessionmesh.local;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.config.MasterSettings;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.embedded.EmbeddedMaster;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;

/**
 * The master of local development mode: a {@link MasterServer} with its defaults on a free loopback port, in the
 * sidecar's process. Found by the sidecar through {@link java.util.ServiceLoader} ({@link EmbeddedMaster.Factory}).
 */
public final class LocalMaster implements EmbeddedMaster {
    /** What the master inside is started with; every other setting takes the master's default. */
    static final Map<String, String> SETTINGS = Map.of(MasterSettings.BIND.name(), "127.0.0.1",
            MasterSettings.PORT.name(), "0");

    private final MasterServer server;

    private LocalMaster(MasterServer server) {
        this.server = server;
    }

    /** {@link #SETTINGS} in words, for local mode's declarations: {@code "bind 127.0.0.1, port 0"}. */
    static String describeSettings() {
        return String.join(", ", new TreeMap<>(SETTINGS).entrySet().stream().map(e -> "`" + e.getKey() + "` " + e.getValue())
                .toList());
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
                return new LocalMaster(MasterServer.start(MasterConfig.of(SETTINGS)));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e); // a master on its own opens no file
            }
        }
    }
}

package io.sessionmesh.sidecar;

import io.sessionmesh.settings.ReadyFile;
import io.sessionmesh.settings.SettingList;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.config.SidecarSettings;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar sessionmesh-sidecar.jar [--config sidecar.properties] [--masters host:port,...] [--port 7500] ...}:
 * starts a sidecar, prints its effective configuration and its two addresses, and runs until SIGTERM (or Ctrl-C).
 * A bad setting exits with status 2 and a message naming it.
 */
public final class SidecarMain {
    /** The line a supervisor (or a test) waits for; the REST address follows it. */
    public static final String LISTENING = "SessionMesh sidecar listening on ";
    /** Printed before {@link #LISTENING} when the REST API also listens on a Unix domain socket. */
    public static final String LISTENING_UNIX = "SessionMesh sidecar REST API also on unix:";
    /** The line with the admin endpoint's address. */
    public static final String ADMIN = "SessionMesh sidecar admin on ";

    private SidecarMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        run("sessionmesh-sidecar", SidecarSettings.ALL, args);
    }

    /**
     * Runs a sidecar as {@code program} ({@code program.jar}), whose {@code --help} lists {@code settings}: the
     * sidecar's, or local mode's, which has other defaults.
     */
    public static void run(String program, SettingList settings, String[] args) throws InterruptedException {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        String usage = "usage: java -jar " + program + ".jar [--config file] [--name value]...\n"
                + "settings (default, then what each accepts; docs/configuration.md says what each means):\n"
                + settings.usage();
        SidecarConfig config = Settings.read(program, args, usage, SidecarConfig::new);
        System.out.println("SessionMesh sidecar, effective configuration:");
        System.out.print(config.describe());
        SidecarServer server;
        try {
            server = SidecarServer.start(config);
        } catch (IllegalStateException e) {
            System.err.println(program + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("SessionMesh sidecar shutting down");
            server.close();
            stopped.countDown();
        }, "sidecar-shutdown"));
        if (server.embeddedMasterAddress() != null) {
            System.out.println("SessionMesh embedded master (local development mode) on "
                    + server.embeddedMasterAddress().getHostString() + ":" + server.embeddedMasterAddress().getPort()
                    + ", effective configuration:");
            System.out.print(server.embeddedMasterDescription());
        }
        Map<String, InetSocketAddress> endpoints = new LinkedHashMap<>();
        endpoints.put("api", server.address());
        endpoints.put("admin", server.adminAddress());
        if (server.embeddedMasterAddress() != null) {
            endpoints.put("embedded-master", server.embeddedMasterAddress());
        }
        ReadyFile.write(config.readyFile(), endpoints);
        System.out.println(ADMIN + server.adminAddress().getHostString() + ":" + server.adminAddress().getPort());
        if (server.unixSocket() != null) {
            System.out.println(LISTENING_UNIX + server.unixSocket());
        }
        System.out.println(LISTENING + server.address().getHostString() + ":" + server.address().getPort());
        System.out.flush();
        stopped.await();
    }
}

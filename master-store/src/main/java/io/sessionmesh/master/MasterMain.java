package io.sessionmesh.master;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.config.MasterSettings;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.settings.ReadyFile;
import io.sessionmesh.settings.Settings;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar sessionmesh-master.jar [--config master.properties] [--port 7400] [--idle-timeout 5m] ...}:
 * starts a master, prints its effective configuration and the address it listens on, and runs until SIGTERM
 * (or Ctrl-C), when it shuts down gracefully. A bad setting exits with status 2 and a message naming it.
 * {@code java -jar sessionmesh-master.jar groups ...} is the admin command for master groups ({@link
 * io.sessionmesh.master.groups.GroupsCommand}).
 */
public final class MasterMain {
    /** The line a supervisor (or a test) waits for; the address follows it. */
    public static final String LISTENING = "SessionMesh master listening on ";
    /** The line that names the HTTP admin endpoint's address, when it is on. */
    public static final String ADMIN = "SessionMesh master admin endpoint (health, metrics) on ";

    private MasterMain() {
    }

    public static void main(String[] args) throws InterruptedException, java.io.IOException {
        if (args.length > 0 && args[0].equals("groups")) {
            io.sessionmesh.master.groups.GroupsCommand.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        // Netty samples 1 buffer in 128 for leak tracking, with a stack trace each: a cost a server does not
        // pay unless asked (the integration tests ask for paranoid).
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        String usage = "usage: java -jar sessionmesh-master.jar [--config file] [--name value]...\n"
                + "settings (default, then what each accepts; docs/configuration.md says what each means):\n"
                + MasterSettings.ALL.usage();
        MasterConfig config = Settings.read("sessionmesh-master", args, usage, MasterConfig::new);
        System.out.println("SessionMesh master, effective configuration:");
        System.out.print(config.describe());
        MasterServer server = MasterServer.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("SessionMesh master shutting down");
            server.close();
            stopped.countDown();
        }, "master-shutdown"));
        ReadyFile.write(config.readyFile(), server.adminAddress() == null ? Map.of("master", server.address())
                : Map.of("master", server.address(), "admin", server.adminAddress()));
        System.out.println(LISTENING + server.address().getHostString() + ":" + server.address().getPort());
        if (server.adminAddress() != null) {
            System.out.println(ADMIN + server.adminAddress().getHostString() + ":" + server.adminAddress().getPort());
        }
        if (config.tls() != null) {
            System.out.println("TLS 1.3, a client certificate of " + config.tls().trustedAuthorities()
                    + " required, engine " + io.sessionmesh.wire.tls.TlsFiles.provider());
        } else if (!server.address().getAddress().isLoopbackAddress()) {
            System.out.println("WARNING: listening beyond loopback without TLS (plaintext-beyond-loopback=true): anything"
                    + " that reaches this port can read and write every session and steer the cluster (SECURITY.md)");
        }
        System.out.flush();
        stopped.await();
    }
}

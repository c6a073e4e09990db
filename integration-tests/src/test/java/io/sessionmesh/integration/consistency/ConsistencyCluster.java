package io.sessionmesh.integration.consistency;

import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.testing.TcpProxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A master and several sidecars, each a real process from its jar, on loopback. Sidecar 0 reaches the master
 * through a {@link TcpProxy} the test can pause and cut; any sidecar can be killed (SIGKILL) and restarted on the
 * same ports, with an empty cache and a new holder id.
 */
final class ConsistencyCluster implements AutoCloseable {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final Duration lease;
    final ServerProcess master;
    final TcpProxy proxy;
    private final List<ServerProcess> sidecars = new ArrayList<>();
    private final List<Map.Entry<Integer, ServerProcess>> everySidecar = new ArrayList<>();
    private final int[] apiPorts;
    private final int[] adminPorts;
    private final List<String> extraSidecarFlags;

    ConsistencyCluster(int sidecarCount, Duration lease, List<String> extraSidecarFlags) throws Exception {
        this.lease = lease;
        this.extraSidecarFlags = extraSidecarFlags;
        master = ServerProcess.start(ServerProcess.command(jar("master.jar", "master-store/target/sessionmesh-master.jar"),
                "--port", "0", "--lease", lease.toMillis() + "ms"));
        proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", master.port()));
        apiPorts = new int[sidecarCount];
        adminPorts = new int[sidecarCount];
        for (int i = 0; i < sidecarCount; i++) {
            sidecars.add(null);
            start(i);
        }
    }

    static Path jar(String property, String fromRoot) {
        return ServerProcess.jar(property, "../" + fromRoot);
    }

    int sidecars() {
        return sidecars.size();
    }

    URI api(int sidecar) {
        return URI.create("http://127.0.0.1:" + apiPorts[sidecar]);
    }

    int masterPort() {
        return master.port();
    }

    private void start(int i) throws Exception {
        int masterPort = i == 0 ? proxy.port() : master.port();
        List<String> flags = new ArrayList<>(List.of("--masters", "127.0.0.1:" + masterPort,
                "--port", String.valueOf(apiPorts[i]), "--admin-port", String.valueOf(adminPorts[i]),
                "--reconnect-min", "20ms", "--reconnect-max", "200ms", "--heartbeat-interval", "200ms",
                "--master-timeout", "1s", "--vnodes", "256", "--io-threads", "1"));
        flags.addAll(extraSidecarFlags);
        ServerProcess p = ServerProcess.start(ServerProcess.command(jar("sidecar.jar",
                "slave-sidecar/target/sessionmesh-sidecar.jar"), flags.toArray(String[]::new)));
        sidecars.set(i, p);
        everySidecar.add(Map.entry(i, p));
        apiPorts[i] = p.port();
        adminPorts[i] = p.port("admin");
        awaitLease(i);
    }

    /** Waits until the sidecar holds a valid lease with the master. */
    void awaitLease(int i) {
        sidecars.get(i).awaitHealthy("\"valid\":true");
    }

    /**
     * Waits until the sidecar has noticed that its lease is gone (after a cut): until then it may rightly serve its
     * cache, the lease being still valid.
     */
    void awaitLeaseLost(int i) {
        io.sessionmesh.testing.Await.until("sidecar " + i + " to lose its lease", Duration.ofSeconds(10),
                () -> admin(i, "/admin/health").body().contains("\"valid\":false"));
    }

    /** SIGKILL: the sidecar dies with its cache, its connections reset by the kernel. */
    void kill(int i) throws InterruptedException {
        sidecars.get(i).kill();
    }

    /** Starts a killed sidecar again, on the same ports. */
    void restart(int i) throws Exception {
        start(i);
    }

    HttpResponse<String> admin(int i, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPorts[i] + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Lines where a server reported a leaked buffer or an unexpected exception. */
    List<String> troubles() {
        List<String> out = new ArrayList<>(master.leaks());
        for (ServerProcess s : sidecars) {
            out.addAll(s.leaks());
        }
        return out;
    }

    /** Writes each server's output (those of killed sidecars too) to {@code dir}. */
    void saveOutputs(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("master.log"), List.copyOf(master.output));
        for (int i = 0; i < everySidecar.size(); i++) {
            Files.write(dir.resolve("sidecar-" + everySidecar.get(i).getKey() + "-start-" + i + ".log"),
                    List.copyOf(everySidecar.get(i).getValue().output));
        }
    }

    @Override
    public void close() throws Exception {
        for (ServerProcess s : sidecars) {
            if (s != null) {
                s.close();
            }
        }
        proxy.close();
        master.close();
    }
}

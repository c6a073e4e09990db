package io.sessionmesh.benchmarks.workload;

import io.sessionmesh.benchmarks.load.ServerProcesses;
import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.workload.RequestMix;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link WorkloadDriver}'s servers: a master and {@value RequestMix#SERVICES} x {@value RequestMix#NODES_PER_SERVICE}
 * sidecars, one per service node, as processes ({@link ServerProcesses}), each with one I/O thread; a binary
 * {@link SidecarApi} per node, and a master connection for logins and the master's figures.
 */
final class DriverCluster implements AutoCloseable {
    /** Sidecars: one per node of every service. */
    static final int SIDECARS = RequestMix.SERVICES * RequestMix.NODES_PER_SERVICE;
    static final List<String> MASTER_JVM = List.of("-Xms1g", "-Xmx1g");
    static final List<String> SIDECAR_JVM = List.of("-Xms256m", "-Xmx256m");
    /** One I/O thread a server: 13 JVMs share the machine. */
    static final List<String> SERVER_FLAGS = List.of("--io-threads", "1");
    /** Sockets of each node's pool. */
    static final int POOL_SIZE = 16;
    /** Largest answer a node accepts. */
    static final int MAX_BODY_BYTES = 64 << 20;
    private static final Pattern NUMBER = Pattern.compile("\"([a-z_0-9]+)\":(-?\\d+(?:\\.\\d+)?)");
    private static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final ServerProcesses servers = new ServerProcesses();
    private final List<SidecarHttp> https = new ArrayList<>();
    private final List<SidecarApi> apis = new ArrayList<>();
    private final List<Integer> adminPorts = new ArrayList<>();
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final MasterConnection master;

    DriverCluster(Path masterJar, Path sidecarJar) throws Exception {
        try {
            int masterPort = servers.master(masterJar, MASTER_JVM, SERVER_FLAGS);
            master = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", masterPort),
                    MasterConnectionOptions.DEFAULT, null).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < SIDECARS; i++) {
                int[] ports = servers.sidecar(sidecarJar, masterPort, SIDECAR_JVM, SERVER_FLAGS);
                adminPorts.add(ports[1]);
                SidecarHttp http = new SidecarHttp(URI.create("http://127.0.0.1:" + ports[0]), Duration.ofSeconds(1),
                        Duration.ofSeconds(10), POOL_SIZE, MAX_BODY_BYTES);
                https.add(http);
                apis.add(new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE));
            }
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** The sidecar of node {@code node} of service {@code service}. */
    SidecarApi api(int service, int node) {
        return apis.get(service * RequestMix.NODES_PER_SERVICE + node);
    }

    /** Every sidecar's admin figures, in node order. */
    List<Map<String, Double>> sidecarStats() throws Exception {
        List<Map<String, Double>> out = new ArrayList<>();
        for (int port : adminPorts) {
            HttpResponse<String> r = ADMIN.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/admin/stats")).build(), HttpResponse.BodyHandlers.ofString());
            out.add(numbers(r.body()));
        }
        return out;
    }

    /** The master's figures. */
    Map<String, Double> masterStats() throws Exception {
        return numbers(master.stats().get(5, TimeUnit.SECONDS));
    }

    /** Every {@code "name": number} of a JSON document, at any depth. */
    static Map<String, Double> numbers(String json) {
        Map<String, Double> m = new HashMap<>();
        Matcher matcher = NUMBER.matcher(json);
        while (matcher.find()) {
            m.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
        }
        return m;
    }

    @Override
    public void close() {
        https.forEach(SidecarHttp::close);
        if (master != null) {
            master.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        servers.close();
    }
}

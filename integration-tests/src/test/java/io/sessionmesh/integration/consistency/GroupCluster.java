package io.sessionmesh.integration.consistency;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A group of three master replicas (PROTOCOL.md 3.8) and several sidecars that follow its leader, each a real process
 * from its jar, on loopback. Any replica can be killed (SIGKILL) and restarted from its Raft directory, or paused
 * (SIGSTOP) and resumed. A second group of three (its ports chosen up front) can be started, added to the cluster
 * with the admin command ({@code java -jar sessionmesh-master.jar groups ... add}), removed with it, and stopped
 * (PROTOCOL.md 3.9).
 */
final class GroupCluster implements AutoCloseable {
    static final int REPLICAS = 3;
    /** Virtual nodes per group on the sidecars' ring (few: the rings are built often in a test). */
    static final int VNODES = 256;

    final Duration lease;
    private final Path dir;
    /** Added to each replica's command line of the first group. */
    private final List<String> masterFlags;
    private final int[][] ports = new int[REPLICAS][];
    private final String replicasSpec;
    private final ServerProcess[] masters = new ServerProcess[REPLICAS];
    private final List<ServerProcess> everyMaster = new ArrayList<>();
    private final List<ServerProcess> sidecars = new ArrayList<>();
    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    /** The second group: its replicas' data and Raft ports, its --replicas, and its processes while it runs. */
    private final int[][] extraPorts = new int[REPLICAS][];
    private final String extraSpec;
    private final ServerProcess[] extra = new ServerProcess[REPLICAS];
    private int extraStarts;

    GroupCluster(int sidecarCount, Duration lease, Path dir) throws Exception {
        this(sidecarCount, lease, dir, List.of());
    }

    /** With {@code masterFlags} added to every replica's command line (the first group's). */
    GroupCluster(int sidecarCount, Duration lease, Path dir, List<String> masterFlags) throws Exception {
        this.masterFlags = List.copyOf(masterFlags);
        this.lease = lease;
        this.dir = dir;
        List<String> spec = new ArrayList<>();
        List<String> data = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            ports[i] = new int[]{FreePorts.next(), FreePorts.next()};
            spec.add("m" + i + "=127.0.0.1:" + ports[i][0] + "/" + ports[i][1]);
            data.add("127.0.0.1:" + ports[i][0]);
        }
        replicasSpec = String.join(",", spec);
        List<String> extraReplicas = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            extraPorts[i] = new int[]{FreePorts.next(), FreePorts.next()};
            extraReplicas.add("x" + i + "=127.0.0.1:" + extraPorts[i][0] + "/" + extraPorts[i][1]);
        }
        extraSpec = String.join(",", extraReplicas);
        for (int i = 0; i < REPLICAS; i++) {
            startMaster(i);
        }
        for (int s = 0; s < sidecarCount; s++) {
            ServerProcess p = ServerProcess.start(ServerProcess.command(ConsistencyCluster.jar("sidecar.jar",
                            "slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", String.join("|", data),
                    "--port", "0", "--admin-port", "0", "--reconnect-min", "20ms", "--reconnect-max", "200ms",
                    "--heartbeat-interval", "200ms", "--master-timeout", "3s", "--vnodes", String.valueOf(VNODES), "--io-threads", "1"));
            sidecars.add(p);
        }
        for (int s = 0; s < sidecarCount; s++) {
            awaitLease(s);
            sidecars.get(s).awaitHealthy(ROUTED_BY_MAP);
        }
    }

    private void startMaster(int i) throws IOException {
        List<String> flags = new ArrayList<>(List.of("--port", String.valueOf(ports[i][0]),
                "--replicas", replicasSpec, "--replica-id", "m" + i, "--raft-dir", dir.resolve("m" + i).toString(),
                "--lease", lease.toMillis() + "ms", "--election-timeout", "1s", "--io-threads", "1"));
        flags.addAll(masterFlags);
        masters[i] = ServerProcess.start(ServerProcess.command(ConsistencyCluster.jar("master.jar",
                        "master-store/target/sessionmesh-master.jar"), flags.toArray(String[]::new)));
        everyMaster.add(masters[i]);
    }

    /** The first group's replicas as the admin command and the sidecars name them: {@code host:port|host:port|...}. */
    String groupSpec() {
        List<String> data = new ArrayList<>();
        for (int[] p : ports) {
            data.add("127.0.0.1:" + p[0]);
        }
        return String.join("|", data);
    }

    /** The second group's replicas, {@code host:port|host:port|...}; its name is the first. */
    String extraGroupSpec() {
        List<String> data = new ArrayList<>();
        for (int[] p : extraPorts) {
            data.add("127.0.0.1:" + p[0]);
        }
        return String.join("|", data);
    }

    /** Starts the second group's replicas on new Raft directories and waits until one leads. */
    void startExtraGroup() throws IOException {
        extraStarts++;
        // the three start side by side: one after the other, a loaded machine takes three times as long
        List<java.util.concurrent.CompletableFuture<ServerProcess>> starting = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            List<String> command = ServerProcess.command(ConsistencyCluster.jar("master.jar",
                            "master-store/target/sessionmesh-master.jar"), "--port", String.valueOf(extraPorts[i][0]),
                    "--replicas", extraSpec, "--replica-id", "x" + i, "--raft-dir",
                    dir.resolve("x" + i + "-" + extraStarts).toString(), "--lease", lease.toMillis() + "ms",
                    "--election-timeout", "1s", "--io-threads", "1");
            starting.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return ServerProcess.start(command);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (int i = 0; i < REPLICAS; i++) {
            extra[i] = starting.get(i).join();
            everyMaster.add(extra[i]);
        }
        Await.until("a replica of the second group that leads", Duration.ofSeconds(30), () -> {
            for (int i = 0; i < REPLICAS; i++) {
                if (statsAt(extraPorts[i][0]).contains("\"replica_leads\":1")) {
                    return true;
                }
            }
            return false;
        });
    }

    /** Stops the second group's replicas (SIGTERM). */
    void stopExtraGroup() throws InterruptedException {
        for (int i = 0; i < REPLICAS; i++) {
            if (extra[i] != null) {
                extra[i].close();
                extra[i] = null;
            }
        }
    }

    /**
     * Runs the admin command ({@code groups --directory <first group> args...}) as its own process; returns its exit
     * status and output.
     */
    GroupsRun groups(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(ServerProcess.command(ConsistencyCluster.jar("master.jar",
                "master-store/target/sessionmesh-master.jar"), "groups", "--directory", groupSpec(), "--wait", "2m"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new GroupsRun(p.exitValue(), output);
    }

    /** What one run of the admin command gave. */
    record GroupsRun(int exit, String output) {
    }

    int sidecars() {
        return sidecars.size();
    }

    URI api(int sidecar) {
        return URI.create("http://127.0.0.1:" + sidecars.get(sidecar).port());
    }

    /** In a sidecar's health once it routes by the directory's cluster map (PROTOCOL.md 3.9), not by --masters. */
    static final String ROUTED_BY_MAP = "\"routing\":\"map\"";

    /** Waits until the sidecar holds a valid lease with the group's leader. */
    void awaitLease(int sidecar) {
        sidecars.get(sidecar).awaitHealthy("\"valid\":true");
    }

    /** The replica that leads, by its STATS; waits for one for up to 30 s. */
    int leader() {
        int[] found = {-1};
        Await.until("a replica that leads", Duration.ofSeconds(30), () -> {
            for (int i = 0; i < REPLICAS; i++) {
                if (masters[i] != null && stats(i).contains("\"replica_leads\":1")) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    /** A replica's STATS ("" when it does not answer). */
    String stats(int replica) {
        return statsAt(ports[replica][0]);
    }

    private String statsAt(int port) {
        try (MasterConnection c = MasterConnection.connect(loop, new InetSocketAddress("127.0.0.1", port),
                MasterConnectionOptions.DEFAULT, null).get(2, TimeUnit.SECONDS)) {
            return c.stats().get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            return "";
        }
    }

    /** A number from a replica's STATS, or -1 when it does not answer or has no such figure. */
    long statOf(int replica, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + name + "\":(-?\\d+)").matcher(stats(replica));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    int masterPort(int replica) {
        return ports[replica][0];
    }

    void kill(int replica) throws InterruptedException {
        masters[replica].kill();
        masters[replica] = null;
    }

    void restart(int replica) throws IOException {
        startMaster(replica);
    }

    void pause(int replica) throws IOException, InterruptedException {
        masters[replica].pause();
    }

    void resume(int replica) throws IOException, InterruptedException {
        masters[replica].resume();
    }

    /** A sidecar's admin port. */
    int adminPort(int sidecar) {
        return sidecars.get(sidecar).port("admin");
    }

    HttpResponse<String> admin(int sidecar, String path) throws IOException, InterruptedException {
        return ConsistencyCluster.HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + sidecars.get(sidecar).port("admin") + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    List<String> troubles() {
        List<String> out = new ArrayList<>();
        for (ServerProcess p : everyMaster) {
            out.addAll(p.leaks());
        }
        for (ServerProcess s : sidecars) {
            out.addAll(s.leaks());
        }
        return out;
    }

    void saveOutputs(Path to) throws IOException {
        Files.createDirectories(to);
        for (int i = 0; i < everyMaster.size(); i++) {
            Files.write(to.resolve("master-start-" + i + ".log"), List.copyOf(everyMaster.get(i).output));
        }
        for (int s = 0; s < sidecars.size(); s++) {
            Files.write(to.resolve("sidecar-" + s + ".log"), List.copyOf(sidecars.get(s).output));
        }
        for (int i = 0; i < REPLICAS; i++) {
            if (masters[i] != null && masters[i].process.isAlive()) {
                threadDump(masters[i].process.pid(), to.resolve("master-" + i + "-threads.txt"));
            }
        }
    }

    /** The JDK's jstack of a live process into {@code file}: where a replica's threads wait, when a run fails. */
    private static void threadDump(long pid, Path file) {
        Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
        try {
            Process p = new ProcessBuilder(jstack.toString(), String.valueOf(pid)).redirectErrorStream(true)
                    .redirectOutput(file.toFile()).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            // no jstack in this runtime: the logs are all there is
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws Exception {
        for (ServerProcess s : sidecars) {
            s.close();
        }
        stopExtraGroup();
        for (int i = 0; i < REPLICAS; i++) {
            if (masters[i] != null) {
                try {
                    masters[i].resume();
                } catch (IOException e) {
                    // it had exited
                }
                masters[i].close();
            }
        }
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}

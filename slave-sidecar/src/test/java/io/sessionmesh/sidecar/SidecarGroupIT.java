package io.sessionmesh.sidecar;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sidecar in front of a group of three master processes (PROTOCOL.md 3.8): it finds the leader by itself, and when
 * the leader is killed (SIGKILL) under a stream of writes it follows the new one; every write it acknowledged is then
 * read back, and writes go on.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SidecarGroupIT {
    @TempDir
    Path dir;

    private final List<ServerProcess> processes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (ServerProcess p : processes) {
            p.close();
        }
    }

    @Test
    void theSidecarFollowsTheLeader_andNoAcknowledgedWriteIsLost() throws Exception {
        int[][] ports = new int[3][];
        List<String> replicas = new ArrayList<>();
        List<String> data = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ports[i] = new int[]{FreePorts.next(), FreePorts.next()};
            replicas.add("m" + i + "=127.0.0.1:" + ports[i][0] + "/" + ports[i][1]);
            data.add("127.0.0.1:" + ports[i][0]);
        }
        List<ServerProcess> masters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ServerProcess m = ServerProcess.start(ServerProcess.command(SidecarIT.masterJar(), "--port", String.valueOf(ports[i][0]),
                    "--replicas", String.join(",", replicas), "--replica-id", "m" + i, "--raft-dir", dir.resolve("m" + i).toString(),
                    "--io-threads", "1", "--lease", "500ms", "--election-timeout", "300ms"));
            processes.add(m);
            masters.add(m);
        }
        // The sidecar is given the replicas in an order that starts with a follower more often than not.
        ServerProcess sidecar = ServerProcess.start(ServerProcess.command(SidecarIT.sidecarJar(), "--masters", String.join("|", data),
                "--port", "0", "--admin-port", "0", "--reconnect-min", "50ms", "--reconnect-max", "300ms",
                "--heartbeat-interval", "200ms", "--master-timeout", "5s", "--lease-margin", "100ms"));
        processes.add(sidecar);
        int api = sidecar.port();
        Await.until("the sidecar reaches the group's leader", Duration.ofSeconds(30),
                () -> SidecarIT.call(api, "POST", "/v1/sessions", null).statusCode() == 201);

        HttpResponse<String> created = SidecarIT.call(api, "POST", "/v1/sessions", null);
        Matcher m = SidecarIT.ID.matcher(created.body());
        assertTrue(m.find(), created.body());
        String sid = m.group(1);

        List<String> acknowledged = new ArrayList<>();
        Map<Integer, Integer> statuses = new TreeMap<>();
        int leader = leaderOf(masters);
        long killAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        long endAt = killAt + TimeUnit.SECONDS.toNanos(6);
        boolean killed = false;
        for (int n = 0; System.nanoTime() < endAt; n++) {
            if (!killed && System.nanoTime() >= killAt) {
                masters.get(leader).kill();
                killed = true;
            }
            String name = "a" + n;
            HttpResponse<String> w = SidecarIT.call(api, "PATCH", "/v1/sessions/" + sid,
                    "{\"sections\":{\"cart\":{\"set\":{\"" + name + "\":\"" + b64(name) + "\"}}}}");
            statuses.merge(w.statusCode(), 1, Integer::sum);
            if (w.statusCode() == 200) {
                acknowledged.add(name);
            }
        }
        assertTrue(statuses.keySet().stream().allMatch(s -> s == 200 || s == 503 || s == 504),
                "only 200, 503 or 504 while the leader changed: " + statuses);
        HttpResponse<String> read = SidecarIT.call(api, "GET", "/v1/sessions/" + sid + "?sections=cart", null);
        assertEquals(200, read.statusCode(), read.body());
        for (String name : acknowledged) {
            assertTrue(read.body().contains("\"" + name + "\":\"" + b64(name) + "\""), name + " was acknowledged and is lost: "
                    + read.body());
        }
        assertEquals(200, SidecarIT.call(api, "PATCH", "/v1/sessions/" + sid,
                "{\"sections\":{\"cart\":{\"set\":{\"after\":\"" + b64("after") + "\"}}}}").statusCode(),
                "writes go on after the failover: " + statuses);
        String stats = SidecarIT.call(sidecar.port("admin"), "GET", "/admin/stats", null).body();
        System.out.println("sidecar across a leader's SIGKILL: " + statuses + ", " + acknowledged.size() + " writes acknowledged; "
                + stats.replaceAll(".*(\"master_leader_changes\":\\d+).*", "$1"));
    }

    /** The replica whose STATS say it leads. */
    private static int leaderOf(List<ServerProcess> masters) throws Exception {
        int[] found = {-1};
        Await.until("a leader", Duration.ofSeconds(30), () -> {
            for (int i = 0; i < masters.size(); i++) {
                try (var c = io.sessionmesh.wire.client.MasterConnection.connect(LOOP,
                        new java.net.InetSocketAddress("127.0.0.1", masters.get(i).port()),
                        io.sessionmesh.wire.client.MasterConnectionOptions.DEFAULT, null).join()) {
                    if (c.stats().get(5, TimeUnit.SECONDS).contains("\"replica_leads\":1")) {
                        found[0] = i;
                        return true;
                    }
                }
            }
            return false;
        });
        return found[0];
    }

    private static final io.netty.channel.EventLoopGroup LOOP =
            new io.netty.channel.MultiThreadIoEventLoopGroup(1, io.netty.channel.nio.NioIoHandler.newFactory());

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

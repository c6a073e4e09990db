package io.sessionmesh.sidecar;

import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.sidecar.config.SidecarConfig;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Three masters, two sidecars with the same master list: sessions land where every sidecar looks for them. */
class MultiMasterIT {
    static final List<MasterServer> masters = new ArrayList<>();
    static SidecarServer one;
    static SidecarServer two;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            MasterServer m = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
            masters.add(m);
            addresses.add("127.0.0.1:" + m.address().getPort());
        }
        Map<String, String> settings = Map.of("masters", String.join(",", addresses), "port", "0", "admin-port", "0",
                "vnodes", "4096");
        one = SidecarServer.start(SidecarConfig.of(settings));
        two = SidecarServer.start(SidecarConfig.of(settings));
        TestHttp.awaitHealthy(one);
        TestHttp.awaitHealthy(two);
    }

    @AfterAll
    static void stop() {
        one.close();
        two.close();
        masters.forEach(MasterServer::close);
    }

    static String call(SidecarServer s, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort() + path))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() < 300, r.statusCode() + " " + r.body());
        return r.body();
    }

    @Test
    void sessionsCreatedThroughOneSidecar_areSpreadOverMasters_andFoundThroughTheOther() throws Exception {
        List<String> ids = new ArrayList<>();
        Pattern id = Pattern.compile("\"id\":\"([^\"]+)\"");
        for (int i = 0; i < 150; i++) {
            Matcher m = id.matcher(call(one, "POST", "/v1/sessions", null));
            assertTrue(m.find());
            ids.add(m.group(1));
            call(one, "PATCH", "/v1/sessions/" + m.group(1), "{\"sections\":{\"s\":{\"set\":{\"n\":\"" +
                    java.util.Base64.getEncoder().encodeToString(new byte[] {(byte) i}) + "\"}}}}");
        }
        for (MasterServer m : masters) {
            long n = m.store().sessionCount();
            assertTrue(n >= 30 && n <= 70, "one master holds " + n + " of 150 sessions");
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            for (int i = 0; i < ids.size(); i++) {
                String body = call(two, "GET", "/v1/sessions/" + ids.get(i) + "?sections=s", null);
                assertTrue(body.contains("\"version\":1"), body);
                // and the session is on the master the ring names, and only there
                int owner = one.service().router().ring().indexFor(ids.get(i));
                try (MasterConnection c = MasterConnection.connect(group, masters.get(owner).address(),
                        MasterConnectionOptions.DEFAULT, null).join()) {
                    assertArrayEquals(new byte[] {(byte) i}, c.read(new ReadRequest(ids.get(i), List.of("s"))).join()
                            .result().toReadResult().sections().get(0).attributes().get("n"));
                }
            }
        } finally {
            group.shutdownGracefully();
        }
    }

    @Test
    void schemaPublishedThroughOneSidecar_isFetchedThroughTheOther() throws Exception {
        HttpRequest put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + one.address().getPort() + "/v1/schemas/abcdef"))
                .header("Content-Type", "application/octet-stream").PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[] {4, 2}))
                .build();
        assertEquals(204, http.send(put, HttpResponse.BodyHandlers.discarding()).statusCode());
        HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + two.address().getPort() + "/v1/schemas/abcdef"))
                .header("Accept", "application/x-sessionmesh").build();
        HttpResponse<byte[]> r = http.send(get, HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertArrayEquals(new byte[] {4, 2}, r.body());
    }
}

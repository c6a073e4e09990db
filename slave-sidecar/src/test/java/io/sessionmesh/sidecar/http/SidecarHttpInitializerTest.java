package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.service.SidecarService;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two servers' pipelines, built on EmbeddedChannels and driven with raw HTTP through the real codec. */
class SidecarHttpInitializerTest {
    final SidecarService service = OfflineService.of(new SectionCache(1 << 20, Duration.ofMinutes(5)));

    static SidecarConfig config(String maxConnections) {
        return SidecarConfig.of(Map.of("masters", "127.0.0.1:1", "max-http-connections", maxConnections));
    }

    /** Everything written out, as text; the buffers released. */
    static String written(EmbeddedChannel channel) {
        StringBuilder b = new StringBuilder();
        for (Object o; (o = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) o;
            b.append(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
        }
        return b.toString();
    }

    static void send(EmbeddedChannel channel, String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    @Test
    void initChannel_apiServer_ordersRequestsBeforeTheApiHandler() {
        EmbeddedChannel channel = new EmbeddedChannel(new SidecarHttpInitializer(config("10"), service, false));
        assertEquals(List.of("limit", "idle", "requests", "responses", "pipelining", "api"),
                channel.pipeline().names().subList(0, 6));
        assertTrue(channel.pipeline().get("api") instanceof ApiHandler);
        channel.finishAndReleaseAll();
    }

    @Test
    void initChannel_adminServer_hasTheAdminHandlerAndNoPipelining() {
        EmbeddedChannel channel = new EmbeddedChannel(new SidecarHttpInitializer(config("10"), service, true));
        assertEquals(List.of("limit", "idle", "http", "body", "api"), channel.pipeline().names().subList(0, 5));
        assertTrue(channel.pipeline().get("api") instanceof AdminHandler);
        channel.finishAndReleaseAll();
    }

    @Test
    void apiServer_rawRequests_areAnsweredInHttpAndTheLastClosesTheConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new SidecarHttpInitializer(config("10"), service, false));
        send(channel, "GET /v2/x HTTP/1.1\r\nHost: x\r\n\r\nPUT /v1/sessions/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        String out = written(channel);
        String notFound = "{\"error\":\"NOT_FOUND\",\"message\":\"no such endpoint: GET /v2/x (the API is under /v1)\"}";
        assertTrue(out.startsWith("HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: "
                + notFound.length() + "\r\n\r\n" + notFound + "HTTP/1.1 405 Method Not Allowed\r\n"), out);
        assertTrue(out.contains("\r\nallow: GET, PATCH, DELETE\r\n") && out.contains("\r\nconnection: close\r\n"), out);
        assertFalse(channel.isOpen());
    }

    @Test
    void apiServer_connectionsOverTheLimit_areClosedAtOnce() {
        SidecarHttpInitializer initializer = new SidecarHttpInitializer(config("1"), service, false);
        EmbeddedChannel first = new EmbeddedChannel(initializer);
        EmbeddedChannel second = new EmbeddedChannel(initializer);
        assertTrue(first.isOpen());
        assertFalse(second.isOpen());
        first.finishAndReleaseAll();
    }
}

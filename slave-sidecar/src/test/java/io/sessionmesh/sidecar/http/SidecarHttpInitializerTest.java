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
        assertEquals(List.of("limit", "idle", "deadline", "http", "body", "whole", "api"),
                channel.pipeline().names().subList(0, 7));
        assertTrue(channel.pipeline().get("api") instanceof AdminHandler);
        channel.finishAndReleaseAll();
    }

    @Test
    void apiServer_rawRequests_areAnsweredInHttpAndTheLastClosesTheConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new SidecarHttpInitializer(config("10"), service, false));
        send(channel, "GET /v2/x HTTP/1.1\r\nHost: localhost\r\n\r\nPUT /v1/sessions/abc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        String out = written(channel);
        String notFound = "{\"error\":\"NOT_FOUND\",\"message\":\"no such endpoint: GET /v2/x (the API is under /v1)\"}";
        assertTrue(out.startsWith("HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: "
                + notFound.length() + "\r\n\r\n" + notFound + "HTTP/1.1 405 Method Not Allowed\r\n"), out);
        assertTrue(out.contains("\r\nallow: GET, PATCH, DELETE\r\n") && out.contains("\r\nconnection: close\r\n"), out);
        assertFalse(channel.isOpen());
    }

    /** The admin pipeline with {@code head-timeout} 1 s, its clock frozen. */
    EmbeddedChannel adminWithHeadTimeout() {
        EmbeddedChannel channel = new EmbeddedChannel(new SidecarHttpInitializer(SidecarConfig.of(Map.of("masters",
                "127.0.0.1:1", "head-timeout", "1s")), service, true));
        channel.freezeTime();
        return channel;
    }

    static void elapse(EmbeddedChannel channel, long millis) {
        channel.advanceTimeBy(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    /**
     * An admin request trickled in past head-timeout, in its head or in its body: answered 408, naming head-timeout, and
     * closed, before any token is read. Bytes that keep coming do not move the deadline.
     */
    @Test
    void adminServer_requestTrickledPastHeadTimeout_is408AndClosed() {
        for (String begun : new String[] {"GET /admin/sta", "GET /admin/stats HTTP/1.1\r\nHo",
                "POST /admin/logout HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n{\"principal\""}) {
            EmbeddedChannel channel = adminWithHeadTimeout();
            send(channel, begun);
            elapse(channel, 999);
            send(channel, "s"); // a trickle
            assertEquals("", written(channel), "nothing before the deadline: " + begun);
            elapse(channel, 1);
            String out = written(channel);
            assertTrue(out.startsWith("HTTP/1.1 408 Request Timeout\r\n") && out.contains("head-timeout")
                    && out.contains("\r\nconnection: close\r\n"), begun + ": " + out);
            assertFalse(channel.isOpen(), "closed after the 408: " + begun);
            channel.finishAndReleaseAll();
        }
    }

    /**
     * Admin requests that arrive in time, whole or in pieces, are answered as usual and leave no deadline behind (an idle
     * connection is http-idle-timeout's to close); the next request's deadline runs from its own first read.
     */
    @Test
    void adminServer_requestsInTime_areAnswered_andLeaveNoDeadline() {
        EmbeddedChannel channel = adminWithHeadTimeout();
        send(channel, "GET /admin/stats HTTP/1.1\r\nHost: localhost\r\n\r\n");
        String first = written(channel);
        assertTrue(first.startsWith("HTTP/1.1 200 OK\r\n"), first);
        send(channel, "GET /admin/stats HTTP/1.1\r\nHo");
        elapse(channel, 999);
        send(channel, "st: localhost\r\n\r\n");
        String second = written(channel);
        assertTrue(second.startsWith("HTTP/1.1 200 OK\r\n"), second);
        elapse(channel, 10_000);
        assertEquals("", written(channel), "a deadline outlived its request");
        assertTrue(channel.isOpen());
        send(channel, "GET /admin/st");
        elapse(channel, 1000);
        assertTrue(written(channel).startsWith("HTTP/1.1 408 "), "the next request has its own deadline");
        channel.finishAndReleaseAll();
    }

    /** While the connection is not read (an answer being made), the request cannot come: its deadline starts again. */
    @Test
    void adminServer_deadlineWhileNotReading_startsAgain() {
        EmbeddedChannel channel = adminWithHeadTimeout();
        send(channel, "GET /admin/sta");
        channel.config().setAutoRead(false);
        elapse(channel, 1000);
        assertEquals("", written(channel), "failed while this side was not reading");
        assertTrue(channel.isOpen());
        channel.config().setAutoRead(true);
        elapse(channel, 1000);
        assertTrue(written(channel).startsWith("HTTP/1.1 408 "), "reading again, the deadline holds");
        channel.finishAndReleaseAll();
    }

    /**
     * An admin connection unused for http-idle-timeout is closed, as an API one is (it used to hold its slot forever);
     * one whose answer is still being made (reading off meanwhile) is not.
     */
    @Test
    void adminServer_idleConnection_isClosed_butNotWhileAnAnswerIsMade() {
        SidecarHttpInitializer admin = new SidecarHttpInitializer(SidecarConfig.of(Map.of("masters", "127.0.0.1:1",
                "http-idle-timeout", "1s")), service, true);
        EmbeddedChannel idle = new EmbeddedChannel(admin);
        idle.freezeTime();
        send(idle, "GET /admin/stats HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertTrue(written(idle).startsWith("HTTP/1.1 200 OK\r\n"));
        elapse(idle, 999);
        assertTrue(idle.isOpen());
        elapse(idle, 1);
        assertFalse(idle.isOpen(), "idle past http-idle-timeout");
        idle.finishAndReleaseAll();

        EmbeddedChannel answering = new EmbeddedChannel(admin);
        answering.freezeTime();
        answering.config().setAutoRead(false); // as AdminHandler sets it while an answer is made
        elapse(answering, 5000);
        assertTrue(answering.isOpen(), "closed while an answer was being made");
        answering.finishAndReleaseAll();
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

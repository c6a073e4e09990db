package io.sessionmesh.client.internal;

import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sidecar client's HTTP/1.1 framing against a plain socket server on loopback (TCP, or a Unix domain socket)
 * that answers with exactly the bytes a test gives, sent in as many pieces as it likes: heads split anywhere, header
 * names in any case, bodies larger than the buffers, the answers a sidecar never gives, which must fail cleanly, and
 * a sidecar that does not answer in time.
 */
class SidecarHttpTest {
    @TempDir
    Path dir;
    private ServerSocketChannel server;
    private final List<byte[]> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** A TCP server that reads each request (head plus Content-Length body) and writes {@code answer}'s pieces. */
    private SidecarHttp serve(Function<byte[], List<byte[]>> answer) throws IOException {
        return serve(answer, false, Duration.ofSeconds(5));
    }

    /** {@link #serve(Function)} on TCP or on a Unix domain socket, with this request timeout. */
    private SidecarHttp serve(Function<byte[], List<byte[]>> answer, boolean unix, Duration requestTimeout) throws IOException {
        URI uri;
        if (unix) {
            Path sock = dir.resolve("sidecar.sock");
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(sock));
            uri = URI.create("unix:" + sock);
        } else {
            server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            uri = URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort());
        }
        Thread t = new Thread(() -> {
            while (server.isOpen()) {
                try {
                    SocketChannel s = server.accept();
                    connections.incrementAndGet();
                    Thread c = new Thread(() -> handle(s, answer));
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return new SidecarHttp(uri, Duration.ofSeconds(2), requestTimeout, 2, 1 << 20);
    }

    private void handle(SocketChannel s, Function<byte[], List<byte[]>> answer) {
        try (s; InputStream in = Channels.newInputStream(s); OutputStream out = Channels.newOutputStream(s)) {
            while (true) {
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                int b;
                while ((b = in.read()) >= 0) {
                    head.write(b);
                    byte[] h = head.toByteArray();
                    if (h.length >= 4 && h[h.length - 4] == '\r' && h[h.length - 3] == '\n' && h[h.length - 2] == '\r' && h[h.length - 1] == '\n') {
                        break;
                    }
                }
                if (b < 0) {
                    return;
                }
                String text = head.toString(StandardCharsets.ISO_8859_1);
                int length = 0;
                for (String line : text.split("\r\n")) {
                    if (line.toLowerCase().startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                byte[] body = in.readNBytes(length);
                ByteArrayOutputStream whole = new ByteArrayOutputStream();
                whole.write(head.toByteArray());
                whole.write(body);
                requests.add(whole.toByteArray());
                for (byte[] piece : answer.apply(whole.toByteArray())) {
                    out.write(piece);
                    out.flush();
                    Thread.sleep(2);
                }
            }
        } catch (IOException | InterruptedException e) {
            // the test closed it
        }
    }

    private static List<byte[]> pieces(String text, int size) {
        byte[] all = text.getBytes(StandardCharsets.ISO_8859_1);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < all.length; i += size) {
            out.add(Arrays.copyOfRange(all, i, Math.min(all.length, i + size)));
        }
        return out;
    }

    @Test
    void exchange_headSplitIntoSingleBytes_andNamesInAnyCase_isParsed() throws IOException {
        SidecarHttp http = serve(req -> pieces("HTTP/1.1 201 Created\r\ncOnTeNt-TyPe :  application/json \r\n"
                + "X-Other: 1\r\nCONTENT-LENGTH: 5\r\n\r\nhello", 1));
        SidecarHttp.Response r = http.exchange("GET", "/v1/sessions/a", null, null, "application/json");
        assertEquals(201, r.status());
        assertEquals("application/json", r.contentType());
        assertEquals("hello", new String(r.body(), StandardCharsets.US_ASCII));
        String sent = new String(requests.get(0), StandardCharsets.ISO_8859_1);
        assertTrue(sent.startsWith("GET /v1/sessions/a HTTP/1.1\r\nHost: 127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort()
                + "\r\nAccept: application/json\r\n\r\n"), sent);
    }

    @Test
    void exchange_keepAlive_reusesTheConnection_untilTheSidecarSaysClose() throws IOException {
        AtomicInteger n = new AtomicInteger();
        SidecarHttp http = serve(req -> List.of(("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n"
                + (n.incrementAndGet() == 2 ? "Connection: close\r\n" : "") + "\r\nx").getBytes(StandardCharsets.US_ASCII)));
        for (int i = 0; i < 4; i++) {
            assertEquals(200, http.exchange("GET", "/v1/x", null, null, null).status());
        }
        assertEquals(2, connections.get(), "one connection until the close, then a new one");
    }

    @Test
    void exchange_bodiesLargerThanTheBuffers_goBothWays() throws IOException {
        byte[] big = new byte[3 * SidecarHttp.BUFFER_BYTES + 7];
        Arrays.fill(big, (byte) 'b');
        SidecarHttp http = serve(req -> {
            List<byte[]> out = new ArrayList<>(pieces("HTTP/1.1 200 OK\r\nContent-Length: " + big.length + "\r\n\r\n", 7));
            out.add(big);
            return out;
        });
        SidecarHttp.Response r = http.exchange("PATCH", "/v1/sessions/a", "application/octet-stream", big, null);
        assertArrayEquals(big, r.body());
        byte[] sent = requests.get(0);
        assertArrayEquals(big, Arrays.copyOfRange(sent, sent.length - big.length, sent.length));
        assertTrue(new String(sent, 0, 200, StandardCharsets.ISO_8859_1).contains("Content-Length: " + big.length + "\r\n"));
    }

    @Test
    void exchange_answersASidecarNeverGives_failCleanly_andTheNextCallWorks() throws IOException {
        AtomicInteger n = new AtomicInteger();
        String[] bad = {"HTTP/1.1 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "SMTP ready\r\n\r\n", "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n",
                "HTTP/1.1 200 OK\r\nX-Big: " + "y".repeat(SidecarHttp.MAX_HEADER_BYTES) + "\r\n\r\n"};
        SidecarHttp http = serve(req -> {
            int i = n.getAndIncrement();
            return List.of((i < bad.length ? bad[i] : "HTTP/1.1 204 No Content\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        });
        for (String answer : bad) {
            // the request went whole, and no answer could be read: the write may or may not have been applied
            io.sessionmesh.client.WriteOutcomeUnknownException e = assertThrows(
                    io.sessionmesh.client.WriteOutcomeUnknownException.class,
                    () -> http.exchange("PATCH", "/v1/sessions/a", "application/json", new byte[] {'{', '}'}, null), answer);
            assertTrue(e.getMessage().contains("PATCH"), e.getMessage());
        }
        assertEquals(204, http.exchange("PATCH", "/v1/sessions/a", "application/json", new byte[] {'{', '}'}, null).status());
    }

    @Test
    void exchange_overAUnixDomainSocket_keepsTheConnectionAlive_andCarriesLargeBodies() throws IOException {
        byte[] big = new byte[100_000];
        Arrays.fill(big, (byte) 'z');
        SidecarHttp http = serve(req -> List.of(("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                + (req.length) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), req), true, Duration.ofSeconds(5));
        for (int i = 0; i < 3; i++) {
            SidecarHttp.Response r = http.exchange("PATCH", "/v1/sessions/a", "application/octet-stream", big, null);
            assertEquals(200, r.status());
            assertArrayEquals(big, Arrays.copyOfRange(r.body(), r.body().length - big.length, r.body().length));
            assertTrue(new String(r.body(), 0, 60, StandardCharsets.ISO_8859_1).startsWith("PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\n"),
                    new String(r.body(), 0, 60, StandardCharsets.ISO_8859_1));
        }
        assertEquals(1, connections.get(), "one keep-alive connection for three calls");
        http.close();
    }

    @Test
    void exchange_whenTheSidecarDoesNotAnswerInTime_failsWithATimeout_andTheNextCallWorks() throws IOException {
        AtomicInteger n = new AtomicInteger();
        SidecarHttp http = serve(req -> {
            if (n.getAndIncrement() == 0) {
                try {
                    Thread.sleep(2_000); // past the client's 200 ms
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return List.of("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }, true, Duration.ofMillis(200));
        long start = System.nanoTime();
        SidecarTimeoutException e = assertThrows(SidecarTimeoutException.class,
                () -> http.exchange("GET", "/v1/sessions/a", null, null, null));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("did not answer GET in 200 ms"), e.getMessage());
        assertTrue(tookMillis >= 200, "failed after " + tookMillis + " ms, before its timeout");
        assertEquals(204, http.exchange("GET", "/v1/sessions/a", null, null, null).status());
        assertEquals(2, connections.get(), "the late connection is closed, not reused");
        http.close();
    }

    @Test
    void patchThatGetsNoAnswerInTime_isOfUnknownOutcome_carryingItsWriteId_whichWentAsIdempotencyKey() throws IOException {
        List<String> heads = new java.util.concurrent.CopyOnWriteArrayList<>();
        SidecarHttp http = serve(req -> {
            heads.add(new String(req, StandardCharsets.ISO_8859_1));
            try {
                Thread.sleep(2_000); // past the client's 200 ms
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }, true, Duration.ofMillis(200));
        io.sessionmesh.wire.protocol.WriteId id = io.sessionmesh.wire.protocol.WriteId.next();
        io.sessionmesh.client.WriteOutcomeUnknownException e = assertThrows(io.sessionmesh.client.WriteOutcomeUnknownException.class,
                () -> http.exchange("PATCH", "/v1/sessions/a", "application/json", new byte[] {'{', '}'}, null, id));
        assertEquals(id, e.writeId());
        assertTrue(e.getMessage().contains("may or may not have been applied"), e.getMessage());
        assertTrue(heads.get(0).contains("\r\nIdempotency-Key: " + id.hex() + "\r\n"), heads.get(0));
        http.close();
    }

    @Test
    void aUnixSocketNobodyListensOn_isUnavailable_namingIt() {
        Path sock = dir.resolve("none.sock");
        SidecarHttp http = new SidecarHttp(URI.create("unix:" + sock), Duration.ofSeconds(1), Duration.ofSeconds(1), 2, 1 << 20);
        SidecarUnavailableException e = assertThrows(SidecarUnavailableException.class,
                () -> http.exchange("GET", "/v1/sessions/a", null, null, null));
        assertTrue(e.getMessage().contains("unix:" + sock), e.getMessage());
        http.close();
    }

    @Test
    void sidecarUris_otherThanHttpOrAnAbsoluteUnixPath_areRefused() {
        for (String bad : new String[] {"https://127.0.0.1:7500", "http://127.0.0.1", "unix:relative.sock", "unix://host/x.sock", "file:/tmp/x"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new SidecarHttp(URI.create(bad), Duration.ofSeconds(1), Duration.ofSeconds(1), 2, 1 << 20), bad);
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }

    @Test
    void close_stopsTheTimeoutWatch_andLaterCallsFail() throws IOException {
        SidecarHttp http = serve(req -> List.of("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)));
        assertEquals(204, http.exchange("GET", "/v1/sessions/a", null, null, null).status());
        http.close();
        assertThrows(SidecarUnavailableException.class, () -> http.exchange("GET", "/v1/sessions/a", null, null, null));
    }
}

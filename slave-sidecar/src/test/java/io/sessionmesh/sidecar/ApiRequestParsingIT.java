package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API port's own HTTP/1.1 request decoder (ApiRequestDecoder) against a real sidecar and master in this JVM, over
 * raw sockets on loopback: requests split across reads, pipelined in one write, over the limits, malformed, smuggling
 * shapes; each answer checked for its status, its message and whether the connection goes on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ApiRequestParsingIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");
    static final int MAX_BODY = 1024;

    static MasterServer master;
    static SidecarServer sidecar;

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "vnodes", "16", "max-body", String.valueOf(MAX_BODY))));
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    /** One answer: status, headers (names lower case), body. */
    record Answer(int status, Map<String, String> headers, String body) {
    }

    /** A raw connection to the API port. */
    static final class Connection implements AutoCloseable {
        final Socket socket;
        final InputStream in;
        final OutputStream out;

        Connection() throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), sidecar.address().getPort());
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /** The text in pieces of {@code piece} bytes, each its own segment. */
        void sendInPieces(String text, int piece) throws Exception {
            byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
            for (int at = 0; at < bytes.length; at += piece) {
                out.write(bytes, at, Math.min(piece, bytes.length - at));
                out.flush();
                Thread.sleep(2);
            }
        }

        String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("closed mid-line after \"" + b + "\"");
                }
                b.write(c);
            }
            String s = b.toString(StandardCharsets.ISO_8859_1);
            return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }

        Answer read() throws IOException {
            String status = line();
            assertTrue(status.startsWith("HTTP/1.1 "), status);
            Map<String, String> headers = new java.util.HashMap<>();
            for (String h; !(h = line()).isEmpty(); ) {
                int colon = h.indexOf(':');
                headers.put(h.substring(0, colon).toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            byte[] body = in.readNBytes(length);
            return new Answer(Integer.parseInt(status.substring(9, 12)), headers, new String(body, StandardCharsets.UTF_8));
        }

        boolean closedByPeer() throws IOException {
            return in.read() < 0;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static String create(Connection c) throws IOException {
        c.send("POST /v1/sessions HTTP/1.1\r\nHost: localhost\r\n\r\n");
        Answer a = c.read();
        assertEquals(201, a.status(), a.body());
        Matcher m = ID.matcher(a.body());
        assertTrue(m.find(), a.body());
        return m.group(1);
    }

    static String patch(String id, String value, String extraHeaders) {
        String body = "{\"sections\":{\"s\":{\"set\":{\"v\":\"" + value + "\"}}}}";
        return "PATCH /v1/sessions/" + id + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" + extraHeaders
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    static String get(String id) {
        return "GET /v1/sessions/" + id + "?sections=s HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    @Test
    void requestSplitAcrossManyReads_isReadWhole() throws Exception {
        try (Connection c = new Connection()) {
            String id = create(c);
            c.sendInPieces(patch(id, "c3BsaXQ=", "X-Anything: dropped\r\n"), 3);
            assertEquals(200, c.read().status());
            c.sendInPieces(get(id), 1);
            Answer a = c.read();
            assertEquals(200, a.status());
            assertTrue(a.body().contains("c3BsaXQ="), a.body());
        }
    }

    @Test
    void pipelinedRequestsInOneWrite_areAnsweredInOrder() throws Exception {
        try (Connection c = new Connection()) {
            String id = create(c);
            c.send(patch(id, "b25l", "") + get(id) + "GET /v2/nothing HTTP/1.1\r\nHost: localhost\r\n\r\n" + patch(id, "dHdv", "")
                    + get(id));
            assertEquals(200, c.read().status());
            assertTrue(c.read().body().contains("b25l"));
            assertEquals(404, c.read().status());
            assertEquals(200, c.read().status());
            assertTrue(c.read().body().contains("dHdv"));
        }
    }

    @Test
    void bodyOverMaxBody_is413InItsTurn_andTheConnectionGoesOn() throws Exception {
        try (Connection c = new Connection()) {
            String id = create(c);
            String big = "x".repeat(MAX_BODY + 1);
            c.send("PATCH /v1/sessions/" + id + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
                    + big.length() + "\r\n\r\n" + big + get(id));
            Answer tooLarge = c.read();
            assertEquals(413, tooLarge.status());
            assertTrue(tooLarge.body().contains("max-body"), tooLarge.body());
            assertEquals(200, c.read().status(), "the request behind the skipped body was read in step");
        }
    }

    @Test
    void expect100Continue_getsContinue_thenItsAnswer() throws Exception {
        try (Connection c = new Connection()) {
            String id = create(c);
            String request = patch(id, "Y29udGludWU=", "Expect: 100-continue\r\n");
            int head = request.indexOf("\r\n\r\n") + 4;
            c.send(request.substring(0, head));
            assertEquals("HTTP/1.1 100 Continue", c.line());
            assertEquals("", c.line());
            c.send(request.substring(head));
            assertEquals(200, c.read().status());
        }
    }

    @Test
    void connectionClose_andHttp10_areAnsweredThenClosed() throws Exception {
        try (Connection c = new Connection()) {
            String id = create(c);
            c.send("GET /v1/sessions/" + id + "?sections=s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" + get(id));
            Answer a = c.read();
            assertEquals(200, a.status());
            assertEquals("close", a.headers().get("connection"));
            assertTrue(c.closedByPeer(), "a request behind Connection: close was answered");
        }
        try (Connection c = new Connection()) {
            c.send("GET /v2/x HTTP/1.0\r\n\r\n");
            assertEquals(404, c.read().status());
            assertTrue(c.closedByPeer());
        }
    }

    /** Each refused head: its status, a word its message must name, and the connection closes after it. */
    @Test
    void malformedOrRefusedHeads_getAClearStatus_andTheConnectionCloses() throws Exception {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"GET /v1/sessions/a HTTP/1.1\r\nHost : x\r\n\r\n", "400", "header name"});
        cases.add(new String[] {"GET /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\n folded\r\n\r\n", "400", "folding"});
        cases.add(new String[] {"GET  /v1/sessions/a HTTP/1.1\r\n\r\n", "400", "request line"});
        cases.add(new String[] {"GET /v1/sessions/a HTTP/2.0\r\n\r\n", "505", "HTTP/2.0"});
        cases.add(new String[] {"GET /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nX: a\rb\r\n\r\n", "400", "bare CR"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "411", "Content-Length"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "501", "gzip"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
                "400", "both Content-Length and Transfer-Encoding"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
                "400", "more than one Content-Length"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
                "400", "more than one Content-Length"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nContent-Length: -3\r\n\r\n", "400", "Content-Length"});
        cases.add(new String[] {"PATCH /v1/sessions/a HTTP/1.1\r\nExpect: teapot\r\n\r\n", "417", "teapot"});
        cases.add(new String[] {"GET /v1/sessions/a HTTP/1.1\r\n\r\n", "400", "must have a Host header"});
        cases.add(new String[] {"GET /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nHost: y\r\n\r\n", "400", "more than one Host"});
        cases.add(new String[] {"GET /" + "a".repeat(9000) + " HTTP/1.1\r\n\r\n", "414", "8192"});
        cases.add(new String[] {"GET /v1/sessions/a HTTP/1.1\r\nX-Big: " + "b".repeat(17000) + "\r\n\r\n", "431", "16384"});
        for (String[] k : cases) {
            try (Connection c = new Connection()) {
                c.send(k[0] + "GET /v2/after HTTP/1.1\r\nHost: localhost\r\n\r\n");
                Answer a = c.read();
                String what = k[0].substring(0, Math.min(80, k[0].length())) + " -> " + a.status() + " " + a.body();
                assertEquals(Integer.parseInt(k[1]), a.status(), what);
                assertTrue(a.body().contains(k[2]), what);
                assertEquals("close", a.headers().get("connection"), what);
                assertTrue(c.closedByPeer(), "read on after a refused head: " + what);
            }
        }
    }
}

package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.testing.Await;

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
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST API's bounds under abuse, through raw sockets on loopback against a sidecar and a master in this JVM, both
 * with their defaults: a client that pipelines reads and never reads the answers, and many connections that announce
 * bodies of {@code max-body} at once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpBoundsIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");
    /** The size of the value the pipelined reads ask for. */
    static final int VALUE_BYTES = 48 << 10;
    /** The default max-outbound. */
    static final long MAX_OUTBOUND_BYTES = 64L << 20;

    static MasterServer master;
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "vnodes", "16")));
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    static String base() {
        return "http://127.0.0.1:" + sidecar.address().getPort() + "/v1/sessions";
    }

    static String sessionWithABigSection() throws Exception {
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base())).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = ID.matcher(created.body());
        assertTrue(m.find(), created.body());
        String id = m.group(1);
        byte[] value = new byte[VALUE_BYTES];
        new Random(1).nextBytes(value);
        String body = "{\"sections\":{\"big\":{\"set\":{\"v\":\"" + Base64.getEncoder().encodeToString(value) + "\"}}}}";
        assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(base() + "/" + id)).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        return id;
    }

    static int get(String id) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + "/" + id + "?sections=big")).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void clientThatNeverReadsItsAnswers_isNotRead_itsAnswersStayBounded_andOthersAreServed() throws Exception {
        String id = sessionWithABigSection();
        assertEquals(200, get(id)); // cached: every read below is answered at once, from the cache
        SidecarMetrics metrics = sidecar.service().metrics();
        long readsBefore = metrics.requests(SidecarMetrics.Op.READ);
        int requests = 6000; // 6,000 answers of 48 KiB: 288 MiB if all were answered into the socket
        byte[] one = ("GET /v1/sessions/" + id + "?sections=big HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try (Socket abuser = new Socket()) {
            abuser.setReceiveBufferSize(64 << 10);
            abuser.connect(sidecar.address());
            Thread writer = new Thread(() -> {
                try {
                    OutputStream out = abuser.getOutputStream();
                    for (int i = 0; i < requests; i++) {
                        out.write(one);
                    }
                    out.flush();
                } catch (IOException e) {
                    // the sidecar closed it, or the test did
                }
            });
            writer.setDaemon(true);
            writer.start();
            // Until the sidecar stops answering (it no longer reads, or closed the connection).
            long last = -1;
            long now = metrics.requests(SidecarMetrics.Op.READ);
            for (int i = 0; i < 60 && now != last; i++) {
                Thread.sleep(500);
                last = now;
                now = metrics.requests(SidecarMetrics.Op.READ);
            }
            long answered = now - readsBefore;
            long bound = MAX_OUTBOUND_BYTES / VALUE_BYTES + 2L * SidecarConfig.DEFAULT_MAX_PIPELINED;
            assertTrue(answered <= bound, answered + " of " + requests + " pipelined reads were answered into a socket whose "
                    + "client reads nothing (" + (answered * VALUE_BYTES >> 20) + " MiB); at most " + bound + " expected");
            assertEquals(200, get(id), "another connection is served meanwhile");
        }
    }

    @Test
    void manyConnectionsAnnouncingLargeBodies_getTheBudgetOr503_andTheBudgetReturnsToZero() throws Exception {
        String id = sessionWithABigSection();
        int maxBody = 32 << 20;
        long budget = 256L << 20; // the defaults
        int fit = (int) (budget / maxBody);
        List<Socket> sockets = new ArrayList<>();
        try {
            int refused = 0;
            String refusal = null;
            for (int i = 0; i < fit + 4; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), sidecar.address().getPort());
                s.setSoTimeout(2000);
                sockets.add(s);
                // The headers of a PATCH whose body is max-body; the body is never sent.
                s.getOutputStream().write(("PATCH /v1/sessions/" + id + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + maxBody + "\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                String answer = headOf(s.getInputStream());
                if (answer != null) {
                    refused++;
                    refusal = answer;
                    assertTrue(answer.startsWith("http/1.1 503"), answer);
                    assertTrue(answer.contains("retry-after: 1"), answer);
                    assertTrue(answer.contains("{\"error\":\"unavailable\"") && answer.contains("body-budget"), answer);
                }
            }
            assertEquals(4, refused, "bodies over the budget of " + fit + " x max-body refused; one refusal: " + refusal);
            assertEquals(budget, stat("body_bytes_reserved"), "bytes reserved: every body that fits, no more");
            assertEquals(200, get(id), "reads, which have no body, go on");
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        Await.until("the body budget to return to 0 once the connections closed", Duration.ofSeconds(5),
                () -> stat("body_bytes_reserved") == 0);
    }

    /**
     * A body trickled in a byte at a time holds its reservation only until body-timeout: then it is answered 408 and
     * its connection closed, and the budget it held takes another connection's body again. Its own sidecar: the
     * whole budget is one max-body, so one trickler holds all of it.
     */
    @Test
    void aBodyTrickledPastBodyTimeout_is408_andTheBudgetItHeldIsFreeAgain() throws Exception {
        try (SidecarServer small = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:"
                + master.address().getPort(), "port", "0", "admin-port", "0", "vnodes", "16", "max-body", "64k",
                "body-budget", "64k", "body-timeout", "2s")))) {
            TestHttp.awaitHealthy(small);
            String head = "PATCH /v1/sessions/nosuchsession HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 65536\r\n\r\n";
            try (Socket trickler = new Socket(InetAddress.getLoopbackAddress(), small.address().getPort());
                 Socket other = new Socket(InetAddress.getLoopbackAddress(), small.address().getPort())) {
                trickler.setSoTimeout(5000);
                other.setSoTimeout(2000);
                trickler.getOutputStream().write((head + "{").getBytes(StandardCharsets.US_ASCII));
                trickler.getOutputStream().flush();
                long held = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (stat(small, "body_bytes_reserved") != 65536 && System.nanoTime() < held) {
                    Thread.sleep(10); // until the trickler's head is read and holds the whole budget
                }
                other.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                other.getOutputStream().flush();
                String refused = headOf(other.getInputStream());
                assertTrue(refused != null && refused.startsWith("http/1.1 503"), "the budget is held: " + refused);
                String answer = trickleUntilAnswered(trickler, ' ', System.nanoTime() + Duration.ofSeconds(10).toNanos());
                assertTrue(answer != null && answer.startsWith("http/1.1 408"), "the trickled body timed out: " + answer);
                assertTrue(answer.contains("body-timeout") && answer.contains("\"error\":\"bad_request\""), answer);
            }
            long free = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (stat(small, "body_bytes_reserved") != 0 && System.nanoTime() < free) {
                Thread.sleep(20);
            }
            assertEquals(0, stat(small, "body_bytes_reserved"), "the trickler's reservation came back");
            try (Socket next = new Socket(InetAddress.getLoopbackAddress(), small.address().getPort())) {
                next.setSoTimeout(5000);
                next.getOutputStream().write(head.replace("65536", "2").concat("{}").getBytes(StandardCharsets.US_ASCII));
                next.getOutputStream().flush();
                String served = headOf(next.getInputStream());
                // The body is taken and read (an empty JSON object is no write: 400 for its content), not 503 for budget
                assertTrue(served != null && served.startsWith("http/1.1 400") && served.contains("write_request"),
                        "a body fits again: " + served);
            }
        }
    }

    /**
     * Heads trickled in a byte at a time hold their connection slots only until head-timeout: of three connections
     * that begin a head (max-http-connections 2), one is closed at once, whichever the sidecar counted last; past the
     * timeout the other two, still trickling, are answered 408, naming head-timeout, and closed; then a new connection
     * is served again. The admin port keeps the same deadline. Its own sidecar.
     */
    @Test
    void headsTrickledPastHeadTimeout_are408_andTheSlotsTheyHeldServeAgain() throws Exception {
        try (SidecarServer small = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:"
                + master.address().getPort(), "port", "0", "admin-port", "0", "vnodes", "16", "max-http-connections", "2",
                "head-timeout", "1s")))) {
            TestHttp.awaitHealthy(small);
            List<Socket> tricklers = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket t = new Socket(InetAddress.getLoopbackAddress(), small.address().getPort());
                    tricklers.add(t);
                    try {
                        t.getOutputStream().write("GET /v1/sess".getBytes(StandardCharsets.US_ASCII));
                        t.getOutputStream().flush();
                    } catch (IOException refused) {
                        // closed before the head's start went out: the refused one
                    }
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                List<String> answers = new ArrayList<>();
                for (Socket t : tricklers) {
                    String answer = trickleUntilAnswered(t, 's', deadline);
                    answers.add(answer);
                    if (answer != null && answer.startsWith("http/1.1 408")) {
                        assertEquals("closed", closedOrReset(t), "closed after the 408");
                    }
                }
                assertEquals(1, answers.stream().filter("closed"::equals).count(), "one of three refused: " + answers);
                for (String answer : answers.stream().filter(a -> !"closed".equals(a)).toList()) {
                    assertTrue(answer != null && answer.startsWith("http/1.1 408"), "the trickled head timed out: " + answer);
                    assertTrue(answer.contains("head-timeout") && answer.contains("connection: close"), answer);
                }
            } finally {
                for (Socket t : tricklers) {
                    t.close();
                }
            }
            String request = "GET /v1/sessions/nosuchsessionatall?sections=a HTTP/1.1\r\nHost: localhost\r\n\r\n";
            String served = null;
            long again = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < again && (served == null || served.equals("closed"))) {
                try (Socket next = new Socket(InetAddress.getLoopbackAddress(), small.address().getPort())) {
                    next.setSoTimeout(5000);
                    next.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                    next.getOutputStream().flush();
                    served = headOf(next.getInputStream());
                } catch (IOException reset) {
                    served = "closed"; // a slot not yet counted free: try again
                }
            }
            assertTrue(served != null && served.startsWith("http/1.1 404"), "a slot serves again: " + served);
            try (Socket admin = new Socket(InetAddress.getLoopbackAddress(), small.adminAddress().getPort())) {
                admin.getOutputStream().write("GET /admin/sta".getBytes(StandardCharsets.US_ASCII));
                admin.getOutputStream().flush();
                String answer = trickleUntilAnswered(admin, 't', System.nanoTime() + Duration.ofSeconds(10).toNanos());
                assertTrue(answer != null && answer.startsWith("http/1.1 408") && answer.contains("head-timeout"),
                        "the admin port's trickled head timed out too: " + answer);
                assertEquals("closed", closedOrReset(admin));
            }
        }
    }

    /** "closed" once the peer has closed {@code s} (an end of stream or a reset), else what it still sent. */
    static String closedOrReset(Socket s) throws IOException {
        try {
            s.setSoTimeout(5000);
            return headOf(s.getInputStream());
        } catch (java.net.SocketException reset) {
            return "closed";
        }
    }

    /**
     * Admin requests pipelined in one write, the first answered later (it asks the master), the second at once: the
     * answers go out in request order, the later one first.
     */
    @Test
    void adminRequestsPipelined_behindOneAnsweredLater_areAnsweredInOrder() throws Exception {
        try (Socket admin = new Socket(InetAddress.getLoopbackAddress(), sidecar.adminAddress().getPort())) {
            admin.setSoTimeout(5000);
            admin.getOutputStream().write(("GET /admin/registry/health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET /admin/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            admin.getOutputStream().flush();
            String both = new String(admin.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String[] answers = both.split("(?=HTTP/1\\.1 )");
            assertEquals(2, answers.length, both);
            assertTrue(answers[0].contains("\"queries\""), "the second request was answered first: " + both);
            assertTrue(answers[1].contains("\"connections\""), both);
        }
    }

    /**
     * Sends {@code b} on {@code s} a byte every 100 ms (never idle, never done) until an answer comes, or the connection
     * closes with one: that answer's start, lower case; "closed" when it closed (or was reset) with none; null if none
     * came by {@code deadlineNanos}.
     */
    static String trickleUntilAnswered(Socket s, int b, long deadlineNanos) throws IOException {
        s.setSoTimeout(100);
        String answer = null;
        try {
            while (answer == null && System.nanoTime() < deadlineNanos) {
                answer = headOf(s.getInputStream()); // null: nothing within 100 ms
                if (answer == null) {
                    try {
                        s.getOutputStream().write(b);
                        s.getOutputStream().flush();
                    } catch (IOException closed) {
                        answer = headOf(s.getInputStream()); // the answer came with the close
                    }
                }
            }
        } catch (java.net.SocketException reset) {
            return "closed"; // reset: closed with bytes it had not read
        }
        return answer;
    }

    /** A figure of the admin endpoint's /admin/stats, or -1 when it has none by that name. */
    static long stat(String name) throws Exception {
        return stat(sidecar, name);
    }

    static long stat(SidecarServer server, String name) throws Exception {
        String stats = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminAddress().getPort()
                + "/admin/stats")).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(stats);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** The head and body of an answer that arrives within the socket's timeout (lower-cased), or null if none does. */
    static String headOf(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        try {
            int n = in.read(buf);
            if (n < 0) {
                return "closed";
            }
            got.write(buf, 0, n);
            Thread.sleep(50);
            while (in.available() > 0 && (n = in.read(buf)) > 0) {
                got.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            return got.size() == 0 ? null : got.toString(StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return got.toString(StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT);
    }
}

package io.sessionmesh.benchmarks.driver.load;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An app for the load engine's tests, on the JDK's HTTP server: {@code /ok} (200), {@code /fail} (500, "broken"),
 * {@code /slow} (200 after 20 ms, one request at a time), {@code POST /deposits/login/ID} (201 and a new session id),
 * and any other path 200 for a session it knows, 404 for one in {@link #gone}.
 */
final class FakeApp implements AutoCloseable {
    final HttpServer server;
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger logins = new AtomicInteger();
    /** Sessions that answer 404 (idled out). */
    final Set<String> gone = ConcurrentHashMap.newKeySet();
    private final Object slow = new Object();

    FakeApp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getAddress().getPort());
    }

    private void handle(HttpExchange x) throws IOException {
        requests.incrementAndGet();
        x.getRequestBody().readAllBytes();
        String path = x.getRequestURI().getPath();
        String session = x.getRequestHeaders().getFirst(HttpLoad.SESSION_HEADER);
        if (path.equals("/fail")) {
            answer(x, 500, "broken");
        } else if (path.equals("/slow")) {
            synchronized (slow) {
                sleep(20);
                answer(x, 200, "slow");
            }
        } else if (path.startsWith("/deposits/login/")) {
            answer(x, 201, "{\"sessionId\":\"S" + logins.incrementAndGet() + "\"}");
        } else if (session != null && gone.contains(session)) {
            answer(x, 404, "no such session");
        } else {
            answer(x, 200, "ok");
        }
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
        x.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

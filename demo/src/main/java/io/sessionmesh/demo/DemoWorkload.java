package io.sessionmesh.demo;

import io.sessionmesh.workload.Scale;
import io.sessionmesh.workload.Zipf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The workload at a small scale, through the example service over HTTP: a fixed set of active sessions chosen by
 * Zipf (s = 0.99), closed-loop users sending the {@link DemoRequest} mix, and new sessions logging in at the
 * workload's rate (a fifth of the active set a minute), each replacing the next slot in turn. Latency of every
 * request goes to an HdrHistogram recorder per request kind; errors are counted by kind and HTTP status.
 */
final class DemoWorkload {
    /** Highest latency the histograms record; slower requests are clamped to it. */
    static final long MAX_LATENCY_NANOS = Duration.ofSeconds(60).toNanos();
    /** One request's timeout. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI service;
    private final AtomicReferenceArray<String> slots;
    private final Zipf zipf;
    private final AtomicInteger nextClient = new AtomicInteger();
    private final AtomicInteger nextSlot = new AtomicInteger();
    private final Map<DemoRequest, Recorder> recorders = new EnumMap<>(DemoRequest.class);
    private final Recorder all = new Recorder(MAX_LATENCY_NANOS, 3);
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    DemoWorkload(URI service, int sessions) {
        this.service = service;
        this.slots = new AtomicReferenceArray<>(sessions);
        this.zipf = Zipf.workload(sessions);
        for (DemoRequest r : DemoRequest.values()) {
            recorders.put(r, new Recorder(MAX_LATENCY_NANOS, 3));
        }
    }

    /** Logs every slot's session in, with {@code parallelism} threads. */
    void loginAll(int parallelism) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < parallelism; t++) {
            threads.add(thread("demo-login-" + t, () -> {
                for (int i; (i = next.getAndIncrement()) < slots.length() && running.get(); ) {
                    String id = login();
                    if (id == null) {
                        running.set(false);
                        return;
                    }
                    slots.set(i, id);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!running.get()) {
            throw new IllegalStateException("logging the sessions in failed: " + lastError.get());
        }
    }

    /** Starts the users and the login stream; they run until {@link #stop}. */
    List<Thread> start(int users) {
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            threads.add(thread("demo-user-" + u, this::userLoop));
        }
        long pauseNanos = Scale.newSessionIntervalNanos(slots.length());
        threads.add(thread("demo-logins", () -> {
            long next = System.nanoTime();
            while (running.get()) {
                next += pauseNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    sleepNanos(wait);
                }
                String id = login();
                if (id != null) {
                    slots.set(Math.floorMod(nextSlot.getAndIncrement(), slots.length()), id);
                }
            }
        }));
        return threads;
    }

    void stop(List<Thread> threads) throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(REQUEST_TIMEOUT.toMillis() + 1000);
        }
    }

    private void userLoop() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (running.get()) {
            DemoRequest r = DemoRequest.pick(random.nextInt(100));
            String session = slots.get(zipf.next(random));
            String body = r.body == null ? null : String.format(r.body, 1000 + random.nextInt(1_000_000));
            send(r, r.path, session, body);
        }
    }

    /** A new session for the next client id; null when the login failed (counted). */
    private String login() {
        String body = send(DemoRequest.LOGIN, DemoRequest.LOGIN.path + "C" + (1_000_000 + nextClient.getAndIncrement()),
                null, null);
        if (body == null) {
            return null;
        }
        try {
            return JSON.readTree(body).path("sessionId").asText(null);
        } catch (IOException e) {
            count(DemoRequest.LOGIN, "bad answer", e.getMessage());
            return null;
        }
    }

    /** Sends one request and records it; answers the body of a 2xx answer, or null. */
    private String send(DemoRequest kind, String path, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(service.resolve(path)).timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json");
        if (session != null) {
            b.header("X-Session-Id", session);
        }
        b.method(kind.method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        long start = System.nanoTime();
        try {
            HttpResponse<String> answer = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            long nanos = Math.min(MAX_LATENCY_NANOS, System.nanoTime() - start);
            recorders.get(kind).recordValue(nanos);
            all.recordValue(nanos);
            requests.increment();
            if (answer.statusCode() / 100 != 2) {
                count(kind, String.valueOf(answer.statusCode()), answer.body());
                return null;
            }
            return answer.body();
        } catch (IOException e) {
            count(kind, e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void count(DemoRequest kind, String what, String detail) {
        errors.computeIfAbsent(kind.name().toLowerCase() + " " + what, k -> new LongAdder()).increment();
        lastError.set(kind.name().toLowerCase() + " " + what + ": " + detail);
    }

    /** Requests answered so far (any status). */
    long requests() {
        return requests.sum();
    }

    /** Errors so far, by request kind and status. */
    Map<String, Long> errors() {
        Map<String, Long> out = new java.util.TreeMap<>();
        errors.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    String lastError() {
        return lastError.get();
    }

    /** The latency of every request since the last call (and, per kind, into {@code byKind}). */
    Histogram interval(Map<DemoRequest, Histogram> byKind) {
        recorders.forEach((k, r) -> {
            Histogram h = r.getIntervalHistogram();
            if (byKind != null) {
                byKind.merge(k, h, (a, b2) -> {
                    a.add(b2);
                    return a;
                });
            }
        });
        return all.getIntervalHistogram();
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** GETs a JSON document; null when it cannot be had. */
    JsonNode getJson(URI uri) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

}

package io.sessionmesh.benchmarks.client;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.internal.SidecarHttp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * The ways {@link ClientBenchmark} reads sections from a sidecar: the client jar's own HTTP client and the JDK's, both
 * sending the binary read of the REST API by hand ({@code GET /v1/sessions/{id}?sections=...},
 * {@code Accept: application/x-sessionmesh}), and the client jar's API as a service calls it.
 */
public enum ReadClient {
    /** The client jar's socket pool ({@code SidecarHttp}), the HTTP client the project chose. */
    SIDECAR_HTTP,
    /** The JDK's {@code HttpClient}, HTTP/1.1, synchronous {@code send}: the alternative it was measured against. */
    JDK_HTTP_CLIENT,
    /** The client jar's API over {@code SidecarHttp}: {@code getSession(id, sections...)}, or {@code openSession} then
     * {@code section(name)} for each section; answers decoded into sections. */
    CLIENT_JAR;

    /** The binary transport form's media type. */
    static final String BINARY = "application/x-sessionmesh";
    /** Connect timeout of both HTTP clients. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** Request timeout of both HTTP clients. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    /** Sockets in the socket pool: more than the benchmark's threads, so none waits for one. */
    static final int POOL_SIZE = 64;
    /** Largest answer body the socket pool accepts. */
    static final int MAX_BODY_BYTES = 64 << 20;

    /** One way of reading, open on a sidecar. */
    interface Reader extends AutoCloseable {
        /**
         * Reads {@code sections} of session {@code id}: in one request when {@code batch}, else one request a section.
         * Answers what was read, for the benchmark's blackhole.
         */
        Object read(String id, List<String> sections, boolean batch);

        @Override
        void close();
    }

    /** This way, open on {@code sidecar}; {@link #CLIENT_JAR} reads through {@code client}, which it does not close. */
    Reader open(URI sidecar, SessionMeshClient client) {
        return switch (this) {
            case SIDECAR_HTTP -> new SocketPoolReader(sidecar);
            case JDK_HTTP_CLIENT -> new JdkReader(sidecar);
            case CLIENT_JAR -> new ClientJarReader(client);
        };
    }

    /** The REST API's binary read of {@code sections} of session {@code id}. */
    static String path(String id, List<String> sections) {
        return "/v1/sessions/" + id + "?sections=" + String.join(",", sections);
    }

    /** Reads by hand, one request at a time; answers the body bytes. */
    abstract static class HttpReader implements Reader {
        @Override
        public Object read(String id, List<String> sections, boolean batch) {
            if (batch) {
                return get(path(id, sections));
            }
            int bytes = 0;
            for (String section : sections) {
                bytes += get(path(id, List.of(section)));
            }
            return bytes;
        }

        /** GETs {@code path}: the body's length; an error status is an exception. */
        abstract int get(String path);

        static int checked(int status, byte[] body, String path) {
            if (status != 200) {
                throw new IllegalStateException("GET " + path + ": status " + status);
            }
            return body.length;
        }
    }

    /** The client jar's socket pool. */
    static final class SocketPoolReader extends HttpReader {
        private final SidecarHttp http;

        SocketPoolReader(URI sidecar) {
            http = new SidecarHttp(sidecar, CONNECT_TIMEOUT, REQUEST_TIMEOUT, POOL_SIZE, MAX_BODY_BYTES);
        }

        @Override
        int get(String path) {
            SidecarHttp.Response r = http.exchange("GET", path, null, null, BINARY);
            return checked(r.status(), r.body(), path);
        }

        @Override
        public void close() {
            http.close();
        }
    }

    /** The JDK's HttpClient. */
    static final class JdkReader extends HttpReader {
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT).build();
        private final URI base;

        JdkReader(URI base) {
            this.base = base;
        }

        @Override
        int get(String path) {
            HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT)
                    .header("Accept", BINARY).build();
            try {
                HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                return checked(r.statusCode(), r.body(), path);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        @Override
        public void close() {
            // HttpClient has no close before JDK 21; its threads are daemons
        }
    }

    /** The client jar's API. */
    static final class ClientJarReader implements Reader {
        private final SessionMeshClient client;

        ClientJarReader(SessionMeshClient client) {
            this.client = client;
        }

        @Override
        public Object read(String id, List<String> sections, boolean batch) {
            if (batch) {
                return client.getSession(id, sections.toArray(String[]::new));
            }
            Session s = client.openSession(id);
            Object last = null;
            for (String section : sections) {
                last = s.section(section);
            }
            return last;
        }

        @Override
        public void close() {
            // the benchmark's client, closed by the benchmark
        }
    }
}

package io.sessionmesh.client.internal;

import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * HTTP/1.1 to the sidecar on this host, over a bounded pool of keep-alive connections, on the caller's thread:
 * write the request, read the answer, no thread hand-off. Chosen over the JDK's HttpClient by measurement (README,
 * benchmarks/RESULTS.md): for one small request to localhost at a time, most of the JDK client's cost is its
 * asynchronous machinery.
 *
 * <p>The sidecar always answers with a Content-Length; this client reads exactly that (a chunked or unbounded answer
 * is an error, never a hang). Limits: {@value #MAX_HEADER_BYTES} bytes of headers, {@code maxBodyBytes} of body.
 * A connection is reused while the server keeps it alive and it has been idle less than {@value #MAX_IDLE_MILLIS}
 * ms; an idempotent request that fails on a reused connection before any answer byte is retried once on a new one.
 */
public final class SidecarHttp implements Closeable {
    /** Headers of one answer. */
    public static final int MAX_HEADER_BYTES = 16 << 10;
    /** A pooled connection idle longer than this is closed rather than reused (the sidecar may have dropped it). */
    public static final long MAX_IDLE_MILLIS = 30_000;

    private final String host;
    private final int port;
    private final String hostHeader;
    private final int connectTimeoutMillis;
    private final int requestTimeoutMillis;
    private final int maxBodyBytes;
    private final int poolSize;
    private final Semaphore permits;
    private final ArrayBlockingQueue<Connection> idle;
    private final AtomicBoolean closed = new AtomicBoolean();

    public SidecarHttp(URI base, Duration connectTimeout, Duration requestTimeout, int poolSize, int maxBodyBytes) {
        if (!"http".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException("sidecar URI " + base + ": expected http://host:port");
        }
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 80 : base.getPort();
        this.hostHeader = host + ":" + port;
        this.connectTimeoutMillis = (int) connectTimeout.toMillis();
        this.requestTimeoutMillis = (int) requestTimeout.toMillis();
        this.maxBodyBytes = maxBodyBytes;
        this.poolSize = poolSize;
        this.permits = new Semaphore(poolSize, true);
        this.idle = new ArrayBlockingQueue<>(poolSize);
    }

    /** An answer: status, content type (may be null) and body. */
    public record Response(int status, String contentType, byte[] body) {
    }

    /**
     * Sends one request and reads its answer.
     *
     * @throws SidecarUnavailableException when the sidecar cannot be reached or breaks the connection
     * @throws SidecarTimeoutException when no connection frees up, or no answer comes, within the request timeout
     */
    public Response exchange(String method, String target, String contentType, byte[] body, String accept) {
        if (closed.get()) {
            throw new SidecarUnavailableException("the client is closed");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis);
        boolean permit;
        try {
            permit = permits.tryAcquire(requestTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SidecarUnavailableException("interrupted while waiting for a connection to the sidecar");
        }
        if (!permit) {
            throw new SidecarTimeoutException("no connection to the sidecar " + hostHeader + " free within "
                    + requestTimeoutMillis + " ms (all " + poolSize + " connections of the pool busy)");
        }
        try {
            boolean idempotent = !method.equals("PATCH") && !target.equals("/v1/sessions");
            for (int attempt = 0; ; attempt++) {
                Connection c = take();
                boolean reused = c.uses > 0;
                try {
                    Response r = c.exchange(method, target, contentType, body, accept, deadline);
                    if (c.keepAlive) {
                        c.lastUsed = System.nanoTime();
                        idle.offer(c);
                    } else {
                        c.close();
                    }
                    return r;
                } catch (SocketTimeoutException e) {
                    c.close();
                    throw new SidecarTimeoutException("the sidecar " + hostHeader + " did not answer " + method + " in "
                            + requestTimeoutMillis + " ms");
                } catch (IOException e) {
                    c.close();
                    if (reused && idempotent && !c.answered && attempt == 0) {
                        continue; // a kept-alive connection the sidecar had already closed
                    }
                    throw new SidecarUnavailableException("connection to the sidecar " + hostHeader + " failed during "
                            + method + ": " + e.getMessage(), e);
                }
            }
        } finally {
            permits.release();
        }
    }

    private Connection take() {
        for (Connection c; (c = idle.poll()) != null; ) {
            if (System.nanoTime() - c.lastUsed < TimeUnit.MILLISECONDS.toNanos(MAX_IDLE_MILLIS) && !c.socket.isClosed()) {
                return c;
            }
            c.close();
        }
        try {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.setKeepAlive(true);
            s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
            s.setSoTimeout(requestTimeoutMillis);
            return new Connection(s);
        } catch (IOException e) {
            throw new SidecarUnavailableException("cannot connect to the sidecar " + hostHeader + " within "
                    + connectTimeoutMillis + " ms: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (Connection c; (c = idle.poll()) != null; ) {
                c.close();
            }
        }
    }

    /** One keep-alive connection; used by one thread at a time. */
    private final class Connection {
        final Socket socket;
        final OutputStream out;
        final InputStream in;
        int uses;
        long lastUsed = System.nanoTime();
        boolean keepAlive = true;
        boolean answered;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
            this.in = new BufferedInputStream(socket.getInputStream(), 16384);
        }

        Response exchange(String method, String target, String contentType, byte[] body, String accept, long deadline)
                throws IOException {
            uses++;
            answered = false;
            StringBuilder head = new StringBuilder(160).append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ")
                    .append(hostHeader).append("\r\n");
            if (accept != null) {
                head.append("Accept: ").append(accept).append("\r\n");
            }
            if (body != null) {
                head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length).append("\r\n");
            } else if (!method.equals("GET") && !method.equals("DELETE")) {
                head.append("Content-Length: 0\r\n");
            }
            head.append("\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            int left = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            socket.setSoTimeout(left);
            return readResponse();
        }

        private Response readResponse() throws IOException {
            String status = line();
            answered = true;
            if (!status.startsWith("HTTP/1.1 ") && !status.startsWith("HTTP/1.0 ") || status.length() < 12) {
                throw new IOException("not an HTTP answer: " + status);
            }
            int code = Integer.parseInt(status.substring(9, 12));
            keepAlive = status.startsWith("HTTP/1.1");
            long length = -1;
            String contentType = null;
            int headerBytes = status.length();
            for (String h; !(h = line()).isEmpty(); ) {
                headerBytes += h.length();
                if (headerBytes > MAX_HEADER_BYTES) {
                    throw new IOException("answer headers above " + MAX_HEADER_BYTES + " bytes");
                }
                int colon = h.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = h.substring(0, colon).trim();
                String value = h.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("content-length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("content-type")) {
                    contentType = value;
                } else if (name.equalsIgnoreCase("connection")) {
                    keepAlive = !value.equalsIgnoreCase("close");
                } else if (name.equalsIgnoreCase("transfer-encoding")) {
                    throw new IOException("transfer-encoding " + value + " is not expected from a sidecar");
                }
            }
            if (length < 0) {
                if (code == 204 || code == 304) {
                    length = 0;
                } else {
                    throw new IOException("answer " + code + " has no Content-Length");
                }
            }
            if (length > maxBodyBytes) {
                throw new IOException("answer body of " + length + " bytes is above the limit of " + maxBodyBytes);
            }
            byte[] body = new byte[(int) length];
            int read = 0;
            while (read < body.length) {
                int n = in.read(body, read, body.length - read);
                if (n < 0) {
                    throw new EOFException("answer ends after " + read + " of " + body.length + " bytes");
                }
                read += n;
            }
            return new Response(code, contentType, body);
        }

        /** A header line without its CRLF, bounded. */
        private String line() throws IOException {
            StringBuilder b = new StringBuilder(64);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("connection closed by the sidecar");
                }
                if (c == '\n') {
                    int n = b.length();
                    return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
                }
                if (b.length() >= MAX_HEADER_BYTES) {
                    throw new IOException("an answer header line above " + MAX_HEADER_BYTES + " bytes");
                }
                b.append((char) c);
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}

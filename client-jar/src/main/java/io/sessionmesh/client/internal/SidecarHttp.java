package io.sessionmesh.client.internal;

import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;
import io.sessionmesh.client.WriteOutcomeUnknownException;
import io.sessionmesh.wire.protocol.WriteId;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP/1.1 to the sidecar on this host, over a bounded pool of keep-alive connections, on the caller's thread: write
 * the request, read the answer, no thread hand-off. Chosen over the JDK's HttpClient by measurement (docs/spring.md,
 * "The HTTP client"; benchmarks/RESULTS.md): for one small request to localhost at a time, most of the JDK client's
 * cost is its asynchronous machinery.
 *
 * <p>The sidecar is {@code http://host:port} (TCP) or {@code unix:/path/to/sidecar.sock}: its Unix domain socket
 * (sidecar setting {@code unix-socket}), which skips the TCP stack on both sides (about a fifth less CPU per call,
 * benchmarks/RESULTS.md 12 at 1f3fa7a).
 *
 * <p>Connections are blocking channels: a call costs one write and, when the answer is ready, one read. The timeouts
 * are kept by a watch thread ({@code sessionmesh-sidecar-timeouts}, one a client) that every
 * {@value #TIMEOUT_TICK_MILLIS} ms closes any connection whose call has passed its deadline, which ends the blocked
 * read; a timeout is thus kept to within that tick.
 *
 * <p>The sidecar always answers with a Content-Length; this client reads exactly that (a chunked or unbounded answer
 * is an error, never a hang). Limits: {@value #MAX_HEADER_BYTES} bytes of headers, {@code maxBodyBytes} of body.
 * A connection is reused while the server keeps it alive and it has been idle less than {@value #MAX_IDLE_MILLIS}
 * ms; an idempotent request that fails on a reused connection before any answer byte is retried once on a new one.
 */
public final class SidecarHttp implements Closeable {
    /** Headers of one answer. */
    public static final int MAX_HEADER_BYTES = 16 << 10;
    /** Each connection's read buffer (and its write buffer, which grows for a larger head). */
    static final int BUFFER_BYTES = 16 << 10;
    /** A pooled connection idle longer than this is closed rather than reused (the sidecar may have dropped it). */
    public static final long MAX_IDLE_MILLIS = 30_000;
    /** How often the timeout watch looks at the calls in progress: connect and request timeouts are kept to this. */
    public static final long TIMEOUT_TICK_MILLIS = 10;
    /** A connection's deadline when no call is in progress on it. */
    private static final long IDLE = Long.MIN_VALUE;
    /** A connection's deadline once the watch has closed it for being late. */
    private static final long TIMED_OUT = Long.MAX_VALUE;

    /** Where the sidecar is: an {@link InetSocketAddress} or a {@link UnixDomainSocketAddress}. */
    private final SocketAddress address;
    /** The sidecar as messages name it: host:port, or unix:path. */
    private final String where;
    private final String hostHeader;
    private final int connectTimeoutMillis;
    private final int requestTimeoutMillis;
    private final int maxBodyBytes;
    private final int poolSize;
    private final Semaphore permits;
    private final ArrayBlockingQueue<Connection> idle;
    /** Every open connection, idle or in a call: what the timeout watch looks at (at most the pool's size). */
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread timeoutWatch;

    /**
     * A client of the sidecar at {@code base}: {@code http://host:port} or {@code unix:/absolute/path}.
     *
     * @throws IllegalArgumentException for any other URI
     */
    public SidecarHttp(URI base, Duration connectTimeout, Duration requestTimeout, int poolSize, int maxBodyBytes) {
        checkUri(base);
        if ("unix".equals(base.getScheme())) {
            this.address = UnixDomainSocketAddress.of(Path.of(base.getPath()));
            this.where = "unix:" + base.getPath();
            this.hostHeader = "localhost";
        } else {
            this.address = InetSocketAddress.createUnresolved(base.getHost(), base.getPort());
            this.where = base.getHost() + ":" + base.getPort();
            this.hostHeader = where;
        }
        this.connectTimeoutMillis = (int) connectTimeout.toMillis();
        this.requestTimeoutMillis = (int) requestTimeout.toMillis();
        this.maxBodyBytes = maxBodyBytes;
        this.poolSize = poolSize;
        this.permits = new Semaphore(poolSize, true);
        this.idle = new ArrayBlockingQueue<>(poolSize);
        this.timeoutWatch = new Thread(this::watchTimeouts, "sessionmesh-sidecar-timeouts");
        timeoutWatch.setDaemon(true);
        timeoutWatch.start();
    }

    /**
     * Checks a sidecar URI: {@code http://host:port} (the port given) or {@code unix:/absolute/path}.
     *
     * @throws IllegalArgumentException naming the URI and the forms expected
     */
    public static void checkUri(URI uri) {
        boolean tcp = "http".equals(uri.getScheme()) && uri.getHost() != null && uri.getPort() > 0;
        boolean unix = "unix".equals(uri.getScheme()) && uri.getHost() == null && uri.getQuery() == null
                && uri.getPath() != null && uri.getPath().startsWith("/");
        if (!tcp && !unix) {
            throw new IllegalArgumentException("sidecar URI " + uri
                    + ": expected http://host:port or unix:/path/to/sidecar.sock (the sidecar's unix-socket)");
        }
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
        return exchange(method, target, contentType, body, accept, null);
    }

    /**
     * {@link #exchange(String, String, String, byte[], String)} of a write with its id, sent as {@code Idempotency-Key}
     * (null: none).
     *
     * @throws WriteOutcomeUnknownException when a request that changes something (any method but GET) was written
     *     whole and then the connection broke, or no answer came in time: the sidecar may have applied it
     */
    public Response exchange(String method, String target, String contentType, byte[] body, String accept,
                             WriteId writeId) {
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
            throw new SidecarTimeoutException("no connection to the sidecar " + where + " free within "
                    + requestTimeoutMillis + " ms (all " + poolSize + " connections of the pool busy)");
        }
        try {
            boolean idempotent = !method.equals("PATCH") && !target.equals("/v1/sessions");
            for (int attempt = 0; ; attempt++) {
                Connection c = take();
                boolean reused = c.uses > 0;
                try {
                    Response r = c.exchange(method, target, contentType, body, accept, writeId, deadline);
                    if (c.keepAlive && c.release() && !closed.get()) {
                        c.lastUsed = System.nanoTime();
                        idle.offer(c);
                    } else {
                        c.close();
                    }
                    return r;
                } catch (IOException e) {
                    boolean late = c.deadline.get() == TIMED_OUT;
                    c.close();
                    if (late && c.sent && !method.equals("GET")) {
                        throw new WriteOutcomeUnknownException("the sidecar " + where + " did not answer " + method
                                + " in " + requestTimeoutMillis + " ms; it may or may not have been applied", writeId);
                    }
                    if (late) {
                        throw new SidecarTimeoutException("the sidecar " + where + " did not answer " + method + " in "
                                + requestTimeoutMillis + " ms");
                    }
                    if (reused && idempotent && !c.answered && attempt == 0 && !closed.get()) {
                        continue; // a kept-alive connection the sidecar had already closed
                    }
                    if (c.sent && !method.equals("GET")) {
                        // the sidecar has the whole request, and no answer could be read: it may have acted on it (a
                        // PATCH is sent again by the caller, with its write id)
                        throw new WriteOutcomeUnknownException(method + " to the sidecar " + where + ": sent, then the"
                                + " connection broke (" + e.getMessage() + "); it may or may not have been applied",
                                writeId, e);
                    }
                    throw new SidecarUnavailableException("connection to the sidecar " + where + " failed during "
                            + method + ": " + e.getMessage(), e);
                }
            }
        } finally {
            permits.release();
        }
    }

    private Connection take() {
        for (Connection c; (c = idle.poll()) != null; ) {
            if (System.nanoTime() - c.lastUsed < TimeUnit.MILLISECONDS.toNanos(MAX_IDLE_MILLIS) && c.channel.isOpen()) {
                return c;
            }
            c.close();
        }
        Connection c = null;
        try {
            boolean unix = address instanceof UnixDomainSocketAddress;
            SocketChannel ch = unix ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
            c = new Connection(ch);
            c.deadline.set(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeoutMillis));
            open.add(c);
            if (!unix) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            }
            ch.connect(unix ? address : resolve((InetSocketAddress) address));
            long d = c.deadline.get();
            if (d == TIMED_OUT || !c.deadline.compareAndSet(d, IDLE)) {
                throw new IOException("connect timed out");
            }
            return c;
        } catch (IOException e) {
            boolean late = c != null && c.deadline.get() == TIMED_OUT;
            if (c != null) {
                c.close();
            }
            throw new SidecarUnavailableException("cannot connect to the sidecar " + where + " within "
                    + connectTimeoutMillis + " ms: " + (late ? "connect timed out" : e.getMessage()), e);
        }
    }

    private static InetSocketAddress resolve(InetSocketAddress a) {
        return new InetSocketAddress(a.getHostString(), a.getPort());
    }

    /**
     * The timeout watch: every {@value #TIMEOUT_TICK_MILLIS} ms, closes each connection whose call (or connect) is past
     * its deadline; the caller blocked on it then fails with the timeout. Stops when the client is closed.
     */
    private void watchTimeouts() {
        while (!closed.get()) {
            try {
                Thread.sleep(TIMEOUT_TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Connection c : open) {
                long d = c.deadline.get();
                if (d != IDLE && d != TIMED_OUT && now - d > 0 && c.deadline.compareAndSet(d, TIMED_OUT)) {
                    c.close();
                }
            }
        }
    }

    /** Closes every connection (a call in progress fails as unavailable) and stops the timeout watch. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            timeoutWatch.interrupt();
            for (Connection c; (c = idle.poll()) != null; ) {
                c.close();
            }
            for (Connection c : open) {
                c.close();
            }
        }
    }

    /**
     * One keep-alive connection; used by one thread at a time. It reads answers through a buffer of its own and parses
     * the head as bytes (no String per header line), and writes a request's head and body in one write when they fit
     * its buffer.
     */
    private final class Connection {
        final SocketChannel channel;
        /** The deadline of the call in progress (System.nanoTime), {@link #IDLE}, or {@link #TIMED_OUT}. */
        final AtomicLong deadline = new AtomicLong(IDLE);
        /** Read ahead from the socket: the answer's head, and the start of its body. */
        final byte[] buf = new byte[BUFFER_BYTES];
        final ByteBuffer in = ByteBuffer.wrap(buf);
        int pos;
        int lim;
        /** A request's head and (when it fits) its body, written with one call. */
        byte[] outBuf = new byte[BUFFER_BYTES];
        int uses;
        long lastUsed = System.nanoTime();
        boolean keepAlive = true;
        boolean answered;
        /** The whole request of the call in progress was written: the sidecar may act on it. */
        boolean sent;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        Response exchange(String method, String target, String contentType, byte[] body, String accept, WriteId writeId,
                          long callDeadline) throws IOException {
            uses++;
            answered = false;
            sent = false;
            if (!deadline.compareAndSet(IDLE, callDeadline)) {
                throw new IOException("connection closed by the timeout watch");
            }
            int n = 0;
            n = ascii(n, method);
            n = ascii(n, " ");
            n = ascii(n, target);
            n = ascii(n, " HTTP/1.1\r\nHost: ");
            n = ascii(n, hostHeader);
            n = ascii(n, "\r\n");
            if (accept != null) {
                n = ascii(n, "Accept: ");
                n = ascii(n, accept);
                n = ascii(n, "\r\n");
            }
            if (writeId != null) {
                n = ascii(n, "Idempotency-Key: ");
                n = ascii(n, writeId.hex());
                n = ascii(n, "\r\n");
            }
            if (body != null) {
                n = ascii(n, "Content-Type: ");
                n = ascii(n, contentType);
                n = ascii(n, "\r\nContent-Length: ");
                n = ascii(n, Integer.toString(body.length));
                n = ascii(n, "\r\n");
            } else if (!method.equals("GET") && !method.equals("DELETE")) {
                n = ascii(n, "Content-Length: 0\r\n");
            }
            n = ascii(n, "\r\n");
            if (body != null && n + body.length <= outBuf.length) {
                System.arraycopy(body, 0, outBuf, n, body.length);
                writeFully(ByteBuffer.wrap(outBuf, 0, n + body.length));
            } else {
                writeFully(ByteBuffer.wrap(outBuf, 0, n));
                if (body != null) {
                    writeFully(ByteBuffer.wrap(body));
                }
            }
            sent = true;
            return readResponse();
        }

        /** Ends the call: true when the connection may be reused (the timeout watch did not close it meanwhile). */
        boolean release() {
            long d = deadline.get();
            return d != TIMED_OUT && deadline.compareAndSet(d, IDLE);
        }

        private void writeFully(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) {
                channel.write(b);
            }
        }

        /** Reads into {@code buf} from {@code at} to its end; the bytes read, -1 at the end of the stream. */
        private int read(int at) throws IOException {
            in.limit(buf.length).position(at);
            return channel.read(in);
        }

        /** Appends {@code s} (ASCII: methods, paths already escaped, header values) at {@code at}; the new end. */
        private int ascii(int at, String s) {
            int len = s.length();
            if (at + len > outBuf.length) {
                outBuf = java.util.Arrays.copyOf(outBuf, Math.max(outBuf.length * 2, at + len));
            }
            for (int i = 0; i < len; i++) {
                outBuf[at + i] = (byte) s.charAt(i);
            }
            return at + len;
        }

        private Response readResponse() throws IOException {
            int headEnd = readHead();
            answered = true;
            int p = pos;
            int lineEnd = lineEnd(p, headEnd);
            if (lineEnd - p < 12 || !startsWith(p, "HTTP/1.") || (buf[p + 7] != '1' && buf[p + 7] != '0') || buf[p + 8] != ' ') {
                throw new IOException("not an HTTP answer: " + new String(buf, p, Math.min(lineEnd - p, 80), StandardCharsets.ISO_8859_1));
            }
            int code = digit(p + 9) * 100 + digit(p + 10) * 10 + digit(p + 11);
            keepAlive = buf[p + 7] == '1';
            long length = -1;
            String contentType = null;
            for (p = next(lineEnd); p < headEnd; p = next(lineEnd)) {
                lineEnd = lineEnd(p, headEnd);
                int colon = indexOf(p, lineEnd, ':');
                if (colon <= p) {
                    continue;
                }
                int v = colon + 1;
                while (v < lineEnd && (buf[v] == ' ' || buf[v] == '\t')) {
                    v++;
                }
                int ve = lineEnd;
                while (ve > v && (buf[ve - 1] == ' ' || buf[ve - 1] == '\t')) {
                    ve--;
                }
                if (nameIs(p, colon, "content-length")) {
                    length = parseLength(v, ve);
                } else if (nameIs(p, colon, "content-type")) {
                    contentType = new String(buf, v, ve - v, StandardCharsets.ISO_8859_1);
                } else if (nameIs(p, colon, "connection")) {
                    keepAlive = !(ve - v == 5 && regionIgnoreCase(v, "close"));
                } else if (nameIs(p, colon, "transfer-encoding")) {
                    throw new IOException("transfer-encoding " + new String(buf, v, ve - v, StandardCharsets.ISO_8859_1)
                            + " is not expected from a sidecar");
                }
            }
            pos = headEnd + 4;
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
            int read = Math.min(body.length, lim - pos);
            System.arraycopy(buf, pos, body, 0, read);
            pos += read;
            ByteBuffer rest = ByteBuffer.wrap(body, read, body.length - read);
            while (read < body.length) {
                int r = channel.read(rest);
                if (r < 0) {
                    throw new EOFException("answer ends after " + read + " of " + body.length + " bytes");
                }
                read += r;
            }
            return new Response(code, contentType, body);
        }

        /**
         * Reads until the buffer holds a whole head (up to its blank line); the index of that CRLFCRLF. The head is
         * bounded by {@value #MAX_HEADER_BYTES} bytes.
         */
        private int readHead() throws IOException {
            if (pos == lim) {
                pos = 0;
                lim = 0;
            }
            int scanned = pos;
            while (true) {
                for (int i = Math.max(pos, scanned - 3); i + 3 < lim; i++) {
                    if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n') {
                        return i;
                    }
                }
                scanned = lim;
                if (lim - pos >= MAX_HEADER_BYTES) {
                    throw new IOException("answer headers above " + MAX_HEADER_BYTES + " bytes");
                }
                if (lim == buf.length) { // compact: the head so far to the front
                    System.arraycopy(buf, pos, buf, 0, lim - pos);
                    scanned -= pos;
                    lim -= pos;
                    pos = 0;
                }
                int r = read(lim);
                if (r < 0) {
                    throw new EOFException(lim == pos ? "connection closed by the sidecar" : "answer ends inside its headers");
                }
                lim += r;
            }
        }

        private int lineEnd(int from, int headEnd) {
            for (int i = from; i < headEnd; i++) {
                if (buf[i] == '\r' && buf[i + 1] == '\n') {
                    return i;
                }
            }
            return headEnd;
        }

        private int next(int lineEnd) {
            return lineEnd + 2;
        }

        private int indexOf(int from, int to, char c) {
            for (int i = from; i < to; i++) {
                if (buf[i] == c) {
                    return i;
                }
            }
            return -1;
        }

        private boolean startsWith(int at, String prefix) {
            for (int i = 0; i < prefix.length(); i++) {
                if (buf[at + i] != prefix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        private boolean nameIs(int from, int colon, String lowerName) {
            int end = colon;
            while (end > from && (buf[end - 1] == ' ' || buf[end - 1] == '\t')) {
                end--;
            }
            return end - from == lowerName.length() && regionIgnoreCase(from, lowerName);
        }

        private boolean regionIgnoreCase(int at, String lower) {
            for (int i = 0; i < lower.length(); i++) {
                int b = buf[at + i];
                if (b >= 'A' && b <= 'Z') {
                    b += 'a' - 'A';
                }
                if (b != lower.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        private int digit(int at) throws IOException {
            int d = buf[at] - '0';
            if (d < 0 || d > 9) {
                throw new IOException("not an HTTP status code: " + new String(buf, at - 9, 12, StandardCharsets.ISO_8859_1));
            }
            return d;
        }

        private long parseLength(int from, int to) throws IOException {
            if (from == to || to - from > 18) {
                throw new IOException("bad Content-Length: " + new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
            }
            long v = 0;
            for (int i = from; i < to; i++) {
                int d = buf[i] - '0';
                if (d < 0 || d > 9) {
                    throw new IOException("bad Content-Length: " + new String(buf, from, to - from, StandardCharsets.ISO_8859_1));
                }
                v = v * 10 + d;
            }
            return v;
        }

        void close() {
            open.remove(this);
            try {
                channel.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}

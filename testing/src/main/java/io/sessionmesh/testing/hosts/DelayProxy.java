package io.sessionmesh.testing.hosts;

import io.sessionmesh.testing.Sockets;
import io.sessionmesh.settings.ReadyFile;
import io.sessionmesh.settings.Units;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy that adds a fixed one-way delay to each direction, for the latency the kernel's netem would give (the
 * project's machines have no netem): every chunk read is stamped "due at read time + delay", queued, and written by a
 * second thread once due, in order. The reading side never sleeps, so the delay costs no throughput until a
 * direction's queue holds {@link Builder#maxQueuedBytes} bytes; then reading stops (back-pressure: the sender's
 * window closes, as on a long fat link) until the writer catches up. RTT through it is the two delays plus the
 * scheduler's wake-up (tens of microseconds).
 *
 * <p><b>Where it sits.</b> A socket belongs to the network namespace of the process that opened it, so there are two
 * placements, and both are supported:
 * <ul>
 * <li>in the test JVM ({@link #builder}), which lives in the root namespace: it listens on
 *     {@link TestHosts#bridgeAddress()} (or loopback, for the test JVM's own clients) and connects to a host's
 *     address. The target sees the bridge's address as its peer, so a {@link Faults} rule between two hosts does not
 *     touch this traffic;</li>
 * <li>inside a host, as its own process ({@link #command} run through {@link Host#command}, up once its ready file
 *     names endpoint {@value #READY_ENDPOINT}): it listens on that host's address or loopback and connects out from
 *     that host, so the delayed link is that host's link, and partitions and losses of that host apply to it.</li>
 * </ul>
 * A zone layout (0.1-0.25 ms one way within a zone, 1 ms between) puts one proxy in front of each server port that a
 * client of another zone uses.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>bytes queued in one direction of one connection</td><td>{@link #DEFAULT_MAX_QUEUED_BYTES}
 *       ({@link Builder#maxQueuedBytes}); reading stops when it is reached</td></tr>
 *   <tr><td>a read (one queued chunk)</td><td>{@link #CHUNK_BYTES}, or the queue limit if smaller</td></tr>
 *   <tr><td>delay of one direction</td><td>0 to {@link #MAX_DELAY}</td></tr>
 *   <tr><td>connecting to the target</td><td>{@link #CONNECT_TIMEOUT}; a client whose target is down is reset</td></tr>
 * </table>
 * Four threads per connection (a reader and a writer each way): a test's handful of connections, not a load test's.
 */
public final class DelayProxy implements AutoCloseable {
    /** Bytes queued in one direction of a connection before reading stops. */
    public static final int DEFAULT_MAX_QUEUED_BYTES = 1 << 20;
    /** Most bytes one read takes off the socket, one queued chunk. */
    public static final int CHUNK_BYTES = 16 << 10;
    /** The longest delay of a direction: more is a partition, which {@link Faults} makes. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(10);
    /** Longest wait for the target to accept a connection. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** The endpoint name in the ready file of a proxy run as a process ({@link #main}). */
    public static final String READY_ENDPOINT = "proxy";

    private final InetSocketAddress target;
    private final long toTargetNanos;
    private final long fromTargetNanos;
    private final int maxQueuedBytes;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong peakQueued = new AtomicLong();
    private volatile boolean closed;

    private DelayProxy(Builder b) throws IOException {
        this.target = b.target;
        this.toTargetNanos = b.toTarget.toNanos();
        this.fromTargetNanos = b.fromTarget.toNanos();
        this.maxQueuedBytes = b.maxQueuedBytes;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(b.listen, 50);
        Thread acceptor = new Thread(this::acceptLoop, "delay-proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy in front of {@code target}: on a free loopback port, no delay, until the builder says otherwise. */
    public static Builder builder(InetSocketAddress target) {
        return new Builder(target);
    }

    /** Where the proxy listens. */
    public InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted and passed on to the target. */
    public long accepted() {
        return accepted.get();
    }

    /** The most bytes one direction of one connection held queued so far (never above the limit, but for one read). */
    public long peakQueuedBytes() {
        return peakQueued.get();
    }

    /** How a proxy is set up: where it listens, its two delays, its queue limit. */
    public static final class Builder {
        private final InetSocketAddress target;
        private InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private Duration toTarget = Duration.ZERO;
        private Duration fromTarget = Duration.ZERO;
        private int maxQueuedBytes = DEFAULT_MAX_QUEUED_BYTES;

        private Builder(InetSocketAddress target) {
            this.target = target;
        }

        /** The address and port to listen on (port 0: a free one); loopback by default. */
        public Builder listen(InetSocketAddress address) {
            this.listen = address;
            return this;
        }

        /** The same delay each way: the RTT it adds is twice this. */
        public Builder delay(Duration oneWay) {
            return delays(oneWay, oneWay);
        }

        /** The delay of bytes to the target and of those back from it. */
        public Builder delays(Duration toTarget, Duration fromTarget) {
            this.toTarget = toTarget;
            this.fromTarget = fromTarget;
            return this;
        }

        /** Bytes queued in one direction of a connection before reading stops ({@link #DEFAULT_MAX_QUEUED_BYTES}). */
        public Builder maxQueuedBytes(int bytes) {
            this.maxQueuedBytes = bytes;
            return this;
        }

        /**
         * Binds and starts accepting.
         *
         * @throws IllegalArgumentException naming a delay out of 0 to {@link #MAX_DELAY} or a queue limit below 1
         */
        public DelayProxy start() throws IOException {
            for (Duration d : List.of(toTarget, fromTarget)) {
                if (d.isNegative() || d.compareTo(MAX_DELAY) > 0) {
                    throw new IllegalArgumentException("delay " + d + " is not between 0 and " + MAX_DELAY);
                }
            }
            if (maxQueuedBytes < 1) {
                throw new IllegalArgumentException("max queued bytes " + maxQueuedBytes + " is below 1");
            }
            return new DelayProxy(this);
        }
    }

    /**
     * The command line that runs a proxy as its own process on this JVM's java and class path (run it in a host
     * through {@link Host#command}; {@code ServerProcess.start} adds the ready file and waits for it).
     */
    public static List<String> command(InetSocketAddress listen, InetSocketAddress target, Duration toTarget,
            Duration fromTarget) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), DelayProxy.class.getName(),
                "--listen", listen.getAddress().getHostAddress() + ":" + listen.getPort(),
                "--target", target.getAddress().getHostAddress() + ":" + target.getPort(),
                "--to-target-micros", String.valueOf(toTarget.toNanos() / 1000),
                "--from-target-micros", String.valueOf(fromTarget.toNanos() / 1000));
    }

    /**
     * A proxy as a process: {@code --listen host:port --target host:port --to-target-micros N --from-target-micros N
     * [--max-queued-bytes 1m] [--ready-file path]}; runs until killed.
     */
    public static void main(String[] args) throws Exception {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("flags come in pairs (--name value): " + List.of(args));
        }
        Map<String, String> flags = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            flags.put(args[i], args[i + 1]);
        }
        String target = flags.get("--target");
        if (target == null) {
            throw new IllegalArgumentException("--target host:port is required");
        }
        Builder b = builder(hostPort("--target", target))
                .listen(hostPort("--listen", flags.getOrDefault("--listen", "127.0.0.1:0")))
                .delays(Duration.ofNanos(1000 * Long.parseLong(flags.getOrDefault("--to-target-micros", "0"))),
                        Duration.ofNanos(1000 * Long.parseLong(flags.getOrDefault("--from-target-micros", "0"))))
                .maxQueuedBytes(Math.toIntExact(Units.parseSize(flags.getOrDefault("--max-queued-bytes",
                        String.valueOf(DEFAULT_MAX_QUEUED_BYTES)))));
        DelayProxy proxy = b.start();
        String ready = flags.get("--" + ReadyFile.SETTING);
        if (ready != null) {
            ReadyFile.write(Path.of(ready), Map.of(READY_ENDPOINT, proxy.address()));
        }
        System.out.println("delay proxy on " + proxy.address() + " to " + target);
        Thread.currentThread().join(); // until killed
    }

    /**
     * {@code host:port}, resolved ({@link Units#parseHostPort} leaves it unresolved, and refuses port 0, which a
     * listening address may have).
     */
    private static InetSocketAddress hostPort(String flag, String text) throws IOException {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(flag + " " + text + " is not host:port");
        }
        return new InetSocketAddress(InetAddress.getByName(text.substring(0, colon)),
                Integer.parseInt(text.substring(colon + 1)));
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                Socket upstream = new Socket();
                sockets.add(client);
                sockets.add(upstream);
                upstream.connect(target, (int) CONNECT_TIMEOUT.toMillis());
                upstream.setTcpNoDelay(true);
                client.setTcpNoDelay(true);
                accepted.incrementAndGet();
                Connection c = new Connection(client, upstream);
                c.start(new Pipe(c, client, upstream, toTargetNanos, "up"));
                c.start(new Pipe(c, upstream, client, fromTargetNanos, "down"));
            } catch (IOException e) {
                System.err.println("delay proxy " + address() + ": cannot reach " + target + ": " + e);
                reset(client); // the target is down: the client's connection fails, as without the proxy
            }
        }
    }

    /** The two sockets of one proxied connection, closed once both directions ended or one failed. */
    private final class Connection {
        private final Socket client;
        private final Socket upstream;
        private final List<Pipe> pipes = new ArrayList<>(2);
        private int ended;

        Connection(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void start(Pipe p) {
            synchronized (this) {
                pipes.add(p);
            }
            p.start();
        }

        /** One direction delivered its end of stream. */
        synchronized void ended() {
            if (++ended == 2) {
                close(false);
            }
        }

        /** Closes both sockets, with an RST when {@code reset} (a failure), and wakes the pipes. */
        void close(boolean reset) {
            for (Socket s : List.of(client, upstream)) {
                if (reset) {
                    reset(s);
                } else {
                    sockets.remove(s);
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closed already
                    }
                }
            }
            List<Pipe> all;
            synchronized (this) {
                all = List.copyOf(pipes);
            }
            all.forEach(Pipe::wake);
        }
    }

    /** A chunk of bytes and when it is due; {@code bytes == null} is the end of the stream. */
    private record Chunk(long dueNanos, byte[] bytes) {
    }

    /** One direction of a connection: a reader that stamps and queues, a writer that waits for each chunk's time. */
    private final class Pipe {
        private final Connection connection;
        private final Socket from;
        private final Socket to;
        private final long delayNanos;
        private final String name;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notEmpty = lock.newCondition();
        private final Condition notFull = lock.newCondition();
        private final ArrayDeque<Chunk> queue = new ArrayDeque<>();
        private long queuedBytes;
        private volatile boolean done;

        Pipe(Connection connection, Socket from, Socket to, long delayNanos, String direction) {
            this.connection = connection;
            this.from = from;
            this.to = to;
            this.delayNanos = delayNanos;
            this.name = "delay-proxy-" + direction + "-" + from.getPort();
        }

        void start() {
            for (Runnable r : List.<Runnable>of(this::readLoop, this::writeLoop)) {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                t.start();
            }
        }

        void wake() {
            done = true;
            lock.lock();
            try {
                notEmpty.signalAll();
                notFull.signalAll();
            } finally {
                lock.unlock();
            }
        }

        private void readLoop() {
            byte[] buffer = new byte[Math.min(CHUNK_BYTES, maxQueuedBytes)];
            try {
                InputStream in = from.getInputStream(); // not closed here: that would close the socket, both ways
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (!offer(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buffer, n)))) {
                        return;
                    }
                }
                offer(new Chunk(System.nanoTime() + delayNanos, null));
            } catch (IOException | InterruptedException e) {
                failed();
            }
        }

        /** Queues a chunk, waiting while the queue is full; false once the connection is gone. */
        private boolean offer(Chunk c) throws InterruptedException {
            int n = c.bytes() == null ? 0 : c.bytes().length;
            lock.lock();
            try {
                while (!done && !closed && !queue.isEmpty() && queuedBytes + n > maxQueuedBytes) {
                    notFull.await();
                }
                if (done || closed) {
                    return false;
                }
                queue.add(c);
                queuedBytes += n;
                peakQueued.accumulateAndGet(queuedBytes, Math::max);
                notEmpty.signal();
                return true;
            } finally {
                lock.unlock();
            }
        }

        private void writeLoop() {
            try {
                OutputStream out = to.getOutputStream(); // closed with the connection, not here
                while (true) {
                    Chunk c;
                    lock.lock();
                    try {
                        while (queue.isEmpty() && !done && !closed) {
                            notEmpty.await();
                        }
                        if (done || closed) {
                            return;
                        }
                        c = queue.peek();
                    } finally {
                        lock.unlock();
                    }
                    for (long wait; (wait = c.dueNanos() - System.nanoTime()) > 0 && !done; ) {
                        LockSupport.parkNanos(wait);
                    }
                    if (c.bytes() == null) {
                        to.shutdownOutput();
                        connection.ended();
                        return;
                    }
                    out.write(c.bytes());
                    lock.lock();
                    try {
                        queue.poll();
                        queuedBytes -= c.bytes().length;
                        notFull.signal();
                    } finally {
                        lock.unlock();
                    }
                }
            } catch (IOException | InterruptedException e) {
                failed();
            }
        }

        /** A read or write failed (a reset, or the proxy closed): the whole connection goes, with an RST. */
        private void failed() {
            if (!done) {
                connection.close(true);
            }
        }
    }

    /** Closes with an RST (linger 0), as a broken link would. */
    private void reset(Socket s) {
        sockets.remove(s);
        Sockets.reset(s);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : sockets) {
            reset(s);
        }
    }
}

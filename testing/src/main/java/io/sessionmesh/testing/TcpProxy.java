package io.sessionmesh.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback that a test can stall and break, to put a network fault between a sidecar and its master:
 * <ul>
 * <li>{@link #pause()}: the connections stay open but no byte moves in either direction (a partition, or a peer
 *     that hangs) until {@link #resume()}; what was sent meanwhile is delivered then, in order;</li>
 * <li>{@link #pauseAnswers()}: the same, for the bytes from the target only: requests reach it, its answers wait
 *     (a request that is applied and whose answer is lost when the connection is then {@link #cut()});</li>
 * <li>{@link #cut()}: every connection is reset at once and new ones are closed as soon as they are accepted, until
 *     {@link #heal()}.</li>
 * </ul>
 * Two threads per connection copy bytes; a stalled copier holds at most one buffer (16 KiB) and leaves the rest
 * in the kernel's socket buffers.
 */
public final class TcpProxy implements AutoCloseable {
    private static final int BUFFER_BYTES = 16 << 10;

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean paused;
    private volatile boolean answersPaused;
    private volatile boolean cut;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target, ServerSocket server) {
        this.target = target;
        this.server = server;
        Thread acceptor = new Thread(this::acceptLoop, "proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy on a free loopback port in front of {@code target}. */
    public static TcpProxy start(InetSocketAddress target) throws IOException {
        return new TcpProxy(target, new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Stops every byte in both directions; connections stay open. */
    public void pause() {
        paused = true;
    }

    /** Stops the bytes from the target to the clients; those from the clients still reach it. */
    public void pauseAnswers() {
        answersPaused = true;
    }

    /** Lets the bytes flow again, both ways. */
    public void resume() {
        synchronized (gate) {
            paused = false;
            answersPaused = false;
            gate.notifyAll();
        }
    }

    /** Resets every connection and refuses new ones until {@link #heal()}. */
    public void cut() {
        cut = true;
        resetAll();
    }

    /** Accepts connections again. */
    public void heal() {
        cut = false;
    }

    /** Connections accepted and passed on, and those closed at once because the proxy was cut. */
    public long accepted() {
        return accepted.get();
    }

    public long refused() {
        return refused.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket downstream;
            try {
                downstream = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (cut) {
                refused.incrementAndGet();
                reset(downstream);
                continue;
            }
            try {
                Socket upstream = new Socket();
                upstream.connect(target, 2_000);
                upstream.setTcpNoDelay(true);
                downstream.setTcpNoDelay(true);
                sockets.add(downstream);
                sockets.add(upstream);
                accepted.incrementAndGet();
                copier(downstream, upstream, "up", false);
                copier(upstream, downstream, "down", true);
            } catch (IOException e) {
                reset(downstream); // the target is down: the client sees its connection fail, as without the proxy
            }
        }
    }

    private void copier(Socket from, Socket to, String direction, boolean answers) {
        Thread t = new Thread(() -> copy(from, to, answers), "proxy-" + direction + "-" + from.getPort());
        t.setDaemon(true);
        t.start();
    }

    private void copy(Socket from, Socket to, boolean answers) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                awaitFlowing(answers);
                if (cut || closed) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the other side closed or was reset: close both below
        } finally {
            reset(from);
            reset(to);
        }
    }

    private void awaitFlowing(boolean answers) throws InterruptedException {
        synchronized (gate) {
            while ((paused || answers && answersPaused) && !cut && !closed) {
                gate.wait(100);
            }
        }
    }

    private void resetAll() {
        for (Socket s : sockets) {
            reset(s);
        }
        synchronized (gate) {
            gate.notifyAll();
        }
    }

    /** Closes with an RST (linger 0), as a broken network or a dead host would. */
    private void reset(Socket s) {
        sockets.remove(s);
        Sockets.reset(s);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        resetAll();
    }
}

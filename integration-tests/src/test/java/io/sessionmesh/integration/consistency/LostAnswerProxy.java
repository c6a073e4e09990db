package io.sessionmesh.integration.consistency;

import io.sessionmesh.testing.Sockets;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A proxy in front of a master's data port that loses the answer to a chosen request (master frames, PROTOCOL.md
 * 3.1, plaintext only). Once {@link #loseNext armed}, the next request frame of the given opcode, on any connection,
 * is passed on to the master whole; when the master's answer comes back it is thrown away and the connection is
 * reset, and new connections are refused for {@code resendDelay}. The sender saw its request applied-or-not and
 * heard nothing, so it sends the request again later on a new connection: a lost answer, with a window between the
 * request's application and its resend in which the rest of the cluster goes on. {@link #replay()} then sends the
 * first copy once more, late, as a duplicate the network delivered after everything else. Other connections, and the
 * frames of other opcodes, pass untouched.
 *
 * <p>The proxy listens on {@code listen} and connects to {@code target}: a master started with {@code --bind
 * 127.0.0.2} and its usual port, behind a proxy on 127.0.0.1 and the same port, keeps the address the cluster map
 * names it by.
 */
final class LostAnswerProxy implements AutoCloseable {
    /** Frames larger than this are not followed (the connection is reset): a test's frames are far smaller. */
    static final int MAX_BODY_BYTES = 64 << 20;
    private static final int HEADER_BYTES = 16;
    private static final int MAGIC = 0x534D4D46;
    private static final int RESPONSE = 0x01;

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final long resendDelayNanos;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger armedOpcode = new AtomicInteger(-1);
    private final AtomicLong lost = new AtomicLong();
    private volatile long refuseUntil = System.nanoTime();
    private volatile byte[] lostRequest;
    private volatile boolean closed;

    private LostAnswerProxy(InetSocketAddress listen, InetSocketAddress target, Duration resendDelay) throws IOException {
        this.target = target;
        this.resendDelayNanos = resendDelay.toNanos();
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 50);
        Thread acceptor = new Thread(this::acceptLoop, "lost-answer-accept-" + listen.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static LostAnswerProxy start(InetSocketAddress listen, InetSocketAddress target, Duration resendDelay)
            throws IOException {
        return new LostAnswerProxy(listen, target, resendDelay);
    }

    /** The next request of {@code opcode} loses its answer. */
    void loseNext(int opcode) {
        armedOpcode.set(opcode);
    }

    /** Answers lost so far. */
    long lost() {
        return lost.get();
    }

    /**
     * Sends the request whose answer was lost last once more, on a connection of its own, and returns the master's
     * answer status (PROTOCOL.md 2.3).
     */
    int replay() throws IOException {
        byte[] frame = lostRequest;
        if (frame == null) {
            throw new IllegalStateException("no answer was lost");
        }
        try (Socket s = new Socket()) {
            s.connect(target, 2_000);
            s.setSoTimeout(30_000);
            s.getOutputStream().write(frame);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] header = new byte[HEADER_BYTES];
            in.readFully(header);
            return header[7] & 0xFF;
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (System.nanoTime() - refuseUntil < 0) {
                    reset(client);
                    continue;
                }
                Socket master = new Socket();
                try {
                    master.connect(target, 2_000);
                } catch (IOException down) {
                    reset(client);
                    continue;
                }
                client.setTcpNoDelay(true);
                master.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(master);
                Connection c = new Connection(client, master);
                thread(c::requests, "lost-answer-up");
                thread(c::answers, "lost-answer-down");
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private final class Connection {
        private final Socket client;
        private final Socket master;
        private volatile boolean losing;

        Connection(Socket client, Socket master) {
            this.client = client;
            this.master = master;
        }

        /** Client to master, frame by frame. */
        void requests() {
            try (DataInputStream in = new DataInputStream(client.getInputStream()); OutputStream out = master.getOutputStream()) {
                byte[] header = new byte[HEADER_BYTES];
                while (true) {
                    in.readFully(header);
                    ByteBuffer h = ByteBuffer.wrap(header);
                    int length = h.getInt(12);
                    if (h.getInt(0) != MAGIC || length < 0 || length > MAX_BODY_BYTES) {
                        return; // not a frame this proxy can follow: reset below
                    }
                    byte[] frame = Arrays.copyOf(header, HEADER_BYTES + length);
                    in.readFully(frame, HEADER_BYTES, length);
                    boolean request = (header[6] & RESPONSE) == 0;
                    if (request && armedOpcode.compareAndSet(header[5] & 0xFF, -1)) {
                        lostRequest = frame;
                        losing = true; // before the master can answer
                    }
                    out.write(frame);
                    out.flush();
                }
            } catch (IOException e) {
                // closed or reset
            } finally {
                reset(client);
                reset(master);
            }
        }

        /** Master to client, as bytes; the first answer once this connection loses its answers ends it. */
        void answers() {
            byte[] buffer = new byte[16 << 10];
            try (InputStream in = master.getInputStream(); OutputStream out = client.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (losing) {
                        lost.incrementAndGet();
                        refuseUntil = System.nanoTime() + resendDelayNanos;
                        return;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // closed or reset
            } finally {
                reset(client);
                reset(master);
            }
        }
    }

    /** Closes with an RST, as a broken link would. */
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

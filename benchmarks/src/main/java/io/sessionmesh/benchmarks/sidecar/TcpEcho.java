package io.sessionmesh.benchmarks.sidecar;

import io.sessionmesh.settings.Settings;

import org.HdrHistogram.Histogram;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The physical floor of a request on this machine: a round trip of a small message over loopback TCP between two
 * processes, with nothing else in the way. {@code --serve} echoes every 64-byte message; without it, it sends and
 * waits, and records each round trip in an HdrHistogram.
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.sidecar.TcpEcho --serve --port 7600
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.sidecar.TcpEcho --port 7600 [--round-trips 50000]
 * </pre>
 */
public final class TcpEcho {
    /** Bytes each way: about a small HTTP request line. */
    public static final int MESSAGE_BYTES = 64;

    private TcpEcho() {
    }

    public static void main(String[] args) throws IOException {
        Settings flags = Settings.fromArgs(args);
        boolean server = flags.bool("serve", false);
        int port = flags.port("port", 7600);
        int roundTrips = flags.integer("round-trips", 50_000, 1, 100_000_000);
        flags.checkAllUsed();
        if (server) {
            serve(port);
        } else {
            Histogram h = measure(port, roundTrips);
            System.out.printf("round trips %d p50 %d us p99 %d us p99.9 %d us max %d us%n", h.getTotalCount(),
                    h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
        }
    }

    static void serve(int port) throws IOException {
        try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            System.out.println("echo listening on " + server.getLocalPort());
            System.out.flush();
            while (true) {
                Socket s = server.accept();
                Thread t = new Thread(() -> echo(s), "echo");
                t.setDaemon(true);
                t.start();
            }
        }
    }

    private static void echo(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            byte[] b = new byte[MESSAGE_BYTES];
            while (true) {
                in.readFully(b);
                out.write(b);
            }
        } catch (IOException e) {
            // client gone
        }
    }

    /** Round trips after a warm-up of a tenth as many, in microseconds. */
    public static Histogram measure(int port, int roundTrips) throws IOException {
        Histogram h = new Histogram(10_000_000, 3);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            byte[] b = new byte[MESSAGE_BYTES];
            for (int i = -roundTrips / 10; i < roundTrips; i++) {
                long t0 = System.nanoTime();
                out.write(b);
                in.readFully(b);
                if (i >= 0) {
                    h.recordValue((System.nanoTime() - t0) / 1000);
                }
            }
        }
        return h;
    }
}

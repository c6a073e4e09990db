package io.sessionmesh.testing.hosts;

import io.sessionmesh.settings.ReadyFile;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The small programs the hosts tests run inside a namespace, JDK only, started through {@link Host#command} on the
 * test's own class path:
 * <ul>
 * <li>{@code serve --ready-file F}: a TCP echo server, a UDP sink and a TCP port that answers the sink's count, all on
 *     every address of the host; the ready file names {@code echo}, {@code udp} and {@code count};</li>
 * <li>{@code connect HOST PORT TIMEOUT_MS}: connects to an echo server and checks one round trip; exit status 0, or
 *     {@value #FAILED} with the reason on standard output;</li>
 * <li>{@code udp-send HOST PORT COUNT}: sends COUNT datagrams, paced so that no socket buffer overflows.</li>
 * </ul>
 */
public final class NetProbe {
    /** Exit status of a connect that failed. */
    static final int FAILED = 2;
    /** Datagrams sent before the sender pauses, and for how long: the sink's buffer never overflows. */
    static final int BURST = 50;
    static final long BURST_PAUSE_MILLIS = 2;

    private NetProbe() {
    }

    /** The command line of a probe on this JVM's java and class path. */
    static List<String> command(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx48m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                NetProbe.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "serve" -> serve(Path.of(args[List.of(args).indexOf("--" + ReadyFile.SETTING) + 1]));
            case "connect" -> System.exit(connect(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3])));
            case "udp-send" -> udpSend(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("unknown probe " + args[0]);
        }
    }

    private static void serve(Path readyFile) throws Exception {
        InetAddress any = InetAddress.getByName("0.0.0.0");
        ServerSocket echo = new ServerSocket(0, 50, any);
        ServerSocket count = new ServerSocket(0, 50, any);
        DatagramSocket udp = new DatagramSocket(new InetSocketAddress(any, 0));
        udp.setReceiveBufferSize(1 << 20);
        AtomicLong received = new AtomicLong();
        daemon(() -> {
            DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
            while (true) {
                udp.receive(p);
                received.incrementAndGet();
            }
        });
        daemon(() -> {
            while (true) {
                try (Socket s = count.accept()) {
                    s.getOutputStream().write((received.get() + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            }
        });
        ReadyFile.write(readyFile, Map.of("echo", (InetSocketAddress) echo.getLocalSocketAddress(),
                "udp", (InetSocketAddress) udp.getLocalSocketAddress(),
                "count", (InetSocketAddress) count.getLocalSocketAddress()));
        while (true) {
            Socket s = echo.accept();
            daemon(() -> {
                try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    in.transferTo(out);
                }
            });
        }
    }

    private static int connect(String host, int port, int timeoutMillis) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            s.getOutputStream().write("ping\n".getBytes(StandardCharsets.US_ASCII));
            String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            if (!"ping".equals(line)) {
                System.out.println("echo answered " + line);
                return FAILED;
            }
            System.out.println("connected");
            return 0;
        } catch (Exception e) {
            System.out.println("failed: " + e);
            return FAILED;
        }
    }

    private static void udpSend(String host, int port, int count) throws Exception {
        try (DatagramSocket s = new DatagramSocket()) {
            byte[] body = new byte[32];
            InetSocketAddress to = new InetSocketAddress(host, port);
            for (int i = 0; i < count; i++) {
                try {
                    s.send(new DatagramPacket(body, body.length, to));
                } catch (java.io.IOException e) {
                    // a send that fails counts as a lost datagram
                }
                if (i % BURST == BURST - 1) {
                    Thread.sleep(BURST_PAUSE_MILLIS);
                }
            }
        }
        System.out.println("sent " + count);
    }

    private interface Body {
        void run() throws Exception;
    }

    private static void daemon(Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                System.out.println("probe thread: " + e);
            }
        });
        t.setDaemon(true);
        t.start();
    }
}

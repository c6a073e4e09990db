package io.sessionmesh.testing.hosts;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link DelayProxy} on loopback, in this JVM: delays, order, the queue limit, half-close. No root needed. */
class DelayProxyTest {
    private ServerSocket echo;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Socket s = echo.accept();
                    Thread copier = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException ignored) {
                            // the client went
                        }
                    });
                    copier.setDaemon(true);
                    copier.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
    }

    @AfterEach
    void stopEcho() throws IOException {
        echo.close();
    }

    private InetSocketAddress target() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort());
    }

    @Test
    void delays_eachRoundTripTakesAtLeastBoth() throws Exception {
        Duration up = Duration.ofMillis(10);
        Duration down = Duration.ofMillis(15);
        try (DelayProxy proxy = DelayProxy.builder(target()).delays(up, down).start();
             Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setTcpNoDelay(true);
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                s.getOutputStream().write(i);
                assertEquals(i, s.getInputStream().read());
                long rtt = System.nanoTime() - t0;
                assertTrue(rtt >= up.plus(down).toNanos(), "round trip " + rtt + " ns");
            }
            assertEquals(1, proxy.accepted());
        }
    }

    @Test
    void bulk_smallQueue_bytesEchoedInOrder_queueNeverAboveItsLimit() throws Exception {
        int limit = 64 << 10;
        byte[] data = new byte[8 << 20];
        new Random(7).nextBytes(data);
        try (DelayProxy proxy = DelayProxy.builder(target()).delay(Duration.ofMillis(1)).maxQueuedBytes(limit).start();
             Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            CompletableFuture<byte[]> back = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.getInputStream().readNBytes(data.length);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            OutputStream out = s.getOutputStream();
            for (int off = 0; off < data.length; off += 100_000) {
                out.write(data, off, Math.min(100_000, data.length - off));
            }
            byte[] got = back.get(60, TimeUnit.SECONDS);
            assertTrue(Arrays.equals(data, got), "8 MiB echoed byte for byte");
            assertTrue(proxy.peakQueuedBytes() <= limit, "peak " + proxy.peakQueuedBytes() + " > " + limit);
        }
    }

    @Test
    void halfClose_endOfStreamPassesAfterTheBytes_answerStillComesBack() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             DelayProxy proxy = DelayProxy.builder(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                     server.getLocalPort())).delay(Duration.ofMillis(5)).start();
             Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                try (Socket peer = server.accept()) {
                    String text = new String(peer.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                    peer.getOutputStream().write("bye".getBytes(StandardCharsets.US_ASCII));
                    return text;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            s.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
            s.shutdownOutput();
            assertEquals("hello", seen.get(10, TimeUnit.SECONDS));
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            s.getInputStream().transferTo(answer);
            assertArrayEquals("bye".getBytes(StandardCharsets.US_ASCII), answer.toByteArray());
        }
    }

    @Test
    void targetDown_clientConnectionEnds() throws Exception {
        ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        InetSocketAddress nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), gone.getLocalPort());
        gone.close();
        try (DelayProxy proxy = DelayProxy.builder(nobody).start();
             Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setSoTimeout(10_000);
            int read;
            try {
                read = s.getInputStream().read();
            } catch (IOException reset) {
                read = -1;
            }
            assertEquals(-1, read, "the client's connection ended");
            assertEquals(0, proxy.accepted());
        }
    }

    @Test
    void start_badSettings_refusedNamingTheValue() {
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> DelayProxy.builder(target()).delay(Duration.ofMinutes(1)).start());
        assertTrue(tooLong.getMessage().contains("PT1M"), tooLong.getMessage());
        IllegalArgumentException queue = assertThrows(IllegalArgumentException.class,
                () -> DelayProxy.builder(target()).maxQueuedBytes(0).start());
        assertTrue(queue.getMessage().contains("0"), queue.getMessage());
    }
}

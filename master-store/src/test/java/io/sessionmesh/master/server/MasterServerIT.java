package io.sessionmesh.master.server;

import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The master as a real process on a loopback port, driven over TCP. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MasterServerIT {
    static ServerProcess master;
    static EventLoopGroup group;
    static final BinaryTransportCodec codec = new BinaryTransportCodec();

    @BeforeAll
    static void start() throws Exception {
        master = startMaster("--connection-idle-timeout", "2s", "--max-frame", "64k", "--max-session", "32k",
                "--max-section", "32k", "--max-attribute", "16k", "--max-outbound", "256k");
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stop() throws Exception {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        master.stop();
        assertEquals(List.of(), master.leaks(), "the master leaked buffers");
    }

    static java.nio.file.Path jar() {
        return ServerProcess.jar("master.jar", "target/sessionmesh-master.jar");
    }

    static ServerProcess startMaster(String... flags) throws IOException {
        List<String> cmd = ServerProcess.command(jar(), "--port", "0");
        cmd.addAll(List.of(flags));
        return ServerProcess.start(cmd);
    }

    static MasterConnection connect() {
        return MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", master.port()),
                MasterConnectionOptions.DEFAULT, null).join();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void pipelinedRequests_fromSeveralConnectionsAtOnce_allLand() throws Exception {
        String id;
        try (MasterConnection c = connect()) {
            id = c.create(null).join().sessionId();
        }
        int connections = 4;
        int perConnection = 200;
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        List<Future<?>> done = new ArrayList<>();
        for (int n = 0; n < connections; n++) {
            int me = n;
            done.add(pool.submit(() -> {
                try (MasterConnection c = connect()) {
                    List<CompletableFuture<MasterAnswer.Write>> writes = new ArrayList<>();
                    for (int i = 0; i < perConnection; i++) {
                        writes.add(c.write(new WriteRequest(id, List.of(new SectionDelta("shared",
                                Map.of("c" + me + "-" + i, utf8(me + ":" + i)), List.of())))));
                    }
                    for (CompletableFuture<MasterAnswer.Write> w : writes) {
                        assertTrue(w.join().result().versions().get("shared") >= 1);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        try (MasterConnection c = connect()) {
            SectionData s = c.read(new ReadRequest(id, List.of("shared"))).join().result().toReadResult().sections().get(0);
            assertEquals(connections * perConnection, s.attributes().size());
            assertEquals(connections * perConnection, s.version());
            assertArrayEquals(utf8("2:17"), s.attributes().get("c2-17"));
        }
    }

    @Test
    void rawPipeline_answersCarryTheirRequestIds() throws Exception {
        try (MasterConnection c = connect(); RawClient raw = new RawClient(master.port())) {
            String id = c.create(Duration.ofMinutes(1)).join().sessionId();
            ByteBuffer batch = ByteBuffer.allocate(64 << 10);
            for (int i = 1; i <= 50; i++) {
                batch.put(RawClient.frame(Opcodes.WRITE, 1000 + i, codec.encode(new WriteRequest(id, List.of(
                        new SectionDelta("s", Map.of("n", utf8(Integer.toString(i))), List.of()))))));
                batch.put(RawClient.frame(Opcodes.READ, 2000 + i, codec.encode(new ReadRequest(id, List.of("s")))));
            }
            raw.send(java.util.Arrays.copyOf(batch.array(), batch.position()));
            for (int i = 1; i <= 50; i++) {
                RawClient.Answer w = raw.read();
                assertEquals(1000 + i, w.requestId());
                assertEquals((long) i, codec.decode(MasterPipelineTest.message(w.body()), WriteResult.class).versions().get("s"));
                RawClient.Answer r = raw.read();
                assertEquals(2000 + i, r.requestId());
                ReadResult read = codec.decode(MasterPipelineTest.message(r.body()), ReadResult.class);
                assertArrayEquals(utf8(Integer.toString(i)), read.sections().get(0).attributes().get("n"));
            }
        }
    }

    @Test
    void garbage_isAnsweredAndClosed_whileOtherConnectionsKeepWorking() throws Exception {
        try (MasterConnection healthy = connect(); RawClient bad = new RawClient(master.port())) {
            bad.send("GET /sessions HTTP/1.1\r\nHost: master\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            RawClient.Answer a = bad.read();
            assertEquals(Status.BAD_REQUEST, a.status());
            assertTrue(a.text().contains("magic"), a.text());
            assertTrue(bad.closedByPeer());
            assertArrayEquals(new byte[] {1}, healthy.ping(new byte[] {1}).join().payload());
        }
    }

    @Test
    void oversizedFrame_isTooLarge_andTheSameConnectionStaysUsable() throws Exception {
        try (RawClient raw = new RawClient(master.port())) {
            byte[] big = RawClient.frame(Opcodes.WRITE, 77, new byte[200 << 10]);
            raw.send(big);
            raw.send(Opcodes.PING, 78, new byte[] {9});
            RawClient.Answer tooLarge = raw.read();
            assertEquals(77, tooLarge.requestId());
            assertEquals(Status.TOO_LARGE, tooLarge.status());
            RawClient.Answer ping = raw.read();
            assertEquals(78, ping.requestId());
            assertArrayEquals(new byte[] {0, 0, 0, 0, 9}, ping.body(), "no lease granted (not registered), then the payload");
        }
    }

    @Test
    void truncatedAndMalformedBodies_getStatuses_connectionSurvives() throws Exception {
        try (RawClient raw = new RawClient(master.port())) {
            byte[] read = codec.encode(new ReadRequest("abc", List.of("s")));
            raw.send(Opcodes.READ, 1, java.util.Arrays.copyOf(read, read.length - 2));
            assertEquals(Status.BAD_REQUEST, raw.read().status());
            byte[] hugeCount = read.clone();
            hugeCount[hugeCount.length - 3] = (byte) 0xFF;
            raw.send(Opcodes.READ, 2, hugeCount);
            int status = raw.read().status();
            assertTrue(status == Status.BAD_REQUEST || status == Status.TOO_LARGE, "status " + status);
            raw.send(Opcodes.CREATE, 3, new byte[] {1, 2, 3});
            assertEquals(Status.BAD_REQUEST, raw.read().status());
            raw.send(Opcodes.PING, 4, new byte[0]);
            assertEquals(Status.OK, raw.read().status());
        }
    }

    @Test
    void silentClient_isClosedAfterTheIdleTimeout() throws Exception {
        try (RawClient silent = new RawClient(master.port()); MasterConnection healthy = connect()) {
            long start = System.nanoTime();
            AtomicBoolean closed = new AtomicBoolean();
            Thread watcher = new Thread(() -> {
                try {
                    closed.set(silent.closedByPeer());
                } catch (IOException e) {
                    closed.set(true);
                }
            });
            watcher.start();
            while (watcher.isAlive()) {
                // The healthy connection keeps talking, so only the silent one is idle.
                assertArrayEquals(new byte[] {2}, healthy.ping(new byte[] {2}).join().payload());
                watcher.join(200);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(closed.get(), "the master kept a silent connection open");
            assertTrue(ms >= 1500, "closed after " + ms + " ms, before the 2 s idle timeout");
            assertTrue(healthy.isOpen());
        }
    }

    @Test
    void clientThatStopsReading_isCutOff_andOthersAreNotDisturbed() throws Exception {
        String id;
        try (MasterConnection c = connect()) {
            id = c.create(null).join().sessionId();
            c.write(new WriteRequest(id, List.of(new SectionDelta("big", Map.of("a", new byte[15 << 10],
                    "b", new byte[15 << 10]), List.of())))).join();
        }
        byte[] request = RawClient.frame(Opcodes.READ, 1, codec.encode(new ReadRequest(id, List.of("big"))));
        AtomicBoolean writerStopped = new AtomicBoolean();
        RawClient stuck = new RawClient(master.port());
        stuck.socket.setReceiveBufferSize(4096);
        Thread writer = new Thread(() -> {
            try {
                OutputStream out = stuck.socket.getOutputStream();
                for (int i = 0; i < 100_000; i++) {
                    out.write(request);
                }
            } catch (IOException e) {
                // the master cut the connection
            } finally {
                writerStopped.set(true);
            }
        });
        writer.setDaemon(true);
        writer.start();
        AtomicInteger pings = new AtomicInteger();
        try (MasterConnection healthy = connect()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!writerStopped.get() && System.nanoTime() < deadline) {
                assertArrayEquals(new byte[] {3}, healthy.ping(new byte[] {3}).get(5, TimeUnit.SECONDS).payload());
                pings.incrementAndGet();
                Thread.sleep(20);
            }
            assertTrue(writerStopped.get(), "the master never cut off a client that does not read");
            assertTrue(pings.get() > 0);
            String stats = healthy.stats().join();
            assertTrue(stats.contains("\"slow_consumer_closed\":1") || stats.matches(".*\"idle_closed\":[1-9].*"), stats);
        } finally {
            stuck.close();
        }
    }

    @Test
    void expiredAndDeletedSessions_answerNotFound_overTheWire() throws Exception {
        try (MasterConnection c = connect()) {
            String shortLived = c.create(Duration.ofMillis(300)).join().sessionId();
            String deleted = c.create(null).join().sessionId();
            c.delete(deleted).join();
            // Not polled with reads or touches (each would keep it alive): the master's sweep counts the expiry.
            Await.until("the master to expire a session idle for 300 ms", Duration.ofSeconds(10),
                    () -> c.stats().join().matches(".*\"expiries\":[1-9].*"));
            for (String id : List.of(shortLived, deleted)) {
                MasterException e = assertFailsWith(c.read(new ReadRequest(id, List.of("s"))));
                assertEquals(Status.NOT_FOUND, e.status());
                assertEquals(Status.NOT_FOUND, assertFailsWith(c.touch(id)).status());
            }
            assertTrue(c.stats().join().matches(".*\"expiries\":[1-9].*"));
        }
    }

    @Test
    void conflict_overTheWire_appliesNothing() throws Exception {
        try (MasterConnection c = connect()) {
            String id = c.create(null).join().sessionId();
            c.write(new WriteRequest(id, List.of(new SectionDelta("s", 0, Map.of("k", utf8("v1")), List.of())))).join();
            MasterException e = assertFailsWith(c.write(new WriteRequest(id, List.of(
                    new SectionDelta("s", 0, Map.of("k", utf8("v2")), List.of())))));
            assertEquals(Status.CONFLICT, e.status());
            assertArrayEquals(utf8("v1"), c.read(new ReadRequest(id, List.of("s"))).join().result().toReadResult().sections().get(0).attributes().get("k"));
        }
    }

    @Test
    void schemas_publishedOnOneConnection_fetchedOnAnother() {
        try (MasterConnection a = connect(); MasterConnection b = connect()) {
            a.publishSchema(42L, new byte[] {1, 2, 3}).join();
            assertArrayEquals(new byte[] {1, 2, 3}, b.fetchSchema(42L).join());
            assertEquals(Status.NOT_FOUND, assertFailsWith(b.fetchSchema(43L)).status());
        }
    }

    @Test
    void schemaPublish_withOtherBytesUnderAKnownUid_isConflict_andTheFirstBytesStay() {
        try (MasterConnection a = connect(); MasterConnection b = connect()) {
            a.publishSchema(0x5C4E_0001L, new byte[] {7, 7, 7}).join();
            a.publishSchema(0x5C4E_0001L, new byte[] {7, 7, 7}).join(); // the same bytes again: fine
            MasterException poisoned = assertFailsWith(b.publishSchema(0x5C4E_0001L, new byte[] {6, 6, 6, 6}));
            assertEquals(Status.CONFLICT, poisoned.status());
            assertTrue(poisoned.getMessage().contains("already published with other content"), poisoned.getMessage());
            assertArrayEquals(new byte[] {7, 7, 7}, b.fetchSchema(0x5C4E_0001L).join());
        }
    }

    @Test
    void sigterm_shutsDownGracefully() throws Exception {
        ServerProcess other = startMaster();
        try (MasterConnection c = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", other.port()),
                MasterConnectionOptions.DEFAULT, null).join()) {
            c.create(null).join();
        }
        other.stop();
        assertTrue(other.output.stream().anyMatch(l -> l.contains("master stopped")), String.join("\n", other.output));
        assertTrue(other.output.stream().anyMatch(l -> l.contains("effective configuration")));
    }

    @Test
    void badSetting_exitsWithStatus2_namingIt() throws Exception {
        Process p = new ProcessBuilder(ServerProcess.command(jar(), "--max-frame", "lots")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue());
        assertTrue(out.contains("max-frame") && out.contains("lots"), out);
    }

    static MasterException assertFailsWith(CompletableFuture<?> f) {
        try {
            f.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof MasterException m) {
                return m;
            }
            throw new AssertionError("failed with " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertFalse(true, "expected a MasterException");
        return null;
    }
}

package io.sessionmesh.integration.bounded;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 16, bounded under abuse: a real master with a small heap ({@value #HEAP}) and a budget under it
 * ({@value #BUDGET}), hammered over TCP by pipelined loops of CREATEs (empty sessions) and of SCHEMA_PUBLISHes
 * (distinct schemas), answers UNAVAILABLE once the budget is reached, never fails with an OutOfMemoryError, and still
 * serves deletes, after which it takes new work again. Each loop is capped well past what the heap could hold
 * uncounted (a master that counted neither empty sessions nor schemas ran out of heap here).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MasterMemoryBudgetIT {
    static final String HEAP = "-Xmx64m";
    static final String BUDGET = "24m";
    /** Requests sent before the answers are awaited: within the master's max-in-flight (1,024). */
    static final int BATCH = 1_000;
    /** 600,000 empty sessions: about 120 MB of heap, twice the master's. */
    static final int MAX_CREATES = 600_000;
    /** 3,000 schemas of 32 KiB: 96 MiB. */
    static final int MAX_SCHEMAS = 3_000;
    static final int SCHEMA_BYTES = 32 << 10;
    /** Batches sent on after the first UNAVAILABLE, to hammer a full master. */
    static final int BATCHES_WHEN_FULL = 5;

    static ServerProcess master;
    static EventLoopGroup group;
    static MasterConnection connection;

    @BeforeAll
    static void start() throws Exception {
        List<String> command = new ArrayList<>(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0", "--max-store", BUDGET));
        command.replaceAll(arg -> arg.startsWith("-Xmx") ? HEAP : arg);
        master = ServerProcess.start(command);
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        connection = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", master.port()),
                MasterConnectionOptions.builder().requestTimeout(Duration.ofSeconds(30)).build(), null)
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        if (master != null) {
            master.close();
        }
    }

    /** OK and UNAVAILABLE answers of a loop; anything else fails the test. */
    static final class Tally {
        int ok;
        int unavailable;
        String lastRefusal;

        void add(CompletableFuture<?> answer) {
            try {
                answer.join();
                ok++;
            } catch (RuntimeException e) {
                MasterException m = MasterException.of(e);
                if (m == null || m.status() != Status.UNAVAILABLE) {
                    fail("answered " + (m == null ? e.toString() : m.toString()) + " after " + ok + " OKs; the master's output: "
                            + tail());
                }
                unavailable++;
                lastRefusal = m.masterMessage() == null ? m.getMessage() : m.masterMessage();
            }
        }
    }

    @Test
    void createAndPublishLoops_pastTheBudget_unavailableAndNeverOutOfMemory() throws Exception {
        List<String> ids = new ArrayList<>();
        Tally creates = new Tally();
        int fullBatches = 0;
        for (int sent = 0; sent < MAX_CREATES && fullBatches < BATCHES_WHEN_FULL; sent += BATCH) {
            List<CompletableFuture<MasterAnswer.Created>> batch = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                batch.add(connection.send(new MasterRequest.Create(null, null), false));
            }
            connection.flush();
            for (CompletableFuture<MasterAnswer.Created> c : batch) {
                creates.add(c.thenAccept(created -> ids.add(created.sessionId())));
            }
            fullBatches += creates.unavailable > 0 ? 1 : 0;
        }
        assertTrue(creates.unavailable > 0, creates.ok + " empty sessions created and none refused; output: " + tail());
        assertTrue(creates.lastRefusal.contains("max-store"), creates.lastRefusal);
        checkBounded();

        // deletes are served on a full master, and give the room back (removed sessions are purged within a sweep)
        for (int from = 0; from < ids.size(); from += BATCH) {
            List<CompletableFuture<Void>> deletes = new ArrayList<>(BATCH);
            for (String id : ids.subList(from, Math.min(ids.size(), from + BATCH))) {
                deletes.add(connection.send(new MasterRequest.Delete(id), false));
            }
            connection.flush();
            CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        }
        Await.until("the deleted sessions' room to come back", Duration.ofSeconds(10),
                () -> stat("budget_used_bytes") < stat("budget_max_bytes") / 2);

        Tally publishes = new Tally();
        fullBatches = 0;
        byte[] schema = new byte[SCHEMA_BYTES];
        for (int uid = 1; uid <= MAX_SCHEMAS && fullBatches < BATCHES_WHEN_FULL; ) {
            List<CompletableFuture<Void>> batch = new ArrayList<>();
            for (int i = 0; i < 32; i++, uid++) {
                schema[0] = (byte) uid;
                schema[1] = (byte) (uid >> 8);
                batch.add(connection.send(new MasterRequest.PublishSchema(uid, schema.clone()), false));
            }
            connection.flush();
            batch.forEach(publishes::add);
            fullBatches += publishes.unavailable > 0 ? 1 : 0;
        }
        assertTrue(publishes.unavailable > 0, publishes.ok + " schemas of 32 KiB published and none refused; output: " + tail());
        assertTrue(publishes.lastRefusal.contains("max-store"), publishes.lastRefusal);
        checkBounded();
    }

    /** The master is alive, within its budget, never ran out of heap, and still answers. */
    private static void checkBounded() throws Exception {
        assertTrue(master.process.isAlive(), "the master died: " + tail());
        long used = stat("budget_used_bytes");
        long max = stat("budget_max_bytes");
        assertEquals(24L << 20, max);
        // concurrent checks may overshoot by one change each
        assertTrue(used <= max + (64 << 10), "budget " + used + " of " + max);
        assertTrue(master.output.stream().noneMatch(l -> l.contains("OutOfMemoryError")), tail());
    }

    static long stat(String name) throws Exception {
        String json = connection.stats().get(10, TimeUnit.SECONDS);
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        if (!m.find()) {
            throw new AssertionError("STATS has no " + name + ": " + json);
        }
        return Long.parseLong(m.group(1));
    }

    private static String tail() {
        List<String> out = List.copyOf(master.output);
        return String.join("\n", out.subList(Math.max(0, out.size() - 30), out.size()));
    }
}

package io.sessionmesh.integration.consistency;

import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import org.HdrHistogram.Histogram;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One client thread on one sidecar: reads (1 to 3 sections) and writes (1 or 2 attributes of one section) of a
 * few hot sessions shared with every other client, through the client jar's binary API, and records each
 * operation in the {@link History}. A write stores its own id (8 bytes) in each attribute it sets.
 */
final class HotSessionClient implements Runnable {
    static final int SECTIONS = 3;
    static final int ATTRIBUTES = 4;
    static final String[] SECTION_NAMES = {"cart", "profile", "offer"};
    /** A value that is not 8 bytes: no write of this test stored it. */
    static final long GARBAGE = Long.MIN_VALUE;

    /** Operations of all clients, their failures by kind, and the latency of acknowledged writes. */
    static final class Tally {
        final AtomicLong operations = new AtomicLong();
        final LongAdder[] readsOk;
        final LongAdder[] readsFailed;
        final LongAdder[] writesOk;
        final LongAdder[] writesFailed;
        final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        final Histogram writeMicros = new Histogram(60_000_000L, 3);

        Tally(int sidecars) {
            readsOk = adders(sidecars);
            readsFailed = adders(sidecars);
            writesOk = adders(sidecars);
            writesFailed = adders(sidecars);
        }

        private static LongAdder[] adders(int n) {
            LongAdder[] a = new LongAdder[n];
            for (int i = 0; i < n; i++) {
                a[i] = new LongAdder();
            }
            return a;
        }

        void failed(int sidecar, String op, Exception e) {
            String kind = "sidecar " + sidecar + " " + op + ": " + e.getClass().getSimpleName();
            failures.computeIfAbsent(kind, k -> new LongAdder()).increment();
        }
    }

    private final int client;
    private final int sidecar;
    private final List<String> sessions;
    private final int writePercent;
    private final History history;
    private final Tally tally;
    private final AtomicBoolean stop;
    private final SplittableRandom random;
    private final SidecarHttp http;
    private final SidecarApi api;
    private long sequence;

    HotSessionClient(int client, int sidecar, URI sidecarUri, List<String> sessions, int writePercent, History history,
                     Tally tally, AtomicBoolean stop) {
        this.client = client;
        this.sidecar = sidecar;
        this.sessions = sessions;
        this.writePercent = writePercent;
        this.history = history;
        this.tally = tally;
        this.stop = stop;
        this.random = new SplittableRandom(client * 7919L + 17);
        this.http = new SidecarHttp(sidecarUri, Duration.ofSeconds(1), Duration.ofSeconds(5), 2, 1 << 20);
        this.api = new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE);
    }

    static String attribute(int a) {
        return "a" + a;
    }

    @Override
    public void run() {
        try {
            while (!stop.get()) {
                int session = random.nextInt(sessions.size());
                boolean ok = random.nextInt(100) < writePercent ? write(session) : read(session);
                tally.operations.incrementAndGet();
                if (!ok) {
                    Thread.sleep(5); // the sidecar or its master is away: do not spin
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            http.close();
        }
    }

    private boolean write(int session) {
        int section = random.nextInt(SECTIONS);
        int first = random.nextInt(ATTRIBUTES);
        int mask = 1 << first;
        if (random.nextBoolean()) {
            mask |= 1 << random.nextInt(ATTRIBUTES);
        }
        long id = ((long) (client + 1) << 40) | ++sequence;
        byte[] value = ByteBuffer.allocate(Long.BYTES).putLong(id).array();
        Map<String, byte[]> set = new LinkedHashMap<>();
        for (int a = 0; a < ATTRIBUTES; a++) {
            if ((mask & (1 << a)) != 0) {
                set.put(attribute(a), value);
            }
        }
        String name = SECTION_NAMES[section];
        WriteRequest request = new WriteRequest(sessions.get(session), List.of(new SectionDelta(name, set, List.of())));
        long invoked = System.nanoTime();
        long version = History.UNKNOWN;
        boolean ok = false;
        try {
            WriteResult result = api.write(request);
            version = result.versions().get(name);
            ok = true;
        } catch (SessionMeshException e) {
            tally.failed(sidecar, "write", e);
        }
        long completed = System.nanoTime();
        history.add(new History.Write(id, client, sidecar, session, section, mask, invoked, completed, version));
        if (ok) {
            tally.writesOk[sidecar].increment();
            synchronized (tally.writeMicros) {
                tally.writeMicros.recordValue(Math.min((completed - invoked) / 1000, 60_000_000L));
            }
        } else {
            tally.writesFailed[sidecar].increment();
        }
        return ok;
    }

    private boolean read(int session) {
        List<String> names = new ArrayList<>(SECTIONS);
        List<Integer> indexes = new ArrayList<>(SECTIONS);
        int mask = 1 + random.nextInt((1 << SECTIONS) - 1);
        for (int s = 0; s < SECTIONS; s++) {
            if ((mask & (1 << s)) != 0) {
                names.add(SECTION_NAMES[s]);
                indexes.add(s);
            }
        }
        long invoked = System.nanoTime();
        ReadResult result;
        try {
            result = api.read(sessions.get(session), names);
        } catch (SessionMeshException e) {
            tally.failed(sidecar, "read", e);
            tally.readsFailed[sidecar].increment();
            return false;
        }
        long completed = System.nanoTime();
        history.add(toRead(client, sidecar, session, indexes, result, invoked, completed));
        tally.readsOk[sidecar].increment();
        return true;
    }

    /** A read's answer in the history's terms. */
    static History.Read toRead(int client, int sidecar, int session, List<Integer> sections, ReadResult result,
                               long invoked, long completed) {
        int[] indexes = sections.stream().mapToInt(Integer::intValue).toArray();
        long[] versions = new long[indexes.length];
        long[] values = new long[indexes.length * ATTRIBUTES];
        for (int i = 0; i < indexes.length; i++) {
            String name = SECTION_NAMES[indexes[i]];
            SectionData data = result.section(name).orElseThrow(() -> new AssertionError("no section " + name
                    + " in the answer " + result));
            versions[i] = data.version();
            for (int a = 0; a < ATTRIBUTES; a++) {
                byte[] v = data.attributes().get(attribute(a));
                values[i * ATTRIBUTES + a] = v == null ? History.ABSENT
                        : v.length == Long.BYTES ? ByteBuffer.wrap(v).getLong() : GARBAGE;
            }
        }
        return new History.Read(client, sidecar, session, indexes, versions, values, invoked, completed);
    }
}

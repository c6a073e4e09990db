package io.sessionmesh.benchmarks.master;

import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.HdrHistogram.Histogram;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * What replication costs (issue 15; benchmarks/RESULTS.md 9 at 1f3fa7a): the same writes and reads as section 2
 * (a 1 KB attribute; 3 sections) against masters set up several ways, and against Redis with one replica and
 * {@code WAIT 1 0} after each write, the nearest Redis comes to "acknowledged once a second copy has it".
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.master.ReplicationBenchmark \
 *     --masters alone=127.0.0.1:7401,group-1=127.0.0.1:7411,group-3=127.0.0.1:7421|127.0.0.1:7422|127.0.0.1:7423 \
 *     --redis 127.0.0.1:6391 [--connections 1,16] [--pipeline 1,16] [--seconds 5] [--out file.json]
 * </pre>
 *
 * For a group, the leader is found by its STATS ({@code replica_leads}). Masters run the loops of {@link MasterVsRedis}
 * (each connection sends {@code pipeline} requests, waits for every answer, sends the next); Redis runs the same
 * closed loop here, one thread per connection, each write an {@code HSET} followed by {@code WAIT 1 0} in one send and
 * counted when the WAIT answers (the number of replicas that acknowledged, checked to be 1).
 */
public final class ReplicationBenchmark {
    private ReplicationBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        List<String> masters = flags.list("masters", List.of("alone=127.0.0.1:7401"), null);
        InetSocketAddress redis = flags.isSet("redis") ? flags.hostPort("redis", null) : null;
        List<Integer> connections = flags.integers("connections", List.of(1, 16), 1, 1024);
        List<Integer> depths = flags.integers("pipeline", List.of(1, 16), 1, 1024);
        int seconds = flags.integer("seconds", 5, 1, 3600);
        int sessions = flags.integer("sessions", 1000, 1, 1_000_000);
        Path out = flags.path("out", "benchmarks/results/replication.json");
        flags.checkAllUsed();

        byte[][] values = MasterVsRedis.sectionValues();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<String> rows = new ArrayList<>();
        try {
            for (String spec : masters) {
                int eq = spec.indexOf('=');
                String name = spec.substring(0, eq);
                InetSocketAddress leader = leader(group, spec.substring(eq + 1).split("\\|"));
                System.out.printf("== %s: leader %s:%d%n", name, leader.getHostString(), leader.getPort());
                String[] ids = MasterVsRedis.preloadMaster(group, leader, sessions, values);
                for (String op : List.of("write", "read")) {
                    for (int c : connections) {
                        for (int depth : depths) {
                            long[] before = proposals(group, leader);
                            MasterVsRedis.Result r = MasterVsRedis.runMaster(group, leader, ids, values, op, c, depth, seconds);
                            long[] after = proposals(group, leader);
                            double perEntry = after[1] == before[1] ? 0 : (double) (after[0] - before[0]) / (after[1] - before[1]);
                            if (perEntry > 0) {
                                System.out.printf(Locale.ROOT, "             %.1f changes per Raft entry (warm-up included)%n", perEntry);
                            }
                            rows.add(row(name, op, c, depth, r).replace(",\"result\":",
                                    String.format(Locale.ROOT, ",\"changes_per_entry\":%.2f,\"result\":", perEntry)));
                        }
                    }
                }
            }
            if (redis != null) {
                System.out.printf("== redis+wait: %s:%d (one replica)%n", redis.getHostString(), redis.getPort());
                MasterVsRedis.preloadRedis(redis, sessions, values);
                for (String op : List.of("write", "read")) {
                    for (int c : connections) {
                        rows.add(row("redis+wait", op, c, 1, runRedis(redis, sessions, values[0], op, c, seconds)));
                    }
                }
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, "{\"seconds\":" + seconds + ",\"sessions\":" + sessions + ",\"runs\":[\n"
                + String.join(",\n", rows) + "\n]}\n");
        System.out.println("results: " + out);
    }

    private static String row(String system, String op, int c, int depth, MasterVsRedis.Result r) {
        System.out.printf(Locale.ROOT, "%-12s %-5s c=%-3d P=%-3d %,10.0f req/s  p50 %7.0f  p99 %7.0f  p99.9 %7.0f us%n",
                system, op, c, depth, r.throughput(), r.p50(), r.p99(), r.p999());
        return String.format(Locale.ROOT, "{\"system\":\"%s\",\"op\":\"%s\",\"connections\":%d,\"pipeline\":%d,\"result\":%s}",
                system, op, c, depth, r.json());
    }

    /** The leader's {@code replica_changes_proposed} and {@code replica_entries_proposed} (zeros for a master alone). */
    static long[] proposals(EventLoopGroup group, InetSocketAddress leader) throws Exception {
        try (MasterConnection c = MasterConnection.connect(group, leader, MasterConnectionOptions.DEFAULT, null).join()) {
            String stats = c.stats().get(5, TimeUnit.SECONDS);
            return new long[]{statOf(stats, "replica_changes_proposed"), statOf(stats, "replica_entries_proposed")};
        }
    }

    private static long statOf(String json, String name) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** The replica whose STATS say it leads; a master on its own (one address) is its own leader. */
    static InetSocketAddress leader(EventLoopGroup group, String[] addresses) throws InterruptedException {
        List<InetSocketAddress> candidates = new ArrayList<>();
        for (String a : addresses) {
            int colon = a.lastIndexOf(':');
            candidates.add(new InetSocketAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1))));
        }
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (InetSocketAddress a : candidates) {
                try (MasterConnection c = MasterConnection.connect(group, a, MasterConnectionOptions.DEFAULT, null).join()) {
                    if (c.stats().get(5, TimeUnit.SECONDS).contains("\"replica_leads\":1")) {
                        return a;
                    }
                } catch (Exception e) {
                    // not up yet
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no replica of " + candidates + " leads after 30 s");
    }

    /** Redis's closed loop: one thread per connection; a write is HSET + WAIT 1 0, a read HGETALL of the 3 fields. */
    static MasterVsRedis.Result runRedis(InetSocketAddress redis, int sessions, byte[] value, String op, int connections,
                                         int seconds) throws Exception {
        run(redis, sessions, value, op, connections, Math.max(1, seconds / 2), null); // warm-up
        Histogram histogram = new Histogram(MasterVsRedis.HIGHEST_MICROS, 3);
        long start = System.nanoTime();
        long requests = run(redis, sessions, value, op, connections, seconds, histogram);
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new MasterVsRedis.Result(requests / elapsed, histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), requests);
    }

    private static long run(InetSocketAddress redis, int sessions, byte[] value, String op, int connections, int seconds,
                            Histogram histogram) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        long[] counts = new long[connections];
        Exception[] failure = {null};
        for (int t = 0; t < connections; t++) {
            int me = t;
            Thread thread = new Thread(() -> {
                try (Socket s = new Socket(redis.getHostString(), redis.getPort())) {
                    s.setTcpNoDelay(true);
                    OutputStream o = s.getOutputStream();
                    InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < deadline) {
                        String key = String.format("session:%012d", random.nextInt(sessions));
                        long begin = System.nanoTime();
                        if (op.equals("write")) {
                            o.write(resp(List.of(bytes("HSET"), bytes(key), bytes(MasterVsRedis.SECTIONS[0]), value),
                                    List.of(bytes("WAIT"), bytes("1"), bytes("0"))));
                            skipReply(in);
                            long acked = integerReply(in);
                            if (acked < 1) {
                                throw new IOException("WAIT 1 0 answered " + acked + ": is the replica attached?");
                            }
                        } else {
                            o.write(resp(List.of(bytes("HGETALL"), bytes(key))));
                            skipReply(in);
                        }
                        if (histogram != null) {
                            synchronized (histogram) {
                                histogram.recordValue(Math.min(MasterVsRedis.HIGHEST_MICROS, (System.nanoTime() - begin) / 1000));
                            }
                        }
                        counts[me]++;
                    }
                } catch (Exception e) {
                    failure[0] = e;
                }
            }, "redis-loop-" + t);
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        long total = 0;
        for (long n : counts) {
            total += n;
        }
        return total;
    }

    @SafeVarargs
    private static byte[] resp(List<byte[]>... commands) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (List<byte[]> parts : commands) {
            b.write(bytes("*" + parts.size() + "\r\n"));
            for (byte[] p : parts) {
                b.write(bytes("$" + p.length + "\r\n"));
                b.write(p);
                b.write(bytes("\r\n"));
            }
        }
        return b.toByteArray();
    }

    /** Reads one RESP reply of any type and throws on an error reply. */
    private static void skipReply(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        switch (type) {
            case '+', ':' -> { }
            case '-' -> throw new IOException("redis: " + line);
            case '$' -> {
                int n = Integer.parseInt(line);
                if (n >= 0) {
                    in.readNBytes(n + 2);
                }
            }
            case '*' -> {
                int n = Integer.parseInt(line);
                for (int i = 0; i < n; i++) {
                    skipReply(in);
                }
            }
            default -> throw new IOException("redis: unexpected reply type " + type);
        }
    }

    private static long integerReply(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        if (type != ':') {
            throw new IOException("redis: expected an integer, got " + (char) type + line);
        }
        return Long.parseLong(line);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            if (c < 0) {
                throw new IOException("redis closed the connection");
            }
            b.append((char) c);
        }
        in.read(); // '\n'
        return b.toString();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

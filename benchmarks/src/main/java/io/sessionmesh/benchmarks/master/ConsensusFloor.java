package io.sessionmesh.benchmarks.master;

import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the consensus floor benchmarks share ({@link ReplicaProposeLatency} for Ratis, {@link MicroRaftProposeLatency}
 * for MicroRaft): proposing threads timed into one histogram, the other members of a group started as JVMs of their own,
 * and the CPU those processes spent.
 */
final class ConsensusFloor {
    /** What a member process prints once it serves. */
    static final String READY = "ready";
    /** Election timeout of the member that should lead when members run in their own processes (it measures). */
    static final long LEADER_ELECTION_MILLIS = 300;
    /** Election timeout of every other member then. */
    static final long MEMBER_ELECTION_MILLIS = 3_000;
    /** How long one proposal may take before the run fails. */
    static final long PROPOSAL_TIMEOUT_SECONDS = 10;

    private ConsensusFloor() {
    }

    /** One write proposed and waited for. */
    interface Proposal {
        void proposeAndWait() throws Exception;
    }

    /** {@code clients} threads, each proposing its share of {@code writes} one after another; recorded if asked. */
    static void proposeFrom(int clients, int writes, Proposal proposal, Histogram micros) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int c = 0; c < clients; c++) {
            int share = writes / clients + (c < writes % clients ? 1 : 0);
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < share; i++) {
                        long start = System.nanoTime();
                        proposal.proposeAndWait();
                        if (micros != null) {
                            synchronized (micros) {
                                micros.recordValue((System.nanoTime() - start) / 1000);
                            }
                        }
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }, "proposer-" + c);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " proposer(s) failed", failures.get(0));
        }
    }

    /**
     * Starts {@code main} of {@code benchmark} as member {@code index} in a JVM of its own (this one's class path), and
     * waits until it prints {@link #READY}; its output goes to this one's stderr, prefixed. It stops when its stdin
     * closes ({@link #stopMembers}).
     */
    static Process startMember(Class<?> benchmark, int index, List<String> flags) throws IOException {
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(javaCommand, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                System.getProperty("java.class.path"), benchmark.getName(), "--member", String.valueOf(index)));
        command.addAll(flags);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null && !line.equals(READY); ) {
            System.err.println("r" + index + ": " + line);
        }
        if (!p.isAlive()) {
            throw new IllegalStateException("member r" + index + " exited with " + p.exitValue());
        }
        Thread pump = new Thread(() -> out.lines().forEach(line -> System.err.println("r" + index + ": " + line)),
                "r" + index + "-output");
        pump.setDaemon(true);
        pump.start();
        return p;
    }

    /** In a member process: says it is ready, then serves until stdin closes. */
    static void serveUntilStdinCloses() throws IOException {
        System.out.println(READY);
        System.out.flush();
        while (System.in.read() >= 0) {
            // the parent closes our stdin to stop us
        }
    }

    /** Closes each member's stdin (its signal to stop) and waits for it, 10 s at most each. */
    static void stopMembers(List<Process> members) throws IOException, InterruptedException {
        for (Process p : members) {
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** CPU time of these processes (user and system), from /proc; 0 for one that cannot be read. */
    static long cpuNanos(List<Process> processes) {
        long sum = 0;
        for (Process p : processes) {
            try {
                String stat = Files.readString(Path.of("/proc/" + p.pid() + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                sum += (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L; // 100 ticks a second
            } catch (IOException | RuntimeException e) {
                // gone, or no /proc: not counted
            }
        }
        return sum;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package io.sessionmesh.testing.hosts;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TestHosts} on this machine: three hosts, a {@link NetProbe} server in each, and every fault checked by real
 * traffic between them (TCP connects and UDP counts), the delay proxy in both of its placements.
 */
class HostFaultsIT {
    /** Connect timeout of a probe that is expected to fail: a dropped SYN is a timeout, not a refusal. */
    static final int FAIL_CONNECT_MILLIS = 1_000;
    /** Connect timeout of a probe that is expected to work. */
    static final int CONNECT_MILLIS = 5_000;

    static TestHosts run;
    static Host a;
    static Host b;
    static Host c;
    static final Map<Host, ServerProcess> servers = new LinkedHashMap<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        HostsPrerequisites.require();
        run = TestHosts.create("a", "b", "c");
        a = run.host("a");
        b = run.host("b");
        c = run.host("c");
        for (Host h : run.hosts()) {
            servers.put(h, ServerProcess.start(h.command(NetProbe.command("serve"))));
        }
    }

    @AfterAll
    static void stop() {
        if (run != null) {
            run.close(); // kills the servers with the namespaces
        }
    }

    @Test
    void create_threeHosts_eachReachesTheOthersAndTheTestJvmReachesEach() throws Exception {
        for (Host h : run.hosts()) {
            echoRoundTrip(echo(h));
            assertTrue(h.address().getHostAddress().startsWith(Subnets.BASE + "."), h.toString());
        }
        assertConnects(a, b);
        assertConnects(b, c);
        assertConnects(c, a);
        assertTrue(a.run("getent", "hosts", "b").stdout().startsWith(b.address().getHostAddress() + " "),
                "a's /etc/hosts names b");
        String routes = a.run("ip", "route").stdout();
        assertFalse(routes.contains("default"), "a host has no way out of the run: " + routes);
    }

    @Test
    void partition_bothWaysDropped_othersStillFlow_liftRestores() {
        try (Fault f = run.faults().partition(List.of(a), List.of(b))) {
            assertFalse(connects(a, b, FAIL_CONNECT_MILLIS), f.description() + ": a reached b");
            assertFalse(connects(b, a, FAIL_CONNECT_MILLIS), f.description() + ": b reached a");
            assertConnects(a, c);
        }
        assertConnects(a, b);
        assertConnects(b, a);
    }

    @Test
    void dropOneWay_aToBDropped_bToAStillFlows() throws Exception {
        int datagrams = 200;
        try (Fault f = run.faults().dropOneWay(List.of(a), List.of(b))) {
            assertEquals(0, udp(a, b, datagrams), f.description() + ": datagrams from a reached b");
            assertEquals(datagrams, udp(b, a, datagrams), f.description() + ": datagrams from b to a were lost");
            assertFalse(connects(a, b, FAIL_CONNECT_MILLIS), "TCP needs both ways");
        }
        assertEquals(datagrams, udp(a, b, datagrams), "lifted");
    }

    @Test
    void loss_aShareOfThePackets_roughlyThatShareLost() throws Exception {
        int datagrams = 4_000;
        double share = 0.3;
        try (Fault f = run.faults().loss(List.of(a), List.of(c), share)) {
            long delivered = udp(a, c, datagrams);
            double lost = 1 - (double) delivered / datagrams;
            assertTrue(lost > share - 0.1 && lost < share + 0.1, f.description() + ": lost " + lost);
        }
        assertEquals(datagrams, udp(a, c, datagrams), "lifted");
    }

    @Test
    void delayProxy_inTheTestJvmOnTheBridge_addsAtLeastBothDelays_hostsReachIt() throws Exception {
        Duration oneWay = Duration.ofMillis(3);
        try (DelayProxy proxy = DelayProxy.builder(echo(b)).listen(new InetSocketAddress(run.bridgeAddress(), 0))
                .delay(oneWay).start()) {
            long rtt = echoRoundTrip(proxy.address());
            assertTrue(rtt >= 2 * oneWay.toNanos(), "round trip " + rtt + " ns through " + oneWay + " each way");
            assertTrue(a.tryRun(probeConnect(proxy.address(), CONNECT_MILLIS)).ok(), "a reaches the bridge's proxy");
        }
    }

    @Test
    void delayProxy_asAProcessInAHost_delaysThatHostsLink_andItsPartitionCutsIt() throws Exception {
        Duration oneWay = Duration.ofMillis(2);
        InetSocketAddress listen = new InetSocketAddress(a.address(), 0);
        try (ServerProcess proxy = ServerProcess.start(a.command(DelayProxy.command(listen, echo(b), oneWay, oneWay)))) {
            InetSocketAddress at = new InetSocketAddress(a.address(), proxy.port(DelayProxy.READY_ENDPOINT));
            long rtt = echoRoundTrip(at);
            assertTrue(rtt >= 2 * oneWay.toNanos(), "round trip " + rtt + " ns through " + oneWay + " each way");
            try (Fault f = run.faults().partition(List.of(a), List.of(b))) {
                assertThrows(IOException.class, () -> echoRoundTrip(at), f.description() + " left the proxy's link up");
            }
            // the proxy may still be in the connect the partition cut (DelayProxy.CONNECT_TIMEOUT): wait it out
            Await.until("the proxy in a to reach b again", Duration.ofSeconds(10), () -> echoRoundTrip(at) > 0);
        }
    }

    @Test
    void tmpfs_fill_writesFailWithEnospc_freeRestores() throws Exception {
        Path raft = dir.resolve("raft");
        try (Tmpfs disk = run.faults().tmpfs(raft, 1 << 20)) {
            Files.writeString(raft.resolve("log-1"), "entry");
            assertTrue(disk.fill() > (1 << 20) - 2 * Tmpfs.PAGE_BYTES, "filled to the last pages");
            IOException full = assertThrows(IOException.class, () -> Files.write(raft.resolve("log-2"), new byte[8192]));
            assertTrue(Tmpfs.full(full), full.toString());
            CommandResult inHost = a.tryRun("sh", "-c", "head -c 8192 /dev/zero > " + raft.resolve("log-3"));
            assertTrue(!inHost.ok() && inHost.stderr().contains("No space left"), inHost.toString());
            disk.free();
            Files.write(raft.resolve("log-2"), new byte[8192]);
        }
        assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(raft.toString()), "unmounted on close");
    }

    @Test
    void pause_stoppedProcessAnswersNothing_liftAnswers_killEndsIt() throws Exception {
        ServerProcess extra = ServerProcess.start(c.command(NetProbe.command("serve")));
        InetSocketAddress echo = new InetSocketAddress(c.address(), extra.port("echo"));
        try (Fault f = run.faults().pause(extra.pid())) {
            assertThrows(SocketTimeoutException.class, () -> echoRoundTrip(echo), f.description());
        }
        echoRoundTrip(echo);
        run.faults().kill(extra.pid());
        assertFalse(extra.process.isAlive(), "killed");
    }

    @Test
    void run_failingCommand_messageNamesTheCommandAndItsError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.run("ls", "/no-such-dir"));
        assertTrue(e.getMessage().contains("ip netns exec " + a.namespace() + " ls /no-such-dir")
                && e.getMessage().contains("No such file"), e.getMessage());
    }

    @Test
    void close_removesEverythingTheRunMade() {
        TestHosts other = TestHosts.create("x", "y");
        String id = other.runId();
        assertTrue(Cleanup.taggedRules().stream().anyMatch(r -> r.run().equals(id)), "the FORWARD rule is in place");
        other.close();
        assertTrue(Cleanup.namespaces().stream().noneMatch(n -> n.contains(id)), Cleanup.namespaces().toString());
        assertTrue(Cleanup.links().stream().noneMatch(l -> l.contains(id)), Cleanup.links().toString());
        assertTrue(Cleanup.taggedRules().stream().noneMatch(r -> r.run().equals(id)), "the FORWARD rule is gone");
        assertFalse(Cleanup.runsOnMachine().contains(id), "nothing named after run " + id);
        other.close(); // twice: nothing to do
    }

    static InetSocketAddress echo(Host h) {
        return new InetSocketAddress(h.address(), servers.get(h).port("echo"));
    }

    static String[] probeConnect(InetSocketAddress to, int timeoutMillis) {
        return NetProbe.command("connect", to.getAddress().getHostAddress(), String.valueOf(to.getPort()),
                String.valueOf(timeoutMillis)).toArray(String[]::new);
    }

    static boolean connects(Host from, Host to, int timeoutMillis) {
        return from.tryRun(probeConnect(echo(to), timeoutMillis)).ok();
    }

    static void assertConnects(Host from, Host to) {
        CommandResult r = from.tryRun(probeConnect(echo(to), CONNECT_MILLIS));
        assertTrue(r.ok(), from.name() + " to " + to.name() + ": " + r);
    }

    /** Sends {@code count} datagrams from {@code from} to {@code to}'s sink; returns how many arrived. */
    static long udp(Host from, Host to, int count) throws Exception {
        long before = received(to);
        from.run(NetProbe.command("udp-send", to.address().getHostAddress(),
                String.valueOf(servers.get(to).port("udp")), String.valueOf(count)).toArray(String[]::new));
        long[] last = {before, -1};
        Await.until(to.name() + "'s count of datagrams to settle", Duration.ofSeconds(10), () -> {
            long now = received(to);
            boolean settled = now == last[0] && last[1] >= 0;
            last[1] = 0;
            last[0] = now;
            Thread.sleep(100);
            return settled;
        });
        return last[0] - before;
    }

    static long received(Host h) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(h.address(), servers.get(h).port("count")), CONNECT_MILLIS);
            return Long.parseLong(new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine().strip());
        }
    }

    /** One line to an echo server and back; returns the round trip in nanoseconds. */
    static long echoRoundTrip(InetSocketAddress echo) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(echo, CONNECT_MILLIS);
            s.setSoTimeout(FAIL_CONNECT_MILLIS * 2);
            s.setTcpNoDelay(true);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                s.getOutputStream().write("ping\n".getBytes(StandardCharsets.US_ASCII));
                String line = in.readLine();
                if (!"ping".equals(line)) {
                    throw new IOException("echo " + echo + " answered " + line);
                }
                best = Math.min(best, System.nanoTime() - t0);
            }
            return best;
        }
    }
}

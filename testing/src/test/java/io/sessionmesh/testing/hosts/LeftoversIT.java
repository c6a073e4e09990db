package io.sessionmesh.testing.hosts;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TestHosts#cleanLeftovers()}: what a crashed run left (made here by hand, named as a run names it) goes; a
 * live run's things and names that only look alike stay.
 */
class LeftoversIT {
    /** The id of the "crashed" run: its owner file names a process that has exited. */
    static final String CRASHED = "zz9zz";

    @TempDir
    Path dir;

    @BeforeAll
    static void prerequisites() {
        HostsPrerequisites.require();
    }

    @Test
    void cleanLeftovers_crashedRunsPieces_removed_liveRunAndLookAlikesKept() throws Exception {
        RunNames crashed = new RunNames(CRASHED);
        String lookAlike = "smh-notarun"; // not smh-<5 chars>-<host>: no run's
        try (TestHosts live = TestHosts.create("a")) {
            Commands.run("ip", "netns", "add", crashed.namespace("a"));
            Commands.run("ip", "netns", "add", lookAlike);
            Commands.run("ip", "link", "add", crashed.bridge(), "type", "bridge");
            Commands.run("ip", "link", "add", crashed.veth(0), "type", "veth", "peer", "name", "eth0",
                    "netns", crashed.namespace("a"));
            Commands.run("iptables", "-w", "-I", "FORWARD", "-i", crashed.bridge(), "-o", crashed.bridge(),
                    "-m", "comment", "--comment", crashed.tag(), "-j", "ACCEPT");
            Path mount = dir.resolve("raft");
            Files.createDirectories(mount);
            Commands.run("mount", "-t", "tmpfs", "-o", "size=64k", crashed.tag(), mount.toString());
            Process sleeper = new ProcessBuilder("ip", "netns", "exec", crashed.namespace("a"), "sleep", "600").start();
            Process gone = new ProcessBuilder("true").start();
            gone.waitFor();
            Files.writeString(crashed.stateFile(), gone.pid() + "\n");
            Path etc = Cleanup.ETC_NETNS.resolve(crashed.namespace("a"));
            Files.createDirectories(etc);
            Files.writeString(etc.resolve("hosts"), "");
            try {
                assertTrue(Cleanup.runsOnMachine().contains(CRASHED), "the pieces are there");

                List<String> removed = TestHosts.cleanLeftovers();

                assertTrue(removed.contains(CRASHED) && !removed.contains(live.runId()), removed.toString());
                assertFalse(Cleanup.runsOnMachine().contains(CRASHED), "nothing of the crashed run is left");
                assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS), "its process was killed");
                assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(mount.toString()), "unmounted");
                assertFalse(Files.exists(etc), etc.toString());
                assertTrue(Cleanup.namespaces().contains(live.host("a").namespace()), "the live run is kept");
                assertTrue(Cleanup.namespaces().contains(lookAlike), "a name no run gives is kept");
            } finally {
                sleeper.destroyForcibly();
                Commands.tryRun(List.of("ip", "netns", "delete", lookAlike));
                Cleanup.removeRun(CRASHED);
            }
        }
    }
}

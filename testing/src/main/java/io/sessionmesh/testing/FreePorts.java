package io.sessionmesh.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loopback ports for servers a test starts: each free when handed out, and never one this JVM was handed before. A
 * port found by binding to port 0 and closing is free, but the kernel may hand the same one to the next such bind: a
 * test that took two that way once gave one replica's raft port to another's client port, and that replica never
 * started (SidecarGroupIT, 2026-11-28). Distinct within the JVM is what a test's several servers need; another
 * process may still take a port before the server binds it, which this cannot prevent.
 */
public final class FreePorts {
    /** Binds tried before giving up: each finds a port the kernel thinks free, most never handed out before. */
    static final int MAX_TRIES = 100;
    /** Every port handed out (a test run hands out hundreds at most, of some 28,000 ephemeral ones). */
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /**
     * A loopback port free now and never returned here before.
     *
     * @throws IOException if no such port is found in {@value #MAX_TRIES} binds
     */
    public static int next() throws IOException {
        for (int i = 0; i < MAX_TRIES; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                int port = s.getLocalPort();
                if (GIVEN.add(port)) {
                    return port;
                }
            }
        }
        throw new IOException("no free port that this JVM had not been given already, in " + MAX_TRIES + " binds");
    }
}

package io.sessionmesh.testing;

import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FreePorts}: ports that are free and never handed out twice in one JVM. */
class FreePortsTest {
    @Test
    void next_handsOutDistinctPorts_eachFreeToBind() throws Exception {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = FreePorts.next();
            assertTrue(port > 0 && port < 65536, String.valueOf(port));
            assertTrue(seen.add(port), "port " + port + " handed out twice");
        }
        int port = FreePorts.next();
        try (ServerSocket s = new ServerSocket(port)) {
            assertEquals(port, s.getLocalPort(), "the port handed out is free to bind");
        }
    }
}

package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.protocol.MasterRequest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A sidecar with its defaults against a master with its defaults, in this JVM over loopback: a burst of three times
 * the master's {@code max-in-flight} on one master connection, written as one batch, is all answered. The sidecar
 * never has more in flight than the master takes; the rest waits in the connection's queue, not refused by the
 * master.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MasterInFlightIT {
    @Test
    void sidecarDefault_isTheMastersDefault() {
        assertEquals(MasterConfig.DEFAULT_MAX_IN_FLIGHT, SidecarConfig.DEFAULT_MASTER_MAX_IN_FLIGHT);
    }

    @Test
    void burstOfThreeTimesTheMastersInFlight_isAllAnswered_noneRefused() throws Exception {
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
             SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:"
                     + master.address().getPort(), "port", "0", "admin-port", "0", "vnodes", "16",
                     "heartbeat-interval", "10m")))) {
            TestHttp.awaitHealthy(sidecar);
            MasterConnection connection = sidecar.service().router().pools().get(0).connection();
            int burst = 3 * MasterConfig.DEFAULT_MAX_IN_FLIGHT;
            List<CompletableFuture<io.sessionmesh.wire.protocol.MasterAnswer.Pong>> answers = new ArrayList<>(burst);
            for (int i = 0; i < burst; i++) {
                answers.add(connection.send(new MasterRequest.Ping(new byte[] {(byte) i, (byte) (i >> 8)}), false));
            }
            connection.flush();
            int refused = 0;
            String first = null;
            for (int i = 0; i < burst; i++) {
                try {
                    assertArrayEquals(new byte[] {(byte) i, (byte) (i >> 8)}, answers.get(i).join().payload());
                } catch (CompletionException e) {
                    refused++;
                    first = first == null ? e.getCause().getMessage() : first;
                }
            }
            assertEquals(0, refused, refused + " of " + burst + " refused; the first: " + first);
        }
    }
}

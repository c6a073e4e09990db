package io.sessionmesh.integration.timeouts;

import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.spring.SessionMeshProperties;
import io.sessionmesh.master.config.MasterSettings;
import io.sessionmesh.sidecar.config.SidecarSettings;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The defaults keep the timeouts in the order that lets the side that knows answer first (PROTOCOL.md 3.12): the
 * client waits longer than the sidecar's master timeout plus a master's lease, so a write the sidecar saw cut or late
 * reaches the client as OUTCOME_UNKNOWN from the sidecar rather than as the client's own timeout. The client jar cannot
 * see the servers' settings; it copies their defaults, and this test (which sees all three) keeps them the same.
 */
class TimeoutOrderTest {
    @Test
    void clientRequestTimeout_isAboveTheSidecarsMasterTimeoutPlusAMastersLease_byDefault() {
        Duration masterTimeout = SidecarSettings.MASTER_TIMEOUT.defaultValue();
        Duration lease = MasterSettings.LEASE.defaultValue();
        assertEquals(masterTimeout, SessionMeshClient.SIDECAR_MASTER_TIMEOUT, "the client's copy of master-timeout");
        assertEquals(lease, SessionMeshClient.MASTER_LEASE, "the client's copy of lease");
        Duration client = SessionMeshClient.DEFAULT_REQUEST_TIMEOUT;
        assertTrue(client.compareTo(masterTimeout.plus(lease)) > 0, "request timeout " + client + " is not above "
                + "master-timeout " + masterTimeout + " + lease " + lease);
        assertEquals(client, new SessionMeshProperties().getRequestTimeout(), "Spring's default is the client's");
    }
}

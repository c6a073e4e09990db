package io.sessionmesh.sidecar;

import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.testing.Await;

import java.time.Duration;

/** Helpers for tests that run a sidecar in-process. */
final class TestHttp {
    private TestHttp() {
    }

    /** Waits until the sidecar has a connection to every master. */
    static void awaitHealthy(SidecarServer sidecar) {
        Await.until("the sidecar to connect to all its masters", Duration.ofSeconds(10),
                () -> sidecar.service().router().pools().stream().allMatch(MasterPool::isUp));
    }
}

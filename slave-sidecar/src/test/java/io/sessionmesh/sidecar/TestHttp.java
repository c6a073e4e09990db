package io.sessionmesh.sidecar;

/** Helpers for tests that talk to a sidecar. */
final class TestHttp {
    private TestHttp() {
    }

    /** Waits (at most 10 s) until the sidecar has a connection to every master. */
    static void awaitHealthy(SidecarServer sidecar) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (sidecar.service().router().pools().stream().allMatch(p -> p.isUp())) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the sidecar did not connect to its masters in 10 s");
    }
}

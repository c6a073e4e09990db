package io.sessionmesh.testing.hosts;

import org.junit.jupiter.api.Assumptions;

/**
 * What every test of test hosts calls first: skipped only when {@value TestHosts#SKIP_PROPERTY} is true; otherwise a
 * machine without root, {@code ip}, {@code iptables} or network namespaces fails the test, naming what is missing.
 */
final class HostsPrerequisites {
    private HostsPrerequisites() {
    }

    static void require() {
        Assumptions.assumeFalse(Boolean.getBoolean(TestHosts.SKIP_PROPERTY),
                "-D" + TestHosts.SKIP_PROPERTY + "=true: the test hosts tests are skipped");
        TestHosts.checkPrerequisites();
    }
}

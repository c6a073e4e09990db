package io.sessionmesh.master.admin;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every STATS figure a master gives is classified for /metrics (a gauge, a counter, or left out on purpose), and no
 * figure is in two classes: a level exported as a counter would look like counter resets to Prometheus.
 */
class MasterMetricsTest {
    @Test
    void everyStatsFigureIsAGaugeACounterOrLeftOut_andInOneClassOnly() throws Exception {
        Set<String> all = new HashSet<>();
        all.addAll(MasterMetrics.GAUGES);
        all.addAll(MasterMetrics.COUNTERS);
        all.addAll(MasterMetrics.LEFT_OUT);
        assertEquals(MasterMetrics.GAUGES.size() + MasterMetrics.COUNTERS.size() + MasterMetrics.LEFT_OUT.size(), all.size(),
                "a figure is in two classes");
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0", "admin-port", "0")))) {
            for (String name : master.stats().keySet()) {
                assertTrue(all.contains(name) || name.startsWith("registry_") && !name.equals("registry_enabled"),
                        "STATS figure " + name + " is not classified for /metrics");
            }
            String text = new MasterMetrics(master::stats, 2000).prometheusText();
            assertTrue(text.contains("# TYPE sessionmesh_master_writes_total counter\n"), text);
            assertTrue(text.contains("# TYPE sessionmesh_master_sessions gauge\n"), text);
        }
    }
}

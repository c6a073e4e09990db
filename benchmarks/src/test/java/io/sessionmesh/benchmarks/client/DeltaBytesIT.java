package io.sessionmesh.benchmarks.client;

import io.sessionmesh.benchmarks.load.ServerProcesses;
import io.sessionmesh.benchmarks.workload.OneNioValues;
import io.sessionmesh.client.SessionMeshClient;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RESULTS.md 4.3's aim, on every build: changing one attribute of five sends at most a quarter of the section, through a
 * real sidecar and master (processes from their jars).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DeltaBytesIT {
    /** The aim of RESULTS.md 4.3. */
    static final double MAX_RATIO = 0.25;

    @Test
    void deltaSave_oneAttributeOfFive_sendsAtMostAQuarterOfTheSection() throws Exception {
        try (ServerProcesses servers = new ServerProcesses()) {
            int master = servers.master(Path.of(System.getProperty("master.jar")));
            int[] sidecar = servers.sidecar(Path.of(System.getProperty("sidecar.jar")), master);
            ServerProcesses.awaitMaster(sidecar[1]);
            try (SessionMeshClient client = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar[0]))
                    .classFilter(OneNioValues.CLASS_FILTER).build()) {
                DeltaBytes.Result r = DeltaBytes.measure(client);
                assertTrue(r.delta() > 0 && r.delta() < r.wholeSection(), r.json());
                assertTrue(r.ratio() <= MAX_RATIO, r.json());
            }
        }
    }
}

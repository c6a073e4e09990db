package io.sessionmesh.benchmarks.driver;

import io.sessionmesh.benchmarks.driver.load.Flow;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.benchmarks.driver.stack.SystemSpec;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DriverOptionsTest {
    static DriverOptions.Flows flows(String... args) {
        return DriverOptions.parse(DriverOptions.Flows::read, args);
    }

    static DriverOptions.Mix mix(String... args) {
        return DriverOptions.parse(DriverOptions.Mix::read, args);
    }

    static DriverOptions.Scale scale(String... args) {
        return DriverOptions.parse(DriverOptions.Scale::read, args);
    }

    @Test
    void flows_noFlags_issue18Defaults() {
        DriverOptions.Flows o = flows();
        assertEquals(List.of("sessionmesh", "spring-session"), o.systems().stream().map(SystemSpec::name).toList());
        assertEquals(List.of(Flow.FLOOR, Flow.FLOOR_SESSION, Flow.READ, Flow.WRITE), o.flows());
        assertTrue(!Flow.FLOOR.sendsSession() && Flow.FLOOR_SESSION.sendsSession() && Flow.READ.sendsSession());
        assertEquals("small", o.profile());
        assertEquals(1_000, o.sessions());
        assertEquals(50, o.connections());
        assertEquals(Duration.ofSeconds(15), o.warmup());
        assertEquals(Duration.ofSeconds(15), o.duration());
        assertTrue(o.prewarm());
        assertEquals(1, o.rounds());
        assertEquals(1, o.stacks().replicas());
        assertEquals(DriverOptions.MASTER_JVM, o.stacks().masterJvm());
        assertTrue(o.stacks().out().toString().startsWith("benchmarks/results/flows-"));
        assertTrue(o.stacks().jars().isAbsolute());
    }

    @Test
    void flows_oneSystemStandardProfile_groupAndJvmFlags() {
        DriverOptions.Flows o = flows("--systems", "drop-in", "--profile", "standard", "--flows", "write", "--jfr",
                "--replicas", "3", "--master-jvm=-Xmx2g -XX:+UseZGC", "--jars", "/tmp/old-tree");
        assertEquals(List.of(Stack.DROP_IN), o.systems().stream().map(SystemSpec::system).toList());
        assertEquals(List.of(Flow.WRITE), o.flows());
        assertEquals("standard", o.profile());
        assertTrue(o.stacks().jfr());
        assertEquals(3, o.stacks().replicas());
        assertEquals(List.of("-Xmx2g", "-XX:+UseZGC"), o.stacks().masterJvm());
        assertEquals(DriverOptions.SIDECAR_JVM, o.stacks().sidecarJvm());
        assertEquals("/tmp/old-tree", o.stacks().jars().toString());
    }

    @Test
    void flows_rounds_keptAndBounded_replicasOneThreeOrFive() {
        assertEquals(3, flows("--rounds", "3").rounds());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> flows("--rounds", "0"));
        assertTrue(zero.getMessage().contains("rounds"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> flows("--rounds", String.valueOf(DriverOptions.MAX_ROUNDS + 1)));
        assertThrows(IllegalArgumentException.class, () -> flows("--replicas", "2"));
        assertThrows(IllegalArgumentException.class, () -> flows("--systems", "redis"));
    }

    @Test
    void appFlags_defaultsLeaveSpringsRequestObservationOut_aUserFlagReplacesItsNamesake() {
        String out = "--spring.autoconfigure.exclude=" + DriverOptions.WEB_MVC_OBSERVATION;
        assertTrue(flows().stacks().apps().contains(out));

        String in = "--spring.autoconfigure.exclude=";
        DriverOptions.Flows o = flows("--app-flags=" + in + " --logging.level.root=warn");
        assertEquals(List.of(in, "--logging.level.root=warn"), o.stacks().appFlags());
        assertEquals(List.of("--server.address=127.0.0.1", "--server.tomcat.max-keep-alive-requests=-1", in,
                "--logging.level.root=warn"), o.stacks().apps());
    }

    @Test
    void appFlags_notASetting_or_oneTheDriverGivesEachApp_refusedByName() {
        IllegalArgumentException bare = assertThrows(IllegalArgumentException.class, () -> flows("--app-flags=debug"));
        assertTrue(bare.getMessage().contains("debug is not a Spring setting"), bare.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> mix("--app-flags=--server.port=8080"));
        assertTrue(port.getMessage().contains("--server.port is set by the driver"), port.getMessage());
    }

    @Test
    void flows_badProfile_andUnknownFlag_refused() {
        assertThrows(IllegalArgumentException.class, () -> flows("--profile", "tiny"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> flows("--users", "3"));
        assertTrue(e.getMessage().contains("users"), e.getMessage());
    }

    @Test
    void mix_defaults_loadGeneratorsScale_closedLoop_andDepositPagesWithSpringSession() {
        DriverOptions.Mix o = mix();
        assertEquals(5_500, o.sessions());
        assertEquals(16, o.users());
        assertEquals(0, o.rate());
        assertEquals(3, o.hosts());
        assertTrue(o.sticky());
        assertEquals(Duration.ofSeconds(30), o.warmup());
        assertEquals(Duration.ofSeconds(60), o.duration());
        assertTrue(o.depositsOnly(), "spring-session is among the default systems");
        assertFalse(mix("--systems", "sessionmesh,sessionmesh-unix").depositsOnly());
        assertTrue(mix("--systems", "sessionmesh,drop-in").depositsOnly(), "the drop-in app has the deposit pages alone");
        DriverOptions.Mix open = mix("--rate", "400", "--routing", "random", "--hosts", "2");
        assertEquals(400, open.rate());
        assertFalse(open.sticky());
        assertEquals("open, 400 requests/s", open.describe().get("loop"));
        assertThrows(IllegalArgumentException.class, () -> mix("--hosts", "0"));
    }

    @Test
    void demo_defaults_theDemosOwn() {
        DriverOptions.Demo o = DriverOptions.parse(DriverOptions.Demo::read);
        assertEquals(Duration.ofSeconds(60), o.duration());
        assertEquals(550, o.sessions());
        assertEquals(4, o.users());
        assertEquals(List.of(7400, 7500, 7501, 8080), List.of(o.masterPort(), o.sidecarPort(), o.sidecarAdminPort(),
                o.servicePort()));
        assertTrue(o.state().endsWith("target/demo"));
        assertFalse(o.stopAtEnd());
        assertTrue(DriverOptions.parse(DriverOptions.Demo::read, "--stop", "--replicas", "5").stopAtEnd());
        assertThrows(IllegalArgumentException.class, () -> DriverOptions.parse(DriverOptions.Demo::read, "--users", "0"));
    }

    @Test
    void scale_defaults_referenceScaleAndAFillThatOutlivesTheMixedSessions() {
        DriverOptions.Scale o = scale();
        assertEquals(1833, o.rate());
        assertEquals(Duration.ofMinutes(5), o.idle());
        assertEquals(549_900, o.steadySessions());
        // 300 s x 1.9 (a session the mix used lives up to 0.9 x idle + idle) + 30 s for the sweep
        assertEquals(Duration.ofSeconds(600), o.fill());
        assertEquals(Duration.ofMinutes(5), o.window());
        assertEquals(DriverOptions.SCALE_MASTER_JVM, o.masterJvm());
        assertEquals(DriverOptions.SCALE_MASTER_FLAGS, o.masterFlags());
    }

    @Test
    void scale_noMix_fillIsIdleAndTheSettle() {
        assertEquals(Duration.ofSeconds(35), scale("--idle", "30s", "--mix-rate", "0").fill());
        assertEquals(Duration.ofSeconds(62), scale("--idle", "30s").fill());
    }

    @Test
    void scale_fillMode_longIdleAndNoBound_masterJvmAndFlagsReplaced() {
        DriverOptions.Scale o = scale("--mode", "fill", "--profile", "standard", "--master-jvm=-Xmx1g -XX:+UseZGC",
                "--master-flags=--max-store 512m");
        assertEquals(Duration.ofHours(24), o.idle());
        assertEquals("standard", o.profile());
        assertEquals(Long.MAX_VALUE, o.maxSessions());
        assertEquals(List.of("-Xmx1g", "-XX:+UseZGC"), o.masterJvm());
        assertEquals(List.of("--max-store", "512m"), o.masterFlags());
    }

    @Test
    void scale_fillShorterThanIdle_refused() {
        assertThrows(IllegalArgumentException.class, () -> scale("--idle", "30s", "--fill", "20s"));
    }

    @Test
    void usage_listsEveryPlanAndItsFlags() {
        String usage = Driver.usage();
        for (String plan : Driver.plans()) {
            assertTrue(usage.contains("  " + plan + " "), plan + " missing:\n" + usage);
        }
        for (String flag : List.of("connections", "rounds", "hosts", "routing", "max-connections", "mix-rate",
                "master-java", "app-flags", "--service-port")) {
            assertTrue(usage.contains(flag), flag + " missing:\n" + usage);
        }
    }
}

package io.sessionmesh.benchmarks.http;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpFlowOptionsTest {
    @Test
    void parse_noFlags_issue18Defaults() {
        HttpFlowOptions o = HttpFlowOptions.parse();
        assertEquals(List.of("sessionmesh", "spring-session"), o.systems());
        assertEquals(List.of(Flow.FLOOR, Flow.FLOOR_SESSION, Flow.READ, Flow.WRITE), o.flows());
        assertTrue(!Flow.FLOOR.sendsSession() && Flow.FLOOR_SESSION.sendsSession() && Flow.READ.sendsSession());
        assertEquals("small", o.profile());
        assertEquals(1_000, o.sessions());
        assertEquals(50, o.connections());
        assertEquals(Duration.ofSeconds(15), o.warmup());
        assertEquals(Duration.ofSeconds(15), o.duration());
        assertTrue(o.prewarm());
        assertEquals(1, o.rounds());
        assertTrue(o.out().toString().startsWith("benchmarks/results/http-flow-"));
    }

    @Test
    void parse_oneSystemStandardProfile() {
        HttpFlowOptions o = HttpFlowOptions.parse("--systems", "spring-session", "--profile", "standard", "--flows", "write",
                "--jfr");
        assertEquals(List.of("spring-session"), o.systems());
        assertEquals(List.of(Flow.WRITE), o.flows());
        assertEquals("standard", o.profile());
        assertTrue(o.jfr());
    }

    @Test
    void parse_rounds_keptAndBounded() {
        assertEquals(3, HttpFlowOptions.parse("--rounds", "3").rounds());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> HttpFlowOptions.parse("--rounds", "0"));
        assertTrue(zero.getMessage().contains("rounds"), zero.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> HttpFlowOptions.parse("--rounds", String.valueOf(HttpFlowOptions.MAX_ROUNDS + 1)));
    }

    @Test
    void appFlags_defaultsLeaveSpringsRequestObservationOut_aUserFlagReplacesItsNamesake() {
        String out = "--spring.autoconfigure.exclude=" + HttpFlowBenchmark.WEB_MVC_OBSERVATION;
        assertTrue(HttpFlowBenchmark.appFlags(HttpFlowOptions.parse().appFlags()).contains(out));

        String in = "--spring.autoconfigure.exclude=";
        HttpFlowOptions o = HttpFlowOptions.parse("--app-flags=" + in + " --logging.level.root=warn");
        assertEquals(List.of(in, "--logging.level.root=warn"), o.appFlags());
        assertEquals(List.of("--server.address=127.0.0.1", "--server.tomcat.max-keep-alive-requests=-1", in,
                "--logging.level.root=warn"), HttpFlowBenchmark.appFlags(o.appFlags()));
    }

    @Test
    void appFlags_notASetting_or_oneTheDriverGivesEachApp_refusedByName() {
        IllegalArgumentException bare = assertThrows(IllegalArgumentException.class,
                () -> HttpFlowOptions.parse("--app-flags=debug"));
        assertTrue(bare.getMessage().contains("debug is not a Spring setting"), bare.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> HttpFlowOptions.parse("--app-flags=--server.port=8080"));
        assertTrue(port.getMessage().contains("--server.port is set by the driver"), port.getMessage());
    }

    @Test
    void parse_badProfile_refused() {
        assertThrows(IllegalArgumentException.class, () -> HttpFlowOptions.parse("--profile", "tiny"));
    }

    @Test
    void body_writeFlowOnly_jsonWithAnOfferedTerm() {
        String body = new String(Flow.WRITE.body(new java.util.SplittableRandom(3)), java.nio.charset.StandardCharsets.US_ASCII);
        assertTrue(body.matches("\\{\"amount\":\\d+,\"months\":(3|6|12)\\}"), body);
        assertEquals(null, Flow.READ.body(new java.util.SplittableRandom(3)));
    }
}

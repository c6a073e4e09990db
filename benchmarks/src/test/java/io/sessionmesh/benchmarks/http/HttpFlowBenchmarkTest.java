package io.sessionmesh.benchmarks.http;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HttpFlowBenchmarkTest {
    @Test
    void sessionIdleTimeout_defaults_isTheFloor() {
        // 2 systems x 4 flows x 30 s + the pre-warm's 8 x 15 s = 6 minutes between uses at most; twice is 12 < 30
        assertEquals(HttpFlowBenchmark.MIN_SESSION_IDLE_TIMEOUT, HttpFlowBenchmark.sessionIdleTimeout(HttpFlowOptions.parse()));
    }

    @Test
    void sessionIdleTimeout_longWindows_isTwiceTheLongestGap() {
        // 3 systems x 2 flows = 6 windows of 10 minutes, plus 6 pre-warms of 5: 90 minutes, twice 180
        HttpFlowOptions o = HttpFlowOptions.parse("--systems", "sessionmesh,sessionmesh-unix,spring-session", "--flows",
                "read,write", "--warmup", "5m", "--duration", "5m");
        assertEquals(Duration.ofMinutes(180), HttpFlowBenchmark.sessionIdleTimeout(o));
    }
}

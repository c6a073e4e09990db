package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.settings.Settings;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowsPlanTest {
    static DriverOptions.Flows flows(String... args) {
        Settings s = Settings.fromArgs(args);
        DriverOptions.Flows o = DriverOptions.Flows.read(s);
        s.checkAllUsed();
        return o;
    }

    @Test
    void sessionIdleTimeout_defaults_isTheFloor() {
        // 2 systems x 4 flows x 30 s + the pre-warm's 8 x 15 s = 6 minutes between uses at most; twice is 12 < 30
        assertEquals(FlowsPlan.MIN_SESSION_IDLE_TIMEOUT, FlowsPlan.sessionIdleTimeout(flows()));
    }

    @Test
    void sessionIdleTimeout_longWindows_isTwiceTheLongestGap() {
        // 3 systems x 2 flows = 6 windows of 10 minutes, plus 6 pre-warms of 5: 90 minutes, twice 180
        DriverOptions.Flows o = flows("--systems", "sessionmesh,sessionmesh-unix,spring-session", "--flows", "read,write",
                "--warmup", "5m", "--duration", "5m");
        assertEquals(Duration.ofMinutes(180), FlowsPlan.sessionIdleTimeout(o));
    }

    @Test
    void appFlags_theDriversDefaults_theSeed_andTheSessionTimeout() {
        List<String> flags = FlowsPlan.appFlags(flows("--profile", "standard"), "1800s");
        assertTrue(flags.containsAll(List.of("--server.address=127.0.0.1", "--sessionmesh.example.seed=standard",
                "--spring.session.timeout=1800s")), flags.toString());
    }
}

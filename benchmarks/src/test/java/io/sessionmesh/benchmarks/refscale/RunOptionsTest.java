package io.sessionmesh.benchmarks.refscale;

import io.sessionmesh.settings.Settings;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RunOptionsTest {
    private static ReferenceScaleRun.RunOptions parse(String... args) {
        return ReferenceScaleRun.RunOptions.parse(Settings.fromArgs(args));
    }

    @Test
    void parse_defaults_referenceScaleAndAFillThatOutlivesTheMixedSessions() {
        ReferenceScaleRun.RunOptions o = parse("--master-pid", "1");
        assertEquals(1833, o.rate());
        assertEquals(Duration.ofMinutes(5), o.idle());
        assertEquals(549_900, o.steadySessions());
        // 300 s x 1.9 (a session the mix used lives up to 0.9 x idle + idle) + 30 s for the sweep
        assertEquals(Duration.ofSeconds(600), o.fill());
        assertEquals(Duration.ofMinutes(5), o.window());
    }

    @Test
    void parse_noMix_fillIsIdleAndTheSettle() {
        assertEquals(Duration.ofSeconds(35), parse("--master-pid", "1", "--idle", "30s", "--mix-rate", "0").fill());
        assertEquals(Duration.ofSeconds(62), parse("--master-pid", "1", "--idle", "30s").fill());
    }

    @Test
    void parse_fillMode_longIdleAndNoWindow() {
        ReferenceScaleRun.RunOptions o = parse("--master-pid", "1", "--mode", "fill", "--profile", "standard");
        assertEquals(Duration.ofHours(24), o.idle());
        assertEquals(SessionProfile.Kind.STANDARD, o.profile());
        assertEquals(Long.MAX_VALUE, o.maxSessions());
    }

    @Test
    void parse_fillShorterThanIdle_refused() {
        assertThrows(IllegalArgumentException.class, () -> parse("--master-pid", "1", "--idle", "30s", "--fill", "20s"));
    }
}

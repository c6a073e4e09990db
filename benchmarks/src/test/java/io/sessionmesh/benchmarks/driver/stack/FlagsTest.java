package io.sessionmesh.benchmarks.driver.stack;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlagsTest {
    @Test
    void split_atSpaces_blankIsNone() {
        assertEquals(List.of("--io-threads", "1", "--vnodes", "64"), Flags.split("  --io-threads 1   --vnodes 64 "));
        assertEquals(List.of(), Flags.split(" "));
        assertEquals(List.of(), Flags.split(null));
    }

    @Test
    void names_bothForms() {
        assertTrue(Flags.names(List.of("--idle-timeout", "30m"), "--idle-timeout"));
        assertTrue(Flags.names(List.of("--idle-timeout=30m"), "--idle-timeout"));
        assertFalse(Flags.names(List.of("--idle-timeouts=30m"), "--idle-timeout"));
    }

    @Test
    void over_aDefaultTheUserNames_leftOut_withItsValue() {
        assertEquals(List.of("--port", "0", "--connection-idle-timeout=2h"),
                Flags.over(List.of("--port", "0", "--connection-idle-timeout", "1h"), List.of("--connection-idle-timeout=2h")));
        assertEquals(List.of("--server.address=127.0.0.1", "--a=2"),
                Flags.over(List.of("--server.address=127.0.0.1", "--a=1"), List.of("--a=2")));
        assertEquals(List.of("--vnodes", "256", "--io-threads", "1"),
                Flags.over(List.of("--vnodes", "256"), List.of("--io-threads", "1")));
        assertEquals(List.of("--switch", "--x", "1"), Flags.over(List.of("--switch"), List.of("--x", "1")));
    }
}

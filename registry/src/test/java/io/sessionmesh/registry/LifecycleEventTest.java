package io.sessionmesh.registry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An event names its session by a short hash in its text and its errors, never by the id (a bearer secret). */
class LifecycleEventTest {
    static final String ID = "LifecycleEventSecretId0001";

    @Test
    void toStringAndErrors_showNoSessionId() {
        LifecycleEvent e = new LifecycleEvent(LifecycleEvent.Kind.CREATED, ID, 1, "alice", "h1", "master-a", 1, 2);
        assertFalse(e.toString().contains(ID), e.toString());
        assertTrue(e.toString().contains("CREATED") && e.toString().contains("master-a"), e.toString());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> new LifecycleEvent(LifecycleEvent.Kind.CREATED, ID, 0, null, null, "master-a", 1, 2));
        assertFalse(bad.getMessage().contains(ID), bad.getMessage());
    }
}

package io.sessionmesh.client.routing;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StickyRouterTest {
    static final List<String> NODES = List.of("deposit-1", "deposit-2", "deposit-3");

    @Test
    void aSession_alwaysLandsOnTheSameNode_andEveryNodeGetsSome() {
        StickyRouter a = new StickyRouter(NODES);
        StickyRouter b = new StickyRouter(NODES);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 30_000; i++) {
            String id = UUID.randomUUID().toString().replace("-", "");
            assertEquals(a.nodeFor(id), b.nodeFor(id));
            assertEquals(a.nodeFor(id), a.routeFor(id));
            counts.merge(a.nodeFor(id), 1, Integer::sum);
        }
        assertEquals(3, counts.size());
        counts.values().forEach(n -> assertTrue(n > 6_000, counts.toString()));
    }

    @Test
    void aNodeLeaving_movesOnlyItsSessions() {
        StickyRouter three = new StickyRouter(NODES);
        StickyRouter two = new StickyRouter(List.of("deposit-1", "deposit-3"));
        for (int i = 0; i < 10_000; i++) {
            String id = UUID.randomUUID().toString();
            if (!three.nodeFor(id).equals("deposit-2")) {
                assertEquals(three.nodeFor(id), two.nodeFor(id), "a session moved between two nodes that stayed");
            }
        }
    }

    @Test
    void noNodes_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new StickyRouter(List.of()));
    }
}

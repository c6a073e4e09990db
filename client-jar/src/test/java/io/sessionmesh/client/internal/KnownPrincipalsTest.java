package io.sessionmesh.client.internal;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KnownPrincipalsTest {
    @Test
    void remembersPrincipalsAndNoneApartFromUnknown() {
        KnownPrincipals k = new KnownPrincipals(10);
        assertNull(k.get("s1"), "unknown");
        k.put("s1", Optional.of("alice"));
        k.put("s2", Optional.empty());
        assertEquals(Optional.of("alice"), k.get("s1"));
        assertEquals(Optional.empty(), k.get("s2"), "known to belong to no one");
        k.forget("s1");
        assertNull(k.get("s1"));
    }

    @Test
    void neverHoldsMoreThanItsCapacity() {
        KnownPrincipals k = new KnownPrincipals(100);
        for (int i = 0; i < 10_000; i++) {
            k.put("s" + i, Optional.of("u" + i));
            assertEquals(true, k.size() <= 100, "size " + k.size());
        }
        assertEquals(Optional.of("u9999"), k.get("s9999"), "the latest is kept");
        assertThrows(IllegalArgumentException.class, () -> new KnownPrincipals(0));
    }
}

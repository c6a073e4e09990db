package io.sessionmesh.client.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SidecarApiTest {
    @Test
    void isUnreserved_plainNames_needNoEscaping_othersDo() {
        for (String plain : new String[] {"clientInfo", "deposits", "a-b_c.d~e", "X9"}) {
            assertTrue(SidecarApi.isUnreserved(plain), plain);
        }
        for (String escaped : new String[] {"a b", "счёт", "a+b", "a%20", "a/b", "a&b", "a=b", "a?b", "a#b"}) {
            assertFalse(SidecarApi.isUnreserved(escaped), escaped);
        }
    }
}

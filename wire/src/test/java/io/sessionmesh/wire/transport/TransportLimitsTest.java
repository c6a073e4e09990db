package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TransportLimitsTest {
    @Test
    void defaults_areTheDocumentedOnes() {
        TransportLimits d = TransportLimits.DEFAULT;
        assertEquals(1 << 20, d.maxAttributeValueBytes());
        assertEquals(10_000, d.maxAttributesPerSection());
        assertEquals(1_000, d.maxSectionsPerMessage());
        assertEquals(64 << 20, d.maxMessageBytes());
        assertEquals(255, d.maxNameBytes());
        assertEquals(128, d.maxSessionIdBytes());
        assertEquals(4096, d.maxErrorMessageBytes());
        assertEquals(d, TransportLimits.builder().build());
        assertEquals(d.hashCode(), TransportLimits.builder().build().hashCode());
    }

    @Test
    void build_outOfRange_refusedNamingTheValue() {
        Object[][] bad = {
            {TransportLimits.builder().maxMessageBytes(100), "maxMessageBytes 100"},
            {TransportLimits.builder().maxMessageBytes((1 << 30) + 1), "maxMessageBytes 1073741825"},
            {TransportLimits.builder().maxAttributeValueBytes(-1), "maxAttributeValueBytes -1"},
            {TransportLimits.builder().maxAttributesPerSection(-1), "maxAttributesPerSection -1"},
            {TransportLimits.builder().maxSectionsPerMessage(-5), "maxSectionsPerMessage -5"},
            {TransportLimits.builder().maxNameBytes(0), "maxNameBytes 0"},
            {TransportLimits.builder().maxNameBytes(256), "maxNameBytes 256"},
            {TransportLimits.builder().maxSessionIdBytes(129), "maxSessionIdBytes 129"},
            {TransportLimits.builder().maxErrorMessageBytes(4097), "maxErrorMessageBytes 4097"},
        };
        for (Object[] c : bad) {
            TransportLimits.Builder b = (TransportLimits.Builder) c[0];
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
            assertTrue(e.getMessage().startsWith((String) c[1]), e.getMessage());
        }
    }

    @Test
    void build_lowered_keepsEveryValue() {
        TransportLimits l = TransportLimits.builder().maxAttributeValueBytes(1).maxAttributesPerSection(2).maxSectionsPerMessage(3)
                .maxMessageBytes(4096).maxNameBytes(5).maxSessionIdBytes(6).maxErrorMessageBytes(7).build();
        assertEquals(1, l.maxAttributeValueBytes());
        assertEquals(2, l.maxAttributesPerSection());
        assertEquals(3, l.maxSectionsPerMessage());
        assertEquals(4096, l.maxMessageBytes());
        assertEquals(5, l.maxNameBytes());
        assertEquals(6, l.maxSessionIdBytes());
        assertEquals(7, l.maxErrorMessageBytes());
        assertTrue(l.toString().contains("message 4096 B"), l.toString());
    }

    @Test
    void checkNames_publicRules_sameAsTheModel() {
        assertEquals("a", TransportLimits.checkSectionName("a"));
        assertEquals("k€y", TransportLimits.checkAttributeName("k€y"));
        assertEquals("abc-_", TransportLimits.checkSessionId("abc-_"));
        assertThrows(IllegalArgumentException.class, () -> TransportLimits.checkAttributeName("a\tb"));
        assertThrows(IllegalArgumentException.class, () -> TransportLimits.checkSessionId("a+b"));
    }
}

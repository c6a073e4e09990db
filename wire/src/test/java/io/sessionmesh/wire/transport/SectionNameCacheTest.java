package io.sessionmesh.wire.transport;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Section names decoded through the {@link SectionNameCache}: the same instance for the same bytes, the offered
 * instance once offered, and never a wrong or an unchecked name (the cache is shared by the whole JVM, so each test
 * uses names of its own).
 */
class SectionNameCacheTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private String decodedName(String section) {
        byte[] bytes = codec.encode(new WriteRequest("s1", List.of(new SectionDelta(section, Map.of("a", new byte[] {1}),
                List.of()))));
        return codec.decode(bytes, WriteRequest.class).section(0);
    }

    private String readName(String section) {
        return codec.decode(codec.encode(new ReadRequest("s1", List.of(section))), ReadRequest.class).sectionNames().get(0);
    }

    @Test
    void aNameDecodedTwice_isOneInstance_inWritesAndReads() {
        String first = decodedName("cache-test-cart");
        assertEquals("cache-test-cart", first);
        assertSame(first, decodedName("cache-test-cart"));
        assertSame(first, readName("cache-test-cart"));
    }

    @Test
    void anOfferedName_isTheInstanceDecodedFromThenOn() {
        decodedName("cache-test-offer");
        String offered = new String("cache-test-offer".toCharArray());
        SectionNameCache.offer(offered);
        assertSame(offered, decodedName("cache-test-offer"));
        assertSame(offered, readName("cache-test-offer"));
    }

    @Test
    void namesThatDifferInOneByteOrInLength_areEachTheirOwn() {
        String a = decodedName("cache-test-abc");
        assertEquals("cache-test-abd", decodedName("cache-test-abd"));
        assertEquals("cache-test-ab", decodedName("cache-test-ab"));
        assertEquals("cache-test-abcd", decodedName("cache-test-abcd"));
        assertSame(a, decodedName("cache-test-abc"));
    }

    @Test
    void nonAsciiAndLongNames_decodeRight_andAreNotCached() {
        String accented = "cache-test-pan\u00e9";
        assertEquals(accented, decodedName(accented));
        assertNotSame(decodedName(accented), decodedName(accented));
        String longName = "cache-test-" + "x".repeat(SectionNameCache.MAX_NAME_BYTES);
        assertEquals(longName, decodedName(longName));
        assertNotSame(decodedName(longName), decodedName(longName));
    }

    @Test
    void aCachedName_doesNotLetABadNameWithTheSameStartThrough() {
        decodedName("cache-test-ok");
        byte[] good = codec.encode(new WriteRequest("s1", List.of(new SectionDelta("cache-test-ok", Map.of("a",
                new byte[] {1}), List.of()))));
        byte[] bad = good.clone();
        int at = indexOf(bad, "cache-test-ok".getBytes(StandardCharsets.US_ASCII));
        bad[at + "cache-test-ok".length() - 1] = 0x01; // "cache-test-o\u0001": a control character
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> codec.decode(bad, WriteRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
    }

    @Test
    void aNameWithAControlCharacter_isNotCachedEvenWhenOffered_soItsBytesAreStillRefused() {
        SectionNameCache.offer("cache-test-\u0001bell");
        SectionNameCache.offer("cache-test-\u007fdel");
        for (String name : new String[] {"cache-test-\u0001bell", "cache-test-\u007fdel"}) {
            byte[] ok = codec.encode(new WriteRequest("s1", List.of(new SectionDelta("cache-test-xbell".substring(0,
                    name.length()), Map.of("a", new byte[] {1}), List.of()))));
            byte[] bad = ok.clone();
            byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
            int at = indexOf(bad, "cache-test-xbell".substring(0, name.length()).getBytes(StandardCharsets.US_ASCII));
            System.arraycopy(nameBytes, 0, bad, at, nameBytes.length);
            MalformedMessageException e = assertThrows(MalformedMessageException.class,
                    () -> codec.decode(bad, WriteRequest.class), name);
            assertEquals(Status.BAD_REQUEST, e.status());
        }
    }

    @Test
    void moreNamesThanSlots_eachStillDecodesToItself() {
        for (int i = 0; i < SectionNameCache.SLOTS * 3; i++) {
            SectionNameCache.offer(("cache-test-many-" + i).intern());
        }
        for (int i = 0; i < SectionNameCache.SLOTS * 3; i += 7) {
            assertEquals("cache-test-many-" + i, decodedName("cache-test-many-" + i));
            assertArrayEquals(("cache-test-many-" + i).getBytes(StandardCharsets.US_ASCII),
                    readName("cache-test-many-" + i).getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}

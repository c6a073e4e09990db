package io.sessionmesh.serialization.attribute;

import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bounds on what one value may make a reader build: nesting depth and object count. */
class DecodeLimitsTest {
    private static final ClassFilter THIS_PACKAGE = ClassFilter.allowingPackages("io.sessionmesh.serialization.attribute");

    private final AttributeCodec codec = AttributeCodec.builder().classFilter(THIS_PACKAGE).build();

    @Test
    void decode_tenThousandDeepChain_refusedNamingTheDepthLimit_notAStackOverflow() throws Exception {
        byte[] value = encodeOnABigStack(codec, chain(10_000));
        AttributeDecodeException e = assertThrows(AttributeDecodeException.class, () -> codec.decode(value));
        assertTrue(e.getMessage().contains("nested deeper than " + AttributeCodec.DEFAULT_MAX_DEPTH), e.getMessage());
        assertTrue(!(e.getCause() instanceof StackOverflowError), "cause: " + e.getCause());
    }

    @Test
    void decode_chainAtTheDepthLimit_decodes() throws Exception {
        // The top object is at depth 1, so a chain of DEFAULT_MAX_DEPTH nodes is the deepest value allowed.
        Node read = (Node) codec.decode(encodeOnABigStack(codec, chain(AttributeCodec.DEFAULT_MAX_DEPTH)));
        int length = 0;
        for (Node n = read; n != null; n = n.next()) {
            assertEquals(++length, n.index());
        }
        assertEquals(AttributeCodec.DEFAULT_MAX_DEPTH, length);
    }

    @Test
    void decode_moreObjectsThanTheDefaultLimit_refusedNamingTheObjectLimit() {
        List<Integer> many = new ArrayList<>(AttributeCodec.DEFAULT_MAX_OBJECTS);
        for (int i = 0; i < AttributeCodec.DEFAULT_MAX_OBJECTS; i++) {
            many.add(i);
        }
        byte[] value = codec.encode(many); // the list and its items: one object more than the limit
        AttributeDecodeException e = assertThrows(AttributeDecodeException.class, () -> codec.decode(value));
        assertTrue(e.getMessage().contains("more than " + AttributeCodec.DEFAULT_MAX_OBJECTS + " objects"), e.getMessage());
        many.remove(many.size() - 1);
        assertEquals(many, codec.decode(codec.encode(many)));
    }

    @Test
    void builder_limitsAreConfigurable_andABadOneIsRefusedNamingIt() throws Exception {
        AttributeCodec strict = AttributeCodec.builder().classFilter(THIS_PACKAGE).maxDepth(3).maxObjects(10).build();
        assertEquals(3, ((Node) strict.decode(strict.encode(chain(3)))).next().next().index());
        AttributeDecodeException deep = assertThrows(AttributeDecodeException.class,
                () -> strict.decode(strict.encode(chain(4))));
        assertTrue(deep.getMessage().contains("nested deeper than 3"), deep.getMessage());
        List<String> ten = new ArrayList<>(List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"));
        AttributeDecodeException many = assertThrows(AttributeDecodeException.class, () -> strict.decode(strict.encode(ten)));
        assertTrue(many.getMessage().contains("more than 10 objects"), many.getMessage());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AttributeCodec.builder().maxDepth(0));
        assertTrue(e.getMessage().contains("maxDepth = 0"), e.getMessage());
    }

    /** A chain of {@code length} nodes, built iteratively. */
    private static Node chain(int length) {
        Node node = null;
        for (int i = length; i > 0; i--) {
            node = new Node(i, node);
        }
        return node;
    }

    /** Encodes on a thread with a large stack: one-nio's writer recurses too, and the writer is not under test. */
    static byte[] encodeOnABigStack(AttributeCodec codec, Object value) throws InterruptedException {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                result.set(codec.encode(value));
            } catch (RuntimeException | Error e) {
                result.set(e);
            }
        }, "big-stack-encoder", 1L << 30);
        t.start();
        t.join();
        if (result.get() instanceof Throwable) {
            throw new AssertionError("encoding failed", (Throwable) result.get());
        }
        return (byte[]) result.get();
    }

    /** One link of a chain. */
    record Node(int index, Node next) implements Serializable {
    }
}

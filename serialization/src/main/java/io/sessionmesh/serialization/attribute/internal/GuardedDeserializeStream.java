package io.sessionmesh.serialization.attribute.internal;

import io.sessionmesh.serialization.attribute.AttributeDecodeException;

import one.nio.serial.DeserializeStream;
import one.nio.serial.Repository;
import one.nio.serial.Serializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;

/**
 * one-nio's plain-mode reader with three guards in front of every object it reads:
 * <ul>
 *   <li>the class of the object must pass the {@link ReadGuard} (the client's class filter) before any
 *       instance is made;</li>
 *   <li>a declared element count of an array, ArrayList or HashMap must fit in the bytes that remain, so a
 *       few corrupt bytes cannot make one-nio pre-allocate gigabytes;</li>
 *   <li>persist-mode embedded schemas are refused: plain mode never writes them, and they would let a value
 *       name any class.</li>
 * </ul>
 * and two bounds on what one value may make the reader build, each an {@link AttributeDecodeException}
 * naming the limit when exceeded:
 * <ul>
 *   <li>nesting depth: one-nio reads a nested object by recursion, so a value that nests deeper than the
 *       thread's stack would end in a {@link StackOverflowError} somewhere inside a serializer;</li>
 *   <li>object count: a value of a few megabytes can declare millions of small objects, each far larger on
 *       the heap than in the bytes.</li>
 * </ul>
 * It also lets {@link RebuildingSerializer} fill its back-reference slot after it has built an immutable
 * collection from its elements, and, when given a {@link SchemaCheck}, notes whether every object was written with
 * this JVM's own schema of its class ({@link #readOnlyLocalSchemas}).
 */
public final class GuardedDeserializeStream extends DeserializeStream {
    /** one-nio's tag of a persist-mode embedded schema (DataStream.REF_EMBEDDED). */
    private static final byte EMBEDDED_SCHEMA_TAG = -4;

    /** Decides whether objects of a serializer's class may be made. */
    @FunctionalInterface
    public interface ReadGuard {
        void check(Serializer<?> serializer) throws IOException;
    }

    /** Tells whether a serializer found by uid is the one this JVM writes its class with. */
    @FunctionalInterface
    public interface SchemaCheck {
        boolean isLocal(Serializer<?> serializer);
    }

    private final ReadGuard guard;
    private final SchemaCheck schemaCheck;
    private boolean onlyLocalSchemas = true;
    private final int maxDepth;
    private final int maxObjects;
    /** How many objects are being read now, one inside the other. */
    private int depth;

    /**
     * Reads {@code length} bytes of {@code array} starting at {@code from}.
     *
     * @param maxDepth   objects nested deeper than this are refused (the top object is at depth 1)
     * @param maxObjects a value of more objects than this is refused (back references and nulls do not count)
     */
    public GuardedDeserializeStream(byte[] array, int from, int length, ReadGuard guard, int maxDepth, int maxObjects) {
        this(array, from, length, guard, maxDepth, maxObjects, null);
    }

    /**
     * As {@link #GuardedDeserializeStream(byte[], int, int, ReadGuard, int, int)}, asking {@code schemaCheck} (when not
     * null) about the serializer of each object until one is not local.
     */
    public GuardedDeserializeStream(byte[] array, int from, int length, ReadGuard guard, int maxDepth, int maxObjects,
                                    SchemaCheck schemaCheck) {
        super(array, from + length);
        this.offset += from;
        this.guard = guard;
        this.maxDepth = maxDepth;
        this.maxObjects = maxObjects;
        this.schemaCheck = schemaCheck;
    }

    /**
     * Whether every object read so far was written with the schema this JVM writes its class with (built-in types
     * always are). False when a {@link SchemaCheck} found one that was not; true when there is no check.
     */
    public boolean readOnlyLocalSchemas() {
        return onlyLocalSchemas;
    }

    /**
     * one-nio's {@code DeserializeStream.readObject}, with the guards between finding the serializer and
     * letting it read. Written out rather than delegated, so the uid is looked up once.
     */
    @Override
    public Object readObject() throws IOException, ClassNotFoundException {
        long start = offset;
        byte tag = readByte();
        Serializer<?> serializer;
        boolean byUid = tag >= 0;
        if (byUid) {
            offset = start;
            serializer = Repository.requestSerializer(readLong());
        } else if (tag <= FIRST_BOOT_UID) {
            serializer = Repository.requestBootstrapSerializer(tag);
            if (serializer == null) {
                throw new IOException("unknown built-in type tag " + tag + " at offset " + position(start));
            }
        } else if (tag == REF_NULL) {
            return null;
        } else if (tag == REF_RECURSIVE) {
            return backReference(readUnsignedShort(), start);
        } else if (tag == REF_RECURSIVE2) {
            return backReference(readInt(), start);
        } else if (tag == EMBEDDED_SCHEMA_TAG) {
            throw new IOException("embedded (persist-mode) schema at offset " + position(start)
                    + ": not accepted in plain-mode values");
        } else {
            throw new IOException("invalid reference tag " + tag + " at offset " + position(start));
        }
        guard.check(serializer);
        if (byUid && onlyLocalSchemas && schemaCheck != null && !schemaCheck.isLocal(serializer)) {
            onlyLocalSchemas = false;
        }
        checkDeclaredCount(serializer.cls());
        if (contextSize >= maxObjects) {
            throw new AttributeDecodeException("value holds more than " + maxObjects + " objects (the object limit)"
                    + "; refused at offset " + position(start));
        }
        if (depth >= maxDepth) {
            throw new AttributeDecodeException("value is nested deeper than " + maxDepth + " objects (the depth limit)"
                    + "; refused at offset " + position(start) + ", a " + serializer.cls().getName());
        }
        if (++contextSize >= context.length) {
            context = Arrays.copyOf(context, context.length * 2);
        }
        depth++;
        Object result = serializer.read(this);
        depth--; // not in a finally: after an exception the stream is dropped
        return result;
    }

    private Object backReference(int index, long start) throws IOException {
        if (index < 0 || index + 1 > contextSize) {
            throw new IOException("back reference to object " + index + " at offset " + position(start)
                    + ", but only " + contextSize + " objects were read");
        }
        return context[index + 1];
    }

    /** The slot this stream gives the object being read now, for {@link #fillSlot}. */
    int currentSlot() {
        return contextSize;
    }

    /** Puts an object built after its contents into the slot it was given, so later back references find it. */
    void fillSlot(int slot, Object value) {
        context[slot] = value;
    }

    /** The bytes left to read. */
    int remaining() {
        return (int) (limit - offset);
    }

    private void checkDeclaredCount(Class<?> cls) throws IOException {
        int bytesPerElement;
        if (cls.isArray()) {
            bytesPerElement = elementBytes(cls.getComponentType());
        } else if (cls == ArrayList.class || cls == HashMap.class) {
            bytesPerElement = 1;
        } else {
            return;
        }
        if (remaining() < Integer.BYTES) {
            return; // one-nio reports the truncation itself
        }
        long at = offset;
        int count = readInt();
        offset = at;
        if (count < 0 && cls == byte[].class) {
            return; // one-nio reads a negative byte[] length as empty
        }
        if (count < 0 || (long) count * bytesPerElement > remaining() - Integer.BYTES) {
            throw new IOException(cls.getTypeName() + " declares " + count + " elements at offset " + position(at)
                    + " but only " + (remaining() - Integer.BYTES) + " bytes remain");
        }
    }

    private static int elementBytes(Class<?> component) {
        if (component == long.class || component == double.class) {
            return 8;
        } else if (component == int.class || component == float.class) {
            return 4;
        } else if (component == short.class || component == char.class) {
            return 2;
        }
        return 1; // byte, boolean, and references (a reference is at least one tag byte)
    }

    private long position(long absolute) {
        return absolute - address;
    }
}

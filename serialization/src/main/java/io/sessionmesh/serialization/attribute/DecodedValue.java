package io.sessionmesh.serialization.attribute;

/**
 * A value decoded by {@link AttributeCodec#decodeForUpdate}, with what {@link AttributeCodec#encodeIfChanged} needs
 * to tell later whether this JVM changed it: the reference serialization to compare against.
 *
 * <p>When every object in the value was written with this JVM's own schema of its class, serializing the unchanged
 * value again gives the serialized bytes that were read, so those bytes (decompressed; no copy is made) are the
 * reference. When any object was written with another schema (another version of its class, or the class under a
 * former name), this JVM's serialization differs from those bytes even if nothing changed: the reference is then the
 * value as this JVM serialized it right after decoding, before the caller could change it.
 *
 * <p>The reference is opaque, only for {@link AttributeCodec#encodeIfChanged} of the same codec, never to be stored
 * or sent. It lives as long as this object: a session keeps it for the length of one request.
 */
public final class DecodedValue {
    private final Object value;
    private final boolean localSchemas;
    final byte[] reference;
    final int referenceFrom;
    final int referenceLength;

    DecodedValue(Object value, boolean localSchemas, byte[] reference, int referenceFrom, int referenceLength) {
        this.value = value;
        this.localSchemas = localSchemas;
        this.reference = reference;
        this.referenceFrom = referenceFrom;
        this.referenceLength = referenceLength;
    }

    /** The decoded object (the caller may change it in place; {@link AttributeCodec#encodeIfChanged} finds out). */
    public Object value() {
        return value;
    }

    /** Whether every object in the value was written with this JVM's own schema of its class. */
    public boolean writtenWithLocalSchemas() {
        return localSchemas;
    }
}

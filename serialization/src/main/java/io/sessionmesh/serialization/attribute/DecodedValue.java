package io.sessionmesh.serialization.attribute;

/**
 * A value decoded by {@link AttributeCodec#decodeForUpdate}, with what {@link AttributeCodec#encodeIfChanged} needs
 * to tell later whether this JVM changed it.
 *
 * <p>When every object in the value was written with this JVM's own schema of its class, re-encoding the unchanged
 * value gives the bytes that were read, so those bytes are the reference and {@link #baseline()} is null. When any
 * object was written with another schema (another version of its class, or the class under a former name), this
 * JVM's encoding differs from those bytes even if nothing changed: the reference is then {@link #baseline()}, the
 * value as this JVM serialized it right after decoding, before the caller could change it.
 *
 * @param value the decoded object
 * @param baseline null when the value was written with this JVM's schemas; otherwise an opaque snapshot, only for
 *     {@link AttributeCodec#encodeIfChanged} of the same codec, never to be stored or sent
 */
public record DecodedValue(Object value, byte[] baseline) {
    /** Whether every object in the value was written with this JVM's own schema of its class. */
    public boolean writtenWithLocalSchemas() {
        return baseline == null;
    }
}

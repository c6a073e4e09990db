package io.sessionmesh.serialization.attribute.internal;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The parts of a serialized one-nio schema that a reader may need to rename before one-nio reads it: the
 * class descriptor and, for one-nio's field-by-field serializer, the field names and field types.
 *
 * <p>Layout (one-nio 2.3.0 {@code Serializer.writeExternal}, written by a plain {@code DataStream}):
 * <pre>
 * +-----------------+------------------+---------+---------------------------------------------+
 * | tag: 1 byte < 0 | descriptor: UTF  | uid: i64| rest: field list (generated) or opaque      |
 * | or 8-byte uid   | (u16 len, or i32 |         | u16 count, then per field: UTF name,        |
 * | of the schema's |  len | 0x8000_0000 |       | i8 primitive index or -1 + UTF type         |
 * | own serializer  |  when > 0x7fff)  |         |                                             |
 * +-----------------+------------------+---------+---------------------------------------------+
 * </pre>
 * A descriptor or field name may be one-nio's {@code "current|former"} pair from its {@code @Renamed}.
 *
 * <p>The uid is not a name but a digest of the schema: one-nio's {@code Serializer.generateUid} takes the
 * first 64 bits of the MD5 of the serializer's class name and of the schema as written above, with the uid
 * field still zero, the sign bit cleared. Every string in that digest has a two-byte length, whatever its
 * size. {@link #contentUid} computes the same from the bytes as received, so a reader can tell that the
 * bytes fetched for a uid are the schema that uid names.
 */
final class SchemaForm {
    /** Longest UTF string one-nio writes with a two-byte length. */
    private static final int SHORT_UTF_MAX = 0x7fff;

    final long tag;
    final int tagBytes;
    String descriptor;
    final long uid;
    /** Field names and type descriptors (null for a primitive), when {@link #hasFields()}. */
    final List<String> fieldNames = new ArrayList<>();
    final List<String> fieldTypes = new ArrayList<>();
    final List<Byte> primitiveIndexes = new ArrayList<>();
    private final byte[] rest;
    private final boolean hasFields;
    /** The schema as one-nio digests it for its uid (see the class comment), filled while parsing. */
    private final ByteArrayOutputStream digestForm = new ByteArrayOutputStream(64);

    private SchemaForm(long tag, int tagBytes, String descriptor, long uid, byte[] rest, boolean hasFields) {
        this.tag = tag;
        this.tagBytes = tagBytes;
        this.descriptor = descriptor;
        this.uid = uid;
        this.rest = rest;
        this.hasFields = hasFields;
    }

    /** Parses a schema; {@code generatedTag} is the tag whose rest is a field list. */
    static SchemaForm parse(byte[] schema, long generatedTag) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(schema);
        ByteArrayOutputStream digestForm = new ByteArrayOutputStream(schema.length);
        try {
            long tag;
            int tagBytes;
            if (schema.length > 0 && schema[0] < 0) {
                tag = in.get();
                tagBytes = 1;
            } else {
                tag = in.getLong();
                tagBytes = Long.BYTES;
            }
            String descriptor = readUtf(in, digestForm);
            long uid = in.getLong();
            digestForm.write(new byte[Long.BYTES], 0, Long.BYTES); // the uid is zero while one-nio digests
            boolean hasFields = tag == generatedTag;
            SchemaForm form;
            if (hasFields) {
                form = new SchemaForm(tag, tagBytes, descriptor, uid, null, true);
                int count = Short.toUnsignedInt(in.getShort());
                writeShort(digestForm, count);
                for (int i = 0; i < count; i++) {
                    form.fieldNames.add(readUtf(in, digestForm));
                    byte primitive = in.get();
                    digestForm.write(primitive);
                    form.primitiveIndexes.add(primitive);
                    form.fieldTypes.add(primitive < 0 ? readUtf(in, digestForm) : null);
                }
                if (in.hasRemaining()) {
                    throw new IOException(in.remaining() + " unexpected bytes after the field list");
                }
            } else {
                byte[] rest = new byte[in.remaining()];
                in.get(rest);
                digestForm.write(rest, 0, rest.length);
                form = new SchemaForm(tag, tagBytes, descriptor, uid, rest, false);
            }
            digestForm.writeTo(form.digestForm);
            return form;
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException("truncated or malformed schema of " + schema.length + " bytes", e);
        }
    }

    boolean hasFields() {
        return hasFields;
    }

    /**
     * The uid one-nio gives the schema these bytes describe, as it was received (before any renaming):
     * compare with {@link #uid} and with the uid it was fetched for.
     *
     * @param serializerClass the class name of the serializer the schema's tag names, which one-nio digests first
     */
    long contentUid(String serializerClass) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every Java platform", e);
        }
        ByteArrayOutputStream name = new ByteArrayOutputStream(serializerClass.length() + 2);
        byte[] utf = serializerClass.getBytes(StandardCharsets.UTF_8);
        writeShort(name, utf.length);
        name.write(utf, 0, utf.length);
        md5.update(name.toByteArray());
        byte[] digest = md5.digest(digestForm.toByteArray());
        return ByteBuffer.wrap(digest).getLong() & Long.MAX_VALUE;
    }

    /** Applies a renaming to every field type descriptor. */
    void renameFieldTypes(UnaryOperator<String> rename) {
        for (int i = 0; i < fieldTypes.size(); i++) {
            String type = fieldTypes.get(i);
            if (type != null) {
                fieldTypes.set(i, rename.apply(type));
            }
        }
    }

    /** The schema again, with whatever was renamed. */
    byte[] toBytes() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        if (tagBytes == 1) {
            out.writeByte((int) tag);
        } else {
            out.writeLong(tag);
        }
        writeUtf(out, descriptor);
        out.writeLong(uid);
        if (hasFields) {
            out.writeShort(fieldNames.size());
            for (int i = 0; i < fieldNames.size(); i++) {
                writeUtf(out, fieldNames.get(i));
                out.writeByte(primitiveIndexes.get(i));
                if (fieldTypes.get(i) != null) {
                    writeUtf(out, fieldTypes.get(i));
                }
            }
        } else {
            out.write(rest);
        }
        return bytes.toByteArray();
    }

    /** Reads one string and adds it to {@code digestForm} with the two-byte length one-nio digests. */
    private static String readUtf(ByteBuffer in, ByteArrayOutputStream digestForm) throws IOException {
        int length = Short.toUnsignedInt(in.getShort());
        if (length > SHORT_UTF_MAX) {
            length = (length & SHORT_UTF_MAX) << 16 | Short.toUnsignedInt(in.getShort());
        }
        if (length > in.remaining()) {
            throw new IOException("string of " + length + " bytes in a schema with " + in.remaining() + " left");
        }
        String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        writeShort(digestForm, length);
        digestForm.write(in.array(), in.position(), length);
        in.position(in.position() + length);
        return s;
    }

    private static void writeShort(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    private static void writeUtf(DataOutputStream out, String s) throws IOException {
        byte[] utf = s.getBytes(StandardCharsets.UTF_8);
        if (utf.length <= SHORT_UTF_MAX) {
            out.writeShort(utf.length);
        } else {
            out.writeInt(utf.length | 0x80000000);
        }
        out.write(utf);
    }
}

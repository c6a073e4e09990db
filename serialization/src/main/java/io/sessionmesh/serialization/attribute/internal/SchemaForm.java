package io.sessionmesh.serialization.attribute.internal;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
            String descriptor = readUtf(in);
            long uid = in.getLong();
            boolean hasFields = tag == generatedTag;
            SchemaForm form;
            if (hasFields) {
                form = new SchemaForm(tag, tagBytes, descriptor, uid, null, true);
                int count = Short.toUnsignedInt(in.getShort());
                for (int i = 0; i < count; i++) {
                    form.fieldNames.add(readUtf(in));
                    byte primitive = in.get();
                    form.primitiveIndexes.add(primitive);
                    form.fieldTypes.add(primitive < 0 ? readUtf(in) : null);
                }
                if (in.hasRemaining()) {
                    throw new IOException(in.remaining() + " unexpected bytes after the field list");
                }
            } else {
                byte[] rest = new byte[in.remaining()];
                in.get(rest);
                form = new SchemaForm(tag, tagBytes, descriptor, uid, rest, false);
            }
            return form;
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException("truncated or malformed schema of " + schema.length + " bytes", e);
        }
    }

    boolean hasFields() {
        return hasFields;
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

    private static String readUtf(ByteBuffer in) throws IOException {
        int length = Short.toUnsignedInt(in.getShort());
        if (length > SHORT_UTF_MAX) {
            length = (length & SHORT_UTF_MAX) << 16 | Short.toUnsignedInt(in.getShort());
        }
        if (length > in.remaining()) {
            throw new IOException("string of " + length + " bytes in a schema with " + in.remaining() + " left");
        }
        String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return s;
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

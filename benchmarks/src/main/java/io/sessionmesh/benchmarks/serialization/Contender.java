package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.compression.CompressionOptions;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.jsontype.impl.LaissezFaireSubTypeValidator;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import one.nio.serial.Serializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * The serializers of the race (the reference system's, rerun on our data), each turning one attribute value
 * into bytes and back.
 */
public enum Contender {
    /** one-nio plain mode: 8-byte class uid per object, schema known to the reader. */
    ONE_NIO_PLAIN {
        @Override
        byte[] write(Object value) throws IOException {
            return Serializer.serialize(value);
        }

        @Override
        Object read(byte[] bytes) throws IOException, ClassNotFoundException {
            return Serializer.deserialize(bytes);
        }
    },
    /** one-nio persist mode: the schema travels inside the value. */
    ONE_NIO_PERSIST {
        @Override
        byte[] write(Object value) throws IOException {
            return Serializer.persist(value);
        }

        @Override
        Object read(byte[] bytes) throws IOException, ClassNotFoundException {
            return Serializer.deserialize(bytes);
        }
    },
    /** Jackson with default typing (class names in the JSON), as the reference system began. */
    JACKSON_TYPED {
        @Override
        byte[] write(Object value) throws IOException {
            return JACKSON.writeValueAsBytes(value);
        }

        @Override
        Object read(byte[] bytes) throws IOException {
            return JACKSON.readValue(bytes, Object.class);
        }
    },
    /** java.io.ObjectOutputStream. */
    JAVA_SERIALIZATION {
        @Override
        byte[] write(Object value) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(value);
            }
            return bytes.toByteArray();
        }

        @Override
        Object read(byte[] bytes) throws IOException, ClassNotFoundException {
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
                return in.readObject();
            }
        }
    },
    /** SessionMesh's attribute codec: one-nio plain mode, guards, schema publishing, default compression (LZ4 from 512 B). */
    SESSIONMESH {
        @Override
        byte[] write(Object value) {
            return CODEC.encode(value);
        }

        @Override
        Object read(byte[] bytes) {
            return CODEC.decode(bytes);
        }
    },
    /** The attribute codec with compression off. */
    SESSIONMESH_UNCOMPRESSED {
        @Override
        byte[] write(Object value) {
            return UNCOMPRESSED.encode(value);
        }

        @Override
        Object read(byte[] bytes) {
            return UNCOMPRESSED.decode(bytes);
        }
    };

    static final ObjectMapper JACKSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .activateDefaultTyping(LaissezFaireSubTypeValidator.instance, ObjectMapper.DefaultTyping.NON_FINAL,
                    JsonTypeInfo.As.PROPERTY);
    static final AttributeCodec CODEC = AttributeCodec.builder().classFilter(OneNioValues.CLASS_FILTER).build();
    static final AttributeCodec UNCOMPRESSED = AttributeCodec.builder().classFilter(OneNioValues.CLASS_FILTER)
            .compression(CompressionOptions.NONE).build();

    abstract byte[] write(Object value) throws Exception;

    abstract Object read(byte[] bytes) throws Exception;
}

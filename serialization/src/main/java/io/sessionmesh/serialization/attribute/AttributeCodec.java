package io.sessionmesh.serialization.attribute;

import io.sessionmesh.serialization.attribute.internal.CollectionShapes;
import io.sessionmesh.serialization.attribute.internal.GuardedDeserializeStream;
import io.sessionmesh.serialization.attribute.internal.ImmutableValues;
import io.sessionmesh.serialization.attribute.internal.OneNioRuntime;
import io.sessionmesh.serialization.attribute.internal.PreparingSizeStream;
import io.sessionmesh.serialization.attribute.internal.SchemaIntake;
import io.sessionmesh.serialization.attribute.internal.Streams;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.serialization.compression.CorruptValueException;
import io.sessionmesh.serialization.compression.ValueCompressor;

import one.nio.serial.Repository;
import one.nio.serial.Serializer;
import one.nio.serial.SerializerNotFoundException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns one attribute value into bytes and back: one-nio serialization in plain mode (an 8-byte class uid
 * per object, no schema inside the value), then compression when it pays.
 *
 * <p>Value form: {@code [compression codec id: 1 byte][payload]} as {@link ValueCompressor} frames it;
 * the payload, once decompressed, is one-nio's plain-mode serial form.
 *
 * <p>Schemas travel beside the values, through a {@link SchemaRegistry}: the first time this codec writes
 * an object of a class it publishes that class's one-nio schema; when it reads a uid this JVM does not know,
 * it fetches the schema, registers it with one-nio (renaming classes and fields declared in
 * {@link FormerNames}, refusing classes the {@link ClassFilter} denies) and reads the value again. So a JVM
 * reads values written by another JVM with another version of the class: added fields stay at their
 * defaults, removed fields are skipped, int widens to long.
 *
 * <p>A caller that may write a value it read back (a session saving what changed) decodes it with
 * {@link #decodeForUpdate} and asks {@link #encodeIfChanged} at save. The rule: a value is written back only
 * when this JVM changed it, never because this JVM's encoding of it differs from the bytes another version of
 * the class wrote. Written back, a value would lose the fields this JVM's version does not have, or move to this
 * JVM's name of a renamed class, which services that know only a former name cannot read. So when the bytes read came from another schema, the reference for "unchanged"
 * is this JVM's own serialization of the value made right after decoding, not the bytes read; when they came
 * from this JVM's schemas (the common case) it is the serialized bytes read, and no extra serialization is made
 * at decode. At save, a value that cannot change in place (an immutable record, a string) is not serialized at all,
 * and any other is serialized once, uncompressed, for the comparison.
 *
 * <p>A value that cannot be decoded fails alone, with a subtype of {@link AttributeCodecException}; the
 * codec and every other value stay usable. Thread-safe; build one per client and share it.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>value</th></tr>
 *   <tr><td>schemas fetched while decoding one value</td><td>{@value #MAX_SCHEMA_FETCHES_PER_VALUE}</td></tr>
 *   <tr><td>refused schemas remembered, so they are not fetched again</td><td>{@value #MAX_REFUSED_SCHEMAS}</td></tr>
 *   <tr><td>decompressed size of one value</td><td>{@link CompressionOptions#maxDecompressedBytes()}</td></tr>
 *   <tr><td>nesting depth of objects in one value ({@link Builder#maxDepth})</td><td>{@value #DEFAULT_MAX_DEPTH}</td></tr>
 *   <tr><td>objects in one value ({@link Builder#maxObjects})</td><td>{@value #DEFAULT_MAX_OBJECTS}</td></tr>
 * </table>
 */
public final class AttributeCodec {
    /** A value that needs more unknown schemas than this is refused rather than fetched on and on. */
    public static final int MAX_SCHEMA_FETCHES_PER_VALUE = 64;
    /** Schemas refused for good (unknown or denied class) are remembered up to this count. */
    public static final int MAX_REFUSED_SCHEMAS = 1024;
    /**
     * Objects nested deeper than this in one value are refused (the value itself is at depth 1; a list of
     * maps of records is four levels). one-nio reads nesting by recursion, about 450 bytes of stack a level
     * before the JIT compiles it (JDK 17, x64: a thread of 1 MiB stack reads about 2,000 levels, of 512 KiB
     * about 750, then overflows). 500 leaves three quarters of a default 1 MiB stack to the application
     * frames below the decode, and is still far deeper than session values nest; a value that is a long
     * hand-made linked chain needs a higher {@link Builder#maxDepth} and a thread stack to match.
     */
    public static final int DEFAULT_MAX_DEPTH = 500;
    /**
     * A value of more objects than this is refused (every object read counts, strings and boxed numbers
     * included; nulls and back references do not). A million is some tens of megabytes of heap: far beyond a
     * session attribute (the median value is about 200 bytes), while an object can be as small as one byte
     * of the value, so a 16 MiB value could otherwise declare sixteen million of them.
     */
    public static final int DEFAULT_MAX_OBJECTS = 1_000_000;

    /** The baseline of a value this JVM could not serialize: no serialization is empty, so it equals none. */
    private static final byte[] UNENCODABLE_BASELINE = new byte[0];

    static {
        OneNioRuntime.init();
    }

    private final SchemaRegistry registry;
    private final ClassFilter filter;
    private final ValueCompressor compressor;
    private final CompressionOptions compression;
    private final int maxDepth;
    private final int maxObjects;
    private final SchemaIntake intake;
    private final Map<String, String> formerClassNames;
    private final Map<Long, AttributeDecodeException> refusedSchemas = new ConcurrentHashMap<>();
    private final ClassValue<PublishState> publishStates = new ClassValue<>() {
        @Override
        protected PublishState computeValue(Class<?> cls) {
            CollectionShapes.install(cls);
            return new PublishState();
        }
    };
    private final ClassValue<Boolean> allowedClasses = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> cls) {
            return filter.isAllowed(cls.getName());
        }
    };
    /** The uid this JVM writes each class under (after its collection shape, if any, is installed). */
    private final ClassValue<Long> localUids = new ClassValue<>() {
        @Override
        protected Long computeValue(Class<?> cls) {
            publishStates.get(cls);
            return Repository.get(cls).uid();
        }
    };
    private final GuardedDeserializeStream.ReadGuard guard = this::checkAllowed;
    private final GuardedDeserializeStream.SchemaCheck localSchema = this::isLocalSchema;
    private final PreparingSizeStream.ClassHook hook = this::beforeWrite;
    /** For baselines: installs collection shapes like {@link #hook} but publishes nothing (they never leave). */
    private final PreparingSizeStream.ClassHook installOnly = publishStates::get;

    private final LongAdder schemasPublished = new LongAdder();
    private final LongAdder schemasFetched = new LongAdder();
    private final LongAdder decodeFailures = new LongAdder();
    private final LongAdder decodedFromOtherSchemas = new LongAdder();

    private AttributeCodec(Builder builder) {
        this.registry = builder.registry;
        this.filter = builder.filter;
        this.compression = builder.compression;
        this.compressor = new ValueCompressor(builder.compression);
        this.maxDepth = builder.maxDepth;
        this.maxObjects = builder.maxObjects;
        this.formerClassNames = SchemaIntake.formerNamesOf(builder.renamedClasses);
        this.intake = new SchemaIntake(filter, formerClassNames);
    }

    /**
     * A builder with the defaults: a local in-memory registry, default compression and limits. There is no
     * default class filter: {@link Builder#build()} needs one.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Encodes one value.
     *
     * @throws AttributeEncodeException if the value is not serializable or its schema cannot be published
     */
    public byte[] encode(Object value) {
        Objects.requireNonNull(value, "value (a null attribute is removed, not stored)");
        byte[] framed;
        try {
            PreparingSizeStream sizer = new PreparingSizeStream(hook);
            sizer.writeObject(value);
            framed = new byte[ValueCompressor.STORED_HEADER_BYTES + sizer.count()];
            Streams.writerFor(sizer, framed, ValueCompressor.STORED_HEADER_BYTES).writeObject(value);
        } catch (AttributeCodecException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new AttributeEncodeException("cannot serialize " + value.getClass().getName() + ": " + e, e);
        }
        return compressor.encodeInPlace(framed);
    }

    /** Decodes one value written by {@link #encode}, in this JVM or another. */
    public Object decode(byte[] value) {
        return decode(value, 0, value.length);
    }

    /**
     * Decodes one value and checks its type.
     *
     * @throws AttributeDecodeException if the value is not an instance of {@code type}
     */
    public <T> T decode(byte[] value, Class<T> type) {
        Object result = decode(value);
        if (result != null && !type.isInstance(result)) {
            decodeFailures.increment();
            throw new AttributeDecodeException("value is a " + result.getClass().getName() + ", not a " + type.getName());
        }
        return type.cast(result);
    }

    /**
     * Decodes one value held in {@code value[offset, offset + length)}.
     *
     * @throws AttributeDecodeException (or a subtype) naming what is wrong; other values are not affected
     */
    public Object decode(byte[] value, int offset, int length) {
        return decode(value, offset, length, null).value;
    }

    /**
     * Decodes a value the caller may write back later, keeping what {@link #encodeIfChanged} compares against: the
     * serialized bytes read, when every class in it was written with this JVM's own schema (no copy: the stored bytes
     * themselves, or their decompressed form); otherwise this JVM's serialization of the value made now, once more
     * (see the class comment for why).
     *
     * @throws AttributeDecodeException (or a subtype) naming what is wrong; other values are not affected
     */
    public DecodedValue decodeForUpdate(byte[] value) {
        Read read = decode(value, 0, value.length, localSchema);
        if (read.localSchemas) {
            return new DecodedValue(read.value, true, read.serialized, read.from, read.size);
        }
        decodedFromOtherSchemas.increment();
        byte[] baseline;
        try {
            baseline = snapshot(read.value); // not null: a null is read without a schema
        } catch (AttributeEncodeException e) {
            baseline = UNENCODABLE_BASELINE; // encodeIfChanged fails the same way at save, as encode would
        }
        return new DecodedValue(read.value, false, baseline, 0, baseline.length);
    }

    /**
     * The bytes to write back for a value read with {@link #decodeForUpdate}, or null when this JVM did not change
     * it. A value that cannot change in place ({@link ImmutableValues}: strings, boxed numbers, enums, records and
     * immutable collections of such) is not serialized at all; any other is serialized, uncompressed, and compared
     * with the decode's reference, and only a value that differs is encoded (compressed). A value changed in place is
     * therefore written back in this JVM's shape, whatever the bytes read held beyond it (last writer wins, as for
     * any write).
     *
     * @param read what {@link #decodeForUpdate} gave; its value perhaps changed in place since
     * @throws AttributeEncodeException if the value cannot be encoded
     */
    public byte[] encodeIfChanged(DecodedValue read) {
        Object value = read.value();
        if (value == null || ImmutableValues.cannotChange(value)) {
            return null;
        }
        byte[] now = snapshot(value);
        return Arrays.equals(now, 0, now.length, read.reference, read.referenceFrom, read.referenceFrom + read.referenceLength)
                ? null : encode(value);
    }

    /**
     * The bytes to write back for a value this codec last encoded as {@code stored}, or null when it did not change
     * since: its serialization is compared with {@code stored}'s, decompressed.
     *
     * @throws AttributeEncodeException if the value cannot be encoded
     */
    public byte[] encodeIfChanged(Object value, byte[] stored) {
        if (ImmutableValues.cannotChange(value)) {
            return null;
        }
        Payload p;
        try {
            p = payload(stored, 0, stored.length);
        } catch (CorruptValueException e) {
            return encode(value); // cannot compare with bytes this codec wrote but cannot read: write it again
        }
        return encodeIfChanged(new DecodedValue(value, true, p.serialized, p.from, p.size));
    }

    /** This JVM's plain serialization of a value, uncompressed and published nowhere: for comparisons only. */
    private byte[] snapshot(Object value) {
        try {
            PreparingSizeStream sizer = new PreparingSizeStream(installOnly);
            sizer.writeObject(value);
            byte[] out = new byte[sizer.count()];
            Streams.writerFor(sizer, out, 0).writeObject(value);
            return out;
        } catch (AttributeCodecException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new AttributeEncodeException("cannot serialize " + value.getClass().getName() + ": " + e, e);
        }
    }

    private Read decode(byte[] value, int offset, int length, GuardedDeserializeStream.SchemaCheck check) {
        try {
            Payload p = payload(value, offset, length);
            return deserialize(p.serialized, p.from, p.size, check);
        } catch (CorruptValueException e) {
            decodeFailures.increment();
            throw new AttributeDecodeException("value of " + length + " bytes is corrupt: " + e.getMessage(), e);
        } catch (AttributeCodecException e) {
            decodeFailures.increment();
            throw e;
        }
    }

    /** The serialized form inside a value: the value's own bytes when stored uncompressed, else decompressed. */
    private Payload payload(byte[] value, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, value.length);
        if (ValueCompressor.isUncompressed(value, offset, length)) {
            int from = offset + ValueCompressor.payloadOffset(value, offset, length);
            return new Payload(value, from, length - (from - offset));
        }
        byte[] serialized = compressor.decode(value, offset, length);
        return new Payload(serialized, 0, serialized.length);
    }

    private record Payload(byte[] serialized, int from, int size) {
    }

    private Read deserialize(byte[] serialized, int from, int size, GuardedDeserializeStream.SchemaCheck check) {
        for (int fetches = 0; ; fetches++) {
            try {
                GuardedDeserializeStream in = new GuardedDeserializeStream(serialized, from, size, guard,
                        maxDepth, maxObjects, check);
                Object result = in.readObject();
                if (in.available() != 0) {
                    throw new AttributeDecodeException("value has " + in.available() + " bytes left over after the object");
                }
                return new Read(result, in.readOnlyLocalSchemas(), serialized, from, size);
            } catch (AttributeCodecException e) {
                throw e;
            } catch (Exception | StackOverflowError e) {
                SerializerNotFoundException missing = missingSchema(e);
                if (missing == null) {
                    throw new AttributeDecodeException("value of " + size + " bytes cannot be deserialized: " + e, e);
                }
                if (fetches >= MAX_SCHEMA_FETCHES_PER_VALUE) {
                    throw new AttributeDecodeException("value needs more than " + MAX_SCHEMA_FETCHES_PER_VALUE
                            + " unknown schemas; refusing to fetch more", e);
                }
                fetchSchema(missing.getUid());
            }
        }
    }

    private static SerializerNotFoundException missingSchema(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SerializerNotFoundException) {
                return (SerializerNotFoundException) t;
            }
        }
        return null;
    }

    private void fetchSchema(long uid) {
        AttributeDecodeException refused = refusedSchemas.get(uid);
        if (refused != null) {
            throw refused;
        }
        byte[] schema = registry.fetch(uid);
        if (schema == null) {
            throw new SchemaNotFoundException(uid);
        }
        try {
            intake.accept(uid, schema);
            schemasFetched.increment();
        } catch (UnknownClassException | ClassNotAllowedException e) {
            if (refusedSchemas.size() < MAX_REFUSED_SCHEMAS) {
                refusedSchemas.put(uid, e);
            }
            throw e;
        }
    }

    private void checkAllowed(Serializer<?> serializer) {
        Class<?> cls = serializer.cls();
        if (cls == null) {
            throw new ClassNotAllowedException("<no class>", "the schema " + Long.toHexString(serializer.uid()) + " has no class");
        }
        if (!allowedClasses.get(cls)) {
            filter.check(cls.getName());
        }
    }

    /**
     * Whether a serializer found by uid is the one this JVM writes its class with. A class whose local
     * serializer cannot be made counts as not local: the value then gets a baseline, which fails to encode too.
     */
    private boolean isLocalSchema(Serializer<?> serializer) {
        try {
            return localUids.get(serializer.cls()) == serializer.uid();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private void beforeWrite(Class<?> cls) {
        PublishState state = publishStates.get(cls);
        if (!state.published) {
            publish(cls, state);
        }
    }

    private void publish(Class<?> cls, PublishState state) {
        synchronized (state) {
            if (state.published) {
                return;
            }
            Serializer<?> serializer = Repository.get(cls);
            if (serializer.uid() >= 0) {
                byte[] schema;
                try {
                    schema = Serializer.serialize(serializer);
                } catch (IOException e) {
                    throw new AttributeEncodeException("cannot serialize the schema of " + cls.getName(), e);
                }
                try {
                    registry.publish(serializer.uid(), schema);
                } catch (SchemaRegistryException e) {
                    throw new AttributeEncodeException("cannot publish the schema of " + cls.getName() + " ("
                            + Long.toHexString(serializer.uid()) + "): " + e.getMessage(), e);
                }
                schemasPublished.increment();
            }
            state.published = true;
        }
    }

    /** How many schemas this codec has published. */
    public long schemasPublished() {
        return schemasPublished.sum();
    }

    /** How many schemas this codec has fetched from the registry and registered. */
    public long schemasFetched() {
        return schemasFetched.sum();
    }

    /** How many values failed to decode. */
    public long decodeFailures() {
        return decodeFailures.sum();
    }

    /**
     * How many values {@link #decodeForUpdate} found written with another schema than this JVM's (another version
     * of a class, or a former name): each cost one more serialization, and a sign that versions are mixed.
     */
    public long decodedFromOtherSchemas() {
        return decodedFromOtherSchemas.sum();
    }

    /** The class filter in force. */
    public ClassFilter classFilter() {
        return filter;
    }

    /** The deepest nesting of objects a value may have. */
    public int maxDepth() {
        return maxDepth;
    }

    /** The most objects a value may hold. */
    public int maxObjects() {
        return maxObjects;
    }

    /** The compression options in force. */
    public CompressionOptions compression() {
        return compression;
    }

    @Override
    public String toString() {
        return "AttributeCodec[" + filter + ", " + compression + ", one-nio gen mode " + OneNioRuntime.genMode()
                + ", renamed classes " + formerClassNames.size() + "]";
    }

    /** A decoded value, and whether every object in it was written with this JVM's schema of its class. */
    /** A decoded value, and the serialized bytes it was read from ({@code serialized[from, from + size)}). */
    private record Read(Object value, boolean localSchemas, byte[] serialized, int from, int size) {
    }

    /** Whether this codec has published the schema of a class. */
    private static final class PublishState {
        volatile boolean published;
    }

    /** Options of an {@link AttributeCodec}. */
    public static final class Builder {
        private SchemaRegistry registry = new InMemorySchemaRegistry();
        private ClassFilter filter;
        private CompressionOptions compression = CompressionOptions.DEFAULT;
        private int maxDepth = DEFAULT_MAX_DEPTH;
        private int maxObjects = DEFAULT_MAX_OBJECTS;
        private final List<Class<?>> renamedClasses = new ArrayList<>();

        private Builder() {
        }

        /** Where schemas are published and fetched; default: an in-memory registry of this codec alone. */
        public Builder schemaRegistry(SchemaRegistry registry) {
            this.registry = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** Which classes may be instantiated when decoding; required, see {@link ClassFilter#allowingPackages}. */
        public Builder classFilter(ClassFilter filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /** How values are compressed; default {@link CompressionOptions#DEFAULT}. */
        public Builder compression(CompressionOptions compression) {
            this.compression = Objects.requireNonNull(compression, "compression");
            return this;
        }

        /**
         * How deeply objects may nest in one value; default {@link #DEFAULT_MAX_DEPTH}. Raise it only with the
         * stack of the threads that decode: each level costs a few hundred bytes of stack.
         */
        public Builder maxDepth(int maxDepth) {
            if (maxDepth < 1) {
                throw new IllegalArgumentException("maxDepth = " + maxDepth + ": expected at least 1");
            }
            this.maxDepth = maxDepth;
            return this;
        }

        /** How many objects one value may hold; default {@link #DEFAULT_MAX_OBJECTS}. */
        public Builder maxObjects(int maxObjects) {
            if (maxObjects < 1) {
                throw new IllegalArgumentException("maxObjects = " + maxObjects + ": expected at least 1");
            }
            this.maxObjects = maxObjects;
            return this;
        }

        /** Classes annotated with {@link FormerNames}, so values written under their old names decode. */
        public Builder registerClasses(Class<?>... classes) {
            for (Class<?> cls : classes) {
                Objects.requireNonNull(cls, "class");
                if (cls.getAnnotation(FormerNames.class) == null) {
                    throw new IllegalArgumentException("registerClasses: " + cls.getName()
                            + " has no @FormerNames annotation; only renamed classes need registering");
                }
            }
            renamedClasses.addAll(Arrays.asList(classes));
            return this;
        }

        /**
         * The codec.
         *
         * @throws IllegalStateException when no class filter was set
         */
        public AttributeCodec build() {
            if (filter == null) {
                throw new IllegalStateException("classFilter is required: name the packages values may be decoded as,"
                        + " for instance classFilter(ClassFilter.allowingPackages(\"com.example.bank\")); JDK value"
                        + " types and collections are always allowed");
            }
            return new AttributeCodec(this);
        }
    }
}

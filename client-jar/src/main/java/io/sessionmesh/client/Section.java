package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.AttributeCodecException;
import io.sessionmesh.serialization.attribute.DecodedValue;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.TransportLimits;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One named section of a {@link Session}: its attributes, kept as the bytes they were read as until asked for, so
 * an attribute of a class this JVM does not have is carried along untouched, and one that fails to decode fails
 * alone. Not thread-safe: a session belongs to the request handling it.
 */
public final class Section {
    private final Session session;
    private final String name;
    private long version;
    private boolean optimistic;
    /** Attributes by name, in order. */
    private final Map<String, Attribute> attributes = new LinkedHashMap<>();
    /** Names removed since the last save (they were present when read, or set since). */
    private final Set<String> removed = new LinkedHashSet<>();

    /** One attribute's state: its stored bytes, and its value once decoded or set. */
    private static final class Attribute {
        byte[] stored;
        Object value;
        boolean decoded;
        boolean set;
        /**
         * The decode of {@link #stored} with its reference for "unchanged" (see {@link #delta}); null once the value
         * was set or saved here (then {@link #stored} is this JVM's encoding of it, the reference).
         */
        DecodedValue read;
    }

    Section(Session session, String name, long version, Map<String, byte[]> stored) {
        this.session = session;
        this.name = name;
        this.version = version;
        stored.forEach((k, v) -> {
            Attribute a = new Attribute();
            a.stored = v;
            attributes.put(k, a);
        });
    }

    public String name() {
        return name;
    }

    /** The version read (0: the section was never written), or the one the last save made. */
    public long version() {
        return version;
    }

    /**
     * Makes saves of this section optimistic: the save carries the version read, and fails with
     * {@link SessionConflictException} (applying nothing) if someone else wrote the section since.
     */
    public Section optimistic() {
        this.optimistic = true;
        return this;
    }

    /**
     * The value of an attribute, decoded on first use, or null if there is none.
     *
     * @throws io.sessionmesh.serialization.attribute.AttributeDecodeException (or a subtype, such as
     *     {@code UnknownClassException}) if this value cannot be decoded here; other attributes are not affected
     */
    public Object getAttribute(String attribute) {
        Attribute a = attributes.get(attribute);
        if (a == null) {
            return null;
        }
        if (!a.decoded) {
            try {
                if (session.saveMode() == SaveMode.ON_SET_OR_READ) {
                    a.read = session.codec().decodeForUpdate(a.stored);
                    a.value = a.read.value();
                } else {
                    a.value = session.codec().decode(a.stored);
                }
            } catch (AttributeCodecException e) {
                session.decodeFailed(name, attribute, e);
                throw e;
            }
            a.decoded = true;
        }
        return a.value;
    }

    /** The value of an attribute as a {@code type}, or null; a value of another type is an error naming both. */
    public <T> T getAttribute(String attribute, Class<T> type) {
        Object v = getAttribute(attribute);
        if (v != null && !type.isInstance(v)) {
            throw new ClassCastException("attribute \"" + attribute + "\" of section \"" + name + "\" is a "
                    + v.getClass().getName() + ", not a " + type.getName());
        }
        return type.cast(v);
    }

    /** Sets an attribute (sent at the next save); a null value removes it. */
    public void setAttribute(String attribute, Object value) {
        TransportLimits.checkAttributeName(attribute);
        if (value == null) {
            removeAttribute(attribute);
            return;
        }
        Attribute a = attributes.computeIfAbsent(attribute, k -> new Attribute());
        a.value = value;
        a.decoded = true;
        a.set = true;
        a.read = null;
        removed.remove(attribute);
    }

    /** Removes an attribute (at the next save). */
    public void removeAttribute(String attribute) {
        Attribute a = attributes.remove(attribute);
        if (a != null && a.stored != null) {
            removed.add(attribute);
        }
    }

    /** The names of the attributes, in order. */
    public Set<String> attributeNames() {
        return Collections.unmodifiableSet(attributes.keySet());
    }

    /** The stored bytes of an attribute (what the sidecar holds), or null; for tools and tests. */
    public byte[] storedBytes(String attribute) {
        Attribute a = attributes.get(attribute);
        return a == null ? null : a.stored;
    }

    /**
     * The delta of this section since it was read or last saved, or null when nothing changed: attributes set,
     * removals, and (with {@link SaveMode#ON_SET_OR_READ}) the values read that this JVM changed in place.
     *
     * <p>A value read is sent only when this JVM changed it, never because this JVM encodes it differently from the
     * bytes read: those may come from a service with a newer version of the class (fields this one does not have)
     * or an older name of it, and writing them back in this JVM's shape would erase what that service wrote. A value
     * that cannot change in place (a string, an immutable record) is not looked at again; any other is serialized
     * and compared with the reference its decode kept ({@link AttributeCodec#encodeIfChanged(DecodedValue)}). A value
     * changed in place is then sent in this JVM's shape: last writer wins, as for a set. Encodes the values; nothing
     * is changed here until {@link #saved}.
     */
    SectionDelta delta(AttributeCodec codec, SaveMode mode) {
        Map<String, byte[]> set = new LinkedHashMap<>();
        for (Map.Entry<String, Attribute> e : attributes.entrySet()) {
            Attribute a = e.getValue();
            if (a.set) {
                set.put(e.getKey(), codec.encode(a.value));
            } else if (mode == SaveMode.ON_SET_OR_READ && a.decoded && a.value != null) {
                byte[] changed = a.read != null ? codec.encodeIfChanged(a.read) : codec.encodeIfChanged(a.value, a.stored);
                if (changed != null) {
                    set.put(e.getKey(), changed);
                }
            }
        }
        if (set.isEmpty() && removed.isEmpty()) {
            return null;
        }
        List<String> remove = new ArrayList<>(removed);
        return optimistic ? new SectionDelta(name, version, set, remove) : new SectionDelta(name, set, remove);
    }

    /** The value bytes of this section as {@code delta} leaves it: what saving the whole section would send. */
    long wholeBytes(SectionDelta delta) {
        long n = 0;
        for (Map.Entry<String, Attribute> e : attributes.entrySet()) {
            byte[] fresh = delta.set().get(e.getKey());
            byte[] b = fresh != null ? fresh : e.getValue().stored;
            n += b == null || delta.remove().contains(e.getKey()) ? 0 : b.length;
        }
        return n;
    }

    /** The save of {@code delta} made {@code newVersion}: what was sent is now what is stored. */
    void saved(SectionDelta delta, long newVersion) {
        delta.set().forEach((k, bytes) -> {
            Attribute a = attributes.get(k);
            if (a != null) {
                a.stored = bytes;
                a.set = false;
                a.read = null; // written by this JVM: its bytes are the reference now
            }
        });
        removed.removeAll(delta.remove());
        version = newVersion;
    }

    @Override
    public String toString() {
        return "section " + name + " v" + version + " " + attributes.keySet();
    }

    static String checkName(String section) {
        Objects.requireNonNull(section, "section");
        TransportLimits.checkSectionName(section);
        if (section.indexOf(',') >= 0) {
            throw new IllegalArgumentException("section \"" + section + "\": a section read through a sidecar may not "
                    + "have a comma in its name (the REST API lists names with commas)");
        }
        return section;
    }
}

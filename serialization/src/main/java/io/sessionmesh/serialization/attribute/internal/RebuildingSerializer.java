package io.sessionmesh.serialization.attribute.internal;

import one.nio.serial.CalcSizeStream;
import one.nio.serial.DataStream;
import one.nio.serial.Json;
import one.nio.serial.JsonReader;
import one.nio.serial.Serializer;

import java.io.IOException;
import java.io.ObjectInput;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * A one-nio serializer for the classes of {@link CollectionShapes}: writes an optional comparator, the
 * item count and the items, and reads them back into the same kind of collection.
 *
 * <p>Wire form, after one-nio's 8-byte class uid: {@code [comparator object, if sorted] [int32 count]
 * [count objects, or count key/value pairs]}. The schema is one-nio's usual {@code descriptor, uid}, so a
 * reader resolves the class by name like any other and picks its shape again.
 *
 * <p>An immutable collection can only be built once its items are read. A back reference to it from
 * inside its own items (a cycle through an immutable collection) therefore reads as {@code null}, as it
 * would with Java serialization's readResolve; shared references to it from elsewhere work.
 */
public final class RebuildingSerializer extends Serializer<Object> {
    private CollectionShape shape;

    /** Made by {@link CollectionShapes#install}; one-nio makes remote copies without a constructor. */
    RebuildingSerializer(Class<?> cls, CollectionShape shape) {
        super(cls);
        this.shape = shape;
        generateUid();
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
        super.readExternal(in);
        this.shape = CollectionShapes.shapeFor(cls);
        if (shape == null) {
            throw new IOException("class " + cls.getName() + " has no collection shape in this JVM");
        }
    }

    @Override
    public void calcSize(Object obj, CalcSizeStream css) throws IOException {
        if (shape.sorted()) {
            css.writeObject(shape.comparator(obj));
        }
        css.writeInt(0);
        for (Iterator<?> it = shape.iterator(obj); it.hasNext(); ) {
            writeItem(it.next(), css);
        }
    }

    @Override
    public void write(Object obj, DataStream out) throws IOException {
        if (shape.sorted()) {
            out.writeObject(shape.comparator(obj));
        }
        out.writeInt(shape.size(obj));
        for (Iterator<?> it = shape.iterator(obj); it.hasNext(); ) {
            writeItem(it.next(), out);
        }
    }

    private void writeItem(Object item, java.io.ObjectOutput out) throws IOException {
        if (shape.pairs()) {
            Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
            out.writeObject(entry.getKey());
            out.writeObject(entry.getValue());
        } else {
            out.writeObject(item);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object read(DataStream in) throws IOException, ClassNotFoundException {
        int slot = in instanceof GuardedDeserializeStream ? ((GuardedDeserializeStream) in).currentSlot() : -1;
        Comparator<Object> comparator = shape.sorted() ? (Comparator<Object>) in.readObject() : null;
        int count = in.readInt();
        int itemsPerEntry = shape.pairs() ? 2 : 1;
        if (count < 0 || (long) count * itemsPerEntry > in.available()) {
            throw new IOException(cls.getName() + " declares " + count + " items but only " + in.available()
                    + " bytes remain");
        }
        Object[] items = new Object[count * itemsPerEntry];
        for (int i = 0; i < items.length; i++) {
            items[i] = in.readObject();
        }
        Object result;
        try {
            result = shape.rebuild(items, comparator);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot rebuild " + cls.getName() + " from " + count + " items: " + e, e);
        }
        if (slot >= 0) {
            ((GuardedDeserializeStream) in).fillSlot(slot, result);
        }
        return result;
    }

    @Override
    public void skip(DataStream in) throws IOException, ClassNotFoundException {
        if (shape.sorted()) {
            in.readObject();
        }
        int count = in.readInt();
        int items = shape.pairs() ? count * 2 : count;
        for (int i = 0; i < items; i++) {
            in.readObject();
        }
    }

    @Override
    public void toJson(Object obj, StringBuilder builder) throws IOException {
        builder.append(shape.pairs() ? '{' : '[');
        boolean first = true;
        for (Iterator<?> it = shape.iterator(obj); it.hasNext(); first = false) {
            if (!first) {
                builder.append(',');
            }
            Object item = it.next();
            if (shape.pairs()) {
                Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
                Json.appendString(builder, String.valueOf(entry.getKey()));
                builder.append(':');
                Json.appendObject(builder, entry.getValue());
            } else {
                Json.appendObject(builder, item);
            }
        }
        builder.append(shape.pairs() ? '}' : ']');
    }

    @Override
    public Object fromJson(JsonReader in) throws IOException {
        throw new IOException("JSON input is not supported for " + cls.getName());
    }
}

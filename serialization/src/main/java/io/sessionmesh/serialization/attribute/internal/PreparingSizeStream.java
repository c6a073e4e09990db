package io.sessionmesh.serialization.attribute.internal;

import one.nio.serial.CalcSizeStream;

import java.io.IOException;

/**
 * one-nio's size-counting pass with a hook that sees the class of every object in the graph before one-nio
 * looks up its serializer. The codec uses it to install the serializers of {@link CollectionShapes} and to
 * publish the schema of every class a value uses, in the same walk that sizes the value.
 */
public final class PreparingSizeStream extends CalcSizeStream {

    /** Called once per object, before one-nio serializes it. */
    @FunctionalInterface
    public interface ClassHook {
        void beforeWrite(Class<?> cls) throws IOException;
    }

    private final ClassHook hook;

    public PreparingSizeStream(ClassHook hook) {
        this.hook = hook;
    }

    @Override
    public void writeObject(Object obj) throws IOException {
        if (obj != null) {
            hook.beforeWrite(obj.getClass());
        }
        super.writeObject(obj);
    }
}

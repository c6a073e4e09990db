package io.sessionmesh.serialization.attribute;

/**
 * A value was written with a class that this JVM does not have, under its name or any of the earlier
 * names that {@link FormerNames} declares. The value's bytes are intact and can be carried further
 * untouched; only turning them into an object here is impossible.
 */
public class UnknownClassException extends AttributeDecodeException {
    private static final long serialVersionUID = 1L;

    private final String className;

    public UnknownClassException(String className) {
        super("class " + className + " is not on this JVM's class path (nor any class declaring it in @FormerNames"
                + " and registered with AttributeCodec.Builder.registerClasses)");
        this.className = className;
    }

    /** The class name as the writer's schema names it. */
    public String className() {
        return className;
    }
}

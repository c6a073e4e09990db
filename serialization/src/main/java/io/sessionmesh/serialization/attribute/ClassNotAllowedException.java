package io.sessionmesh.serialization.attribute;

/** A value names a class that the {@link ClassFilter} does not let this client instantiate. */
public class ClassNotAllowedException extends AttributeDecodeException {
    private static final long serialVersionUID = 1L;

    private final String className;

    public ClassNotAllowedException(String className, String reason) {
        super("class " + className + " is not allowed to be deserialized: " + reason);
        this.className = className;
    }

    /** The name of the refused class, as the writer named it. */
    public String className() {
        return className;
    }
}

package io.sessionmesh.serialization.attribute;

/**
 * A value uses a one-nio schema (class uid) that this JVM does not know and the {@link SchemaRegistry}
 * does not have either: the writer did not publish it, or the registry lost it.
 */
public class SchemaNotFoundException extends AttributeDecodeException {
    private static final long serialVersionUID = 1L;

    private final long uid;

    public SchemaNotFoundException(long uid) {
        super("schema " + Long.toHexString(uid) + " is neither known locally nor in the schema registry");
        this.uid = uid;
    }

    /** The one-nio class uid that could not be resolved. */
    public long uid() {
        return uid;
    }
}

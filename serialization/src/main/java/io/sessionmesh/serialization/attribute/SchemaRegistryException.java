package io.sessionmesh.serialization.attribute;

/** The schema registry refused a schema or could not be reached. */
public class SchemaRegistryException extends AttributeCodecException {
    private static final long serialVersionUID = 1L;

    public SchemaRegistryException(String message) {
        super(message);
    }

    public SchemaRegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}

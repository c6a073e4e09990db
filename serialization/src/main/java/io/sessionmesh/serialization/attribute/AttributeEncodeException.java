package io.sessionmesh.serialization.attribute;

/** A value could not be turned into bytes: not serializable, or its schema could not be published. */
public class AttributeEncodeException extends AttributeCodecException {
    private static final long serialVersionUID = 1L;

    public AttributeEncodeException(String message, Throwable cause) {
        super(message, cause);
    }
}

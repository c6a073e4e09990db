package io.sessionmesh.serialization.attribute;

/** The bytes of one value could not be turned back into an object: corrupt, truncated or inconsistent. */
public class AttributeDecodeException extends AttributeCodecException {
    private static final long serialVersionUID = 1L;

    public AttributeDecodeException(String message) {
        super(message);
    }

    public AttributeDecodeException(String message, Throwable cause) {
        super(message, cause);
    }
}

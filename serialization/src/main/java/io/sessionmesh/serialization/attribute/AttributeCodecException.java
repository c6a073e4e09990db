package io.sessionmesh.serialization.attribute;

/**
 * The one unchecked exception of the attribute codec; every failure to encode or decode one attribute
 * value is a subtype, so a caller can catch the family or one case. A failure concerns one value only:
 * the codec stays usable and other values are not affected.
 */
public class AttributeCodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AttributeCodecException(String message) {
        super(message);
    }

    public AttributeCodecException(String message, Throwable cause) {
        super(message, cause);
    }
}

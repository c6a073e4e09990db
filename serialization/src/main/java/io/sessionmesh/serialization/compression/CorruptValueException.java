package io.sessionmesh.serialization.compression;

/** A framed value cannot be decompressed: unknown codec, bad length, corrupt or oversized payload. */
public class CorruptValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptValueException(String message) {
        super(message);
    }

    public CorruptValueException(String message, Throwable cause) {
        super(message, cause);
    }
}

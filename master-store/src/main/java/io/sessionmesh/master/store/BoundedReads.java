package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads of a length-prefixed field from what a master did not write itself in this process (a log entry, a snapshot, a
 * GROUP_IMPORT body, a group's state): the declared length is checked before anything is allocated, against the bytes
 * there are (a buffer) or against a ceiling, and a stream's bytes are allocated only as they arrive. A lying length is
 * then an error naming the field, never an OutOfMemoryError on every replica.
 */
public final class BoundedReads {
    /** The longest field read from a stream (a snapshot file): above any session or schema a master keeps. */
    public static final int MAX_STREAM_FIELD_BYTES = 1 << 30;

    private BoundedReads() {
    }

    /**
     * {@code length} bytes of {@code in}, for {@code what}.
     *
     * @throws MalformedMessageException BAD_REQUEST for a length below 0 or above the bytes left
     */
    public static byte[] bytes(ByteBuffer in, int length, String what) {
        if (length < 0 || length > in.remaining()) {
            throw new MalformedMessageException(Status.BAD_REQUEST, what + " of " + length + " bytes, with "
                    + in.remaining() + " left");
        }
        byte[] b = new byte[length];
        in.get(b);
        return b;
    }

    /** A u32 length, then that many bytes ({@link #bytes(ByteBuffer, int, String)}). */
    public static byte[] sized(ByteBuffer in, String what) {
        return bytes(in, in.getInt(), what);
    }

    /**
     * {@code length} bytes of {@code in}, at most {@code max}, for {@code what}.
     *
     * @throws IOException for a length below 0 or above {@code max}, or a stream that ends first
     */
    public static byte[] bytes(DataInputStream in, int length, int max, String what) throws IOException {
        if (length < 0 || length > max) {
            throw new IOException(what + " of " + length + " bytes: 0 to " + max);
        }
        byte[] b = in.readNBytes(length); // grows as the bytes come: a length beyond the stream allocates little
        if (b.length != length) {
            throw new EOFException(what + " of " + length + " bytes cut short at " + b.length);
        }
        return b;
    }

    /** A u32 length, then that many bytes, at most {@link #MAX_STREAM_FIELD_BYTES}. */
    public static byte[] sized(DataInputStream in, String what) throws IOException {
        return bytes(in, in.readInt(), MAX_STREAM_FIELD_BYTES, what);
    }
}

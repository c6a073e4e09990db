package io.sessionmesh.wire.placement;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Where new sessions must land when several masters share sessions: the ring of masters (their names and the
 * virtual nodes each puts on the ring) and which of them is being asked. A sidecar sends it with CREATE; the
 * master then makes random ids until one whose place on that ring is its own, so that every sidecar routes the
 * session's id back to it. Expected attempts: the number of masters.
 *
 * <pre>
 * +---------------+---------------+---------------+--------------------------------------+
 * | vnodes: u16   | self: u16     | n: u16        | n x ( length: u8 | name: ASCII )     |
 * +---------------+---------------+---------------+--------------------------------------+
 * </pre>
 *
 * @param names every master's "host:port", in the order all sidecars use
 * @param self the index of the master asked
 */
public record Placement(List<String> names, int vnodes, int self) {
    /** The most virtual nodes per master a placement carries (a u16 on the wire). */
    public static final int MAX_VNODES = 0xFFFF;
    /** The most masters a placement may name. */
    public static final int MAX_MASTERS = 1024;
    /** The longest master name, in bytes. */
    public static final int MAX_NAME_BYTES = 255;
    /** Masters x vnodes at most: a ring of 4 million tokens is 32 MiB to build; a CREATE may not ask for more. */
    public static final long MAX_TOKENS = 1 << 22;

    public Placement {
        names = List.copyOf(names);
        if (names.isEmpty() || names.size() > MAX_MASTERS || self < 0 || self >= names.size() || vnodes < 1 || vnodes > MAX_VNODES) {
            throw new IllegalArgumentException("placement of " + names.size() + " masters, self " + self + ", vnodes " + vnodes);
        }
        for (String name : names) {
            if (name.isEmpty() || name.length() > MAX_NAME_BYTES || !StandardCharsets.US_ASCII.newEncoder().canEncode(name)) {
                throw new IllegalArgumentException("master name \"" + name + "\" is not 1.." + MAX_NAME_BYTES + " ASCII characters");
            }
        }
        if ((long) names.size() * vnodes > MAX_TOKENS) {
            throw new IllegalArgumentException("placement of " + names.size() + " masters x " + vnodes + " vnodes is above "
                    + MAX_TOKENS + " tokens");
        }
    }

    /** The ring these names and vnodes make (the nodes are the indexes). */
    public HashRing<Integer> ring() {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            indexes.add(i);
        }
        return new HashRing<>(indexes, names, vnodes);
    }

    /** Bytes of {@link #writeTo}. */
    public int encodedSize() {
        int n = 6;
        for (String name : names) {
            n += 1 + name.length();
        }
        return n;
    }

    public void writeTo(ByteBuf out) {
        out.writeShort(vnodes).writeShort(self).writeShort(names.size());
        for (String n : names) {
            byte[] b = n.getBytes(StandardCharsets.US_ASCII);
            out.writeByte(b.length).writeBytes(b);
        }
    }

    /** Reads a placement that fills the rest of {@code in}. */
    public static Placement readFrom(ByteBuf in) {
        try {
            int vnodes = in.readUnsignedShort();
            int self = in.readUnsignedShort();
            int n = in.readUnsignedShort();
            if (n == 0 || n > MAX_MASTERS || n * 2 > in.readableBytes()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "placement of " + n + " masters in "
                        + in.readableBytes() + " bytes");
            }
            List<String> names = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = in.readUnsignedByte();
                names.add(in.readCharSequence(len, StandardCharsets.US_ASCII).toString());
            }
            if (in.isReadable()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, in.readableBytes() + " bytes after the placement");
            }
            return new Placement(names, vnodes, self);
        } catch (IndexOutOfBoundsException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "placement truncated");
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, e.getMessage());
        }
    }
}

package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A whole store as one stream, for a replicated group's snapshots (a replica that restarts or falls behind loads the
 * latest one, then the log after it). Taken on the thread that applies the log, so it is the state at one log index;
 * reads that run meanwhile only move access times. PROTOCOL.md 5.3 gives the format:
 *
 * <pre>
 * "SMSN"  u8 format (1)
 * u32 schemas, each: i64 uid, u32 length, bytes
 * per session: u8 1, u8 id length, id, i64 created, i64 idle timeout, i64 hard deadline, i64 last access,
 *              u32 length, the sections as a READ answer's body (PROTOCOL.md 2)
 * u8 0
 * </pre>
 */
public final class StoreSnapshot {
    private static final int MAGIC = 0x534D534E;
    private static final int FORMAT = 1;

    private StoreSnapshot() {
    }

    /** Writes every live session and schema of {@code store}; returns the sessions written. */
    public static int write(SessionStore store, DataOutputStream out, BinaryTransportCodec codec) throws IOException {
        out.writeInt(MAGIC);
        out.writeByte(FORMAT);
        int[] schemas = {0};
        store.schemas().forEach((uid, bytes) -> schemas[0]++);
        out.writeInt(schemas[0]);
        IOException[] failed = {null};
        store.schemas().forEach((uid, bytes) -> {
            try {
                out.writeLong(uid);
                out.writeInt(bytes.length);
                out.write(bytes);
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        int written = 0;
        for (Session session : store.sessionsForSnapshot()) {
            EncodedSection[] sections;
            long lastAccess;
            synchronized (session) {
                if (session.removed) {
                    continue;
                }
                sections = session.sections;
                lastAccess = session.lastAccess;
            }
            byte[] id = session.id.getBytes(StandardCharsets.UTF_8);
            byte[] body = codec.encodeReadResult(new EncodedReadResult(session.id, Arrays.asList(sections)));
            out.writeByte(1);
            out.writeByte(id.length);
            out.write(id);
            out.writeLong(session.createdAt);
            out.writeLong(session.idleTimeout);
            out.writeLong(session.hardDeadline);
            out.writeLong(lastAccess);
            out.writeInt(body.length);
            out.write(body);
            written++;
        }
        out.writeByte(0);
        return written;
    }

    /** Replaces everything in {@code store} by the snapshot; returns the sessions read. */
    public static int read(SessionStore store, DataInputStream in, BinaryTransportCodec codec) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a SessionMesh store snapshot");
        }
        int format = in.readUnsignedByte();
        if (format != FORMAT) {
            throw new IOException("snapshot format " + format + ": this master reads format " + FORMAT);
        }
        store.clearForSnapshot();
        int schemas = in.readInt();
        for (int i = 0; i < schemas; i++) {
            long uid = in.readLong();
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            store.schemas().publish(uid, bytes);
        }
        int read = 0;
        while (in.readUnsignedByte() == 1) {
            byte[] id = new byte[in.readUnsignedByte()];
            in.readFully(id);
            long created = in.readLong();
            long idleTimeout = in.readLong();
            long hardDeadline = in.readLong();
            long lastAccess = in.readLong();
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            List<EncodedSection> sections = codec.decodeEncodedReadResult(body, 0, body.length).sections();
            store.restore(new String(id, StandardCharsets.UTF_8), created, idleTimeout, hardDeadline, lastAccess,
                    sections.toArray(EncodedSection[]::new));
            read++;
        }
        return read;
    }
}

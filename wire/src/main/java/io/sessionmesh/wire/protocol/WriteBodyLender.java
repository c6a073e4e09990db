package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * One reusable array per thread into which a master decodes WRITE bodies, instead of a fresh array per WRITE.
 *
 * <p>Why: a decoded write keeps its body as its wire form ({@link io.sessionmesh.wire.transport.EncodedWrite}), and
 * the store copies each value from it into the section's next version; the body itself is garbage as soon as the
 * write is answered. A fresh array per WRITE is a kilobyte or more of newly touched heap for every write (the
 * benchmark's write allocates more for its body than for the section it makes), and on the machines we measured a
 * copy into fresh heap costs twice one into an array already in the cache (benchmarks/RESULTS.md, 12.16).
 *
 * <p>The rule: a request from {@link #decode} may be used only until {@link #giveBack}, on the same thread, and
 * nothing may keep it past that (the data handler applies it to the store, which copies what it keeps, and answers
 * within one call). After {@link #giveBack} its wire form is revoked: a read of it throws rather than reading the next
 * WRITE's bytes. A replicated master, whose writes wait for their log entry, does not lend. The array is lent to one
 * request at a time; a WRITE decoded while it is out (a re-entrant read) and a body over {@link #MAX_LENT_BYTES}
 * get an array of their own, as before. Memory: at most {@link #MAX_LENT_BYTES} per thread that decodes.
 */
public final class WriteBodyLender {
    /** The largest body lent; a larger one is decoded into an array of its own (its copy is then the lesser cost). */
    public static final int MAX_LENT_BYTES = 64 * 1024;
    /** The array's first size; it grows to the largest body lent, up to {@link #MAX_LENT_BYTES}. */
    static final int INITIAL_BYTES = 4 * 1024;

    private static final FastThreadLocal<WriteBodyLender> PER_THREAD = new FastThreadLocal<>() {
        @Override
        protected WriteBodyLender initialValue() {
            return new WriteBodyLender();
        }
    };

    private byte[] array = new byte[INITIAL_BYTES];
    /** The request the array is lent to, or null when it is free. */
    private WriteRequest out;
    private long lent;

    /** Use {@link #current()}; tests make their own. */
    WriteBodyLender() {
    }

    /** The calling thread's lender (an event loop's, in a master). */
    public static WriteBodyLender current() {
        return PER_THREAD.get();
    }

    /**
     * The WRITE in {@code frame} (opcode {@link Opcodes#WRITE}), decoded from this lender's array; null when the array
     * is out or the body is over {@link #MAX_LENT_BYTES} (decode it with {@link MasterRequest#decode} then). The frame
     * stays the caller's to release.
     *
     * @throws io.sessionmesh.wire.transport.MalformedMessageException as {@link MasterRequest#decode} (the array is
     *     free again)
     */
    public MasterRequest.Write decode(Frame frame, BinaryTransportCodec codec) {
        if (frame.opcode() != Opcodes.WRITE) {
            throw new IllegalArgumentException(Opcodes.name(frame.opcode()) + " frame: only a WRITE's body is lent");
        }
        ByteBuf body = frame.body();
        int n = body.readableBytes();
        if (out != null || n > MAX_LENT_BYTES) {
            return null;
        }
        if (array.length < n) {
            array = new byte[Math.min(MAX_LENT_BYTES, Math.max(n, array.length * 2))];
        }
        body.getBytes(body.readerIndex(), array, 0, n);
        WriteRequest request = codec.decodeLent(array, n, WriteRequest.class); // a malformed body leaves the array free
        out = request;
        lent++;
        return new MasterRequest.Write(request, (frame.flags() & FrameHeader.FLAG_WHOLE_SECTIONS) != 0);
    }

    /** Takes the array back from {@code write} (a request of {@link #decode}): its wire form is unreadable from now. */
    public void giveBack(MasterRequest.Write write) {
        if (write.message() != out) {
            throw new IllegalStateException("this lender's array is not out to " + write.message());
        }
        out.revokeLent();
        out = null;
    }

    /** WRITEs decoded from this lender's array so far. */
    public long lent() {
        return lent;
    }

    /** The array's size now: at most {@link #MAX_LENT_BYTES}. */
    int arrayBytes() {
        return array.length;
    }
}

package io.sessionmesh.master.server;

import io.sessionmesh.wire.protocol.FrameHeader;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** A blocking socket that speaks frames byte by byte, for tests that need full control of what is sent. */
final class RawClient implements AutoCloseable {
    final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    static byte[] frame(int opcode, int requestId, byte[] body) {
        return ByteBuffer.allocate(FrameHeader.BYTES + body.length).putInt(FrameHeader.MAGIC).put((byte) 1)
                .put((byte) opcode).put((byte) 0).put((byte) 0).putInt(requestId).putInt(body.length).put(body).array();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void send(int opcode, int requestId, byte[] body) throws IOException {
        send(frame(opcode, requestId, body));
    }

    /** One answer. */
    record Answer(int opcode, int flags, int status, int requestId, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    Answer read() throws IOException {
        if (in.readInt() != FrameHeader.MAGIC) {
            throw new IOException("bad magic from the master");
        }
        in.readByte();
        int opcode = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int status = in.readUnsignedByte();
        int id = in.readInt();
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        return new Answer(opcode, flags, status, id, body);
    }

    /** Whether the master closed the connection within the socket timeout (reads until EOF). */
    boolean closedByPeer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain whatever the master still sent
            }
            return true;
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

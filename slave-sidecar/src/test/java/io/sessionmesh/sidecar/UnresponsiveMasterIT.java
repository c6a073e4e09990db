package io.sessionmesh.sidecar;

import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.Test;

import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.Opcodes;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master that accepts connections, lets the sidecar register, and then never answers (hung): the sidecar answers
 * 504 within its timeout.
 */
class UnresponsiveMasterIT {
    /** Reads frames; answers REGISTER (lease 2 s, slot 0) and nothing else. */
    static void answerOnlyRegister(Socket s) {
        try {
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            while (true) {
                byte[] header = new byte[16];
                in.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header);
                int opcode = header[5];
                int id = h.getInt(8);
                in.readFully(new byte[h.getInt(12)]);
                if (opcode == Opcodes.REGISTER) {
                    ByteBuffer answer = ByteBuffer.allocate(16 + 5);
                    answer.putInt(FrameHeader.MAGIC).put((byte) 1).put((byte) Opcodes.REGISTER)
                            .put((byte) FrameHeader.FLAG_RESPONSE).put((byte) 0).putInt(id).putInt(5).putInt(2000).put((byte) 0);
                    out.write(answer.array());
                    out.flush();
                }
            }
        } catch (java.io.IOException e) {
            // closed
        }
    }

    @Test
    void hungMaster_is504_withinTheMasterTimeout() throws Exception {
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket blackHole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = blackHole.accept();
                        accepted.add(s);
                        Thread drain = new Thread(() -> answerOnlyRegister(s));
                        drain.setDaemon(true);
                        drain.start();
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + blackHole.getLocalPort(),
                    "port", "0", "admin-port", "0", "master-timeout", "300ms", "heartbeat-interval", "10m", "vnodes", "16")))) {
                TestHttp.awaitHealthy(sidecar);
                HttpClient http = HttpClient.newHttpClient();
                long start = System.nanoTime();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + sidecar.address().getPort() + "/v1/sessions/abc?sections=a")).build(), HttpResponse.BodyHandlers.ofString());
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertEquals(504, r.statusCode(), r.body());
                assertTrue(r.body().startsWith("{\"error\":\"TIMEOUT\""), r.body());
                assertTrue(ms >= 250 && ms < 3000, "answered after " + ms + " ms");
            }
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}

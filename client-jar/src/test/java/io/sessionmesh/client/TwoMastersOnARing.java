package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.placement.HashRing;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * Two master processes on a hash ring and a sidecar in front of both (processes on loopback), up once the sidecar has
 * reached both masters: for the client's ITs of what depends on where an id lives (ids an application chooses,
 * renames, a principal's sessions on every master).
 */
final class TwoMastersOnARing implements AutoCloseable {
    /** Virtual nodes a master on the ring, the sidecar's and this copy's alike. */
    static final int VNODES = 256;

    final ServerProcess[] masters = new ServerProcess[2];
    final ServerProcess sidecar;
    final URI sidecarUri;
    /** The sidecar's ring, built alike (PROTOCOL.md 3.5): which master an id belongs to. */
    final HashRing<Integer> ring;

    TwoMastersOnARing() throws Exception {
        Path jar = ServerProcess.jar("master.jar", "../master-store/target/sessionmesh-master.jar");
        for (int i = 0; i < masters.length; i++) {
            masters[i] = ServerProcess.start(ServerProcess.command(jar, "--port", "0"));
        }
        List<String> names = List.of("127.0.0.1:" + masters[0].port(), "127.0.0.1:" + masters[1].port());
        ring = new HashRing<>(List.of(0, 1), names, VNODES);
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", String.join(",", names), "--port", "0",
                "--admin-port", "0", "--vnodes", Integer.toString(VNODES)));
        sidecarUri = URI.create("http://127.0.0.1:" + sidecar.port());
        sidecar.awaitMastersUp(masters.length);
    }

    SessionMeshClient client(TransportForm form) {
        return SessionMeshClient.builder().sidecar(sidecarUri).transport(form)
                .admin(URI.create("http://127.0.0.1:" + sidecar.port("admin")))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.client")).build();
    }

    @Override
    public void close() throws Exception {
        sidecar.close();
        for (ServerProcess m : masters) {
            m.close();
        }
    }
}

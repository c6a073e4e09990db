package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The REST API's Unix domain socket is never reachable with looser permissions than 0660: it appears at its path
 * already 0660 (bound in a private directory and moved into place), never created with the umask's mode and
 * chmod-ed afterwards, when any local user could connect in between. Watched with inotify (WatchService): a chmod of
 * the file at its path is an ENTRY_MODIFY after its ENTRY_CREATE.
 */
class SidecarUnixSocketIT {
    @TempDir
    Path dir;

    @Test
    void unixSocket_appearsAtItsPathAlready0660_neverChmodedThere() throws Exception {
        Path socket = dir.resolve("sidecar.sock");
        List<String> events = new ArrayList<>();
        try (WatchService watch = FileSystems.getDefault().newWatchService();
             MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")))) {
            dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            try (SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:"
                    + master.address().getPort(), "port", "0", "admin-port", "0", "vnodes", "16",
                    "unix-socket", socket.toString())))) {
                assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
                assertTrue(Files.readAttributes(socket, java.nio.file.attribute.BasicFileAttributes.class).isOther(), "a socket file");
                for (WatchKey key; (key = watch.poll(500, TimeUnit.MILLISECONDS)) != null; key.reset()) {
                    for (WatchEvent<?> e : key.pollEvents()) {
                        events.add(e.kind().name() + " " + e.context());
                    }
                }
                try (java.nio.channels.SocketChannel c = java.nio.channels.SocketChannel.open(
                        java.net.UnixDomainSocketAddress.of(socket))) {
                    assertTrue(c.isConnected(), "the socket answers at its path");
                }
            }
        }
        List<String> ofSocket = events.stream().filter(e -> e.endsWith(" sidecar.sock")).toList();
        assertTrue(ofSocket.contains("ENTRY_CREATE sidecar.sock"), "the socket appeared: " + events);
        assertTrue(!ofSocket.contains("ENTRY_MODIFY sidecar.sock"), "the socket was chmod-ed at its path after bind, "
                + "reachable with the umask's mode until then: " + events);
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "nothing left behind once stopped");
        }
    }
}

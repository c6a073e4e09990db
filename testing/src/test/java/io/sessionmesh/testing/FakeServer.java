package io.sessionmesh.testing;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A stand-in server for {@link ServerProcessTest}, run from a jar the test writes: prints its arguments and the
 * {@code fake.greeting} system property, listens on a free loopback port and says so the two ways a real server does
 * (a ready file after {@code --ready-file}, as SessionMesh's servers; the file the {@code portfile} system property
 * names, as Spring Boot's port file writer), then waits to be stopped. With {@code --fail} it exits at once, status 3.
 * JDK only, so that the jar needs nothing else.
 */
public final class FakeServer {
    private FakeServer() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("fake server: args " + List.of(args) + ", greeting " + System.getProperty("fake.greeting"));
        if (List.of(args).contains("--fail")) {
            System.out.println("failing on purpose");
            System.exit(3);
        }
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = socket.getLocalPort();
            int ready = List.of(args).indexOf("--ready-file");
            if (ready >= 0) {
                write(Path.of(args[ready + 1]), "pid=" + ProcessHandle.current().pid() + "\napi=127.0.0.1:" + port + "\n");
            }
            String portFile = System.getProperty("portfile");
            if (portFile != null) {
                write(Path.of(portFile), String.valueOf(port));
            }
            System.out.println("fake server: listening on " + port);
            while (true) {
                socket.accept().close();
            }
        }
    }

    private static void write(Path file, String text) throws Exception {
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "fake", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }
}

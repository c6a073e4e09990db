package io.sessionmesh.testing;

import java.io.IOException;
import java.net.Socket;

/** What the tests' proxies share about sockets. */
public final class Sockets {
    private Sockets() {
    }

    /** Closes {@code s} with an RST (linger 0), as a broken network or a dead host would; never throws. */
    public static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}

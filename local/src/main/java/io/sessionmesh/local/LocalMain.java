package io.sessionmesh.local;

import io.sessionmesh.sidecar.SidecarMain;

import java.util.Arrays;

/**
 * {@code java -jar sessionmesh-local.jar [sidecar flags]}: local development mode, a sidecar with a master inside it,
 * in one process. The sidecar's flags and defaults, except that {@code --masters} defaults to {@code embedded}
 * (name masters to run this jar as a plain sidecar).
 */
public final class LocalMain {
    private LocalMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean mastersGiven = Arrays.stream(args).anyMatch(a -> a.equals("--masters") || a.startsWith("--masters="));
        if (mastersGiven) {
            SidecarMain.main(args);
            return;
        }
        String[] withEmbedded = new String[args.length + 2];
        withEmbedded[0] = "--masters";
        withEmbedded[1] = "embedded";
        System.arraycopy(args, 0, withEmbedded, 2, args.length);
        SidecarMain.main(withEmbedded);
    }
}

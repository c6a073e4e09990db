package io.sessionmesh.local;

import io.sessionmesh.settings.Setting;
import io.sessionmesh.settings.SettingList;
import io.sessionmesh.sidecar.SidecarMain;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.config.SidecarSettings;

import java.util.Arrays;

/**
 * {@code java -jar sessionmesh-local.jar [sidecar flags]}: local development mode, a sidecar with a master inside it,
 * in one process. The sidecar's settings and defaults but those in {@link #DIFFERENCES}: {@code --masters} defaults to
 * {@code embedded} (name masters to run this jar as a plain sidecar).
 */
public final class LocalMain {
    /** Local mode's {@code masters}: a master inside this process unless masters are named. */
    public static final Setting<String> MASTERS = SidecarSettings.MASTERS
            .withDefault(SidecarConfig.EMBEDDED_MASTER, SidecarConfig.EMBEDDED_MASTER)
            .means("`" + SidecarConfig.EMBEDDED_MASTER + "` by default here: a master inside this process ("
                    + LocalMaster.describeSettings() + ", every other setting the master's default), reached over real "
                    + "TCP; its sessions live as long as the process. Name masters to run this jar as a plain sidecar.");
    /** The settings whose defaults local mode changes; every other is the sidecar's. */
    public static final SettingList DIFFERENCES = SettingList.of(MASTERS);
    /** What local mode reads, and its {@code --help} lists. */
    public static final SettingList SETTINGS = SidecarSettings.ALL.with(MASTERS);

    private LocalMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String flag = "--" + MASTERS.name();
        boolean mastersGiven = Arrays.stream(args).anyMatch(a -> a.equals(flag) || a.startsWith(flag + "="));
        if (mastersGiven) {
            SidecarMain.run("sessionmesh-local", SETTINGS, args);
            return;
        }
        String[] withEmbedded = new String[args.length + 2];
        withEmbedded[0] = flag;
        withEmbedded[1] = MASTERS.defaultValue();
        System.arraycopy(args, 0, withEmbedded, 2, args.length);
        SidecarMain.run("sessionmesh-local", SETTINGS, withEmbedded);
    }
}

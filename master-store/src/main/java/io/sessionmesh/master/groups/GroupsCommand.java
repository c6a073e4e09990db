package io.sessionmesh.master.groups;

import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operator's command for elastic master groups (docs/operations.md, "Adding and removing master groups"):
 *
 * <pre>
 * java -jar sessionmesh-master.jar groups --directory 'h:7400|h:7401|h:7402' list
 * java -jar sessionmesh-master.jar groups --directory ... add 'h:7410|h:7411|h:7412'
 * java -jar sessionmesh-master.jar groups --directory ... remove h:7410
 * java -jar sessionmesh-master.jar groups --directory ... first 'h:7400|h:7401|h:7402,h:7410|h:7411|h:7412' [--vnodes N]
 * </pre>
 *
 * {@code first} sets the first map of a new cluster (its first group is the directory): with TLS only an operator's
 * certificate may (SECURITY.md, "Roles"); without TLS the first sidecar that finds no map sends its {@code --masters}.
 * {@code --vnodes} must then be the sidecars' {@code vnodes} (default {@link #DEFAULT_VNODES}).
 *
 * {@code --directory} names the replicas of the directory group (the first group of the map); the command finds its
 * leader. {@code add} and {@code remove} commit the change, then wait (at most {@code --wait}, 10m by default) until
 * the directory reports the move done, printing progress. Exit status: 0 done, 1 refused or not done in time (the
 * message says which), 2 a usage error.
 */
public final class GroupsCommand {
    /** How often the command asks the directory whether the move is done. */
    static final long POLL_MILLIS = 500;
    /** Virtual nodes per group of a first map: the sidecars' default. */
    public static final int DEFAULT_VNODES = io.sessionmesh.wire.placement.Placement.MAX_VNODES;

    private GroupsCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns its exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String directory = null;
        Duration wait = Duration.ofMinutes(10);
        int vnodes = DEFAULT_VNODES;
        java.nio.file.Path cert = null;
        java.nio.file.Path key = null;
        java.nio.file.Path trust = null;
        List<String> rest = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--directory") && i + 1 < args.length) {
                directory = args[++i];
            } else if (args[i].equals("--tls-cert") && i + 1 < args.length) {
                cert = java.nio.file.Path.of(args[++i]);
            } else if (args[i].equals("--tls-key") && i + 1 < args.length) {
                key = java.nio.file.Path.of(args[++i]);
            } else if (args[i].equals("--tls-trust") && i + 1 < args.length) {
                trust = java.nio.file.Path.of(args[++i]);
            } else if (args[i].equals("--vnodes") && i + 1 < args.length) {
                try {
                    vnodes = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    err.println("--vnodes " + args[i] + ": a number");
                    return 2;
                }
            } else if (args[i].equals("--wait") && i + 1 < args.length) {
                wait = io.sessionmesh.settings.Units.parseDuration(args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        boolean list = rest.size() == 1 && rest.get(0).equals("list");
        boolean change = rest.size() == 2 && (rest.get(0).equals("add") || rest.get(0).equals("remove"));
        boolean first = rest.size() == 2 && rest.get(0).equals("first");
        if (directory == null || !(list || change || first)) {
            err.println("usage: java -jar sessionmesh-master.jar groups --directory 'host:port|host:port|...' [--wait 10m] "
                    + "[--tls-cert chain.pem --tls-key key.pem --tls-trust ca.pem] "
                    + "(list | add 'host:port|host:port|...' | remove host:port | first 'h:p|h:p,h:p|h:p' [--vnodes N])");
            return 2;
        }
        io.netty.handler.ssl.SslContext tls;
        try {
            io.sessionmesh.wire.tls.TlsFiles files = io.sessionmesh.wire.tls.TlsFiles.ofOptional(
                    "--tls-cert, --tls-key, --tls-trust", cert, key, trust);
            tls = files == null ? null : files.clientContext();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
        List<List<String>> seeds = GroupMap.parseGroups(directory);
        if (seeds.size() != 1) {
            err.println("--directory names one group, its replicas separated by |: " + directory);
            return 2;
        }
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("groups-command", true),
                NioIoHandler.newFactory());
        try (GroupLink link = new GroupLink(seeds.get(0), loop, MasterConnectionOptions.builder()
                .requestTimeout(Duration.ofMillis(GroupOps.CALL_TIMEOUT_MILLIS)).tls(tls).build())) {
            if (list) {
                byte[] map = link.call(Opcodes.GROUP_MAP, new byte[0], GroupOps.CALL_TIMEOUT_MILLIS);
                out.println(map.length == 0 ? "no map yet (no sidecar has connected)" : describe(GroupMap.decode(map)));
                return 0;
            }
            if (first) {
                GroupMap map;
                try {
                    map = GroupMap.first(GroupMap.parseGroups(rest.get(1)), vnodes);
                } catch (IllegalArgumentException e) {
                    err.println("first " + rest.get(1) + ": " + e.getMessage());
                    return 2;
                }
                byte[] m = map.encode();
                byte[] body = new byte[1 + m.length];
                body[0] = GroupOps.CHANGE_FIRST;
                System.arraycopy(m, 0, body, 1, m.length);
                GroupMap now = GroupMap.decode(link.call(Opcodes.GROUP_CHANGE, body, GroupOps.CALL_TIMEOUT_MILLIS));
                out.println((now.epoch() == 1 && now.groups().equals(map.groups()) ? "first map: " : "a map exists already, "
                        + "left as it is: ") + describe(now));
                return 0;
            }
            int kind = rest.get(0).equals("add") ? GroupOps.CHANGE_ADD : GroupOps.CHANGE_REMOVE;
            byte[] arg = rest.get(1).getBytes(StandardCharsets.US_ASCII);
            byte[] body = new byte[1 + arg.length];
            body[0] = (byte) kind;
            System.arraycopy(arg, 0, body, 1, arg.length);
            GroupMap moving = GroupMap.decode(link.call(Opcodes.GROUP_CHANGE, body, GroupOps.CALL_TIMEOUT_MILLIS));
            out.println("committed " + moving);
            long started = System.nanoTime();
            long deadline = started + wait.toNanos();
            while (System.nanoTime() - deadline < 0) {
                GroupMap now = GroupMap.decode(link.call(Opcodes.GROUP_MAP, new byte[0], GroupOps.CALL_TIMEOUT_MILLIS));
                if (now.epoch() > moving.epoch() && !now.moving()) {
                    out.printf("done in %d ms: %s%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), describe(now));
                    return 0;
                }
                Thread.sleep(POLL_MILLIS);
            }
            err.println("the move was not done in " + wait + "; it goes on: see `groups list`");
            return 1;
        } catch (StoreException e) {
            err.println("refused: " + Status.name(e.status()) + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static String describe(GroupMap map) {
        StringBuilder b = new StringBuilder(map.toString());
        for (List<String> g : map.groups()) {
            b.append("\n  group ").append(g.get(0)).append(": ").append(String.join(" ", g));
        }
        return b.toString();
    }
}

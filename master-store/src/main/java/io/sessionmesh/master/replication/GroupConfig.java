package io.sessionmesh.master.replication;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A master group as its replicas are started: the group's name, every replica's id and addresses, which one this
 * process is, where its Raft log lives, and the settings of the consensus layer.
 *
 * @param replicas every replica of the group, this one included (1, 3 or 5)
 * @param self this process's replica
 * @param dir this replica's Ratis storage (log segments, snapshots, its vote); must survive a restart
 * @param syncLog whether the log is forced to disk before an entry counts toward a majority (true in production)
 * @param electionTimeoutMillis the shortest election timeout (the longest is twice that)
 * @param leaseMarginMillis what a new leader waits beyond one cache lease before its first write's acknowledgement
 * @param snapshotEveryEntries a snapshot after this many applied entries, so that a restart replays little
 * @param transport Ratis's transport between replicas: {@code netty} (the default: measured faster here, RESULTS.md 9 at 1f3fa7a)
 *     or {@code grpc} (streaming appends)
 */
public record GroupConfig(String name, List<Replica> replicas, Replica self, Path dir, boolean syncLog,
                          long electionTimeoutMillis, long leaseMarginMillis, long snapshotEveryEntries, String transport) {
    /** The transports Ratis offers here. */
    public static final List<String> TRANSPORTS = List.of("netty", "grpc");

    /** Most replicas in a group: consensus costs grow with them, and five survive two failures. */
    public static final int MAX_REPLICAS = 7;

    /** One replica: its id (letters, digits, '-', '_'), host, the port of the master protocol and Ratis's port. */
    public record Replica(String id, String host, int dataPort, int raftPort) {
        public Replica {
            if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
                throw new IllegalArgumentException("replica id \"" + id + "\": use 1 to 64 letters, digits, '-' or '_'");
            }
        }

        /** {@code id=host:dataPort/raftPort}. */
        static Replica parse(String spec) {
            int eq = spec.indexOf('=');
            int colon = spec.lastIndexOf(':');
            int slash = spec.lastIndexOf('/');
            if (eq <= 0 || colon < eq || slash < colon) {
                throw new IllegalArgumentException("replica \"" + spec + "\": expected id=host:port/raftPort");
            }
            return new Replica(spec.substring(0, eq), spec.substring(eq + 1, colon),
                    port(spec, spec.substring(colon + 1, slash)), port(spec, spec.substring(slash + 1)));
        }

        private static int port(String spec, String text) {
            try {
                int port = Integer.parseInt(text);
                if (port >= 1 && port <= 65535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // named below
            }
            throw new IllegalArgumentException("replica \"" + spec + "\": port \"" + text + "\" is not 1..65535");
        }
    }

    /** With the default transport. */
    public GroupConfig(String name, List<Replica> replicas, Replica self, Path dir, boolean syncLog,
                       long electionTimeoutMillis, long leaseMarginMillis, long snapshotEveryEntries) {
        this(name, replicas, self, dir, syncLog, electionTimeoutMillis, leaseMarginMillis, snapshotEveryEntries,
                TRANSPORTS.get(0));
    }

    public GroupConfig {
        if (!TRANSPORTS.contains(transport)) {
            throw new IllegalArgumentException("raft transport \"" + transport + "\": one of " + TRANSPORTS);
        }
        replicas = List.copyOf(replicas);
        if (replicas.isEmpty() || replicas.size() > MAX_REPLICAS) {
            throw new IllegalArgumentException(replicas.size() + " replicas: a group has 1 to " + MAX_REPLICAS);
        }
        Set<String> ids = new HashSet<>();
        for (Replica r : replicas) {
            if (!ids.add(r.id())) {
                throw new IllegalArgumentException("replica id " + r.id() + " appears twice");
            }
        }
        if (!replicas.contains(self)) {
            throw new IllegalArgumentException("replica " + self.id() + " is not one of the group's replicas");
        }
    }

    /**
     * Parses {@code --replicas} ({@code id=host:port/raftPort,...}) and picks this process's replica by id.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static List<Replica> parseReplicas(String spec) {
        List<Replica> replicas = new ArrayList<>();
        for (String part : spec.split(",")) {
            if (!part.isBlank()) {
                replicas.add(Replica.parse(part.trim()));
            }
        }
        return replicas;
    }

    /** The replica called {@code id}. */
    public static Replica find(List<Replica> replicas, String id) {
        for (Replica r : replicas) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        throw new IllegalArgumentException("--replica-id " + id + " is not among --replicas " + replicas.stream().map(Replica::id).toList());
    }
}

package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.Report;
import io.sessionmesh.benchmarks.driver.load.HttpLoad;
import io.sessionmesh.benchmarks.driver.load.SessionSet;
import io.sessionmesh.benchmarks.driver.stack.Flags;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.benchmarks.driver.stack.SystemSpec;
import io.sessionmesh.benchmarks.floor.LoopbackFloor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The stacks of one run of the flows or the mix plan, from the stack flags ({@link DriverOptions.Stacks}): each started
 * with its processes' JVM flags (a flight recording of each under {@code --jfr}, the {@code --agent}), its logs in
 * {@code out/<system>/}; all stopped together at the end, or by Ctrl-C (a shutdown hook), whatever became of the
 * others, and Redis emptied of the driver's keys when Spring Session ran.
 */
final class RunStacks implements AutoCloseable {
    /** Closed-loop users logging the sessions in. */
    static final int LOGIN_USERS = 8;
    /** Virtual nodes of each master on a sidecar's ring, unless {@code --sidecar-flags} say otherwise: few masters here. */
    static final int SIDECAR_VNODES = 256;
    /** The longest the logins of a stack may take. */
    static final long LOGIN_TIMEOUT_MINUTES = 30;

    private final DriverOptions.Stacks o;
    private final List<Stack> started = new CopyOnWriteArrayList<>();
    private final Thread hook = new Thread(this::stopAll, "stop-stacks");
    private volatile boolean redisUsed;

    RunStacks(DriverOptions.Stacks o) {
        this.o = o;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * A plan's report, begun: its options, the machine's facts (Redis's version when Spring Session is among the
     * {@code systems}) and (with {@code --floor}) the loopback floor measured now, each also printed.
     */
    static Report report(String title, Map<String, Object> options, DriverOptions.Stacks o, List<SystemSpec> systems) {
        Report report = Report.stamped(title);
        report.put("options", options);
        Map<String, Object> machine = Report.machine();
        if (!systems.stream().map(SystemSpec::system).allMatch(Stack::onSessionMesh)) {
            machine.put("redis", o.redis().info().getOrDefault("redis_version", "?"));
        }
        if (o.floor()) {
            Map<String, Object> floor = Report.floor(o.redis().address());
            machine.put("loopback_floor_us", floor);
            report.text("Loopback floor: " + (floor.containsKey("p50") ? LoopbackFloor.describe(floor) : floor));
        }
        report.put("machine", machine);
        System.out.println("machine: " + machine);
        System.out.println("options: " + options);
        return report;
    }

    /**
     * Starts the stack {@code spec} names, of {@code hosts} hosts, with these master and app flags (the user's among
     * them) and the stack's own flags over them.
     */
    Stack start(SystemSpec spec, int hosts, List<String> masterFlags, List<String> appFlags) throws Exception {
        String system = spec.system();
        System.out.println("starting " + spec.name() + (spec.name().equals(system) ? "" : " (" + system + " from "
                + spec.jars() + (spec.masterFlags().isEmpty() ? "" : ", masters " + spec.masterFlags())
                + (spec.sidecarFlags().isEmpty() ? "" : ", sidecars " + spec.sidecarFlags()) + ")")
                + (hosts > 1 ? " on " + hosts + " hosts" : "")
                + (o.replicas() > 1 && Stack.onSessionMesh(system) ? ", a master group of " + o.replicas() : ""));
        redisUsed |= !Stack.onSessionMesh(system);
        List<String> sidecarFlags = Flags.over(Flags.over(List.of("--vnodes", String.valueOf(SIDECAR_VNODES)),
                o.sidecarFlags()), spec.sidecarFlags());
        Stack stack = Stack.builder(system, spec.jars()).name(spec.name()).hosts(hosts).replicas(o.replicas())
                .jvm(name -> jvm(spec.name(), name)).masterFlags(Flags.over(masterFlags, spec.masterFlags()))
                .sidecarFlags(sidecarFlags).appFlags(appFlags).redis(o.redis())
                .logs(o.out().resolve(spec.name())).start();
        started.add(stack);
        System.out.println(spec.name() + " processes: " + stack.pidsByRole());
        return stack;
    }

    /**
     * Logs {@code sessions} sessions into the stack through its apps (a few closed-loop users); their ids.
     *
     * @throws IllegalStateException when a login failed
     */
    static SessionSet login(Stack stack, SessionSet sessions, int count) throws Exception {
        long t0 = System.nanoTime();
        try (HttpLoad load = new HttpLoad(stack.appAddresses())) {
            load.closedLoop(Math.min(LOGIN_USERS, count), sessions.fill()).get(LOGIN_TIMEOUT_MINUTES, TimeUnit.MINUTES);
            if (load.errorCount() > 0 || !sessions.full()) {
                throw new IllegalStateException(stack.name + ": logging the sessions in failed: " + load.firstError());
            }
        }
        System.out.printf("%s: logged in %,d sessions in %.1f s%n", stack.name, count, (System.nanoTime() - t0) / 1e9);
        return sessions;
    }

    /** A process's JVM flags by its name: its tier's, then a flight recording and the agent when asked for. */
    private List<String> jvm(String system, String name) {
        List<String> jvm = new ArrayList<>(name.startsWith("master") ? o.masterJvm()
                : name.startsWith("sidecar") ? o.sidecarJvm() : o.appJvm());
        if (o.jfr()) {
            jvm.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                    + o.out().resolve(system + "-" + name + ".jfr").toAbsolutePath());
        }
        if (o.agent() != null) {
            jvm.add("-agentpath:" + o.agent().toAbsolutePath());
        }
        return jvm;
    }

    private void stopAll() {
        for (Stack s : started) {
            try {
                s.close();
            } catch (RuntimeException e) {
                System.err.println("could not stop every process of " + s.name + ": " + e);
            }
        }
        started.clear();
        if (redisUsed) {
            try {
                long deleted = o.redis().deleteKeys();
                if (deleted > 0) {
                    System.out.println("deleted " + deleted + " keys of " + o.redis().namespace() + " in Redis database "
                            + o.redis().database());
                }
            } catch (RuntimeException e) {
                System.err.println("could not delete the driver's keys in Redis: " + e);
            }
        }
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C: the hook is stopping them already; stopping twice is harmless
        }
        stopAll();
    }
}

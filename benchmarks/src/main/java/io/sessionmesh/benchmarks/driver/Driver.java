package io.sessionmesh.benchmarks.driver;

import io.sessionmesh.benchmarks.driver.plan.DemoPlan;
import io.sessionmesh.benchmarks.driver.plan.FlowsPlan;
import io.sessionmesh.benchmarks.driver.plan.MixPlan;
import io.sessionmesh.benchmarks.driver.scale.ScalePlan;
import io.sessionmesh.settings.Settings;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The benchmarks' one end-to-end driver: {@code java -jar benchmarks/target/sessionmesh-driver.jar <plan> [flags]}
 * ({@code benchmarks/run-driver.sh} builds the jars and runs it; {@code ./demo.sh} runs the demo plan). Every plan
 * starts the stacks it measures as processes ({@code driver.stack}), loads them over HTTP with one engine
 * ({@code driver.load}; the scale plan over the master's protocol), measures them from outside
 * ({@code driver.measure}) and writes one kind of report ({@link Report}). The plans and their flags:
 * {@link DriverOptions}. {@code --help} lists them; a bad flag exits with status 2, a failed run with 1.
 */
public final class Driver {
    /** Each plan: what it does, in one line. */
    static final Map<String, String> PLANS = new LinkedHashMap<>();

    static {
        PLANS.put("flows", "CPU per request by process, HTTP flow by flow (floor, floor-session, read, write), the "
                + "systems in turn, rounds");
        PLANS.put("mix", "the standard workload over HTTP (Zipf 0.99, 4 reads : 1 write, logins at the workload's rate), "
                + "closed or open loop, on N hosts");
        PLANS.put("demo", "the mix on one host, SessionMesh only, with a summary; the stack keeps running (./demo.sh)");
        PLANS.put("scale", "the reference-scale run: one master at 1,833 new sessions a second, heap and RSS per "
                + "session, GC pauses");
    }

    private Driver() {
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"); // Lettuce's and Netty's INFO lines
        }
        String plan = args.length == 0 ? "--help" : args[0];
        String[] flags = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (plan) {
            case "flows" -> FlowsPlan.run(read("flows", flags, DriverOptions.Flows::read));
            case "mix" -> {
                System.exit(MixPlan.failed(MixPlan.run(read("mix", flags, DriverOptions.Mix::read))) ? 1 : 0);
            }
            case "scale" -> ScalePlan.run(read("scale", flags, DriverOptions.Scale::read));
            case "demo" -> {
                if (flags.length >= 1 && flags[0].equals("stop")) {
                    DemoPlan.stop(Settings.read("demo", Arrays.copyOfRange(flags, 1, flags.length), DriverOptions.Demo.usage(),
                            DriverOptions.Demo::read), System.out);
                    return;
                }
                DriverOptions.Demo o = Settings.read("demo", flags, DriverOptions.Demo.usage(), DriverOptions.Demo::read);
                int status = DemoPlan.run(o, System.out);
                System.out.flush();
                System.exit(status);
            }
            case "--help", "-h", "help" -> System.out.print(usage());
            default -> {
                System.err.println("sessionmesh-driver: no plan " + plan + "; the plans: " + String.join(", ", PLANS.keySet()));
                System.exit(2);
            }
        }
    }

    /** A plan's flags, or the exit: its usage after --help (status 0), the message after a bad flag (status 2). */
    private static <T> T read(String plan, String[] flags, Function<Settings, T> reader) {
        return Settings.read(plan, flags, usage(plan, reader), reader);
    }

    /** Every plan, and its flags with their defaults and ranges. */
    static String usage() {
        StringBuilder b = new StringBuilder("usage: java -jar benchmarks/target/sessionmesh-driver.jar <plan> [flags]"
                + "   (or benchmarks/run-driver.sh <plan> [flags], which builds first)\n");
        b.append("plans (<plan> --help: its flags; their meaning: DriverOptions's Javadoc):\n");
        PLANS.forEach((plan, what) -> b.append(String.format("  %-6s %s%n", plan, what)));
        for (Map.Entry<String, Function<Settings, ?>> e : readers().entrySet()) {
            b.append('\n').append(usage(e.getKey(), e.getValue()));
        }
        return b.toString();
    }

    private static Map<String, Function<Settings, ?>> readers() {
        Map<String, Function<Settings, ?>> m = new LinkedHashMap<>();
        m.put("flows", DriverOptions.Flows::read);
        m.put("mix", DriverOptions.Mix::read);
        m.put("scale", DriverOptions.Scale::read);
        m.put("demo", DriverOptions.Demo::read);
        return m;
    }

    /** A plan's flags as its reader declares them (name, default, what it accepts); the demo's own text. */
    static String usage(String plan, Function<Settings, ?> reader) {
        if (plan.equals("demo")) {
            return DriverOptions.Demo.usage();
        }
        Settings defaults = Settings.fromArgs();
        reader.apply(defaults);
        return "java -jar benchmarks/target/sessionmesh-driver.jar " + plan + " [flags]: " + PLANS.get(plan) + "\n"
                + defaults.usage().replaceAll("(?m)^  (?=\\S)", "  --");
    }

    /** The plans, for tests. */
    static List<String> plans() {
        return List.copyOf(PLANS.keySet());
    }
}

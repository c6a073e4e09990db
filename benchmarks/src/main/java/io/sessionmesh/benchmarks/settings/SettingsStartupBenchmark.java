package io.sessionmesh.benchmarks.settings;

import io.sessionmesh.settings.Settings;
import io.sessionmesh.settings.Units;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What reading a server's settings costs a process that has just started: the first parse in a fresh JVM (class
 * loading and, for picocli, its reflection over the annotated fields), which is what a server, the demo or a load
 * generator pays once at start. The same 22 flags of the master, with units, through the project's {@link Settings}
 * and through picocli (4.7, annotations read at run time, converters for durations and sizes). Every fork is a new
 * JVM and measures one call (single shot): the figure is the mean of the forks.
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar SettingsStartupBenchmark -f 30</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(30)
public class SettingsStartupBenchmark {
    /** The master's flags as an operator writes them: most settings left at their defaults, a few given. */
    static final String[] ARGS = {"--bind", "0.0.0.0", "--port=7400", "--io-threads", "1", "--idle-timeout", "10m",
        "--max-frame", "16m", "--lease", "2s", "--max-sessions", "1_000_000"};

    @Benchmark
    public Object settings() {
        Settings s = Settings.fromArgs(ARGS);
        Object[] values = {
            s.string("bind", "127.0.0.1"), s.port("port", 7400), s.integer("io-threads", 2, 1, 256),
            s.integer("max-connections", 4096, 1, 1_000_000), s.integer("max-in-flight", 1024, 1, 1 << 20),
            s.size("max-frame", 32 << 20, 1024, 1 << 30), s.size("max-outbound", 64L << 20, 64 << 10, 1L << 40),
            s.duration("connection-idle-timeout", Duration.ofMinutes(2), Duration.ofMillis(100), Duration.ofDays(1)),
            s.duration("shutdown-grace", Duration.ofSeconds(10), Duration.ZERO, Duration.ofMinutes(10)),
            s.duration("lease", Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofMinutes(1)),
            s.duration("idle-timeout", Duration.ofMinutes(5), Duration.ofMillis(1), Duration.ofDays(365)),
            s.duration("max-idle-timeout", Duration.ofHours(24), Duration.ofMillis(1), Duration.ofDays(365)),
            s.duration("max-lifetime", Duration.ofHours(12), Duration.ofMillis(1), Duration.ofDays(3650)),
            s.size("max-attribute", 1 << 20, 1, 1 << 30), s.integer("max-attributes-per-section", 1000, 1, 100_000),
            s.size("max-section", 4 << 20, 1, 1 << 30), s.integer("max-sections", 256, 1, 4096),
            s.size("max-session", 16 << 20, 1, 1 << 30), s.integer("max-sessions", 4_000_000, 1, Integer.MAX_VALUE),
            s.size("max-store", 1L << 30, 1, Long.MAX_VALUE), s.integer("max-schemas", 100_000, 1, Integer.MAX_VALUE),
            s.size("max-schema", 64 << 10, 1, 16 << 20),
        };
        s.checkAllUsed();
        return new Object[] {values, s.describe()};
    }

    @Benchmark
    public Object picocli() {
        PicocliMasterFlags flags = new PicocliMasterFlags();
        CommandLine cl = new CommandLine(flags)
                .registerConverter(Duration.class, Units::parseDuration)
                .registerConverter(Size.class, text -> new Size(Units.parseSize(text)));
        cl.parseArgs(ARGS);
        flags.check();
        return new Object[] {flags, cl.getCommandSpec().options().size()};
    }

    /** A size in bytes, so that picocli picks the unit converter. */
    record Size(long bytes) {
    }

    /** The master's flags, picocli style; ranges checked after parsing, as picocli has no range annotation. */
    @CommandLine.Command(name = "sessionmesh-master", mixinStandardHelpOptions = true)
    static final class PicocliMasterFlags {
        @Option(names = "--bind") String bind = "127.0.0.1";
        @Option(names = "--port") int port = 7400;
        @Option(names = "--io-threads") int ioThreads = 2;
        @Option(names = "--max-connections") int maxConnections = 4096;
        @Option(names = "--max-in-flight") int maxInFlight = 1024;
        @Option(names = "--max-frame") Size maxFrame = new Size(32 << 20);
        @Option(names = "--max-outbound") Size maxOutbound = new Size(64L << 20);
        @Option(names = "--connection-idle-timeout") Duration connectionIdleTimeout = Duration.ofMinutes(2);
        @Option(names = "--shutdown-grace") Duration shutdownGrace = Duration.ofSeconds(10);
        @Option(names = "--lease") Duration lease = Duration.ofSeconds(2);
        @Option(names = "--idle-timeout") Duration idleTimeout = Duration.ofMinutes(5);
        @Option(names = "--max-idle-timeout") Duration maxIdleTimeout = Duration.ofHours(24);
        @Option(names = "--max-lifetime") Duration maxLifetime = Duration.ofHours(12);
        @Option(names = "--max-attribute") Size maxAttribute = new Size(1 << 20);
        @Option(names = "--max-attributes-per-section") int maxAttributesPerSection = 1000;
        @Option(names = "--max-section") Size maxSection = new Size(4 << 20);
        @Option(names = "--max-sections") int maxSections = 256;
        @Option(names = "--max-session") Size maxSession = new Size(16 << 20);
        @Option(names = "--max-sessions", converter = UnderscoreInt.class) int maxSessions = 4_000_000;
        @Option(names = "--max-store") Size maxStore = new Size(1L << 30);
        @Option(names = "--max-schemas") int maxSchemas = 100_000;
        @Option(names = "--max-schema") Size maxSchema = new Size(64 << 10);

        void check() {
            range("--port", port, 0, 65535);
            range("--io-threads", ioThreads, 1, 256);
            range("--max-connections", maxConnections, 1, 1_000_000);
            range("--max-in-flight", maxInFlight, 1, 1 << 20);
            range("--max-sessions", maxSessions, 1, Integer.MAX_VALUE);
            if (maxFrame.bytes() < 1024 || lease.compareTo(Duration.ofMillis(100)) < 0) {
                throw new IllegalArgumentException("out of range");
            }
        }

        private static void range(String name, long v, long min, long max) {
            if (v < min || v > max) {
                throw new IllegalArgumentException(name + " " + v + " is outside " + min + ".." + max);
            }
        }
    }

    /** Whole numbers with underscores, as the project's settings take them. */
    static final class UnderscoreInt implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Integer.parseInt(value.replace("_", ""));
        }
    }
}

package io.sessionmesh.benchmarks.registry;

import io.sessionmesh.wire.client.MasterConnection;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A master's STATS answer (a flat JSON object of integers) as a map, and its raw text for the result files. */
public record MasterStats(String json, Map<String, Long> figures) {
    private static final Pattern FIELD = Pattern.compile("\"([a-z0-9_]+)\":(-?\\d+)");

    /** Asks {@code c} for STATS, waiting at most 10 s. */
    public static MasterStats of(MasterConnection c) throws Exception {
        return parse(c.stats().get(10, TimeUnit.SECONDS));
    }

    /** A STATS answer's text as figures. */
    public static MasterStats parse(String json) {
        Map<String, Long> figures = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            figures.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return new MasterStats(json, figures);
    }

    /** A figure, or -1 when the master does not give it. */
    public long get(String name) {
        return figures.getOrDefault(name, -1L);
    }
}

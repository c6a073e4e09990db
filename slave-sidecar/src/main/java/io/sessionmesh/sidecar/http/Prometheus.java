package io.sessionmesh.sidecar.http;

import java.util.Map;

/**
 * The admin figures in Prometheus's text format: every number in the stats document becomes a gauge or counter
 * named {@code sessionmesh_sidecar_<path>}; maps keyed by operation or status become a label.
 */
final class Prometheus {
    private Prometheus() {
    }

    static String text(Map<String, Object> stats) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Object> e : stats.entrySet()) {
            String name = "sessionmesh_sidecar_" + e.getKey();
            Object v = e.getValue();
            if (v instanceof Number n) {
                metric(b, name, null, n);
            } else if (v instanceof Map<?, ?> m) {
                String label = switch (e.getKey()) {
                    case "requests" -> "op";
                    case "errors" -> "status";
                    case "read_misses_by_cause", "section_misses_by_cause" -> "cause";
                    default -> null;
                };
                for (Map.Entry<?, ?> inner : m.entrySet()) {
                    if (!(inner.getValue() instanceof Number n)) {
                        continue;
                    }
                    if (label != null) {
                        metric(b, name + "_total", label + "=\"" + inner.getKey() + "\"", n);
                    } else {
                        metric(b, name + "_" + inner.getKey(), null, n);
                    }
                }
            }
        }
        return b.toString();
    }

    private static void metric(StringBuilder b, String name, String labels, Number value) {
        b.append(name);
        if (labels != null) {
            b.append('{').append(labels).append('}');
        }
        b.append(' ').append(value).append('\n');
    }
}

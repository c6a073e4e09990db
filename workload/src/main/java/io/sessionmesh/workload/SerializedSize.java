package io.sessionmesh.workload;

/**
 * The size of a value in the serialized form a benchmark measures (one-nio plain mode in the benchmarks). The value
 * generator grows client records until this reaches a target, so it is the one thing the generator needs from a
 * serializer, and the library stays free of any.
 */
@FunctionalInterface
public interface SerializedSize {
    /** The bytes {@code value} takes serialized. */
    int of(Object value);
}

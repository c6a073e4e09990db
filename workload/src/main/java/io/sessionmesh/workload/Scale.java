package io.sessionmesh.workload;

import java.time.Duration;

/**
 * The workload's size and churn (docs/WORKLOAD.md). A scaled-down run keeps the ratios: with n active sessions,
 * n x {@value #FULL_NEW_SESSIONS_PER_MINUTE} / {@value #FULL_ACTIVE_SESSIONS} new ones a minute (a fifth of the set),
 * each replacing an old one, which then idles out after {@link #IDLE_TIMEOUT}.
 *
 * <table>
 *   <caption>Full scale</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>active sessions</td><td>{@value #FULL_ACTIVE_SESSIONS}</td></tr>
 *   <tr><td>sessions created a minute</td><td>{@value #FULL_NEW_SESSIONS_PER_MINUTE}</td></tr>
 *   <tr><td>idle timeout</td><td>5 minutes</td></tr>
 * </table>
 */
public final class Scale {
    /** Active sessions at full scale. */
    public static final int FULL_ACTIVE_SESSIONS = 550_000;
    /** Sessions created a minute at full scale. */
    public static final int FULL_NEW_SESSIONS_PER_MINUTE = 110_000;
    /** A session not used for this long expires. */
    public static final Duration IDLE_TIMEOUT = Duration.ofMinutes(5);
    /** New sessions a minute per active session: 0.2, kept at every scale. */
    public static final double NEW_SESSIONS_PER_MINUTE_PER_ACTIVE = (double) FULL_NEW_SESSIONS_PER_MINUTE / FULL_ACTIVE_SESSIONS;

    private Scale() {
    }

    /** New sessions a second for {@code activeSessions} active ones. */
    public static double newSessionsPerSecond(int activeSessions) {
        return activeSessions * NEW_SESSIONS_PER_MINUTE_PER_ACTIVE / 60;
    }

    /** Nanoseconds between two new sessions for {@code activeSessions} active ones (at least 1). */
    public static long newSessionIntervalNanos(int activeSessions) {
        return Math.max(1, (long) (60e9 / (Math.max(1, activeSessions) * NEW_SESSIONS_PER_MINUTE_PER_ACTIVE)));
    }

    /** The scale of a run as a fraction of full scale, for reports: 0.01 for 5,500 active sessions. */
    public static double fraction(int activeSessions) {
        return (double) activeSessions / FULL_ACTIVE_SESSIONS;
    }
}

package io.sessionmesh.httpsession;

import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionConflictException;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.wire.transport.TransportLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.session.DelegatingIndexResolver;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.FlushMode;
import org.springframework.session.IndexResolver;
import org.springframework.session.PrincipalNameIndexResolver;
import org.springframework.session.SaveMode;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.UuidSessionIdGenerator;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionDeletedEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Spring Session's repository on SessionMesh: what {@code SessionRepositoryFilter} needs to back every
 * {@code HttpSession} of an application with SessionMesh sessions (docs/http-session.md).
 *
 * <ul>
 *   <li>{@link #createSession()} makes nothing on the master: the first {@link #save} creates the session under the
 *       id the {@link SessionIdGenerator} made (at least {@value TransportLimits#MIN_REQUESTED_ID_CHARS} characters of
 *       {@code [A-Za-z0-9_-]}), with its idle timeout, its attributes and its principal (two calls).</li>
 *   <li>{@link #findById} reads the default and meta sections in one call ({@link AttributeSections}); a session the
 *       master does not know, or an id no session can have, is null.</li>
 *   <li>{@link #save} sends only what changed (the {@link SaveMode} adds attributes read, or all of them): nothing
 *       at all when nothing changed. A changed id or idle timeout is one RENAME on the master, atomic: of two
 *       copies that change the id of one session, the first wins and the second's save fails. A save that finds
 *       the session gone (deleted, expired, renamed by another copy) fails with {@link IllegalStateException} and
 *       creates nothing: no save resurrects a session.</li>
 *   <li>{@link #deleteById} deletes everywhere; deleting a session that is gone does nothing.</li>
 *   <li>The expiry is the master's: the idle timeout of {@code setMaxInactiveInterval} is the master's, whose
 *       clock every read and write restarts (a read the sidecar answers from its cache reaches the master as a
 *       touch, forwarded within the sidecar's {@code touch-interval}, 5 s by default).</li>
 *   <li>The principal (Spring Security's user, or the attribute {@code PRINCIPAL_NAME_INDEX_NAME}) is the
 *       session's SessionMesh principal, so "log out everywhere" finds the session.</li>
 *   <li>{@link #findByPrincipalName} lists the user's live sessions from the masters' own principal index (every
 *       master group asked, at once consistent with every save acknowledged), then reads each.</li>
 *   <li>{@link SessionCreatedEvent} after the first save, {@link SessionDeletedEvent} after a delete that found the
 *       session, both in the process that did it.</li>
 * </ul>
 */
public final class SessionMeshSessionRepository implements FindByIndexNameSessionRepository<SessionMeshHttpSession> {
    /** The idle timeout of a new session unless told: Spring Session's default. */
    public static final Duration DEFAULT_MAX_INACTIVE_INTERVAL = Duration.ofMinutes(30);
    /**
     * How many fresh ids a save tries when a new id is taken, or (with several masters) would move the session to
     * another master, which a rename cannot do: each try is a coin with at most (masters - 1) / masters against it.
     */
    public static final int MAX_ID_ATTEMPTS = 64;

    private static final Logger log = LoggerFactory.getLogger(SessionMeshSessionRepository.class);

    private final SessionMeshClient client;
    private final AttributeSections attributeSections;
    private Duration defaultMaxInactiveInterval = DEFAULT_MAX_INACTIVE_INTERVAL;
    private SessionIdGenerator idGenerator = UuidSessionIdGenerator.getInstance();
    private FlushMode flushMode = FlushMode.ON_SAVE;
    private SaveMode saveMode = SaveMode.ON_SET_ATTRIBUTE;
    private ApplicationEventPublisher events = event -> { };
    private final IndexResolver<org.springframework.session.Session> principals =
            new DelegatingIndexResolver<>(new PrincipalNameIndexResolver<>());

    public SessionMeshSessionRepository(SessionMeshClient client, AttributeSections attributeSections) {
        this.client = Objects.requireNonNull(client, "client");
        this.attributeSections = Objects.requireNonNull(attributeSections, "attributeSections");
    }

    /** The idle timeout of new sessions; whole seconds, positive. */
    public void setDefaultMaxInactiveInterval(Duration interval) {
        this.defaultMaxInactiveInterval = checkInterval(interval);
    }

    public void setSessionIdGenerator(SessionIdGenerator generator) {
        this.idGenerator = Objects.requireNonNull(generator, "generator");
    }

    /** {@link FlushMode#IMMEDIATE}: every change is saved at once, not when the request ends. */
    public void setFlushMode(FlushMode flushMode) {
        this.flushMode = Objects.requireNonNull(flushMode, "flushMode");
    }

    /** What a save sends besides the attributes set and removed (Spring Session's meaning). */
    public void setSaveMode(SaveMode saveMode) {
        this.saveMode = Objects.requireNonNull(saveMode, "saveMode");
    }

    public void setApplicationEventPublisher(ApplicationEventPublisher events) {
        this.events = Objects.requireNonNull(events, "events");
    }

    AttributeSections attributeSections() {
        return attributeSections;
    }

    @Override
    public SessionMeshHttpSession createSession() {
        SessionMeshHttpSession session = new SessionMeshHttpSession(this, newSessionId(), defaultMaxInactiveInterval);
        flushIfImmediate(session);
        return session;
    }

    @Override
    public SessionMeshHttpSession findById(String id) {
        if (!isPossibleId(id)) {
            return null;
        }
        try {
            Session stored = client.getSession(id, attributeSections.firstRead().toArray(new String[0]));
            return new SessionMeshHttpSession(this, stored, defaultMaxInactiveInterval);
        } catch (SessionNotFoundException e) {
            return null;
        }
    }

    @Override
    public void save(SessionMeshHttpSession session) {
        boolean sentAll = false;
        if (session.isNew()) {
            create(session);
        } else {
            sentAll = update(session);
        }
        session.saved(sentAll);
    }

    /**
     * Deletes the session everywhere; one that is gone already is left alone. Every section of its attributes is
     * read first, in one call (usually answered from the sidecar's cache), so that the {@link SessionDeletedEvent},
     * and the {@code HttpSessionListener}s Spring Session calls with it, see all its attributes.
     */
    @Override
    public void deleteById(String id) {
        if (!isPossibleId(id)) {
            return;
        }
        SessionMeshHttpSession session;
        try {
            List<String> sections = new ArrayList<>(attributeSections.all());
            sections.add(AttributeSections.META_SECTION);
            session = new SessionMeshHttpSession(this, client.getSession(id, sections.toArray(new String[0])),
                    defaultMaxInactiveInterval);
        } catch (SessionNotFoundException e) {
            return;
        }
        try {
            client.openSession(id).invalidate();
        } catch (SessionNotFoundException e) {
            return; // gone meanwhile: deleting it again does nothing
        }
        events.publishEvent(new SessionDeletedEvent(this, session));
    }

    /**
     * The live sessions of a principal ({@link #PRINCIPAL_NAME_INDEX_NAME}, the only index SessionMesh keeps; any
     * other index name finds nothing): the masters list their ids, and each is read as {@link #findById} reads it.
     * A master group that could not be asked is missing from the answer (logged); at most the masters' limit of
     * sessions a principal are listed.
     */
    @Override
    public Map<String, SessionMeshHttpSession> findByIndexNameAndIndexValue(String indexName, String indexValue) {
        if (!PRINCIPAL_NAME_INDEX_NAME.equals(indexName) || indexValue == null || indexValue.isEmpty()) {
            return Map.of();
        }
        var listed = client.sessionsOf(indexValue);
        if (!listed.complete()) {
            log.warn("the sessions of a principal were listed without some master group's (it could not be asked):"
                    + " the answer may lack some of them");
        }
        Map<String, SessionMeshHttpSession> found = new LinkedHashMap<>();
        for (String id : listed.ids()) {
            SessionMeshHttpSession s = findById(id);
            if (s != null) { // ended between the listing and the read
                found.put(id, s);
            }
        }
        return found;
    }

    private void create(SessionMeshHttpSession session) {
        String principal = principalOf(session);
        Session created = null;
        for (int attempt = 1; created == null; attempt++) {
            try {
                created = client.createSession(session.getId(), session.getMaxInactiveInterval(), principal);
            } catch (SessionConflictException e) {
                if (attempt == MAX_ID_ATTEMPTS) {
                    throw new IllegalStateException("no free session id after " + MAX_ID_ATTEMPTS + " ids from "
                            + idGenerator.getClass().getName() + ": " + e.getMessage(), e);
                }
                session.takeId(newSessionId()); // a generator that repeats itself, or a collision
            }
        }
        Section meta = created.section(AttributeSections.META_SECTION);
        meta.setAttribute(SessionMeshHttpSession.CREATION_TIME, session.getCreationTime().toEpochMilli());
        meta.setAttribute(SessionMeshHttpSession.MAX_INACTIVE_SECONDS, session.getMaxInactiveInterval().toSeconds());
        for (Map.Entry<String, Object> e : session.pending().entrySet()) {
            AttributeSections.Place p = attributeSections.place(e.getKey());
            created.section(p.section()).setAttribute(p.attribute(), e.getValue());
        }
        session.created(created);
        created.save();
        events.publishEvent(new SessionCreatedEvent(this, session));
        created.save(); // what a listener of the event set (no call when it set nothing)
    }

    /** Sends what changed; whether it sent every attribute ({@link SaveMode#ALWAYS}'s first save). */
    private boolean update(SessionMeshHttpSession session) {
        Session stored = session.stored();
        try {
            if (!session.getId().equals(stored.id()) || session.maxInactiveIntervalChanged()) {
                rename(session);
            }
            if (session.maxInactiveIntervalChanged()) {
                stored.section(AttributeSections.META_SECTION).setAttribute(SessionMeshHttpSession.MAX_INACTIVE_SECONDS,
                        session.getMaxInactiveInterval().toSeconds());
            }
            boolean sentAll = applySaveMode(session);
            if (session.principalMayHaveChanged()) {
                // told every time, not compared with what this JVM last knew: another process may have changed it
                String principal = principalOf(session);
                if (principal != null) {
                    stored.setPrincipal(principal);
                } else {
                    stored.clearPrincipal();
                }
            }
            stored.save();
            return sentAll;
        } catch (SessionNotFoundException e) {
            throw new IllegalStateException("Session was invalidated: it was deleted, expired, or its id was changed"
                    + " by another request", e);
        }
    }

    /** The new id and idle timeout, on the master at once; another id when the one asked for cannot be had. */
    private void rename(SessionMeshHttpSession session) {
        Session stored = session.stored();
        Duration interval = session.maxInactiveIntervalChanged() ? session.getMaxInactiveInterval() : null;
        for (int attempt = 1; ; attempt++) {
            try {
                stored.rename(session.getId(), interval);
                return;
            } catch (SessionConflictException e) {
                if (attempt == MAX_ID_ATTEMPTS || session.getId().equals(stored.id())) {
                    throw new IllegalStateException("could not change the session id: " + e.getMessage(), e);
                }
                session.takeId(newSessionId());
            }
        }
    }

    /**
     * Spring Session's save modes, what a save sends besides the attributes set and removed: the attributes read
     * since the last save ({@link SaveMode#ON_GET_ATTRIBUTE}), or every attribute, once for this object
     * ({@link SaveMode#ALWAYS}). A value that cannot be decoded here reads as null and is not sent: its stored bytes
     * stay. Returns whether every attribute was sent.
     */
    private boolean applySaveMode(SessionMeshHttpSession session) {
        if (saveMode == SaveMode.ON_SET_ATTRIBUTE || saveMode == SaveMode.ALWAYS && session.allSent()) {
            return false;
        }
        List<String> names = new ArrayList<>(saveMode == SaveMode.ALWAYS ? session.getAttributeNames() : session.readNames());
        for (String name : names) {
            Object value = session.getAttribute(name);
            if (value != null) {
                AttributeSections.Place p = attributeSections.place(name);
                session.stored().section(p.section()).setAttribute(p.attribute(), value);
            }
        }
        return saveMode == SaveMode.ALWAYS;
    }

    /** The session's principal as Spring Session resolves it, or null. */
    private String principalOf(SessionMeshHttpSession session) {
        return principals.resolveIndexesFor(session).get(PRINCIPAL_NAME_INDEX_NAME);
    }

    void flushIfImmediate(SessionMeshHttpSession session) {
        if (flushMode == FlushMode.IMMEDIATE) {
            save(session);
        }
    }

    String newSessionId() {
        String id = idGenerator.generate();
        if (!isPossibleId(id)) {
            throw new IllegalStateException("the session id generator " + idGenerator.getClass().getName()
                    + " made an id SessionMesh cannot take: ids are " + TransportLimits.MIN_REQUESTED_ID_CHARS + ".."
                    + TransportLimits.MAX_SESSION_ID_BYTES + " characters of A-Z a-z 0-9 _ -");
        }
        return id;
    }

    /** Whether a session could have that id: what findById and deleteById answer null for without a call. */
    static boolean isPossibleId(String id) {
        if (id == null) {
            return false;
        }
        try {
            TransportLimits.checkRequestedSessionId(id);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A positive interval in whole seconds, a part of a second rounded up. */
    static Duration checkInterval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("a SessionMesh session always expires: the max inactive interval must"
                    + " be positive, not " + interval);
        }
        long seconds = interval.getSeconds() + (interval.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(seconds);
    }

    @Override
    public String toString() {
        return "SessionMeshSessionRepository[" + attributeSections + ", flush=" + flushMode + ", save=" + saveMode + "]";
    }
}

package io.sessionmesh.httpsession;

import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.serialization.attribute.AttributeCodecException;
import io.sessionmesh.serialization.attribute.ClassNotAllowedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.session.FindByIndexNameSessionRepository;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One request's view of a session, as Spring Session's {@link org.springframework.session.Session}: attributes are
 * read from their sections when first asked for and changed there; {@link SessionMeshSessionRepository#save} sends
 * what changed. A new session lives here alone until its first save creates it on the master, with its id. Not
 * thread-safe (one request uses it), like Spring Session's own sessions.
 */
public final class SessionMeshHttpSession implements org.springframework.session.Session {
    private static final Logger log = LoggerFactory.getLogger(SessionMeshHttpSession.class);
    /** The attribute of the meta section holding the creation time (epoch milliseconds). */
    static final String CREATION_TIME = "creationTime";
    /** The attribute of the meta section holding the idle timeout as set through HttpSession (whole seconds). */
    static final String MAX_INACTIVE_SECONDS = "maxInactiveSeconds";
    /** Spring Security's attribute, whose change may change the principal. */
    static final String SECURITY_CONTEXT = "SPRING_SECURITY_CONTEXT";

    private final SessionMeshSessionRepository repository;
    private final AttributeSections places;
    /** The session on the master, once it exists there; null while new. */
    private Session stored;
    /** The id: the stored one, or a new one {@link #changeSessionId} made, which the next save gives the session. */
    private String id;
    /** The attributes of a new session until its first save. */
    private final Map<String, Object> pending;
    private final Instant creationTime;
    private Instant lastAccessedTime;
    private Duration maxInactiveInterval;
    private boolean maxInactiveIntervalChanged;
    /**
     * Whether the master's idle timeout is known here: false for a session a section-API service made (no meta
     * section), whose timeout is the master's default, so that any interval set is sent.
     */
    private final boolean maxInactiveIntervalKnown;
    /** Whether a save under {@link org.springframework.session.SaveMode#ALWAYS} has sent every attribute already. */
    private boolean allSent;
    /** The attributes read (for {@link org.springframework.session.SaveMode#ON_GET_ATTRIBUTE}). */
    private final Set<String> read = new LinkedHashSet<>();
    /** Whether an attribute the principal is resolved from was set or removed since the last save. */
    private boolean principalMayHaveChanged;

    /** A new session: not on the master until saved. */
    SessionMeshHttpSession(SessionMeshSessionRepository repository, String id, Duration maxInactiveInterval) {
        this.repository = repository;
        this.places = repository.attributeSections();
        this.id = id;
        this.pending = new LinkedHashMap<>();
        this.creationTime = Instant.now();
        this.lastAccessedTime = creationTime;
        this.maxInactiveInterval = maxInactiveInterval;
        this.maxInactiveIntervalKnown = true;
    }

    /** A session found on the master, its default and meta sections read. */
    SessionMeshHttpSession(SessionMeshSessionRepository repository, Session stored, Duration defaultInterval) {
        this.repository = repository;
        this.places = repository.attributeSections();
        this.stored = stored;
        this.id = stored.id();
        this.pending = null;
        Section meta = stored.section(AttributeSections.META_SECTION);
        Long created = meta.getAttribute(CREATION_TIME, Long.class);
        Long seconds = meta.getAttribute(MAX_INACTIVE_SECONDS, Long.class);
        // a session a section-API service created has no meta section: its times are the master's, unknown here
        this.lastAccessedTime = Instant.now();
        this.creationTime = created == null ? lastAccessedTime : Instant.ofEpochMilli(created);
        this.maxInactiveInterval = seconds == null ? defaultInterval : Duration.ofSeconds(seconds);
        this.maxInactiveIntervalKnown = seconds != null;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public String changeSessionId() {
        id = repository.newSessionId();
        repository.flushIfImmediate(this);
        return id;
    }

    /**
     * The attribute's value, read from its section on first use. Null, besides for an attribute not set: when the
     * session ended meanwhile (deleted, expired, renamed by another request: the save then fails), and when the
     * value cannot be decoded here (a class outside {@code sessionmesh.allowed-packages} and
     * {@code sessionmesh.allowed-classes}: logged and counted by the client), so that it can still be overwritten or
     * removed, which Spring Session begins by reading it.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <T> T getAttribute(String attributeName) {
        Objects.requireNonNull(attributeName, "attributeName");
        if (stored == null) {
            return (T) pending.get(attributeName);
        }
        AttributeSections.Place p = places.place(attributeName);
        Object value;
        try {
            value = stored.section(p.section()).getAttribute(p.attribute());
        } catch (SessionNotFoundException e) {
            return null;
        } catch (ClassNotAllowedException e) {
            log.warn("session attribute {} cannot be decoded here, so it reads as null: {}; if the class is the"
                    + " application's, allow its package in sessionmesh.allowed-packages (or the class in"
                    + " sessionmesh.allowed-classes)", attributeName, e.getMessage());
            return null;
        } catch (AttributeCodecException e) {
            log.warn("session attribute {} cannot be decoded here, so it reads as null: {}", attributeName, e.getMessage());
            return null;
        }
        if (value != null) {
            read.add(attributeName);
        }
        return (T) value;
    }

    /** The attribute names; those of the sections read so far when the session ended meanwhile. */
    @Override
    public Set<String> getAttributeNames() {
        if (stored == null) {
            return Set.copyOf(pending.keySet());
        }
        try {
            stored.load(places.all().toArray(new String[0]));
        } catch (SessionNotFoundException e) {
            // the session ended meanwhile: the names of what was read
        }
        Set<String> names = new LinkedHashSet<>();
        for (String section : places.all()) {
            if (stored.isLoaded(section)) {
                for (String attribute : stored.section(section).attributeNames()) {
                    names.add(places.attributeName(section, attribute));
                }
            }
        }
        return names;
    }

    @Override
    public void setAttribute(String attributeName, Object attributeValue) {
        Objects.requireNonNull(attributeName, "attributeName");
        if (attributeValue == null) {
            removeAttribute(attributeName);
            return;
        }
        if (stored == null) {
            pending.put(attributeName, attributeValue);
        } else {
            AttributeSections.Place p = places.place(attributeName);
            stored.section(p.section()).setAttribute(p.attribute(), attributeValue);
        }
        noteChange(attributeName);
    }

    @Override
    public void removeAttribute(String attributeName) {
        Objects.requireNonNull(attributeName, "attributeName");
        if (stored == null) {
            pending.remove(attributeName);
        } else {
            AttributeSections.Place p = places.place(attributeName);
            stored.section(p.section()).removeAttribute(p.attribute());
        }
        read.remove(attributeName);
        noteChange(attributeName);
    }

    private void noteChange(String attributeName) {
        if (attributeName.equals(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME)
                || attributeName.equals(SECURITY_CONTEXT)) {
            principalMayHaveChanged = true;
        }
        repository.flushIfImmediate(this);
    }

    @Override
    public Instant getCreationTime() {
        return creationTime;
    }

    @Override
    public void setLastAccessedTime(Instant lastAccessedTime) {
        this.lastAccessedTime = Objects.requireNonNull(lastAccessedTime, "lastAccessedTime");
    }

    @Override
    public Instant getLastAccessedTime() {
        return lastAccessedTime;
    }

    /**
     * Sets the idle timeout, which the master applies at the next save. SessionMesh keeps it in whole seconds (a
     * part of a second counts as a whole one), and a session always expires: zero or a negative interval ("never",
     * in the servlet API) is refused.
     */
    @Override
    public void setMaxInactiveInterval(Duration interval) {
        Duration rounded = SessionMeshSessionRepository.checkInterval(interval);
        if (!rounded.equals(maxInactiveInterval) || !maxInactiveIntervalKnown) {
            maxInactiveInterval = rounded;
            maxInactiveIntervalChanged = stored != null;
            repository.flushIfImmediate(this);
        }
    }

    @Override
    public Duration getMaxInactiveInterval() {
        return maxInactiveInterval;
    }

    /**
     * Whether the idle timeout has run out since the last access this object knows of. The master is the judge: a
     * session it expired is not found, whatever this says.
     */
    @Override
    public boolean isExpired() {
        return lastAccessedTime.plus(maxInactiveInterval).isBefore(Instant.now());
    }

    // --- the repository's side ---

    boolean isNew() {
        return stored == null;
    }

    Session stored() {
        return stored;
    }

    Map<String, Object> pending() {
        return pending;
    }

    /** The id a save gives the session instead of the one asked for, which could not be had. */
    void takeId(String newId) {
        this.id = newId;
    }

    void created(Session created) {
        this.stored = created;
        this.pending.clear();
    }

    boolean maxInactiveIntervalChanged() {
        return maxInactiveIntervalChanged;
    }

    Set<String> readNames() {
        return read;
    }

    boolean principalMayHaveChanged() {
        return principalMayHaveChanged;
    }

    boolean allSent() {
        return allSent;
    }

    /** After a save: what it sent is what is stored; the next save sends only what changes from here. */
    void saved(boolean sentAll) {
        maxInactiveIntervalChanged = false;
        principalMayHaveChanged = false;
        read.clear();
        allSent |= sentAll;
    }

    @Override
    public String toString() {
        return "SessionMeshHttpSession[new=" + isNew() + "]"; // never the id: it is a bearer secret
    }
}

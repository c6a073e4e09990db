package io.sessionmesh.httpsession;

import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.FlushMode;

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

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getAttribute(String attributeName) {
        Objects.requireNonNull(attributeName, "attributeName");
        if (stored == null) {
            return (T) pending.get(attributeName);
        }
        AttributeSections.Place p = places.place(attributeName);
        Object value = stored.section(p.section()).getAttribute(p.attribute());
        if (value != null) {
            read.add(attributeName);
        }
        return (T) value;
    }

    @Override
    public Set<String> getAttributeNames() {
        if (stored == null) {
            return Set.copyOf(pending.keySet());
        }
        stored.load(places.all().toArray(new String[0]));
        Set<String> names = new LinkedHashSet<>();
        for (String section : places.all()) {
            for (String attribute : stored.section(section).attributeNames()) {
                names.add(places.attributeName(section, attribute));
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
        if (!rounded.equals(maxInactiveInterval)) {
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

    /** The id on the master (null while new). */
    String storedId() {
        return stored == null ? null : stored.id();
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

    /** After a save: what it sent is what is stored. */
    void saved() {
        maxInactiveIntervalChanged = false;
        principalMayHaveChanged = false;
    }

    FlushMode flushMode() {
        return repository.flushMode();
    }

    @Override
    public String toString() {
        return "SessionMeshHttpSession[new=" + isNew() + "]"; // never the id: it is a bearer secret
    }
}

package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's shared session, as this request sees it: the sections read so far (in one batch when named up front,
 * one at a time when first used), and the changes made to them, sent by {@link #save()} as per-section deltas in
 * one call. Not thread-safe: a session belongs to the request that handles it; share the
 * {@link SessionMeshClient}, not sessions.
 */
public final class Session {
    private final SessionMeshClient client;
    /** The id: changed only by {@link #rename}. */
    private String id;
    private final Map<String, Section> sections = new LinkedHashMap<>();
    private boolean invalidated;
    /**
     * Made by this client's create call and not read since: it has no sections anywhere yet, so a section is known
     * empty (version 0) without a call. A login that fills a dozen sections makes no read at all.
     */
    private boolean justCreated;
    /**
     * The principal as last known: from creation, a set or clear here, or one GET; null while unknown. Another
     * process may change it meanwhile: a session object lives for one request, so one fetch a request is enough.
     */
    private Optional<String> principal;

    /** The last save whose outcome is unknown: its session, bytes and write id, sent again as they were. */
    private record UnknownWrite(String sessionId, byte[] body, WriteId writeId) {
    }

    private UnknownWrite unknownWrite;

    Session(SessionMeshClient client, String id) {
        this.client = client;
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The section of that name: read now (one call) unless it was read already. */
    public Section section(String name) {
        Section s = sections.get(name);
        if (s == null) {
            load(name);
            s = sections.get(name);
        }
        return s;
    }

    /** Reads, in one call, those of the named sections that have not been read yet. */
    public Session load(String... names) {
        checkLive();
        List<String> missing = new ArrayList<>(names.length);
        for (String n : names) {
            if (!sections.containsKey(Section.checkName(n)) && !missing.contains(n)) {
                missing.add(n);
            }
        }
        if (!missing.isEmpty() && justCreated) {
            for (String n : missing) {
                sections.put(n, new Section(this, n, 0, java.util.Map.of()));
            }
        } else if (!missing.isEmpty()) {
            accept(client.api().read(id, missing));
        }
        return this;
    }

    /** Marks a session this client has just created, with its principal (null: none): see {@link #justCreated}. */
    Session created(String principal) {
        justCreated = true;
        this.principal = Optional.ofNullable(principal);
        client.knownPrincipals().put(id, this.principal);
        return this;
    }

    /**
     * The user this session belongs to, or empty for no one: known from its creation or a set or clear through this
     * object, else read from the sidecar once (one call) and kept.
     *
     * @throws SessionNotFoundException if the session is unknown, deleted or expired
     */
    public Optional<String> principal() {
        checkLive();
        if (principal == null) {
            principal = client.api().principal(id).principal();
            client.knownPrincipals().put(id, principal);
        }
        return principal;
    }

    /**
     * The principal as this client last knew it (from a creation, a set, a clear or a read of this session through
     * any session object of this client), read from the sidecar only when this client does not know it: what a check
     * made on every request uses, at the cost of a map lookup. Another process may have changed it meanwhile.
     *
     * @throws SessionNotFoundException if it had to be read and the session is unknown, deleted or expired
     */
    public Optional<String> principalAsLastKnown() {
        if (principal == null) {
            principal = client.knownPrincipals().get(id);
        }
        return principal();
    }

    /**
     * Sets the user this session belongs to, at once: one call now, not deferred to {@link #save()} (a principal is
     * not a section: "log out everywhere" must find the session whether or not the request saves).
     *
     * @param principal 1..256 bytes of UTF-8 without control characters
     * @throws BadRequestException or {@link PayloadTooLargeException} for a principal that breaks those rules; nothing
     *     is sent, and the message never repeats it
     * @throws SessionNotFoundException if the session is unknown, deleted or expired
     */
    public void setPrincipal(String principal) {
        checkLive();
        client.api().setPrincipal(id, principal);
        this.principal = Optional.of(principal);
        client.knownPrincipals().put(id, this.principal);
    }

    /**
     * Clears the session's principal, at once (one call now, not deferred to {@link #save()}).
     *
     * @throws SessionNotFoundException if the session is unknown, deleted or expired
     */
    public void clearPrincipal() {
        checkLive();
        client.api().clearPrincipal(id);
        this.principal = Optional.empty();
        client.knownPrincipals().put(id, this.principal);
    }

    void accept(ReadResult result) {
        for (SectionData d : result.sections()) {
            sections.putIfAbsent(d.name(), new Section(this, d.name(), d.version(), d.attributes()));
        }
    }

    /** Whether a section has been read already (no call). */
    public boolean isLoaded(String name) {
        return sections.containsKey(name);
    }

    /** Whether {@link #save()} has something to send (encodes the values read, to compare them). */
    public boolean isDirty() {
        return !deltas().isEmpty();
    }

    /**
     * Sends what changed, in one call: per section, the attributes set (and, with {@link SaveMode#ON_SET_OR_READ},
     * those read and changed in place) and those removed. Nothing is sent when nothing changed. A value only read
     * is never sent, even when this JVM has another version of its class than the service that wrote it (see
     * {@link SaveMode#ON_SET_OR_READ}).
     *
     * <p>Each save goes with a write id, and a master applies a write of one id at most once (PROTOCOL.md 3.12). When a
     * save's outcome is unknown ({@link WriteOutcomeUnknownException}), calling {@code save()} again with nothing
     * changed sends the same write under the same id: it is applied if the first was not, and answered with the first
     * one's versions if it was, never applied twice (within the masters' window of 2 minutes).
     *
     * @return the deltas sent (empty when none)
     * @throws SessionConflictException if an optimistic section changed since it was read; nothing was applied
     * @throws WriteOutcomeUnknownException if the write may or may not have been applied (after a bounded number of
     *     retries by this client and the sidecar): save again, or read the session, before anything else
     */
    public List<SectionDelta> save() {
        checkLive();
        List<SectionDelta> deltas = deltas();
        if (deltas.isEmpty()) {
            return deltas;
        }
        byte[] body = client.api().encodeWrite(new WriteRequest(id, deltas));
        // the same write as one whose outcome is unknown: the same id, so that it is applied once at most
        WriteId writeId = unknownWrite != null && unknownWrite.sessionId.equals(id) && Arrays.equals(unknownWrite.body, body)
                ? unknownWrite.writeId : WriteId.next();
        WriteResult result;
        try {
            result = client.api().write(body, id, writeId);
            unknownWrite = null;
        } catch (WriteOutcomeUnknownException | SidecarUnavailableException | SidecarTimeoutException e) {
            // unknown, or not sent at all: a later save of the same write must go under the same id
            if (e instanceof WriteOutcomeUnknownException || unknownWrite != null && unknownWrite.writeId.equals(writeId)) {
                unknownWrite = new UnknownWrite(id, body, writeId);
            }
            throw e;
        } catch (SessionMeshException e) {
            unknownWrite = null; // answered: the write was refused, so nothing of it is pending
            throw e;
        }
        long deltaBytes = 0;
        long wholeBytes = 0;
        for (SectionDelta d : deltas) {
            for (byte[] b : d.set().values()) {
                deltaBytes += b.length;
            }
            wholeBytes += sections.get(d.section()).wholeBytes(d);
        }
        client.metrics().saved(deltas.size(), deltaBytes, wholeBytes);
        for (SectionDelta d : deltas) {
            Long v = result.versions().get(d.section());
            sections.get(d.section()).saved(d, v == null ? -1 : v);
        }
        return deltas;
    }

    private List<SectionDelta> deltas() {
        List<SectionDelta> out = new ArrayList<>();
        for (Section s : sections.values()) {
            SectionDelta d = s.delta(client.codec(), client.saveMode());
            if (d != null) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Gives the session a new id, or a new idle timeout, or both, at once (one call, atomic on the master):
     * everything it holds moves to the new id, the old id is unknown afterwards, and this object goes on under the
     * new id with what it has read and changed (send that with {@link #save()}). Of two renames of one session the
     * first wins; the second finds the old id gone.
     *
     * @param newId       the new id (null or this id: keep the id); see {@link SessionMeshClient#renameSession}
     * @param idleTimeout the new idle timeout, whole seconds (null: keep it)
     * @throws SessionNotFoundException if the session is unknown, deleted, expired or renamed already
     * @throws SessionConflictException if a session has the new id, or (several masters) the new id belongs to
     *     another master: ask again with another id
     */
    public void rename(String newId, java.time.Duration idleTimeout) {
        checkLive();
        String to = newId == null ? id : newId;
        client.renameSession(id, to, idleTimeout);
        if (!to.equals(id)) {
            Optional<String> known = client.knownPrincipals().get(id);
            client.knownPrincipals().forget(id);
            if (known != null) {
                client.knownPrincipals().put(to, known);
            }
            id = to;
        }
    }

    /** Extends the session's idle time; changes nothing else. */
    public void touch() {
        checkLive();
        client.api().touch(id);
    }

    /** Deletes the session everywhere; this object is unusable afterwards. */
    public void invalidate() {
        checkLive();
        invalidated = true;
        client.api().delete(id);
        client.knownPrincipals().forget(id);
    }

    AttributeCodec codec() {
        return client.codec();
    }

    SaveMode saveMode() {
        return client.saveMode();
    }

    void decodeFailed(String section, String attribute, RuntimeException e) {
        client.decodeFailed(section, attribute, e);
    }

    private void checkLive() {
        if (invalidated) {
            throw new IllegalStateException("this session was invalidated");
        }
    }

    @Override
    public String toString() {
        return "Session[" + sections.keySet() + "]"; // never the id: it is a bearer secret
    }
}

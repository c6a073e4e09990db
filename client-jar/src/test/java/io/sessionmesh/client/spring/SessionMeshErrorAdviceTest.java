package io.sessionmesh.client.spring;

import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;
import io.sessionmesh.client.WriteOutcomeUnknownException;

import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an end user is told when a session call fails: the status, never the addresses inside the client's message. */
class SessionMeshErrorAdviceTest {
    private final SessionMeshErrorAdvice advice = new SessionMeshErrorAdvice();

    @Test
    void unavailableSidecar_is503_withoutItsAddress() {
        ProblemDetail p = advice.handle(new SidecarUnavailableException(
                "sidecar http://10.1.2.3:7500 unreachable: master 10.9.8.7:7400 refused", null));
        assertEquals(503, p.getStatus());
        assertFalse(p.getDetail().contains("10."), p.getDetail());
        assertTrue(p.getDetail().contains("unavailable"), p.getDetail());
        assertNotNull(p.getProperties().get("incident"), "the answer carries the incident id the log has");
    }

    @Test
    void changeOfUnknownOutcome_is504_andTellsTheUserItMayBeSaved_andToReloadBeforeRetrying() {
        ProblemDetail p = advice.handle(new WriteOutcomeUnknownException("write: 504 WRITE on master 10.9.8.7:7400: sent,"
                + " then its connection broke", io.sessionmesh.wire.protocol.WriteId.next()));
        assertEquals(504, p.getStatus());
        assertTrue(p.getDetail().contains("may or may not have been saved"), p.getDetail());
        assertTrue(p.getDetail().contains("reload"), p.getDetail());
        assertFalse(p.getDetail().contains("try again shortly") || p.getDetail().endsWith("try again"),
                "never a blind \"try again\": " + p.getDetail());
        assertFalse(p.getDetail().contains("10."), p.getDetail());
        assertEquals("session: WriteOutcomeUnknownException", p.getTitle());
    }

    @Test
    void eachStatus_hasItsOwnSentence() {
        assertEquals(504, advice.handle(new SidecarTimeoutException("no answer from 10.1.2.3:7500 in 5s", null)).getStatus());
        ProblemDetail missing = advice.handle(new SessionNotFoundException("session abc not found on master 10.9.8.7:7400"));
        assertEquals(404, missing.getStatus());
        assertEquals("session abc not found on master <address>", missing.getDetail(), "a 4xx keeps what was wrong, not where");
        assertEquals("via <address> and <address>, not <address>", SessionMeshErrorAdvice.withoutAddresses(
                "via http://sidecar.internal:7500/v1/sessions and [::1]:7400, not master-2.prod:7400"));
        assertEquals("the request carries no session id", SessionMeshErrorAdvice.withoutAddresses("the request carries no session id"));
    }
}

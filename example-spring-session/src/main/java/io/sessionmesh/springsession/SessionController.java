package io.sessionmesh.springsession;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.Collections;
import java.util.Map;
import java.util.TreeSet;

/**
 * The session itself, through {@link HttpSession} only: what it holds, its idle timeout, a new id, a logout. What an
 * application does with its session besides reading and writing attributes, so that the tests that run this
 * application on each store (Spring Session on Redis, SessionMesh) check it too.
 */
@RestController
@RequestMapping("/session")
public class SessionController {
    /** The longest attribute name and value this controller takes. */
    static final int MAX_NOTE_CHARS = 256;

    /** The session's figures and attribute names. */
    @GetMapping
    public Map<String, Object> describe(HttpServletRequest request) {
        HttpSession s = session(request);
        return Map.of("maxInactiveIntervalSeconds", s.getMaxInactiveInterval(), "creationTime", s.getCreationTime(),
                "attributeNames", new TreeSet<>(Collections.list(s.getAttributeNames())));
    }

    /** Sets the session's idle timeout. */
    @PutMapping("/max-inactive-interval/{seconds}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void maxInactiveInterval(@PathVariable int seconds, HttpServletRequest request) {
        if (seconds <= 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "an idle timeout is a positive number of seconds");
        }
        session(request).setMaxInactiveInterval(seconds);
    }

    /** Gives the session a new id (what a login does against session fixation); answers it. */
    @PostMapping("/id")
    public Map<String, String> changeId(HttpServletRequest request) {
        session(request);
        return Map.of("sessionId", request.changeSessionId());
    }

    /** Sets a short text attribute {@code note.<name>}. */
    @PutMapping("/notes/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void note(@PathVariable String name, @RequestBody String text, HttpServletRequest request) {
        if (name.length() > MAX_NOTE_CHARS || text.length() > MAX_NOTE_CHARS) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a note's name and text are at most "
                    + MAX_NOTE_CHARS + " characters");
        }
        session(request).setAttribute("note." + name, text);
    }

    /** Removes the attribute {@code note.<name>}. */
    @DeleteMapping("/notes/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void removeNote(@PathVariable String name, HttpServletRequest request) {
        session(request).removeAttribute("note." + name);
    }

    /** Logs out: the session is gone everywhere. */
    @DeleteMapping
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void logout(HttpServletRequest request) {
        session(request).invalidate();
    }

    private static HttpSession session(HttpServletRequest request) {
        HttpSession s = request.getSession(false);
        if (s == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND,
                    "no session: the request carries no X-Session-Id, or its session expired or never existed");
        }
        return s;
    }
}

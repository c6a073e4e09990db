package io.sessionmesh.example;

import io.sessionmesh.example.Model.ClientInfo;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The profile page, written against {@link HttpSession} alone (no SessionMesh class), in the same session as the
 * section-API pages: the login's {@code clientInfo.client} is the attribute {@code client} of the section
 * {@code clientInfo} (docs/http-session.md, {@code sessionmesh.http-session.sections} in application.properties),
 * and the nickname set here is the attribute {@code nickname} of the section {@code preferences}.
 */
@RestController
@RequestMapping("/profile")
public class ProfileController {
    /** The longest nickname. */
    static final int MAX_NICKNAME = 64;

    /** Who the session is for, in which currency, and the nickname if one was set. */
    @GetMapping
    public Map<String, Object> profile(HttpServletRequest request) {
        HttpSession s = session(request);
        ClientInfo client = (ClientInfo) s.getAttribute("clientInfo.client");
        Map<String, Object> profile = new LinkedHashMap<>();
        profile.put("clientName", client.firstName() + " " + client.lastName());
        profile.put("currency", s.getAttribute("defaultCurrency.currency"));
        profile.put("nickname", s.getAttribute("preferences.nickname"));
        return profile;
    }

    /** Sets the nickname: one attribute written. */
    @PutMapping("/nickname")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void nickname(@RequestBody String nickname, HttpServletRequest request) {
        if (nickname.isBlank() || nickname.length() > MAX_NICKNAME) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a nickname is 1.." + MAX_NICKNAME + " characters");
        }
        session(request).setAttribute("preferences.nickname", nickname.strip());
    }

    private static HttpSession session(HttpServletRequest request) {
        HttpSession s = request.getSession(false);
        if (s == null || s.getAttribute("clientInfo.client") == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND,
                    "no session: the request carries no X-Session-Id, or its session expired or never existed");
        }
        return s;
    }
}

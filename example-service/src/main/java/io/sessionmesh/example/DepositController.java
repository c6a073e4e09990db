package io.sessionmesh.example;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.annotation.SessionSections;
import io.sessionmesh.client.spring.CurrentSession;
import io.sessionmesh.example.Model.ClientInfo;
import io.sessionmesh.example.Model.Deposit;
import io.sessionmesh.example.Model.Offer;
import io.sessionmesh.example.Model.OpenRequest;
import io.sessionmesh.example.Model.Rate;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The deposit-opening flow: a login puts who the user is, their currency and the rates on offer into the shared
 * session; the offer page reads those three sections (one batch); opening a deposit reads them and writes the
 * deposits section. The session id travels in the X-Session-Id header (or the SESSIONMESH cookie).
 */
@RestController
@RequestMapping("/deposits")
public class DepositController {
    /** The most deposits one session opens: the list is one attribute, and stays small. */
    static final int MAX_DEPOSITS = 20;
    /** The longest client id a login takes. */
    static final int MAX_CLIENT_ID = 64;
    /**
     * The request attribute a login puts its client id in, once checked: the request's user, whom
     * {@link DepositApplication#loginClient()} names as the principal of the session the login makes.
     */
    static final String LOGIN_CLIENT = DepositController.class.getName() + ".client";
    /**
     * What {@code GET /deposits/floor} answers: an offer of the same shape and about the same size as a seeded
     * session's, made without the session.
     */
    static final Offer FLOOR = new Offer("Anna Petrova", "RUB", List.of(new Rate("RUB", 3, new BigDecimal("15.50")),
            new Rate("RUB", 6, new BigDecimal("16.20")), new Rate("RUB", 12, new BigDecimal("14.80"))));

    private final CurrentSession session;
    private final SessionSeed.Profile seed;

    public DepositController(CurrentSession session,
                             @Value("${sessionmesh.example.seed:standard}") SessionSeed.Profile seed) {
        this.session = session;
        this.seed = seed;
    }

    /**
     * Starts a session for a client, as a login service would: with the standard seed, the workload's twelve sections
     * of five attributes; with the small one, only the three attributes this service reads ({@link SessionSeed},
     * property {@code sessionmesh.example.seed}). The session belongs to the client (its principal is the client id, given at creation),
     * so logging the client out everywhere ends it. Answers the session id.
     */
    @PostMapping("/login/{clientId}")
    @ResponseStatus(HttpStatus.CREATED)
    public Map<String, String> login(@PathVariable String clientId, HttpServletRequest request) {
        if (clientId.isBlank() || clientId.length() > MAX_CLIENT_ID) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a client id is 1.." + MAX_CLIENT_ID + " characters");
        }
        // What an authentication step would do: from here on, the request's user is this client.
        request.setAttribute(LOGIN_CLIENT, clientId);
        Session s = session.create();
        SessionSeed.fill(s, clientId, seed);
        return Map.of("sessionId", s.id());
    }

    /** The offer page: who, in which currency, at which rates. */
    @GetMapping("/offer")
    @SessionSections({"clientInfo", "defaultCurrency", "interestRates"})
    public Offer offer() {
        Session s = session.get();
        ClientInfo client = s.section("clientInfo").getAttribute("client", ClientInfo.class);
        String currency = s.section("defaultCurrency").getAttribute("currency", String.class);
        return new Offer(client.firstName() + " " + client.lastName(), currency, rates(s, currency));
    }

    /**
     * The same answer as the offer page's, with no session at all: no declared sections, so the client jar makes no
     * call to the sidecar. The floor a benchmark subtracts to see what sessions cost the service (HTTP, Spring MVC,
     * JSON).
     */
    @GetMapping("/floor")
    public Offer floor() {
        return FLOOR;
    }

    /** Opens a deposit at the offered rate for the term asked for (at most {@value #MAX_DEPOSITS} a session). */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @SessionSections({"defaultCurrency", "interestRates", "deposits"})
    public Deposit open(@RequestBody OpenRequest request) {
        Session s = session.get();
        Deposit d = quote(s, request);
        List<Deposit> deposits = deposits(s);
        if (deposits.size() >= MAX_DEPOSITS) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "a session opens at most " + MAX_DEPOSITS + " deposits");
        }
        d = new Deposit("D" + (deposits.size() + 1), d.currency(), d.amount(), d.months(), d.percent(), d.openedOn());
        deposits.add(d);
        s.section("deposits").setAttribute("opened", deposits);
        s.section("deposits").removeAttribute("draft");
        return d;
    }

    /** Keeps what the client is typing as a draft, priced at the offered rate: one attribute written. */
    @PutMapping("/draft")
    @SessionSections({"defaultCurrency", "interestRates", "deposits"})
    public Deposit draft(@RequestBody OpenRequest request) {
        Session s = session.get();
        Deposit d = quote(s, request);
        s.section("deposits").setAttribute("draft", d);
        return d;
    }

    private static Deposit quote(Session s, OpenRequest request) {
        if (request.amount() == null || request.amount().signum() <= 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "the amount must be positive");
        }
        String currency = s.section("defaultCurrency").getAttribute("currency", String.class);
        Rate rate = rates(s, currency).stream().filter(r -> r.months() == request.months()).findFirst()
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.BAD_REQUEST, "no rate for " + request.months() + " months"));
        return new Deposit("draft", currency, request.amount(), request.months(), rate.percent(), LocalDate.now());
    }

    /** The deposits opened in this session. */
    @GetMapping
    @SessionSections("deposits")
    public List<Deposit> list() {
        return deposits(session.get());
    }

    @SuppressWarnings("unchecked")
    private static List<Rate> rates(Session s, String currency) {
        List<Rate> all = s.section("interestRates").getAttribute("rates", List.class);
        return all.stream().filter(r -> r.currency().equals(currency)).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Deposit> deposits(Session s) {
        List<Deposit> d = s.section("deposits").getAttribute("opened", List.class);
        return d == null ? new ArrayList<>() : new ArrayList<>(d);
    }
}

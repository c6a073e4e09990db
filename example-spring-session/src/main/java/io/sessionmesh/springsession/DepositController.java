package io.sessionmesh.springsession;

import io.sessionmesh.springsession.Model.ClientInfo;
import io.sessionmesh.springsession.Model.Deposit;
import io.sessionmesh.springsession.Model.Offer;
import io.sessionmesh.springsession.Model.OpenRequest;
import io.sessionmesh.springsession.Model.Rate;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
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
 * The example service's deposit flow, on {@link HttpSession}: the same endpoints, the same JSON. A login makes the
 * session and answers its id (also in the X-Session-Id header); the other pages need it and answer 404 without.
 * Attributes are named {@code section.attribute}, as the example service's sections and attributes. A login inside a
 * session keeps it and gives it a new id.
 */
@RestController
@RequestMapping("/deposits")
public class DepositController {
    /** The most deposits one session opens. */
    static final int MAX_DEPOSITS = 20;
    /** The longest client id a login takes. */
    static final int MAX_CLIENT_ID = 64;
    /** What {@code GET /deposits/floor} answers, as the example service's: an offer made without the session. */
    static final Offer FLOOR = new Offer("Anna Petrova", "RUB", List.of(new Rate("RUB", 3, new BigDecimal("15.50")),
            new Rate("RUB", 6, new BigDecimal("16.20")), new Rate("RUB", 12, new BigDecimal("14.80"))));

    private final SessionSeed.Profile seed;

    public DepositController(@Value("${sessionmesh.example.seed:standard}") SessionSeed.Profile seed) {
        this.seed = seed;
    }

    /** Starts a session for a client, seeded as {@code sessionmesh.example.seed} says; answers the session id. */
    @PostMapping("/login/{clientId}")
    @ResponseStatus(HttpStatus.CREATED)
    public Map<String, String> login(@PathVariable String clientId, HttpServletRequest request) {
        if (clientId.isBlank() || clientId.length() > MAX_CLIENT_ID) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a client id is 1.." + MAX_CLIENT_ID + " characters");
        }
        HttpSession s = request.getSession(false);
        if (s != null) {
            // a login inside a session gives it a new id (session fixation), as Spring Security does
            request.changeSessionId();
        } else {
            s = request.getSession(true);
        }
        SessionSeed.attributes(clientId, seed).forEach(s::setAttribute);
        return Map.of("sessionId", s.getId());
    }

    /** The offer page: who, in which currency, at which rates. */
    @GetMapping("/offer")
    public Offer offer(HttpServletRequest request) {
        HttpSession s = session(request);
        ClientInfo client = (ClientInfo) s.getAttribute("clientInfo.client");
        String currency = (String) s.getAttribute("defaultCurrency.currency");
        return new Offer(client.firstName() + " " + client.lastName(), currency, rates(s, currency));
    }

    /** The offer's answer with no session at all: the floor a benchmark subtracts. */
    @GetMapping("/floor")
    public Offer floor() {
        return FLOOR;
    }

    /** Opens a deposit at the offered rate for the term asked for (at most {@value #MAX_DEPOSITS} a session). */
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    public Deposit open(@RequestBody OpenRequest body, HttpServletRequest request) {
        HttpSession s = session(request);
        Deposit d = quote(s, body);
        List<Deposit> deposits = deposits(s);
        if (deposits.size() >= MAX_DEPOSITS) {
            throw new ResponseStatusException(HttpStatus.CONFLICT, "a session opens at most " + MAX_DEPOSITS + " deposits");
        }
        d = new Deposit("D" + (deposits.size() + 1), d.currency(), d.amount(), d.months(), d.percent(), d.openedOn());
        deposits.add(d);
        s.setAttribute("deposits.opened", deposits);
        s.removeAttribute("deposits.draft");
        return d;
    }

    /** Keeps what the client is typing as a draft, priced at the offered rate: one attribute written. */
    @PutMapping("/draft")
    public Deposit draft(@RequestBody OpenRequest body, HttpServletRequest request) {
        HttpSession s = session(request);
        Deposit d = quote(s, body);
        s.setAttribute("deposits.draft", d);
        return d;
    }

    /** The deposits opened in this session. */
    @GetMapping
    public List<Deposit> list(HttpServletRequest request) {
        return deposits(session(request));
    }

    private static HttpSession session(HttpServletRequest request) {
        HttpSession s = request.getSession(false);
        if (s == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND,
                    "no session: the request carries no X-Session-Id, or its session expired or never existed");
        }
        return s;
    }

    private static Deposit quote(HttpSession s, OpenRequest request) {
        if (request.amount() == null || request.amount().signum() <= 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "the amount must be positive");
        }
        String currency = (String) s.getAttribute("defaultCurrency.currency");
        Rate rate = rates(s, currency).stream().filter(r -> r.months() == request.months()).findFirst()
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.BAD_REQUEST, "no rate for " + request.months() + " months"));
        return new Deposit("draft", currency, request.amount(), request.months(), rate.percent(), LocalDate.now());
    }

    @SuppressWarnings("unchecked")
    private static List<Rate> rates(HttpSession s, String currency) {
        List<Rate> all = (List<Rate>) s.getAttribute("interestRates.rates");
        return all.stream().filter(r -> r.currency().equals(currency)).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Deposit> deposits(HttpSession s) {
        List<Deposit> d = (List<Deposit>) s.getAttribute("deposits.opened");
        return d == null ? new ArrayList<>() : new ArrayList<>(d);
    }
}

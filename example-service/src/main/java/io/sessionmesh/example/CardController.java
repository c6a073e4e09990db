package io.sessionmesh.example;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.annotation.SessionSections;
import io.sessionmesh.client.spring.CurrentSession;
import io.sessionmesh.example.Model.Card;
import io.sessionmesh.example.Model.CardsView;
import io.sessionmesh.example.Model.LimitRequest;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cards page and the daily limit: reads two sections, writes two attributes of one. */
@RestController
@RequestMapping("/cards")
public class CardController {
    /** The highest daily limit a client may set, in any currency. */
    static final BigDecimal MAX_DAILY_LIMIT = new BigDecimal("10000000");

    private final CurrentSession session;

    public CardController(CurrentSession session) {
        this.session = session;
    }

    /** The client's cards and daily limits. */
    @GetMapping
    @SessionSections({"cards", "limits"})
    public CardsView cards() {
        Session s = session.get();
        return new CardsView(cards(s), limits(s));
    }

    /** Sets the daily limit of one currency: writes the limits and when they changed. */
    @PutMapping("/limit")
    @SessionSections("limits")
    public Map<String, BigDecimal> setLimit(@RequestBody LimitRequest request) {
        if (request.currency() == null || !request.currency().matches("[A-Z]{3}")) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "the currency must be three capital letters");
        }
        if (request.amount() == null || request.amount().signum() <= 0 || request.amount().compareTo(MAX_DAILY_LIMIT) > 0) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "the amount must be above 0 and at most " + MAX_DAILY_LIMIT);
        }
        Session s = session.get();
        Map<String, BigDecimal> limits = new LinkedHashMap<>(limits(s));
        limits.put(request.currency(), request.amount());
        s.section("limits").setAttribute("daily", limits);
        s.section("limits").setAttribute("updatedOn", LocalDate.now());
        return limits;
    }

    @SuppressWarnings("unchecked")
    private static List<Card> cards(Session s) {
        List<Card> cards = s.section("cards").getAttribute("list", List.class);
        return cards == null ? List.of() : cards;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, BigDecimal> limits(Session s) {
        Map<String, BigDecimal> limits = s.section("limits").getAttribute("daily", Map.class);
        return limits == null ? Map.of() : limits;
    }
}

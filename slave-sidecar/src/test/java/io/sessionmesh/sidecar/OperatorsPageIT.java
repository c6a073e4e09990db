package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.testing.Await;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The operators' page ({@code GET /admin/}) in Debian's headless Chromium, driven through its chromedriver, against a
 * real master and a real sidecar with an admin token: without the token the page says so; with a wrong one it says it
 * was refused; with the right one it shows what {@code /admin/stats} and {@code /admin/health} say (requests by
 * operation, hits and misses, hit ratio, cache, latency, masters, errors) and draws its charts from polls during real
 * traffic. Its style block runs under the policy (no violation is logged), and a screenshot at 1280x900 is kept in
 * {@code target/screenshots/operators-page.png}. Without chromium and chromedriver the test fails: .ci/run installs
 * them. Selenium Manager is never asked for anything: both paths are given.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the token states in turn: none, wrong, right
class OperatorsPageIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOT = Path.of("target/screenshots/operators-page.png");
    static final String TOKEN = "operators-page-it-0123456789abcdef";
    /** Long enough for any poll (every 2 s) on a loaded machine: a wait, never a measured time. */
    static final Duration WAIT = Duration.ofSeconds(60);
    /** Polls made during traffic, one burst each: the requests/s chart gets a point per poll. */
    static final int BURSTS = 6;

    static MasterServer master;
    static SidecarServer sidecar;
    static ChromeDriver browser;
    static Path profile;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** /admin/stats read before the page was opened. */
    static String before;

    @BeforeAll
    static void start() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER), "OperatorsPageIT needs "
                + CHROMIUM + " and " + CHROMEDRIVER + ": install Debian's packages chromium and chromium-driver "
                + "(apt-get install --no-install-recommends chromium chromium-driver; .ci/run does)");
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "admin-token", TOKEN)));
        TestHttp.awaitHealthy(sidecar);
        traffic(0);
        missingSession();
        before = stats();

        profile = Files.createTempDirectory("operators-page-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        // --window-size is the window's; the page is looked at (and the screenshot taken) in a 1280x900 viewport
        long frame = (Long) script("return window.outerHeight - window.innerHeight");
        browser.manage().window().setSize(new Dimension(1280, 900 + (int) frame));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (sidecar != null) {
            sidecar.close();
        }
        if (master != null) {
            master.close();
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    @Order(1)
    void page_withoutToken_bannerAsksForTheToken_andNoFigureIsShown() {
        browser.get(admin("/admin/").toString());
        awaitState("unauthorized");
        WebElement banner = figure("error");
        assertTrue(banner.isDisplayed());
        assertTrue(banner.getText().contains("This sidecar has an admin token: enter it above") && banner.getText().contains("401"),
                banner.getText());
        assertEquals("—", figure("hit_ratio").getText());
        assertEquals("rgb(24, 32, 46)", script("return getComputedStyle(document.querySelector('header')).backgroundColor"),
                "the page's style block ran under its Content-Security-Policy");
    }

    @Test
    @Order(2)
    void page_wrongToken_bannerSaysItWasRefused_andTheTokenStaysOutOfTheUrl() {
        useToken("not-the-token");
        Await.until("the banner to say the token was refused", WAIT,
                () -> figure("error").getText().contains("The sidecar refused the admin token (401)"));
        assertTrue(figure("error").isDisplayed());
        assertEquals(admin("/admin/").toString(), browser.getCurrentUrl());
        assertEquals("not-the-token", script("return sessionStorage.getItem('sessionmesh.admin.token')"));
    }

    @Test
    @Order(3)
    void page_rightToken_showsWhatAdminStatsSays_andDrawsItsCharts() throws Exception {
        useToken(TOKEN);
        awaitState("ok");
        assertFalse(figure("error").isDisplayed(), "the banner is gone");
        assertTrue(value("requests.read") >= number(before, "read"), "the page's count is at least the one read before");

        for (int burst = 1; burst <= BURSTS; burst++) {
            int polled = polls();
            traffic(burst);
            Await.until("a poll after burst " + burst, WAIT, () -> polls() > polled + 1);
        }
        // Traffic has stopped: a poll that starts after this read of /admin/stats shows the same figures.
        String stats = stats();
        int polled = polls();
        Await.until("a poll after the last read of /admin/stats", WAIT, () -> polls() > polled + 1);
        awaitState("ok");

        Matcher ops = Pattern.compile("\"([a-z_]+)\":(\\d+)").matcher(object(stats, "requests"));
        int operations = 0;
        while (ops.find()) {
            operations++;
            assertEquals(Long.parseLong(ops.group(2)), value("requests." + ops.group(1)), ops.group(1));
        }
        assertEquals(io.sessionmesh.sidecar.metrics.SidecarMetrics.Op.values().length, operations, stats); // every operation shown
        assertTrue(number(stats, "read") > number(before, "read"), "reads were made while the page was open");
        long hits = number(stats, "hits");
        long misses = number(stats, "misses");
        assertTrue(hits > 0 && misses > 0, stats);
        assertEquals(hits, value("hits"));
        assertEquals(misses, value("misses"));
        assertEquals(number(stats, "partial_hits"), value("partial_hits"));
        double ratio = Double.parseDouble(field(stats, "hit_ratio"));
        assertEquals(String.format(Locale.ROOT, "%.2f%%", ratio * 100), figure("hit_ratio").getText());
        String cache = object(stats, "cache");
        assertEquals(number(cache, "entries"), value("cache_entries"));
        assertEquals(number(cache, "bytes"), value("cache_bytes"));
        assertTrue(value("cache_entries") > BURSTS, cache);

        long p50 = value("master_latency_p50");
        long p99 = value("master_latency_p99");
        long p999 = value("master_latency_p999");
        long max = value("master_latency_max");
        assertTrue(0 < p50 && p50 <= p99 && p99 <= p999 && p999 <= max, p50 + " " + p99 + " " + p999 + " " + max);
        assertTrue(figure("master_latency_p99").getText().matches("[0-9.,]+ (µs|ms|s)"), figure("master_latency_p99").getText());
        for (String f : List.of("invalidation_delay_p50", "invalidation_delay_p99", "invalidation_delay_max", "invalidations_received")) {
            assertTrue(value(f) >= 0, f);
        }

        Map<String, Long> errors = counts(object(stats, "errors"));
        assertEquals(1L, errors.get("NOT_FOUND"), "the read of a session that does not exist: " + stats);
        for (Map.Entry<String, Long> e : errors.entrySet()) {
            assertEquals(e.getValue(), value("errors." + e.getKey()), e.getKey());
        }
        assertEquals(errors.values().stream().mapToLong(Long::longValue).sum(), value("errors_total"));

        String address = "127.0.0.1:" + master.address().getPort();
        WebElement row = browser.findElement(By.cssSelector("tr[data-figure='master'][data-address='" + address + "']"));
        assertEquals("UP", row.findElement(By.cssSelector("[data-figure='master_status']")).getText());
        assertEquals("valid", row.findElement(By.cssSelector("[data-figure='master_lease']")).getText());
        assertEquals("1 / 1", figure("masters_up").getText());
        assertEquals("UP", figure("status").getText());

        for (String chart : List.of("hit_ratio", "requests_per_second", "master_latency_p99")) {
            List<String> drawn = chart(chart);
            int points = Integer.parseInt(drawn.get(0));
            assertTrue(points >= BURSTS, chart + ": " + points + " points");
            String line = drawn.get(1);
            assertEquals(points, line.trim().split(" ").length, chart + ": " + line);
        }
        String rates = chart("requests_per_second").get(1);
        assertTrue(Stream.of(rates.split(" ")).map(p -> p.split(",")[1]).distinct().count() > 1,
                "the requests/s line is drawn at more than one height: " + rates);

        List<String> violations = browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy")).toList();
        assertEquals(List.of(), violations);

        byte[] png = browser.getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(SCREENSHOT, png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(1280, image.getWidth(), "the viewport the page is checked at");
        assertEquals(900, image.getHeight(), "the viewport the page is checked at");
        assertEquals(0L, script("return window.scrollY"), "the screenshot is the page's top");
        assertTrue((Long) script("return document.documentElement.scrollHeight") <= 900, "the page fits 1280x900 without scrolling");
    }

    /** What the admin port answers outside a browser: HEAD, the redirect, 405, 404 and the 401 of a figure. */
    @Test
    @Order(4)
    void adminPort_headRedirectWrongMethodAndUnknownPath() throws Exception {
        HttpResponse<String> get = send(HttpRequest.newBuilder(admin("/admin/")).GET());
        assertEquals(200, get.statusCode());
        assertEquals("text/html; charset=utf-8", get.headers().firstValue("content-type").orElse(""));
        HttpResponse<String> head = send(HttpRequest.newBuilder(admin("/admin/page.js")).method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        long length = send(HttpRequest.newBuilder(admin("/admin/page.js")).GET()).body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertEquals(String.valueOf(length), head.headers().firstValue("content-length").orElse(""));
        HttpResponse<String> bare = send(HttpRequest.newBuilder(admin("/admin")).GET());
        assertEquals(301, bare.statusCode());
        assertEquals("/admin/", bare.headers().firstValue("location").orElse(""));
        HttpResponse<String> post = send(HttpRequest.newBuilder(admin("/admin/")).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("allow").orElse(""));
        HttpResponse<String> unknown = send(HttpRequest.newBuilder(admin("/admin/page.css")).header("Authorization", "Bearer " + TOKEN).GET());
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().startsWith("{\"error\":\"NOT_FOUND\""), unknown.body());
        assertEquals(401, send(HttpRequest.newBuilder(admin("/admin/stats")).GET()).statusCode());
    }

    // ---- the browser ----

    static void useToken(String token) {
        WebElement field = browser.findElement(By.id("token"));
        field.clear();
        field.sendKeys(token);
        browser.findElement(By.cssSelector("#token-form button[type='submit']")).click();
    }

    static WebElement figure(String name) {
        return browser.findElement(By.cssSelector("[data-figure='" + name + "']"));
    }

    /** A figure's raw value (its data-value). */
    static long value(String name) {
        String v = figure(name).getAttribute("data-value");
        assertTrue(v != null && !v.isEmpty(), "figure " + name + " has no value");
        return Long.parseLong(v);
    }

    static Object script(String js) {
        return ((JavascriptExecutor) browser).executeScript(js);
    }

    static int polls() {
        return Integer.parseInt(browser.findElement(By.tagName("body")).getAttribute("data-polls"));
    }

    /**
     * A chart's point count and its line's points, read in one script: the page redraws its charts at every poll, so
     * two reads through the driver may see two drawings (or a line already replaced).
     */
    @SuppressWarnings("unchecked")
    static List<String> chart(String name) {
        return (List<String>) ((JavascriptExecutor) browser).executeScript("const svg = document.querySelector("
                + "`svg[data-chart='${arguments[0]}']`); return [svg.getAttribute('data-points'), "
                + "svg.querySelector('polyline.line').getAttribute('points')];", name);
    }

    static void awaitState(String state) {
        Await.until("the page's state " + state, WAIT,
                () -> state.equals(browser.findElement(By.tagName("body")).getAttribute("data-state")));
    }

    // ---- the sidecar ----

    /** Sessions written and read: a create, writes, a read of a written section (a hit) and of another (a miss). */
    static void traffic(int burst) throws Exception {
        for (int s = 0; s <= burst % 3; s++) {
            String id = TestHttp.createSession(http, api("/v1/sessions"));
            for (int w = 0; w < 1 + burst % 2; w++) {
                HttpResponse<String> write = send(HttpRequest.newBuilder(api("/v1/sessions/" + id))
                        .header("Content-Type", "application/json").method("PATCH",
                                HttpRequest.BodyPublishers.ofString("{\"sections\": {\"cart\": {\"set\": {\"n\": \"Kg==\"}}}}")));
                assertEquals(200, write.statusCode(), write.body());
            }
            for (int r = 0; r < 1 + burst; r++) {
                assertEquals(200, send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=cart")).GET()).statusCode());
            }
            assertEquals(200, send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=user")).GET()).statusCode());
        }
    }

    /** One read answered NOT_FOUND, for the errors table. */
    static void missingSession() throws Exception {
        assertEquals(404, send(HttpRequest.newBuilder(api("/v1/sessions/no-such-session-0000?sections=cart")).GET()).statusCode());
    }

    static String stats() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(admin("/admin/stats")).header("Authorization", "Bearer " + TOKEN).GET());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    /** The text of a JSON field's value (a number, true/false), found by its name in a flat stretch of JSON. */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("(?:^|[{,])\"" + Pattern.quote(name) + "\":([-0-9.eE]+|true|false)").matcher(json);
        if (!m.find()) {
            fail("no field " + name + " in " + json);
        }
        return m.group(1);
    }

    static long number(String json, String name) {
        return Long.parseLong(field(json, name));
    }

    /** The inside of a JSON object without nested objects, found by its name. */
    static String object(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":\\{([^{}]*)}").matcher(json);
        if (!m.find()) {
            fail("no object " + name + " in " + json);
        }
        return m.group(1);
    }

    static Map<String, Long> counts(String inside) {
        Map<String, Long> m = new LinkedHashMap<>();
        Matcher e = Pattern.compile("\"([A-Z_]+)\":(\\d+)").matcher(inside);
        while (e.find()) {
            m.put(e.group(1), Long.parseLong(e.group(2)));
        }
        return m;
    }

    static URI api(String path) {
        return URI.create("http://127.0.0.1:" + sidecar.address().getPort() + path);
    }

    static URI admin(String path) {
        return URI.create("http://127.0.0.1:" + sidecar.adminAddress().getPort() + path);
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}

package io.sessionmesh.benchmarks.driver.load;

import io.netty.handler.codec.http.HttpMethod;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HttpLoad} against {@link FakeApp}s on loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpLoadTest {
    @Test
    void closedLoop_answersAndLatencyByKind_non2xxAnErrorWithItsBody() throws Exception {
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            AtomicInteger n = new AtomicInteger();
            load.closedLoop(3, random -> n.incrementAndGet() % 4 == 0
                    ? Request.of("fail", HttpMethod.GET, "/fail", 0, null, null)
                    : Request.of("ok", HttpMethod.PUT, "/ok", 0, "S1", "{\"a\":1}".getBytes()));
            Thread.sleep(300);
            load.stop();
            Map<String, Histogram> interval = load.interval();
            long ok = interval.get("ok").getTotalCount();
            long failed = interval.get("fail").getTotalCount();
            assertTrue(ok > 10 && failed > 3, interval.keySet() + " ok " + ok + " fail " + failed);
            assertEquals(ok + failed, interval.get(HttpLoad.ALL).getTotalCount());
            assertEquals(load.answers(), ok + failed);
            assertEquals(Map.of("fail 500", failed), load.errors());
            assertTrue(load.firstError().startsWith("fail 500: broken"), load.firstError());
            assertEquals(app.requests.get(), load.answers(), "one request outstanding a connection, all answered");
        }
    }

    @Test
    void closedLoop_finiteTraffic_completesWhenEveryUserRanOut() throws Exception {
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            AtomicInteger left = new AtomicInteger(25);
            load.closedLoop(4, random -> left.getAndDecrement() > 0 ? Request.of("ok", HttpMethod.GET, "/ok", 0, null, null)
                    : null).get(30, TimeUnit.SECONDS);
            assertEquals(25, load.answers());
            assertEquals(0, load.errorCount());
        }
    }

    @Test
    void openLoop_latencyCountsFromTheIntendedTime_soAStackThatFallsBehindIsChargedForTheWait() throws Exception {
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            // 20 ms a request (and more: the JDK server answers in two writes), one at a time: under 50 a second,
            // offered 100 a second for a second
            load.openLoop(100, random -> Request.of("slow", HttpMethod.GET, "/slow", 0, null, null), 1);
            Thread.sleep(1000);
            load.stop();
            Histogram h = load.interval().get("slow");
            assertTrue(h.getTotalCount() >= 10, "answers " + h.getTotalCount());
            // served in 20 ms each, yet the last waited most of the second behind the others
            assertTrue(h.getMaxValue() > 200_000, "max " + h.getMaxValue() + " us");
            assertEquals(0, load.errorCount(), String.valueOf(load.errors()));
        }
    }

    @Test
    void hosts_eachRequestOnItsHost() throws Exception {
        try (FakeApp a = new FakeApp(); FakeApp b = new FakeApp();
             HttpLoad load = new HttpLoad(List.of(a.address(), b.address()))) {
            AtomicInteger n = new AtomicInteger();
            load.closedLoop(2, random -> n.get() < 30 ? Request.of("ok", HttpMethod.GET, "/ok", n.getAndIncrement() % 3 == 0
                    ? 1 : 0, null, null) : null).get(30, TimeUnit.SECONDS);
            assertEquals(20, a.requests.get());
            assertEquals(10, b.requests.get());
        }
    }

    @Test
    void connectionRefused_anErrorOfItsKind_andTheUserGoesOn() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (HttpLoad load = new HttpLoad(List.of(new java.net.InetSocketAddress("127.0.0.1", port)))) {
            AtomicInteger left = new AtomicInteger(2);
            load.closedLoop(1, random -> left.getAndDecrement() > 0 ? Request.of("ok", HttpMethod.GET, "/ok", 0, null, null)
                    : null).get(30, TimeUnit.SECONDS);
            assertEquals(Map.of("ok connect", 2L), load.errors());
            assertEquals(0, load.answers());
        }
    }
}

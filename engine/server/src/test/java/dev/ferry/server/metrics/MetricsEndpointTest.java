package dev.ferry.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.DaemonThreads;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The metrics endpoint alone on a free port, against clients that stall, flood, send too much or the wrong thing: scrapes
 * are still answered within seconds, and what they are answered with is what Prometheus' own server answered.
 */
@Tag("integration")
class MetricsEndpointTest {
    private static final Duration SCRAPE_WITHIN = Duration.ofSeconds(2);
    /** Heads a client never finishes: cut in the request line, between headers, inside one. */
    private static final List<String> HALF_HEADS = List.of("G", "GET /metr", "GET /metrics HTTP/1.1",
            "GET /metrics HTTP/1.1\r\n", "GET /metrics HTTP/1.1\r\nHost: a\r\n", "GET /metrics HTTP/1.1\r\nX-Slow: a",
            "GET /metrics HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r", "HEAD / HTTP/1.1\r\nHost:");

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(SCRAPE_WITHIN).build();
    private final List<RawHttp> raw = new ArrayList<>();
    private MetricsEndpoint endpoint;

    @BeforeEach
    void countSomething() {
        Counter.builder().name("ferry_test_events").help("events counted by the test").register(registry).inc(3);
    }

    @AfterEach
    void close() throws IOException {
        for (RawHttp connection : raw) {
            connection.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }

    private int start(UnaryOperator<MetricsConfig.Builder> settings) {
        MetricsConfig config = settings.apply(MetricsConfig.builder().exporterType(MetricsConfig.ExporterType.PROM)
                .host("127.0.0.1").port(0)).build();
        endpoint = MetricsEndpoint.start(config, registry, new DaemonThreads("metrics-test"));
        return endpoint.port();
    }

    private RawHttp connect(int port) throws IOException {
        RawHttp connection = new RawHttp(port);
        raw.add(connection);
        return connection;
    }

    private List<RawHttp> stall(int port, int count) throws IOException {
        List<RawHttp> stalled = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            stalled.add(connect(port).send(HALF_HEADS.get(i % HALF_HEADS.size())));
        }
        return stalled;
    }

    private HttpResponse<String> scrape(int port) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(SCRAPE_WITHIN).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String request(String method, String target, String... headers) {
        return method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + String.join("", headers) + "\r\n";
    }

    @Test
    void shouldAnswerConcurrentScrapesWithinSecondsWhileEightConnectionsStallInTheirHeaders() throws Exception {
        int port = start(b -> b.headerTimeout(Duration.ofSeconds(60)));
        List<RawHttp> stalled = stall(port, 8);

        List<CompletableFuture<HttpResponse<String>>> scrapes = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // four clients at once, each on its own connection
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            scrapes.add(client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(SCRAPE_WITHIN).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)));
        }
        for (CompletableFuture<HttpResponse<String>> answered : scrapes) {
            HttpResponse<String> response = answered.get(SCRAPE_WITHIN.toMillis() * 2, TimeUnit.MILLISECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("ferry_test_events_total 3.0");
        }
        // the stalled ones are still held: served around, not closed to make room
        assertThat(stalled).noneMatch(RawHttp::closedByServer);
    }

    @Test
    void shouldCloseConnectionsThatSendNoWholeRequestWithinTheHeaderDeadline() throws Exception {
        Duration headerTimeout = Duration.ofMillis(500);
        int port = start(b -> b.headerTimeout(headerTimeout));
        long opened = System.nanoTime();
        List<RawHttp> stalled = stall(port, 8);
        stalled.add(connect(port)); // says nothing at all
        RawHttp trickling = connect(port).send("GET /metrics HTTP/1.1\r\nX-Trickle: ");
        stalled.add(trickling);

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            trickling.send("a"); // a byte at a time does not buy time
            return stalled.stream().allMatch(RawHttp::closedByServer);
        });
        assertThat(Duration.ofNanos(System.nanoTime() - opened)).isGreaterThanOrEqualTo(headerTimeout);
        assertThat(scrape(port).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldKeepAConnectionAliveBetweenScrapesAndCloseItOnceIdleForTheIdleTimeout() throws Exception {
        int port = start(b -> b.idleTimeout(Duration.ofMillis(800)).headerTimeout(Duration.ofSeconds(60)));
        RawHttp connection = connect(port);

        for (int i = 0; i < 3; i++) {
            RawHttp.Response response = connection.send(request("GET", "/metrics")).read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.text()).contains("ferry_test_events_total 3.0");
        }
        await().atMost(Duration.ofSeconds(10)).until(connection::closedByServer);
    }

    @Test
    void shouldAnswerTheFirstOfPipelinedScrapesAndThenCloseTheConnection() throws Exception {
        int port = start(b -> b);
        RawHttp connection = connect(port).send(request("GET", "/metrics") + request("GET", "/metrics"));

        RawHttp.Response first = connection.read();

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.headers()).containsEntry("connection", "close");
        assertThat(connection.closedByServer(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void shouldGiveTheNextRequestOnAKeptAliveConnectionTheHeaderDeadline() throws Exception {
        int port = start(b -> b.idleTimeout(Duration.ofSeconds(60)).headerTimeout(Duration.ofMillis(300)));
        RawHttp connection = connect(port);
        assertThat(connection.send(request("GET", "/metrics")).read().status()).isEqualTo(200);

        connection.send("GET /metrics HTTP/1.1\r\nHost: a");

        await().atMost(Duration.ofSeconds(10)).until(connection::closedByServer);
    }

    @Test
    void shouldCloseTheOldestStalledConnectionsBeyondTheCapAndKeepAnsweringScrapes() throws Exception {
        int port = start(b -> b.maxConnections(4).headerTimeout(Duration.ofSeconds(60)));

        List<RawHttp> stalled = stall(port, 8);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> stalled.subList(0, 4).stream().allMatch(RawHttp::closedByServer));
        assertThat(stalled.subList(4, 8)).noneMatch(RawHttp::closedByServer);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = scrape(port);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("ferry_test_events_total 3.0");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> stalled.get(4).closedByServer()); // made room for it
    }

    @Test
    void shouldRefuseANewConnectionOnlyWhenEveryConnectionIsBeingAnswered() throws Exception {
        CountDownLatch slow = new CountDownLatch(1);
        CountDownLatch collecting = new CountDownLatch(2);
        GaugeWithCallback.builder().name("ferry_test_slow").help("a gauge slow to read").callback(gauge -> {
            collecting.countDown();
            try {
                slow.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            gauge.call(1);
        }).register(registry);
        int port = start(b -> b.maxConnections(2).scrapeThreads(2));
        RawHttp first = connect(port).send(request("GET", "/metrics"));
        RawHttp second = connect(port).send(request("GET", "/metrics"));
        assertThat(collecting.await(10, TimeUnit.SECONDS)).isTrue(); // both are being answered

        RawHttp third = connect(port);
        assertThat(third.closedByServer(Duration.ofSeconds(5))).isTrue();
        assertThat(first.closedByServer()).isFalse();
        assertThat(second.closedByServer()).isFalse();

        slow.countDown();
        assertThat(first.read().status()).isEqualTo(200);
        assertThat(second.read().status()).isEqualTo(200);
        assertThat(scrape(port).statusCode()).isEqualTo(200); // the idle ones now make room
    }

    @Test
    void shouldRefuseARequestHeadLongerThanMetricsMaxHeaderBytes() throws Exception {
        int port = start(b -> b.maxHeaderBytes(1024));

        RawHttp bigHeader = connect(port).send(request("GET", "/metrics", "X-Big: " + "a".repeat(2000) + "\r\n"));
        assertThat(bigHeader.read().status()).isEqualTo(431);
        assertThat(bigHeader.closedByServer(Duration.ofSeconds(5))).isTrue();

        RawHttp manyHeaders = connect(port).send(request("GET", "/metrics", "X-A: 1\r\n".repeat(200)));
        assertThat(manyHeaders.read().status()).isEqualTo(431);

        RawHttp bigLine = connect(port).send(request("GET", "/metrics?name[]=" + "a".repeat(2000)));
        assertThat(bigLine.read().status()).isEqualTo(414);
        assertThat(bigLine.closedByServer(Duration.ofSeconds(5))).isTrue();

        RawHttp justUnder = connect(port).send(request("GET", "/metrics", "X-Big: " + "a".repeat(900) + "\r\n"));
        assertThat(justUnder.read().status()).isEqualTo(200);
        assertThat(scrape(port).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldRefuseOtherMethodsOtherPathsBodiesAndGarbageAndCloseTheConnection() throws Exception {
        int port = start(b -> b);

        for (String method : List.of("POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE")) {
            RawHttp connection = connect(port).send(request(method, "/metrics", "Content-Length: 0\r\n"));
            RawHttp.Response response = connection.read();
            assertThat(response.status()).as(method).isEqualTo(405);
            assertThat(response.headers()).containsEntry("allow", "GET, HEAD");
            assertThat(connection.closedByServer(Duration.ofSeconds(5))).as(method).isTrue();
        }
        for (String path : List.of("/metricsx", "/metrics/", "/admin", "/-/ready", "/metrics/../etc")) {
            assertThat(connect(port).send(request("GET", path)).read().status()).as(path).isEqualTo(404);
        }
        assertThat(connect(port).send(request("GET", "/metrics", "Content-Length: 4\r\n") + "abcd").read().status())
                .isEqualTo(413);
        assertThat(connect(port).send(request("GET", "/metrics", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n")
                .read().status()).isEqualTo(413);
        assertThat(connect(port).send("CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n").read().status()).isEqualTo(400);
        assertThat(connect(port).send("HELLO\r\n\r\n").read().status()).isEqualTo(400);
        for (String view : List.of("prometheus-protobuf", "%3Cb%3E", "%zz")) { // Prometheus' server: 500, echoing it
            assertThat(connect(port).send(request("GET", "/metrics?debug=" + view)).read().status()).as(view)
                    .isEqualTo(400);
        }
        assertThat(connect(port).send("GET /metrics HTTP/9.9\r\n\r\n").read().status()).isEqualTo(505);
        assertThat(connect(port).send(request("GET", "/metrics", "Bad Header\r\n")).read().status()).isEqualTo(400);
        assertThat(scrape(port).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswerEveryFormatAndPageAsPrometheusOwnServerDid() throws Exception {
        int port = start(b -> b);
        try (HTTPServer before = HTTPServer.builder().hostname("127.0.0.1").port(0).registry(registry)
                .buildAndStart()) {
            for (String[] asked : new String[][] {
                {"/metrics"},
                {"/metrics", "Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8"},
                {"/metrics", "Accept", "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"},
                {"/metrics", "Accept-Encoding", "gzip"},
                {"/metrics", "Accept", "application/openmetrics-text; version=1.0.0", "Accept-Encoding", "gzip"},
                {"/metrics?name[]=ferry_test_events_total"},
                {"/metrics?name[]=nothing_of_that_name"},
                {"/metrics?debug=openmetrics"},
                {"/metrics?debug=text"},
                {"/-/healthy"}}) {
                HttpResponse<byte[]> ferry = get(port, asked);
                HttpResponse<byte[]> prometheus = get(before.getPort(), asked);
                assertThat(ferry.statusCode()).as(String.join(" ", asked)).isEqualTo(prometheus.statusCode());
                for (String header : List.of("content-type", "content-encoding")) {
                    assertThat(ferry.headers().firstValue(header)).as(header + " of " + String.join(" ", asked))
                            .isEqualTo(prometheus.headers().firstValue(header));
                }
                assertThat(text(ferry)).as(String.join(" ", asked)).isEqualTo(text(prometheus));
            }
        }
        assertThat(text(get(port, "/metrics"))).contains("ferry_test_events_total 3.0");
        HttpResponse<byte[]> index = get(port, "/");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(new String(index.body(), StandardCharsets.UTF_8)).contains("/metrics");
    }

    @Test
    void shouldAnswerHeadWithTheLengthOfGetAndNoBody() throws Exception {
        int port = start(b -> b);
        RawHttp connection = connect(port);

        RawHttp.Response get = connection.send(request("GET", "/metrics")).read();
        RawHttp.Response head = connection.send(request("HEAD", "/metrics")).read(true);
        RawHttp.Response again = connection.send(request("GET", "/metrics")).read(); // nothing stray came between

        assertThat(head.status()).isEqualTo(200);
        assertThat(head.headers()).containsEntry("content-length", String.valueOf(get.body().length))
                .containsEntry("content-type", get.headers().get("content-type"));
        assertThat(again.text()).isEqualTo(get.text());
    }

    private HttpResponse<byte[]> get(int port, String... pathAndHeaders) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + pathAndHeaders[0])).timeout(SCRAPE_WITHIN);
        for (int i = 1; i < pathAndHeaders.length; i += 2) {
            request.header(pathAndHeaders[i], pathAndHeaders[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> response) {
        boolean gzip = response.headers().firstValue("content-encoding").filter("gzip"::equals).isPresent();
        try {
            byte[] body = gzip ? new GZIPInputStream(new ByteArrayInputStream(response.body())).readAllBytes()
                    : response.body();
            return new String(body, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

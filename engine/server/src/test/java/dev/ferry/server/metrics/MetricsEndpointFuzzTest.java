package dev.ferry.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.DaemonThreads;
import dev.ferry.format.RoundBudget;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Malformed HTTP thrown at the metrics endpoint: valid requests mutated at random (bytes flipped, cut, repeated,
 * inserted, long runs, line breaks) and plain garbage, 500 connections (1,500 with the long test budget) sixteen at a time
 * ({@code -Dferry.fuzz.metricsCases=N} and {@code -Dferry.fuzz.seed=S} for longer or other runs). Each connection is
 * answered with a well-formed status the endpoint gives, or closed without a word, within the endpoint's deadlines; never
 * a 500, never left hanging; and a scrape is answered afterwards.
 */
@Tag("integration")
class MetricsEndpointFuzzTest {
    private static final int CASES = RoundBudget.rounds(500, 1_500);
    private static final Duration DEADLINE = Duration.ofMillis(300);
    /** Statuses the endpoint may give a request it was thrown. */
    private static final Set<Integer> EXPECTED = Set.of(200, 400, 404, 405, 413, 414, 431, 505);
    private static final List<String> TEMPLATES = List.of(
            "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "HEAD /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n",
            "GET /metrics?name[]=ferry_fuzz_events_total&debug=text HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /metrics HTTP/1.1\r\nHost: a\r\nAccept: application/openmetrics-text; version=1.0.0\r\n"
                    + "Accept-Encoding: gzip, deflate\r\nConnection: close\r\n\r\n",
            "GET /-/healthy HTTP/1.0\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
            "POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc",
            "GET /metrics HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");

    @Test
    void shouldAnswerOrCloseEveryMalformedRequestAndKeepServingScrapes() throws Exception {
        int cases = Integer.getInteger("ferry.fuzz.metricsCases", CASES);
        long seed = Long.getLong("ferry.fuzz.seed", 20261205L);
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter.builder().name("ferry_fuzz_events").help("events").register(registry).inc();
        MetricsConfig config = MetricsConfig.builder().exporterType(MetricsConfig.ExporterType.PROM).host("127.0.0.1")
                .port(0).headerTimeout(DEADLINE).idleTimeout(DEADLINE).maxConnections(64).maxHeaderBytes(2048)
                .build();
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(16, new DaemonThreads("fuzz-client"));
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(config, registry, new DaemonThreads("fuzz"))) {
            Random random = new Random(seed);
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < cases; i++) {
                byte[] input = mutated(random);
                sent.add(clients.submit(() -> {
                    String answer = exchange(endpoint.port(), input);
                    int status = status(answer);
                    assertThat(status).as("answer to %s: %s", printable(input), printable(answer))
                            .matches(s -> s == 0 || EXPECTED.contains(s));
                    statuses.merge(status, 1, Integer::sum);
                    return null;
                }));
            }
            for (Future<?> done : sent) {
                done.get(60, TimeUnit.SECONDS);
            }

            HttpResponse<String> scrape = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("ferry_fuzz_events_total 1.0");
        } finally {
            clients.shutdownNow();
        }
        // the inputs reached every path: served, refused, and closed without an answer
        assertThat(new TreeMap<>(statuses)).containsKeys(0, 200, 400, 404, 405);
    }

    /**
     * Sends {@code input} on a connection of its own and reads until the server closes it, which must happen within
     * the deadlines (kept-alive answers are closed by the idle timeout).
     */
    private static String exchange(int port, byte[] input) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(5_000);
            try {
                socket.getOutputStream().write(input);
                socket.getOutputStream().flush();
            } catch (IOException e) {
                return ""; // closed while sending: refused before the rest arrived
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] chunk = new byte[8192];
            try {
                for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                    received.write(chunk, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("connection neither answered nor closed within 5 s: " + printable(input), e);
            } catch (IOException e) {
                // reset after a refusal: what arrived before counts
            }
            return received.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** The status of the first answer, 0 for none; -1 for something that is not an HTTP status line. */
    private static int status(String answer) {
        if (answer.isEmpty()) {
            return 0;
        }
        if (!answer.startsWith("HTTP/1.1 ") && !answer.startsWith("HTTP/1.0 ") || answer.length() < 12) {
            return -1;
        }
        try {
            return Integer.parseInt(answer.substring(9, 12));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static byte[] mutated(Random random) {
        if (random.nextInt(10) == 0) { // plain garbage
            byte[] garbage = new byte[1 + random.nextInt(3000)];
            random.nextBytes(garbage);
            return garbage;
        }
        byte[] input = TEMPLATES.get(random.nextInt(TEMPLATES.size())).getBytes(StandardCharsets.ISO_8859_1);
        for (int mutations = random.nextInt(4); mutations >= 0; mutations--) {
            input = mutate(input, random);
        }
        return input;
    }

    private static byte[] mutate(byte[] input, Random random) {
        int at = random.nextInt(input.length + 1);
        return switch (random.nextInt(7)) {
            case 0 -> { // flip a byte
                byte[] flipped = input.clone();
                if (flipped.length > 0) {
                    flipped[Math.min(at, flipped.length - 1)] = (byte) random.nextInt(256);
                }
                yield flipped;
            }
            case 1 -> splice(input, at, randomBytes(random, 1 + random.nextInt(16)));
            case 2 -> { // cut a range out
                int end = Math.min(input.length, at + 1 + random.nextInt(32));
                yield concat(Arrays.copyOf(input, at), Arrays.copyOfRange(input, end, input.length));
            }
            case 3 -> Arrays.copyOf(input, at); // cut short: the rest never comes
            case 4 -> splice(input, at, "a".repeat(1 + random.nextInt(4000)).getBytes(StandardCharsets.US_ASCII));
            case 5 -> splice(input, at, random.nextBoolean() ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
            default -> { // repeat a range
                int end = Math.min(input.length, at + random.nextInt(64));
                yield splice(input, at, Arrays.copyOfRange(input, at, end));
            }
        };
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] splice(byte[] input, int at, byte[] inserted) {
        return concat(concat(Arrays.copyOf(input, at), inserted), Arrays.copyOfRange(input, at, input.length));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    private static String printable(byte[] bytes) {
        return printable(new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.ISO_8859_1));
    }

    private static String printable(String text) {
        StringBuilder shown = new StringBuilder();
        for (char c : text.substring(0, Math.min(text.length(), 200)).toCharArray()) {
            shown.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return shown.toString();
    }
}

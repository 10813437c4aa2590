package dev.ferry.liberty.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.liberty.bench.apps.FerryBenchMdb;
import dev.ferry.liberty.support.Engine;
import dev.ferry.liberty.support.Http;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployer;

/**
 * The rounds the benchmarks on the ferry-bench server share: load a backlog (Ferry's from a producer outside the
 * server, JMS's through the bench-loader application inside it), then deploy a bean and time its first to its last
 * delivery.
 */
final class BenchRounds {
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(10);
    private static final int LOAD_CHUNK = 5_000;

    private final Deployer deployer;
    private final Http http;

    BenchRounds(Deployer deployer, Http http) {
        this.deployer = deployer;
        this.http = http;
    }

    /** Loads {@code count} 1 KiB messages into the embedded engine, then times bean {@code app} draining them. */
    double ferry(Engine engine, String app, int count) {
        byte[] body = new byte[1024];
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(Message.builder(FerryBenchMdb.TOPIC).body(body).build());
            if (batch.size() == 64 || i == count - 1) {
                engine.producer().send(batch);
                batch.clear();
            }
        }
        return drain(app, count);
    }

    /** Loads {@code count} 1 KiB messages on Liberty's queue, then times bean {@code app} draining them. */
    double jms(String app, int count, boolean persistent) {
        deployer.deploy("bench-loader");
        try {
            // In chunks, each well within an HTTP request's timeout.
            for (int loaded = 0; loaded < count; loaded += LOAD_CHUNK) {
                int chunk = Math.min(LOAD_CHUNK, count - loaded);
                assertThat(http.post("/bench-loader/load?count=" + chunk + "&persistent=" + persistent, ""))
                        .isEqualTo(Integer.toString(chunk));
            }
        } finally {
            deployer.undeploy("bench-loader");
        }
        return drain(app, count);
    }

    private double drain(String app, int count) {
        deployer.deploy(app);
        try {
            JsonNode[] figures = new JsonNode[1];
            await().atMost(ROUND_TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
                figures[0] = http.getJson("/" + app + "/throughput");
                return figures[0].get("count").asLong() >= count;
            });
            assertThat(figures[0].get("count").asLong()).isEqualTo(count);
            return count / (figures[0].get("millis").asDouble() / 1000.0);
        } finally {
            deployer.undeploy(app);
        }
    }
}

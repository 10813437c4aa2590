package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.liberty.apps.BadSpecMdb;
import dev.ferry.liberty.support.TestApps;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A bean with a bad activation spec is not activated; the server says why, property by property, and runs on. */
@ExtendWith(ArquillianExtension.class)
class BadActivationSpecTest {

    @Deployment(testable = false)
    static WebArchive badSpecApp() {
        return TestApps.probeApp("bad-spec-app", BadSpecMdb.class);
    }

    @Test
    void shouldRefuseTheActivationNamingEveryBadPropertyAndStillStartTheApplication() {
        assertThat(HTTP.get("/bad-spec-app/probe/ping")).isEqualTo("pong");

        await().atMost(Duration.ofSeconds(30)).until(() -> !refusals().isEmpty());
        String refusal = refusals().get(0);
        assertThat(refusal).contains("topic = 'bad topic!'", "consumerGroup", "is required",
                "consumeMode = 'SIDEWAYS'", "maxConcurrency = '0'", "selectorExpression",
                "consumeFromWhere = 'YESTERDAY'");
        assertThat(EmbeddedServer.LOG.linesWith("FERRY-RA-0220")).noneMatch(line -> line.contains("BadSpecMdb"));
    }

    private static List<String> refusals() {
        return EmbeddedServer.LOG.linesWith("FERRY-RA-0201");
    }
}

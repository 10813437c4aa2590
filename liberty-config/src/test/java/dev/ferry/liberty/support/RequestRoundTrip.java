package dev.ferry.liberty.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.liberty.apps.ReplyingMdb;
import java.time.Duration;

/**
 * A servlet's request answered by a message-driven bean, on whichever server deploys reply-app: the first request
 * waits while the bean's consumer starts; then each is answered within its timeout; a request to a topic no bean
 * reads fails once its timeout passes.
 */
public final class RequestRoundTrip {
    private static final Duration WAIT = Duration.ofSeconds(90);

    private RequestRoundTrip() {
    }

    public static void answeredByTheBean(Http http, String app) {
        // the bean's consumer may still be starting: the first requests may time out, one is then answered
        await().atMost(WAIT).ignoreExceptions().until(() -> http.postAnswer("/" + app + "/request/"
                + ReplyingMdb.TOPIC + "?timeoutMillis=5000", "warm-up").status() == 200);
        for (int i = 0; i < 3; i++) {
            assertThat(http.post("/" + app + "/request/" + ReplyingMdb.TOPIC + "?timeoutMillis=10000", "question " + i))
                    .isEqualTo("answer to question " + i);
        }
    }

    /** A request to a topic nobody reads (created by its first send): it fails once its timeout passes. */
    public static void unansweredTimesOut(Http http, String app) {
        Http.Answer answer = http.postAnswer("/" + app + "/request/" + UNREAD + "?timeoutMillis=500", "hello?");
        assertThat(answer.status()).isEqualTo(504);
        assertThat(answer.body()).contains("within 500 ms");
    }

    /** A topic no bean reads. */
    private static final String UNREAD = "reply-requests-unread";
}

package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;

import dev.ferry.liberty.apps.ReplyingMdb;
import dev.ferry.liberty.apps.RequestResource;
import dev.ferry.liberty.support.RequestRoundTrip;
import dev.ferry.liberty.support.TestApps;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Request-reply on Liberty: a REST resource's {@code FerryConnection.request} is answered by a message-driven bean
 * that replies with {@code Replies.to} through a connection of the application's own factory, in its container's
 * transaction.
 */
@ExtendWith(ArquillianExtension.class)
class RequestReplyTest {
    @Deployment(testable = false)
    static WebArchive replyApp() {
        return TestApps.probeApp("reply-app", RequestResource.class, ReplyingMdb.class);
    }

    @Test
    void shouldAnswerAServletsRequestFromAMessageDrivenBean() {
        RequestRoundTrip.answeredByTheBean(HTTP, "reply-app");
    }

    @Test
    void shouldFailAServletsRequestNobodyAnswersOnceItsTimeoutPasses() {
        RequestRoundTrip.unansweredTimesOut(HTTP, "reply-app");
    }
}

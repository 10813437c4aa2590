package dev.ferry.payara.arquillian;

import dev.ferry.liberty.apps.ReplyingMdb;
import dev.ferry.liberty.apps.RequestResource;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.RequestRoundTrip;
import dev.ferry.liberty.support.TestApps;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Request-reply on Payara Micro under Arquillian, the same application as on Liberty. */
@ExtendWith(ArquillianExtension.class)
class PayaraRequestReplyTest {
    private static final Http HTTP = new Http(19680);

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

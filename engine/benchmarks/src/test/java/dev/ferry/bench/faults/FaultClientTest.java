package dev.ferry.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.BrokerException;
import dev.ferry.api.RetriableException;
import dev.ferry.remoting.RemotingConnectException;
import dev.ferry.remoting.RemotingConnectionLostException;
import dev.ferry.remoting.RemotingTimeoutException;
import org.junit.jupiter.api.Test;

/** How a producer's failed send is written down: surely nothing stored ({@code fail}), or {@code unknown}. */
class FaultClientTest {
    @Test
    void shouldCountASendWhoseConnectionCouldNotBeMadeAsFailed() {
        assertThat(FaultClient.definitelyNotSent(new RetriableException("send to q",
                new RemotingConnectException("cannot connect to 127.0.0.1:1")))).isTrue();
    }

    @Test
    void shouldCountABrokersRefusalAsFailed() {
        assertThat(FaultClient.definitelyNotSent(new BrokerException(14, "disk full", true, "send to q"))).isTrue();
    }

    /** What the harness found against a SYNC_MASTER waiting for its slave: stored, then the link was cut. */
    @Test
    void shouldCountASendWhoseConnectionClosedBeforeItsAnswerAsUnknown() {
        assertThat(FaultClient.definitelyNotSent(new RetriableException("send to q",
                new RemotingConnectionLostException("connection to /127.0.0.1:1 closed before the response arrived"))))
                .isFalse();
        assertThat(FaultClient.definitelyNotSent(new RetriableException("send to q",
                new RemotingTimeoutException("no answer in 3000 ms")))).isFalse();
    }
}

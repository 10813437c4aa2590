package dev.ferry.ra.outbound;

import dev.ferry.client.ProducerConfig;
import dev.ferry.remoting.Credentials;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A managed connection factory's settings, validated once when its producer is first needed.
 *
 * @param nameServer other name servers than the adapter's, if given
 * @param producerGroup the producer group
 * @param sendTimeout how long a send may take, retries included
 * @param retries extra attempts of a failed send
 * @param credentials the user sends are signed as when the container passes none; empty: the adapter's
 * @param traceTopic where a trace of each send is written (RocketMQ's enableMsgTrace and customizedTraceTopic); empty:
 *     none
 */
record OutboundConfig(Optional<String> nameServer, String producerGroup, Duration sendTimeout, int retries,
                      Optional<Credentials> credentials, Optional<String> traceTopic) {

    OutboundConfig {
        Objects.requireNonNull(nameServer, "nameServer");
        Objects.requireNonNull(producerGroup, "producerGroup");
        Objects.requireNonNull(sendTimeout, "sendTimeout");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(traceTopic, "traceTopic");
    }

    ProducerConfig producerConfig() {
        ProducerConfig.Builder builder = ProducerConfig.builder(producerGroup).sendTimeout(sendTimeout)
                .retriesWhenSendFailed(retries);
        traceTopic.ifPresent(topic -> builder.enableMsgTrace(true).customizedTraceTopic(topic));
        return builder.build();
    }
}

package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;

/**
 * Fails a "backoff" message four times; its redelivery policy waits 300 ms, then twice as long each time, at most
 * one second.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = BackoffMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = BackoffMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "redeliveryDelay", propertyValue = "300ms"),
        @ActivationConfigProperty(propertyName = "redeliveryMultiplier", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "maxRedeliveryDelay", propertyValue = "1s"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class BackoffMdb implements MessageListener {
    public static final String TOPIC = "ops-backoff";
    public static final String GROUP = "ops-backoff";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("BackoffMdb", message);
        deliveries.end("BackoffMdb", message);
        String body = new String(message.body(), StandardCharsets.UTF_8);
        long attempts = deliveries.of("BackoffMdb").stream().filter(d -> d.msgId().equals(message.msgId())).count();
        if (body.equals("backoff") && attempts <= 4) {
            throw new IllegalStateException("BackoffMdb fails attempt " + attempts);
        }
    }
}

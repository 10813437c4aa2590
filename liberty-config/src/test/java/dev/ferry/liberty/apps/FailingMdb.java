package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;

/** Fails a "fail-once" message on its first delivery and a "poison" message always; accepts the rest. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = FailingMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = FailingMdb.GROUP),
        @ActivationConfigProperty(propertyName = "maxReconsumeTimes", propertyValue = "2"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class FailingMdb implements MessageListener {
    public static final String TOPIC = "retry-orders";
    public static final String GROUP = "retry-app";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("FailingMdb", message);
        deliveries.end("FailingMdb", message);
        String body = new String(message.body(), StandardCharsets.UTF_8);
        if (body.startsWith("poison") || body.startsWith("fail-once") && message.reconsumeTimes() == 0) {
            throw new IllegalStateException("FailingMdb refuses " + body + " (attempt " + message.reconsumeTimes()
                    + ")");
        }
    }
}

package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** An orderly bean that takes a little time per message, so that an overlap within a queue would show. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = OrderlyMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "orderly-app"),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "4"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class OrderlyMdb implements MessageListener {
    public static final String TOPIC = "orderly-orders";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) throws InterruptedException {
        deliveries.begin("OrderlyMdb", message);
        try {
            Thread.sleep(2);
        } finally {
            deliveries.end("OrderlyMdb", message);
        }
    }
}

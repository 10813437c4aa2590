package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** Records what it is given, in queue order. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = ReplayMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = ReplayMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class ReplayMdb implements MessageListener {
    public static final String TOPIC = "ops-replay";
    public static final String GROUP = "ops-replay";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("ReplayMdb", message);
        deliveries.end("ReplayMdb", message);
    }
}

package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** Records what it is given, in queue order. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = PauseMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = PauseMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class PauseMdb implements MessageListener {
    public static final String TOPIC = "ops-pause";
    public static final String GROUP = "ops-pause";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("PauseMdb", message);
        deliveries.end("PauseMdb", message);
    }
}

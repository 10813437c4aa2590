package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/** Shares its group's queues by the sample plugin's {@code queue-id-modulo} strategy, from a plugin jar. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = ModuloMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = ModuloMdb.GROUP),
        @ActivationConfigProperty(propertyName = "allocateStrategy", propertyValue = "queue-id-modulo"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class ModuloMdb implements MessageListener {
    public static final String TOPIC = "plugin-modulo";
    public static final String GROUP = "plugin-modulo";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("ModuloMdb", message);
        deliveries.end("ModuloMdb", message);
    }
}

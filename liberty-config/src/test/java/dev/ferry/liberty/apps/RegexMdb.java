package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;

/**
 * Selects with the sample plugin's {@code TAG_REGEX} filter, from a plugin jar. Orderly, so that a test which sends
 * to one queue knows every earlier message was decided once the last wanted one is in.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = RegexMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "plugin-regex"),
        @ActivationConfigProperty(propertyName = "selectorType", propertyValue = "TAG_REGEX"),
        @ActivationConfigProperty(propertyName = "selectorExpression", propertyValue = "order-(paid|shipped)"),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class RegexMdb implements MessageListener {
    public static final String TOPIC = "plugin-regex";

    @Inject
    private Deliveries deliveries;

    @Override
    public void onMessage(ReceivedMessage message) {
        deliveries.begin("RegexMdb", message);
        deliveries.end("RegexMdb", message);
    }
}

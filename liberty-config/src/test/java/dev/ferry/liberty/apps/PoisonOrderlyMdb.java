package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Fails a "poison" message until it is healed; its queue pauses after three failures in a row (ORDERLY). */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = PoisonOrderlyMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = PoisonOrderlyMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "ORDERLY"),
        @ActivationConfigProperty(propertyName = "pauseQueueAfterFailures", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "redeliveryDelay", propertyValue = "200ms"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
// Payara takes a bean's messaging type from the interfaces its own class names, not its superclass's: named here.
public class PoisonOrderlyMdb extends PoisonBean implements MessageListener {
    public static final String TOPIC = "ops-poison-orderly";
    public static final String GROUP = "ops-poison-orderly";
}

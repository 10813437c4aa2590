package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Fails a "poison" message until it is healed; its queue pauses after three failures in a row (CONCURRENTLY). */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = PoisonConcurrentMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = PoisonConcurrentMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "CONCURRENTLY"),
        @ActivationConfigProperty(propertyName = "pauseQueueAfterFailures", propertyValue = "3"),
        @ActivationConfigProperty(propertyName = "redeliveryDelay", propertyValue = "200ms"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
// Payara takes a bean's messaging type from the interfaces its own class names, not its superclass's: named here.
public class PoisonConcurrentMdb extends PoisonBean implements MessageListener {
    public static final String TOPIC = "ops-poison-concurrent";
    public static final String GROUP = "ops-poison-concurrent";
}

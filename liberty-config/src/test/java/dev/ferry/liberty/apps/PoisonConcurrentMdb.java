package dev.ferry.liberty.apps;

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
public class PoisonConcurrentMdb extends PoisonBean {
    public static final String TOPIC = "ops-poison-concurrent";
    public static final String GROUP = "ops-poison-concurrent";
}

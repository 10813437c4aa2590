package dev.ferry.liberty.apps;

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
public class PoisonOrderlyMdb extends PoisonBean {
    public static final String TOPIC = "ops-poison-orderly";
    public static final String GROUP = "ops-poison-orderly";
}

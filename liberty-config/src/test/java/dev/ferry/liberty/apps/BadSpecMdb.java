package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Five mistakes in one activation spec; the adapter must refuse it and name each. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = "bad topic!"),
        @ActivationConfigProperty(propertyName = "consumeMode", propertyValue = "SIDEWAYS"),
        @ActivationConfigProperty(propertyName = "maxConcurrency", propertyValue = "0"),
        @ActivationConfigProperty(propertyName = "selectorType", propertyValue = "SQL92"),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "YESTERDAY")
})
public class BadSpecMdb implements MessageListener {
    @Override
    public void onMessage(ReceivedMessage message) {
        throw new AssertionError("a refused activation delivered " + message.msgId());
    }
}

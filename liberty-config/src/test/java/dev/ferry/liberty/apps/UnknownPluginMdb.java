package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

/** Names a strategy no plugin jar has: never activated. */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = "plugin-unknown"),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = "plugin-unknown"),
        @ActivationConfigProperty(propertyName = "allocateStrategy", propertyValue = "no-such-strategy")
})
public class UnknownPluginMdb implements MessageListener {

    @Override
    public void onMessage(ReceivedMessage message) {
        throw new IllegalStateException("a bean with an unknown strategy must never be activated");
    }
}

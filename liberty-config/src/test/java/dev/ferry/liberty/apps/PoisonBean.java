package dev.ferry.liberty.apps;

import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;

/** What the poison beans share: they fail a "poison" message until the test heals it for them. */
public abstract class PoisonBean implements MessageListener {
    @Inject
    private Deliveries deliveries;

    @Inject
    private Healing healing;

    @Override
    public void onMessage(ReceivedMessage message) {
        String bean = getClass().getSimpleName();
        deliveries.begin(bean, message);
        deliveries.end(bean, message);
        String body = new String(message.body(), StandardCharsets.UTF_8);
        if (body.equals("poison") && !healing.healed(bean, body)) {
            throw new IllegalStateException(bean + " cannot process " + body);
        }
    }
}

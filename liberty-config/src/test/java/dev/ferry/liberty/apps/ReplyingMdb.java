package dev.ferry.liberty.apps;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.MessageListener;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.Replies;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.nio.charset.StandardCharsets;

/**
 * Answers every request of its topic through a connection of the application's factory: the reply, built with
 * {@link Replies#to}, carries "answer to " and the request's body. Delivered in the container's transaction (the
 * default), which a reply is not part of: it is pushed to the requester at once.
 */
@MessageDriven(activationConfig = {
        @ActivationConfigProperty(propertyName = "topic", propertyValue = ReplyingMdb.TOPIC),
        @ActivationConfigProperty(propertyName = "consumerGroup", propertyValue = ReplyingMdb.GROUP),
        @ActivationConfigProperty(propertyName = "consumeFromWhere", propertyValue = "FIRST_OFFSET")
})
public class ReplyingMdb implements MessageListener {
    public static final String TOPIC = "reply-requests";
    public static final String GROUP = "reply-app";

    @Resource(lookup = RequestResource.FACTORY)
    private FerryConnectionFactory connections;

    @Override
    public void onMessage(ReceivedMessage request) {
        try (FerryConnection connection = connections.getConnection()) {
            connection.send(Replies.to(request).body(("answer to " + new String(request.body(),
                    StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)).build());
        }
    }
}

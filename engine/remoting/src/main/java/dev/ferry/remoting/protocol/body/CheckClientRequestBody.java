package dev.ferry.remoting.protocol.body;

/** Body of CHECK_CLIENT_CONFIG: a consumer asks whether the broker can serve its subscription. */
public record CheckClientRequestBody(String clientId, String group, SubscriptionData subscriptionData) {
}

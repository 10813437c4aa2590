package dev.ferry.client;

import static dev.ferry.client.ConfigCheck.CLIENT;

import dev.ferry.api.Message;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import java.util.Objects;

/**
 * A topic a consumer reads, with the expression that selects its messages.
 *
 * @param topic the topic
 * @param expressionType {@code TAG}, {@code SQL92}, or the name of another filter plugin the broker knows
 * @param expression for TAG: {@code *} or {@code TagA || TagB}; for SQL92: a selector over properties
 */
public record Subscription(String topic, String expressionType, String expression) {

    /** Tag expressions. */
    public static final String TAG = SubscriptionData.TAG;
    /** SQL92 selectors. */
    public static final String SQL92 = "SQL92";

    public Subscription {
        Message.validateTopic(topic);
        CLIENT.notBlank("expressionType", expressionType);
        expression = expression == null || expression.isBlank() ? "*" : expression.trim();
        Objects.requireNonNull(expression, "expression");
    }

    /** Every message of the topic. */
    public static Subscription all(String topic) {
        return new Subscription(topic, TAG, "*");
    }

    /** Messages whose tag is one of {@code tagExpression} ({@code TagA || TagB}, or {@code *}). */
    public static Subscription tags(String topic, String tagExpression) {
        return new Subscription(topic, TAG, tagExpression);
    }

    /** Messages whose properties satisfy an SQL92 selector (the broker must enable property filters). */
    public static Subscription sql92(String topic, String selector) {
        return new Subscription(topic, SQL92, selector);
    }
}

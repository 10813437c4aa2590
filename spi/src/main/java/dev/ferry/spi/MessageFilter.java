package dev.ferry.spi;

/**
 * One compiled subscription expression, shared by every pull of the subscription: thread-safe and
 * immutable.
 *
 * <p>The broker first calls {@link #mayMatchTagsCode} on the tag hash code stored in the consume
 * queue, which costs no read of the message, and only then {@link #matches} on the message itself.
 * The client re-checks with {@link #matches}, which drops tag hash collisions.
 */
public interface MessageFilter {

    /** @return the expression type this filter was compiled for, for example {@code TAG} */
    String expressionType();

    /** @return the expression as given */
    String expression();

    /**
     * A cheap pre-check on the consume-queue entry. It may say {@code true} for a message that does not
     * match; it must never say {@code false} for one that does.
     *
     * @param tagsCode the entry's tags code: {@code tags.hashCode()}, 0 for a message without tags
     * @return {@code false} if the message certainly does not match
     */
    boolean mayMatchTagsCode(long tagsCode);

    /**
     * The exact check. Evaluation problems (a property that is not a number, a missing property) mean
     * "no match", never an exception.
     *
     * @param message the message's tags and properties
     * @return whether the subscription receives the message
     */
    boolean matches(FilterableMessage message);
}

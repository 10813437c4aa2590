package dev.ferry.store;

import dev.ferry.format.StoredMessageView;
import java.util.Objects;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * Decides which messages a read returns: first cheaply on the consume-queue tag code, then on the stored message for
 * those that passed. The broker adapts its filter plugins to this.
 */
public interface MessageFilterPredicate {
    /** Accepts everything. */
    MessageFilterPredicate ALL = of(tagsCode -> true, message -> true);

    boolean matchesTagsCode(long tagsCode);

    boolean matches(StoredMessageView message);

    /** A predicate made of its two steps. */
    static MessageFilterPredicate of(LongPredicate tagsCode, Predicate<StoredMessageView> message) {
        Objects.requireNonNull(tagsCode, "tagsCode");
        Objects.requireNonNull(message, "message");
        return new MessageFilterPredicate() {
            @Override
            public boolean matchesTagsCode(long code) {
                return tagsCode.test(code);
            }

            @Override
            public boolean matches(StoredMessageView view) {
                return message.test(view);
            }
        };
    }
}

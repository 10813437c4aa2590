package dev.ferry.ra.outbound;

import dev.ferry.api.Message;
import dev.ferry.client.HalfMessage;
import dev.ferry.client.Producer;
import dev.ferry.client.TransactionState;
import java.util.List;

/** What a transaction branch does with its producer's half messages: the part of {@link Producer} it uses. */
interface HalfMessages {
    /** Stores a half message, as {@link Producer#sendHalf(Message, String)}. */
    HalfMessage sendHalf(Message message, String shardingKey);

    /** Commits or rolls back a half message and waits for the broker, as {@link Producer#endTransaction}. */
    void endTransaction(HalfMessage half, TransactionState state);

    /** The undecided half messages that carry {@code property}, as {@link Producer#undecidedHalfMessages}. */
    List<HalfMessage> undecidedHalfMessages(String property);

    static HalfMessages of(Producer producer) {
        return new HalfMessages() {
            @Override
            public HalfMessage sendHalf(Message message, String shardingKey) {
                return producer.sendHalf(message, shardingKey);
            }

            @Override
            public void endTransaction(HalfMessage half, TransactionState state) {
                producer.endTransaction(half, state);
            }

            @Override
            public List<HalfMessage> undecidedHalfMessages(String property) {
                return producer.undecidedHalfMessages(property);
            }
        };
    }
}

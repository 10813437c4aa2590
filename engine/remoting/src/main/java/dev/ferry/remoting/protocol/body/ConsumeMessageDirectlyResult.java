package dev.ferry.remoting.protocol.body;

/**
 * CONSUME_MESSAGE_DIRECTLY answer: what the client's listener made of the message.
 *
 * @param consumeResult Apache's CMResult name: {@code CR_SUCCESS}, {@code CR_LATER}, {@code CR_ROLLBACK},
 *                      {@code CR_COMMIT}, {@code CR_THROW_EXCEPTION} or {@code CR_RETURN_NULL}
 */
public record ConsumeMessageDirectlyResult(boolean order, boolean autoCommit, String consumeResult, String remark,
                                           long spentTimeMills) {
}

package dev.ferry.samples.orders;

/** A row of the order table: the order and the id of the message sent in the same transaction. */
public record OrderRow(long id, String item, int quantity, String msgId) {
}

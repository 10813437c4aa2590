/**
 * Inbound: {@link dev.ferry.ra.inbound.FerryActivationSpec} (RocketMQ-flavoured properties, validated all at
 * once) and, per activation, one client and one push consumer whose listener delivers each message through a
 * fresh {@code MessageEndpoint} ({@code beforeDelivery}, {@code onMessage}, {@code afterDelivery}, and
 * {@code release} in {@code finally}). A normal return acknowledges; an exception means "deliver again later".
 * At most {@code maxConcurrency} deliveries run at once (the consumer's consume threads); in {@code ORDERLY}
 * mode each queue is delivered one message at a time, in order.
 */
package dev.ferry.ra.inbound;

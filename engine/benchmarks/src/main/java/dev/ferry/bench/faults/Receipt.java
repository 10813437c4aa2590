package dev.ferry.bench.faults;

/**
 * A message an {@link ExternalConsumer} processed, as it recorded it.
 *
 * @param time   when, epoch milliseconds of this machine's clock
 * @param key    the message's key
 * @param topic  its topic
 * @param broker the broker group it came from
 * @param queue  its queue id
 * @param offset its queue offset
 */
public record Receipt(long time, String key, String topic, String broker, int queue, long offset) {
}

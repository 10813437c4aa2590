package dev.ferry.server.broker;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * What the broker answers a consumer group that has committed no offset on a queue (QUERY_CONSUMER_OFFSET).
 *
 * <p>By default Apache's rule: offset 0 while the queue still starts at 0 and its first message is "in memory", so a
 * group whose consumer starts just before the first sends (CONSUME_FROM_LAST_OFFSET, the default) receives them. "In
 * memory" is decided as Apache's 4.x broker did: the message lies within {@code accessMessageInMemoryMaxRatio} percent
 * of physical memory from the end of the commit log. (Apache 5 asks the page cache about the message's pages, which on
 * a broker with memory to spare gives the same answer; the distance is the same every time it is asked.)
 *
 * @param strict                        never answer 0: CONSUME_FROM_LAST_OFFSET always starts at the queue's end
 * @param accessMessageInMemoryMaxRatio Apache's key: the share of physical memory, in percent, counted as in memory
 * @param physicalMemory                the host's physical memory in bytes (what the ratio is a share of)
 */
public record FirstOffsetRule(boolean strict, int accessMessageInMemoryMaxRatio, long physicalMemory) {
    /** Apache's default ratio. */
    public static final int DEFAULT_RATIO = 40;

    public FirstOffsetRule {
        if (accessMessageInMemoryMaxRatio < 0 || accessMessageInMemoryMaxRatio > 100) {
            throw new IllegalArgumentException("accessMessageInMemoryMaxRatio = " + accessMessageInMemoryMaxRatio
                    + ": must be within 0..100");
        }
        if (physicalMemory < 0) {
            throw new IllegalArgumentException("physical memory " + physicalMemory + " is negative");
        }
    }

    /** Apache's rule on this host. */
    public static FirstOffsetRule defaults() {
        return new FirstOffsetRule(false, DEFAULT_RATIO, hostMemory());
    }

    public FirstOffsetRule withStrict(boolean value) {
        return new FirstOffsetRule(value, accessMessageInMemoryMaxRatio, physicalMemory);
    }

    public FirstOffsetRule withRatio(int value) {
        return new FirstOffsetRule(strict, value, physicalMemory);
    }

    /** How far from the end of the commit log a message still counts as in memory. */
    public long inMemoryBytes() {
        return (long) (physicalMemory * (accessMessageInMemoryMaxRatio / 100.0));
    }

    /**
     * The host's (or container's) physical memory, as the JDK's operating-system bean tells it; the JVM's heap limit
     * when the platform does not say.
     */
    static long hostMemory() {
        try {
            Object total = ManagementFactory.getPlatformMBeanServer().getAttribute(
                    new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME), "TotalMemorySize");
            if (total instanceof Long bytes && bytes > 0) {
                return bytes;
            }
        } catch (JMException | RuntimeException e) {
            // a JDK without the attribute
        }
        return Runtime.getRuntime().maxMemory();
    }
}

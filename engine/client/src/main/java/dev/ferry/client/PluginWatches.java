package dev.ferry.client;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.PluginWatch;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Watches the plugins one consumer uses. When one goes away (its OSGi bundle stopped or uninstalled), it says so
 * once, naming the plugin and the consumer group, and stops the consumer on the client's scheduler: a consumer
 * must not go on with code that is no longer there, nor keep that code's class loader alive. An allocation
 * strategy may have a fallback instead: the consumer then goes on dividing queues with it.
 */
final class PluginWatches implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PluginWatches.class.getName());

    private final String group;
    private final Later later;
    private final Runnable stop;
    private final List<PluginWatch> watches = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();

    PluginWatches(String group, Later later, Runnable stop) {
        this.group = group;
        this.later = later;
        this.stop = stop;
    }

    /** Watches {@code plugin}, described as {@code what} (such as {@code allocation strategy sticky}). */
    void watch(String what, Object plugin) {
        watches.add(PluginWatch.of(plugin, from -> withdrawn(what, from)));
    }

    /**
     * Watches the consumer's allocation strategy; when its plugin goes away, the consumer goes on with
     * {@code fallback} if there is one (created then by {@code create} and handed to {@code use}), and stops
     * otherwise, or when the fallback cannot be had either. A fallback that is not there now is refused now.
     */
    void watchStrategy(String name, AllocateStrategy strategy, Optional<String> fallback,
                       Function<String, AllocateStrategy> create, Consumer<AllocateStrategy> use) {
        String what = "allocation strategy " + name;
        if (fallback.isEmpty()) {
            watch(what, strategy);
            return;
        }
        String next = fallback.get();
        create.apply(next);
        watches.add(PluginWatch.of(strategy, from -> {
            LOG.log(Level.WARNING, "the " + what + " of consumer group " + group + " went away with its " + from
                    + ": the consumer goes on with allocation strategy " + next);
            later.after(Duration.ZERO, () -> fallBack(next, create, use));
        }));
    }

    private void fallBack(String name, Function<String, AllocateStrategy> create, Consumer<AllocateStrategy> use) {
        AllocateStrategy replacement;
        try {
            replacement = create.apply(name);
        } catch (RuntimeException e) {
            if (stopping.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "the fallback allocation strategy " + name + " of consumer group " + group
                        + " is not there either (" + e.getMessage() + "): the consumer stops");
                stop.run();
            }
            return;
        }
        use.accept(replacement);
        watch("allocation strategy " + name, replacement);
    }

    private void withdrawn(String what, String from) {
        if (stopping.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "the " + what + " of consumer group " + group + " went away with its " + from
                    + ": the consumer stops");
            later.after(Duration.ZERO, stop);
        }
    }

    @Override
    public void close() {
        watches.forEach(PluginWatch::close);
        watches.clear();
    }
}

package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.body.SubscriptionGroupWrapper;
import dev.ferry.server.files.JsonFile;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer groups this broker knows, as Apache's broker keeps them: created on a valid group's first heartbeat,
 * pull or send-back (unless autoCreateSubscriptionGroup is off: then by an operator, or Apache's system groups), persisted in {@code subscriptionGroup.json} (Apache's layout), never dropped by a client going
 * away. Offsets are kept only for groups known here, and at most {@link BrokerLimits#maxSubscriptionGroups()} groups
 * are, so no client can grow the table without bound. New groups are written by {@link #persistIfChanged()}, which
 * the broker runs every few hundred milliseconds and at shutdown; a group with committed offsets is known at start
 * even if a crash kept it from the file.
 *
 * <p>Thread-safe; creation is rare and persisted at once.
 */
final class SubscriptionGroupTable {
    private static final System.Logger LOG = System.getLogger(SubscriptionGroupTable.class.getName());

    /** The persisted form. */
    record Stored(Map<String, SubscriptionGroupConfig> subscriptionGroupTable, DataVersion dataVersion) {
    }

    private final Map<String, SubscriptionGroupConfig> groups = new ConcurrentHashMap<>();
    private final JsonFile<Stored> file;
    private final Clock clock;
    private final int maxGroups;
    private final int defaultRetryMaxTimes;
    private final boolean autoCreate;
    private volatile DataVersion version;
    private volatile boolean fullLogged;
    private final UnsavedChanges unsaved = new UnsavedChanges();

    /** A table that creates a group on its first use; {@code seedGroups} as below. */
    SubscriptionGroupTable(Path configDir, Clock clock, int maxGroups, int defaultRetryMaxTimes,
                           Collection<String> seedGroups) {
        this(configDir, clock, maxGroups, defaultRetryMaxTimes, seedGroups, true);
    }

    /**
     * @param seedGroups groups known whatever the file says: those with committed offsets
     * @param autoCreate whether a group's first use creates it (Apache's autoCreateSubscriptionGroup); when not, only
     *                   groups put here and Apache's system groups are created
     */
    SubscriptionGroupTable(Path configDir, Clock clock, int maxGroups, int defaultRetryMaxTimes,
                           Collection<String> seedGroups, boolean autoCreate) {
        this.autoCreate = autoCreate;
        this.file = new JsonFile<>(configDir.resolve("subscriptionGroup.json"), Stored.class);
        this.clock = clock;
        this.maxGroups = maxGroups;
        this.defaultRetryMaxTimes = defaultRetryMaxTimes;
        this.version = new DataVersion(0, clock.millis(), 0);
        file.read().ifPresent(this::load);
        for (String group : seedGroups) {
            if (!groups.containsKey(group) && NameRules.isValidGroup(group) && groups.size() < maxGroups) {
                groups.put(group, SubscriptionGroupConfig.of(group, defaultRetryMaxTimes));
                unsaved.record();
            }
        }
    }

    private void load(Stored stored) {
        groups.putAll(valid(stored));
        if (stored.dataVersion() != null) {
            version = stored.dataVersion();
        }
    }

    /** The master's groups in place of these (a slave's copy); groups not in them are dropped. */
    synchronized void replaceWith(Stored master) {
        Map<String, SubscriptionGroupConfig> valid = valid(master);
        groups.keySet().retainAll(valid.keySet());
        groups.putAll(valid);
        if (master.dataVersion() != null) {
            version = master.dataVersion();
        }
        unsaved.record();
    }

    private static Map<String, SubscriptionGroupConfig> valid(Stored stored) {
        Map<String, SubscriptionGroupConfig> valid = new HashMap<>();
        if (stored.subscriptionGroupTable() != null) {
            stored.subscriptionGroupTable().forEach((name, config) -> {
                if (config != null && name.equals(config.groupName()) && NameRules.isValidGroup(name)) {
                    valid.put(name, config);
                } else {
                    LOG.log(System.Logger.Level.WARNING, "ignoring subscription group {0} in {1}: not a valid "
                            + "group", NameRules.shown(name), "subscriptionGroup.json");
                }
            });
        }
        return valid;
    }

    boolean contains(String group) {
        return groups.containsKey(group);
    }

    Optional<SubscriptionGroupConfig> get(String group) {
        return Optional.ofNullable(groups.get(group));
    }

    /**
     * The group's settings, created with the defaults when it is new (Apache's autoCreateSubscriptionGroup).
     *
     * @return empty when the name is not a valid group or the table is full
     */
    Optional<SubscriptionGroupConfig> findOrCreate(String group) {
        SubscriptionGroupConfig existing = groups.get(group);
        if (existing != null) {
            return Optional.of(existing);
        }
        if (!NameRules.isValidGroup(group) || !creatable(group)) {
            return Optional.empty();
        }
        synchronized (this) {
            existing = groups.get(group);
            if (existing != null) {
                return Optional.of(existing);
            }
            if (groups.size() >= maxGroups) {
                if (!fullLogged) {
                    fullLogged = true;
                    LOG.log(System.Logger.Level.WARNING, "the broker knows {0} consumer groups, its maximum "
                            + "(maxSubscriptionGroups); refusing new groups such as {1}", maxGroups,
                            NameRules.shown(group));
                }
                return Optional.empty();
            }
            SubscriptionGroupConfig created = SubscriptionGroupConfig.of(group, defaultRetryMaxTimes);
            groups.put(group, created);
            version = version.next(clock.millis());
            unsaved.record();
            return Optional.of(created);
        }
    }

    /** Whether a group's first use may create it: always, or only Apache's system groups (as Apache's broker). */
    private boolean creatable(String group) {
        return autoCreate || SystemTopics.isSystemGroup(group);
    }

    /** Why a group is not served: its name, a group no one created, or a full table. */
    String refusal(String group) {
        String problem = NameRules.groupProblem("group", group);
        if (problem == null && !creatable(group) && !groups.containsKey(group)) {
            return "subscription group [" + group + "] does not exist: this broker creates no group on first use "
                    + "(autoCreateSubscriptionGroup=false); create it with mqadmin updateSubGroup";
        }
        return problem != null ? "subscription group not exist, " + problem
                : "subscription group not exist, " + NameRules.shown(group) + ": the broker already knows "
                + maxGroups + " groups, its maximum";
    }

    /**
     * Creates or replaces a group's settings, as UPDATE_AND_CREATE_SUBSCRIPTIONGROUP asks; written at once.
     *
     * @return empty when applied, else why not
     */
    synchronized Optional<String> put(SubscriptionGroupConfig config) {
        String problem = NameRules.groupProblem("group", config.groupName());
        if (problem != null) {
            return Optional.of(problem);
        }
        if (config.retryQueueNums() < 0 || config.retryQueueNums() > TopicConfigTable.MAX_QUEUES) {
            return Optional.of("retryQueueNums " + config.retryQueueNums() + " outside 0.."
                    + TopicConfigTable.MAX_QUEUES);
        }
        if (config.retryMaxTimes() < -1) {
            return Optional.of("retryMaxTimes " + config.retryMaxTimes() + " below -1");
        }
        if (!config.attributes().isEmpty()) {
            return Optional.of("unsupported key: " + config.attributes().keySet().iterator().next());
        }
        if (!groups.containsKey(config.groupName()) && groups.size() >= maxGroups) {
            return Optional.of(refusal(config.groupName()));
        }
        groups.put(config.groupName(), config);
        version = version.next(clock.millis());
        persist();
        LOG.log(System.Logger.Level.INFO, "subscription group {0} set: consume {1}, broadcast {2}, retry queues {3}, "
                + "max reconsume times {4}", config.groupName(), config.consumeEnable(),
                config.consumeBroadcastEnable(), config.retryQueueNums(), config.retryMaxTimes());
        return Optional.empty();
    }

    /** Forgets a group's settings (DELETE_SUBSCRIPTIONGROUP); returns whether it was known. Written at once. */
    synchronized boolean remove(String group) {
        if (groups.remove(group) == null) {
            return false;
        }
        version = version.next(clock.millis());
        persist();
        LOG.log(System.Logger.Level.INFO, "subscription group {0} deleted", group);
        return true;
    }

    /** Every group's settings and their version (GET_ALL_SUBSCRIPTIONGROUP_CONFIG). */
    SubscriptionGroupWrapper snapshot() {
        return new SubscriptionGroupWrapper(Map.copyOf(groups), version);
    }

    Set<String> names() {
        return Set.copyOf(groups.keySet());
    }

    int size() {
        return groups.size();
    }

    /** Writes the table if it changed since the last write. */
    void persistIfChanged() {
        unsaved.saveIfAny(this::persist);
    }

    synchronized void persist() {
        file.write(new Stored(new HashMap<>(groups), version));
    }
}

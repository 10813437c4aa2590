package dev.ferry.server.broker;

import dev.ferry.remoting.protocol.body.BrokerStatsBody;
import java.util.List;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What an operator checks first, read afresh on each report: what the store failed to index or set aside, what the
 * remoting server refused and holds, and how full the broker's tables are. Each source is a figure, not the part that
 * counts it, so that a report needs neither a store nor a server.
 */
final class HealthReport {
    /** What the store could not index. */
    record StoreFigures(LongSupplier dispatchFailures, Supplier<List<String>> setAsideQueues) {
        StoreFigures {
            Objects.requireNonNull(dispatchFailures, "dispatchFailures");
            Objects.requireNonNull(setAsideQueues, "setAsideQueues");
        }
    }

    /** What the remoting server refused and holds now. */
    record ServerFigures(LongSupplier badRequests, LongSupplier malformedFrames, LongSupplier processorFailures,
                         IntSupplier connections, LongSupplier inboundBytes) {
        ServerFigures {
            Objects.requireNonNull(badRequests, "badRequests");
            Objects.requireNonNull(malformedFrames, "malformedFrames");
            Objects.requireNonNull(processorFailures, "processorFailures");
            Objects.requireNonNull(connections, "connections");
            Objects.requireNonNull(inboundBytes, "inboundBytes");
        }
    }

    /** How much the broker holds in memory: held pulls, its tables, subscriptions and cached filters. */
    record TableFigures(IntSupplier heldPulls, IntSupplier topics, IntSupplier subscriptionGroups,
                        IntSupplier consumerOffsets, LongSupplier subscriptionChars, LongSupplier filterCacheBytes) {
        TableFigures {
            Objects.requireNonNull(heldPulls, "heldPulls");
            Objects.requireNonNull(topics, "topics");
            Objects.requireNonNull(subscriptionGroups, "subscriptionGroups");
            Objects.requireNonNull(consumerOffsets, "consumerOffsets");
            Objects.requireNonNull(subscriptionChars, "subscriptionChars");
            Objects.requireNonNull(filterCacheBytes, "filterCacheBytes");
        }
    }

    private final StoreFigures store;
    private final ServerFigures server;
    private final TableFigures tables;

    HealthReport(StoreFigures store, ServerFigures server, TableFigures tables) {
        this.store = Objects.requireNonNull(store, "store");
        this.server = Objects.requireNonNull(server, "server");
        this.tables = Objects.requireNonNull(tables, "tables");
    }

    /** The figures as they are now. */
    BrokerStatsBody.Health health() {
        return new BrokerStatsBody.Health(store.dispatchFailures().getAsLong(), store.setAsideQueues().get(),
                server.badRequests().getAsLong(), server.malformedFrames().getAsLong(),
                server.processorFailures().getAsLong(), server.connections().getAsInt(),
                server.inboundBytes().getAsLong(), tables.heldPulls().getAsInt(), tables.topics().getAsInt(),
                tables.subscriptionGroups().getAsInt(), tables.consumerOffsets().getAsInt(),
                tables.subscriptionChars().getAsLong(), tables.filterCacheBytes().getAsLong());
    }
}

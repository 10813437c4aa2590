package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.NameRules;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.BodyFormatException;
import dev.ferry.remoting.protocol.body.BrokerStatsData;
import dev.ferry.remoting.protocol.body.KvTable;
import dev.ferry.remoting.protocol.body.PropertiesText;
import dev.ferry.remoting.protocol.header.GetBrokerConfigResponseHeader;
import dev.ferry.remoting.protocol.header.ViewBrokerStatsDataRequestHeader;
import dev.ferry.server.timer.TimerStore;
import dev.ferry.store.MessageStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Supplier;

/**
 * The broker-wide requests of Apache's admin tools and dashboard: GET_BROKER_RUNTIME_INFO (Apache's keys, with the
 * formats its tools parse), GET_BROKER_CONFIG, UPDATE_BROKER_CONFIG ({@link BrokerSettings}' keys; any other key is
 * refused by name) and VIEW_BROKER_STATS_DATA ({@code TOPIC_PUT_NUMS} by topic, {@code GROUP_GET_NUMS} by
 * {@code topic@group}).
 */
final class BrokerInfoProcessor implements RequestProcessor {
    static final int[] CODES = {RequestCode.GET_BROKER_RUNTIME_INFO, RequestCode.GET_BROKER_CONFIG,
        RequestCode.UPDATE_BROKER_CONFIG, RequestCode.VIEW_BROKER_STATS_DATA};
    /** The protocol version Ferry speaks, as Apache's tools name it. */
    static final String VERSION_DESC = "V5_3_3";
    static final int VERSION = 479;
    static final String TOPIC_PUT_NUMS = "TOPIC_PUT_NUMS";
    static final String GROUP_GET_NUMS = "GROUP_GET_NUMS";

    /** What the runtime information is made of. */
    record Sources(MessageStore store, TopicCounters counters, BrokerStatistics statistics,
                   Supplier<TimerStore.Figures> timers, Map<String, ThreadPoolExecutor> executors, long bootMillis) {
    }

    private final BrokerConfig config;
    private final BrokerSettings settings;
    private final Sources sources;
    private final BodyCodec json;
    private final Clock clock;

    BrokerInfoProcessor(BrokerConfig config, BrokerSettings settings, Sources sources, BodyCodec json, Clock clock) {
        this.config = config;
        this.settings = settings;
        this.sources = sources;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.GET_BROKER_RUNTIME_INFO -> ok(request, json.encode(new KvTable(runtimeInfo())));
            case RequestCode.GET_BROKER_CONFIG -> RemotingCommand.responseTo(request, ResponseCode.SUCCESS)
                    .header(new GetBrokerConfigResponseHeader(new String(json.encode(settings.version()),
                            StandardCharsets.UTF_8)))
                    .body(PropertiesText.encode(configuration())).build();
            case RequestCode.UPDATE_BROKER_CONFIG -> update(request);
            case RequestCode.VIEW_BROKER_STATS_DATA -> statsData(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand update(RemotingCommand request) {
        if (request.body() == null || request.body().length == 0) {
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }
        Map<String, String> changes;
        try {
            changes = PropertiesText.decode(request.body());
        } catch (BodyFormatException e) {
            return error(request, ResponseCode.SYSTEM_ERROR, "string2Properties error: " + e.getMessage());
        }
        Optional<String> problem = settings.update(changes);
        if (problem.isPresent()) {
            return error(request, ResponseCode.INVALID_PARAMETER, problem.get());
        }
        System.getLogger(BrokerInfoProcessor.class.getName()).log(System.Logger.Level.INFO,
                "broker config changed: {0}", changes);
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand statsData(RemotingCommand request) {
        ViewBrokerStatsDataRequestHeader h = request.header(ViewBrokerStatsDataRequestHeader.class);
        Optional<BrokerStatsData> data = switch (h.statsName()) {
            case TOPIC_PUT_NUMS -> sources.statistics().putWindows.of(h.statsKey());
            case GROUP_GET_NUMS -> sources.statistics().getWindows.of(h.statsKey());
            default -> Optional.empty();
        };
        return data.map(d -> ok(request, json.encode(d))).orElseGet(() -> error(request, ResponseCode.SYSTEM_ERROR,
                "The stats <" + NameRules.shown(h.statsName()) + "> <" + NameRules.shown(h.statsKey())
                        + "> not exist"));
    }

    /** The broker's configuration by Apache's key names where Apache has the key; no secret is among them. */
    Map<String, String> configuration() {
        Map<String, String> values = new HashMap<>(settings.asProperties());
        values.put("brokerName", config.brokerName());
        values.put("brokerClusterName", config.clusterName());
        values.put("brokerId", String.valueOf(config.brokerId()));
        values.put("brokerRole", config.brokerRole().name());
        values.put("autoCreateSubscriptionGroup", String.valueOf(config.autoCreateSubscriptionGroup()));
        values.put("brokerIP1", config.host());
        values.put("listenPort", String.valueOf(config.port()));
        values.put("namesrvAddr", String.join(";", config.nameServers()));
        values.put("storePathRootDir", config.storeDir().toString());
        values.put("flushDiskType", sources.store().config().flushMode().name().equals("SYNC_FLUSH")
                ? "SYNC_FLUSH" : "ASYNC_FLUSH");
        values.put("mappedFileSizeCommitLog", String.valueOf(sources.store().config().commitLogSegmentSize()));
        values.put("storePathCommitLog", sources.store().config().commitLogDir().toString());
        values.put("fileReservedTime", String.valueOf(sources.store().config().fileRetention().toHours()));
        if (!sources.store().config().deleteHours().isEmpty()) {
            values.put("deleteWhen", sources.store().config().deleteHours().stream().sorted()
                    .map(hour -> String.format("%02d", hour)).collect(java.util.stream.Collectors.joining(";")));
        }
        values.put("diskMaxUsedSpaceRatio", String.valueOf(Math.round(sources.store().config().diskCleanRatio()
                * 100)));
        values.put("registerNameServerPeriod", String.valueOf(config.registerInterval().toMillis()));
        values.put("flushConsumerOffsetInterval", String.valueOf(config.offsetPersistInterval().toMillis()));
        values.put("channelNotActiveInterval", String.valueOf(config.channelExpiry().toMillis()));
        values.put("maxPullMessages", String.valueOf(config.maxPullMessages()));
        values.put("enablePropertyFilter", String.valueOf(config.sql92Enabled()));
                values.put("maxReconsumeTimes", String.valueOf(config.maxReconsumeTimes()));
        values.put("transactionCheckInterval", String.valueOf(config.transactionCheckInterval().toMillis()));
        values.put("transactionTimeOut", String.valueOf(config.transactionTimeout().toMillis()));
        values.put("transactionCheckMax", String.valueOf(config.transactionCheckMax()));
        values.put("brokerPermission", "6");
        values.put("traceTopicEnable", String.valueOf(config.traceTopic().isPresent()));
        values.put("msgTraceTopicName", config.traceTopic().orElse(SystemTopics.TRACE_TOPIC));
        return values;
    }

    /** Apache's runtime keys, in the formats its tools parse (numbers where they parse numbers). */
    Map<String, String> runtimeInfo() {
        MessageStore store = sources.store();
        long now = clock.millis();
        Map<String, String> info = new HashMap<>();
        info.put("brokerVersionDesc", VERSION_DESC);
        info.put("brokerVersion", String.valueOf(VERSION));
        info.put("brokerActive", "true");
        info.put("bootTimestamp", String.valueOf(sources.bootMillis()));
        info.put("startAcceptSendRequestTimeStamp", String.valueOf(sources.bootMillis()));
        info.put("runtime", uptime(Duration.ofMillis(now - sources.bootMillis())));
        info.put("putTps", sources.statistics().putRate.windows());
        info.put("getTransferredTps", sources.statistics().getRate.windows());
        info.put("getTotalTps", sources.statistics().getRate.windows());
        info.put("getFoundTps", sources.statistics().getRate.windows());
        info.put("getMissTps", "0.0 0.0 0.0");
        long putTotal = sources.counters().allIn();
        long getTotal = sources.counters().allOut();
        long[] mornings = sources.statistics().daily.mornings();
        info.put("msgPutTotalYesterdayMorning", String.valueOf(mornings[0]));
        info.put("msgPutTotalTodayMorning", String.valueOf(mornings[1]));
        info.put("msgPutTotalTodayNow", String.valueOf(putTotal));
        info.put("msgGetTotalYesterdayMorning", String.valueOf(mornings[2]));
        info.put("msgGetTotalTodayMorning", String.valueOf(mornings[3]));
        info.put("msgGetTotalTodayNow", String.valueOf(getTotal));
        info.put("putMessageTimesTotal", String.valueOf(putTotal));
        info.put("commitLogMinOffset", String.valueOf(store.commitLogMinOffset()));
        info.put("commitLogMaxOffset", String.valueOf(store.commitLogEndOffset()));
        info.put("dispatchBehindBytes", String.valueOf(Math.max(0, store.commitLogEndOffset()
                - store.dispatchedOffset())));
        info.put("remainHowManyDataToFlush", (store.commitLogEndOffset() - store.commitLogFlushedOffset()) + " B");
        info.put("earliestMessageTimeStamp", String.valueOf(store.commitLogEndOffset() == 0 ? -1L
                : store.messageAt(store.commitLogMinOffset()).map(StoredMessageView::storeTimestamp).orElse(-1L)));
        info.put("pageCacheLockTimeMills", "0");
        timers(info);
        disk(info);
        queue(info, "send", "sendThreadPool");
        queue(info, "pull", "pullThreadPool");
        queue(info, "query", "queryThreadPool");
        queue(info, "client", "clientManagerThreadPool");
        return info;
    }

    /**
     * Apache's timer keys: how far firing is behind the clock (whole seconds), timer messages stored but not yet taken
     * in, timers waiting, and timers taken in and fired per second over the last 10 s; zeros with the wheel off.
     */
    private void timers(Map<String, String> info) {
        if (!config.timers().enabled()) {
            info.put("timerReadBehind", "0");
            info.put("timerOffsetBehind", "0");
            info.put("timerCongestNum", "0");
            info.put("timerEnqueueTps", "0.0");
            info.put("timerDequeueTps", "0.0");
            return;
        }
        TimerStore.Figures figures = sources.timers().get();
        info.put("timerReadBehind", String.valueOf(figures.dequeueLagMs() / 1000));
        info.put("timerOffsetBehind", String.valueOf(figures.enqueueLag()));
        info.put("timerCongestNum", String.valueOf(figures.waiting()));
        info.put("timerEnqueueTps", String.valueOf((float) sources.statistics().timerEnqueueRate.perSecond(10)));
        info.put("timerDequeueTps", String.valueOf((float) sources.statistics().timerFireRate.perSecond(10)));
    }

    private void disk(Map<String, String> info) {
        try {
            FileStore disk = Files.getFileStore(config.storeDir());
            long total = disk.getTotalSpace();
            long free = disk.getUsableSpace();
            double used = total == 0 ? 0 : (total - free) / (double) total;
            info.put("commitLogDiskRatio", String.valueOf(used));
            info.put("consumeQueueDiskRatio", String.valueOf(used));
            info.put("commitLogDirCapacity", String.format("Total : %.1f GiB, Free : %.1f GiB.",
                    total / (double) (1L << 30), free / (double) (1L << 30)));
        } catch (IOException | SecurityException e) {
            info.put("commitLogDiskRatio", "-1");
        }
    }

    private void queue(Map<String, String> info, String kind, String prefix) {
        ThreadPoolExecutor executor = sources.executors().get(kind);
        if (executor != null) {
            info.put(prefix + "QueueSize", String.valueOf(executor.getQueue().size()));
            info.put(prefix + "QueueCapacity", String.valueOf(executor.getQueue().size()
                    + executor.getQueue().remainingCapacity()));
            info.put(prefix + "QueueHeadWaitTimeMills", "0");
        }
    }

    private static String uptime(Duration up) {
        return "[ " + up.toDays() + " days, " + up.toHoursPart() + " hours, " + up.toMinutesPart() + " minutes, "
                + up.toSecondsPart() + " seconds ]";
    }

    private static RemotingCommand ok(RemotingCommand request, byte[] body) {
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(body).build();
    }

    private static RemotingCommand error(RemotingCommand request, int code, String remark) {
        return RemotingCommand.responseTo(request, code).remark(remark).build();
    }
}

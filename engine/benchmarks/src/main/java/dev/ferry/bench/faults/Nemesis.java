package dev.ferry.bench.faults;

import dev.ferry.bench.faults.FaultPlan.Fault;
import dev.ferry.format.ChildProcess;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Starts and heals the faults of a {@link FaultPlan} against a {@link FaultCluster} and the run's consumer processes,
 * writing each start and healing to the harness's history.
 */
final class Nemesis {
    private final FaultCluster cluster;
    private final Map<String, Victim> consumers;
    private final DiskBallast ballast;
    private final HistoryLog history;

    /** A consumer the nemesis kills and starts again: a client process, or an {@link ExternalConsumer}. */
    record Victim(Step kill, Step restart) {
        static Victim of(ChildProcess process) {
            return new Victim(process::kill, () -> process.start(60));
        }

        static Victim of(ExternalConsumer consumer) {
            return new Victim(consumer::kill, consumer::restart);
        }
    }

    Nemesis(FaultCluster cluster, Map<String, Victim> consumers, DiskBallast ballast, HistoryLog history) {
        this.cluster = cluster;
        this.consumers = consumers;
        this.ballast = ballast;
        this.history = history;
    }

    void start(Fault fault) throws IOException, InterruptedException {
        log("fault", fault);
        switch (fault.kind()) {
            case KILL -> cluster.node(fault.target()).kill();
            case PAUSE -> cluster.node(fault.target()).pause();
            case CUT -> links(fault.target()).forEach(LinkProxy::cut);
            case PARTITION -> links(fault.target()).forEach(link -> link.stall(null));
            case ONE_WAY -> links(fault.target()).forEach(link -> link.stall(
                    LinkProxy.Direction.valueOf(fault.detail())));
            case DELAY -> {
                String[] detail = fault.detail().split(":");
                LinkProxy.Direction direction = detail[0].equals("BOTH") ? null
                        : LinkProxy.Direction.valueOf(detail[0]);
                links(fault.target()).forEach(link -> link.delay(direction, Long.parseLong(detail[1])));
            }
            case CONSUMER_KILL -> consumers.get(fault.target()).kill().perform(fault.toString());
            case DISK_FULL -> ballast.fill(fault.target());
        }
    }

    /**
     * Undoes {@code fault}; returns once a restarted process is ready again. The healing is logged as it begins: a
     * restarted node's recovery time includes its start.
     */
    void heal(Fault fault) throws IOException, InterruptedException {
        log("heal", fault);
        switch (fault.kind()) {
            case KILL -> cluster.node(fault.target()).start(120);
            case PAUSE -> cluster.node(fault.target()).resume();
            case CUT, PARTITION, ONE_WAY, DELAY -> links(fault.target()).forEach(LinkProxy::heal);
            case CONSUMER_KILL -> consumers.get(fault.target()).restart().perform(fault.toString());
            case DISK_FULL -> ballast.free();
        }
    }

    private List<LinkProxy> links(String target) {
        if (target.equals("brokers-ns")) {
            return List.of(cluster.link("brokers-ns-0"), cluster.link("brokers-ns-1"));
        }
        return List.of(cluster.link(target));
    }

    private void log(String type, Fault fault) {
        history.write(Op.of(System.currentTimeMillis(), "harness", type, "-", "-", Map.of("kind",
                fault.kind().name(), "target", fault.target(), "broker", fault.brokerGroup(),
                "detail", fault.detail().isEmpty() ? "-" : fault.detail())));
    }
}

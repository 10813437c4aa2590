package dev.ferry.server.broker;

import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.CheckClientRequestBody;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.ConsumerListBody;
import dev.ferry.remoting.protocol.body.HeartbeatData;
import dev.ferry.remoting.protocol.body.ProducerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import dev.ferry.remoting.protocol.header.GetConsumerListByGroupRequestHeader;
import dev.ferry.remoting.protocol.header.UnregisterClientRequestHeader;
import dev.ferry.spi.FilterExpressionException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What clients tell the broker about themselves: heartbeats (groups, subscriptions),
 * unregistration, the consumer-id list of a group, and the subscription check consumers
 * make before they start.
 *
 * <p>A heartbeat is taken apart where it enters: a group with an invalid name, settings that are not Apache's
 * ({@link ConsumerModes}), a group the broker cannot know more of, a subscription of an invalid topic, or the groups
 * and subscriptions beyond
 * the per-heartbeat limits are skipped (Apache skips an invalid consumer group the same way and
 * still answers SUCCESS); the answer's remark names what was skipped. An expression too long to
 * compile, or one that does not compile, refuses the heartbeat as before.
 */
final class ClientRequestProcessor implements RequestProcessor {
    private static final int SHOWN_SKIPS = 5;

    private final ConsumerGroups consumers;
    private final ProducerGroups producers;
    private final SubscriptionGroupTable groups;
    private final RetryRouting retries;
    private final SubscriptionFilters filters;
    private final BrokerLimits limits;
    private final BodyCodec json;
    private final Consumer<String> membershipChanged;
    private final Consumer<String> subscriptionChanged;

    ClientRequestProcessor(ConsumerGroups consumers, ProducerGroups producers, SubscriptionGroupTable groups,
                           RetryRouting retries, SubscriptionFilters filters, BrokerLimits limits, BodyCodec json,
                           Consumer<String> membershipChanged, Consumer<String> subscriptionChanged) {
        this.consumers = consumers;
        this.producers = producers;
        this.groups = groups;
        this.retries = retries;
        this.filters = filters;
        this.limits = limits;
        this.json = json;
        this.membershipChanged = membershipChanged;
        this.subscriptionChanged = subscriptionChanged;
    }

    @Override
    public RemotingCommand process(RequestContext context, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.HEART_BEAT -> heartbeat(context, request);
            case RequestCode.UNREGISTER_CLIENT -> unregister(request);
            case RequestCode.GET_CONSUMER_LIST_BY_GROUP -> consumerList(request);
            case RequestCode.CHECK_CLIENT_CONFIG -> checkClientConfig(request);
            default -> RemotingCommand.responseTo(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED).build();
        };
    }

    private RemotingCommand heartbeat(RequestContext context, RemotingCommand request) {
        HeartbeatData heartbeat = json.decode(EntryChecks.present("body", request.body()), HeartbeatData.class);
        String clientId = EntryChecks.clientId("clientID", heartbeat.clientID());
        List<String> skipped = new ArrayList<>();
        List<ConsumerData> accepted = new ArrayList<>();
        int named = 0;
        for (ConsumerData consumer : heartbeat.consumerDataSet()) {
            if (++named > limits.maxGroupsPerConnection()) {
                skipped.add("consumer group " + NameRules.shown(consumer.groupName()) + ": more than "
                        + limits.maxGroupsPerConnection() + " groups in one heartbeat");
                continue;
            }
            String problem = consumerProblem(consumer);
            if (problem != null) {
                skipped.add(problem);
                continue;
            }
            for (SubscriptionData subscription : consumer.subscriptionDataSet()) {
                String unsupported = unsupported(subscription);
                if (unsupported != null) {
                    return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(unsupported).build();
                }
            }
            accepted.add(consumer);
        }
        for (ProducerData producer : heartbeat.producerDataSet()) {
            String problem = ++named > limits.maxGroupsPerConnection() ? "producer group "
                    + NameRules.shown(producer.groupName()) + ": more than " + limits.maxGroupsPerConnection()
                    + " groups in one heartbeat" : NameRules.groupProblem("producer group", producer.groupName());
            if (problem == null && !producers.heartbeat(producer.groupName(), clientId, request.language().name(),
                    request.version(), context.channel())) {
                problem = "producer group " + producer.groupName() + ": the broker keeps at most "
                        + limits.maxProducerGroups() + " producer groups, and " + consumers.membershipRefusal();
            }
            if (problem != null) {
                skipped.add(problem);
            }
        }
        for (ConsumerData consumer : accepted) {
            if (!"BROADCASTING".equals(consumer.messageModel())
                    && retries.retryTopic(consumer.groupName()).isEmpty()) {
                String retryTopic = SystemTopics.retryTopic(consumer.groupName());
                skipped.add("consumer group " + consumer.groupName() + ": its retry topic cannot be created: "
                        + retries.refusal(retryTopic));
            }
            ConsumerGroups.Heartbeat result = consumers.heartbeat(consumer, clientId, request.language().name(),
                    request.version(), context.channel(),
                    !heartbeat.withoutSub());
            if (result == ConsumerGroups.Heartbeat.REFUSED) {
                skipped.add("consumer group " + consumer.groupName() + ": its subscriptions would take the broker "
                        + "beyond " + limits.maxSubscriptionBytes() + " characters of subscriptions");
                continue;
            }
            if (result == ConsumerGroups.Heartbeat.TOO_MANY_MEMBERSHIPS) {
                skipped.add("consumer group " + consumer.groupName() + ": " + consumers.membershipRefusal());
                continue;
            }
            if (result == ConsumerGroups.Heartbeat.JOINED) {
                membershipChanged.accept(consumer.groupName());
            }
            if (result.subscriptionsChanged()) {
                subscriptionChanged.accept(consumer.groupName());
            }
        }
        RemotingCommand.Builder response = RemotingCommand.responseTo(request, ResponseCode.SUCCESS);
        if (!skipped.isEmpty()) {
            response.remark("skipped " + skipped.size() + ": " + String.join("; ",
                    skipped.subList(0, Math.min(SHOWN_SKIPS, skipped.size())))
                    + (skipped.size() > SHOWN_SKIPS ? "; ..." : ""));
        }
        return response.build();
    }

    /** Why the broker does not take this consumer group from a heartbeat, or {@code null}. */
    private String consumerProblem(ConsumerData consumer) {
        String problem = NameRules.groupProblem("consumer group", consumer.groupName());
        if (problem != null) {
            return problem;
        }
        String settings = ConsumerModes.problem(consumer);
        if (settings != null) {
            return settings;
        }
        if (consumer.subscriptionDataSet().size() > limits.maxSubscriptionsPerGroup()) {
            return "consumer group " + consumer.groupName() + " subscribes to " + consumer.subscriptionDataSet().size()
                    + " topics; at most " + limits.maxSubscriptionsPerGroup() + " are taken";
        }
        for (SubscriptionData subscription : consumer.subscriptionDataSet()) {
            String topicProblem = NameRules.topicProblem("subscription topic", subscription.topic());
            if (topicProblem != null) {
                return "consumer group " + consumer.groupName() + ": " + topicProblem;
            }
        }
        if (groups.findOrCreate(consumer.groupName()).isEmpty()) {
            return groups.refusal(consumer.groupName());
        }
        return null;
    }

    /** Why the broker cannot serve the subscription, or {@code null}. */
    private String unsupported(SubscriptionData subscription) {
        try {
            filters.compile(subscription.expressionType(), subscription.subString());
            return null;
        } catch (SubscriptionFilters.UnsupportedFilterException e) {
            return e.getMessage();
        } catch (FilterExpressionException e) {
            return "the subscription " + NameRules.shown(subscription.subString()) + " of " + subscription.topic()
                    + " does not parse: " + e.getMessage();
        }
    }

    private RemotingCommand unregister(RemotingCommand request) {
        UnregisterClientRequestHeader header = request.header(UnregisterClientRequestHeader.class);
        String clientId = EntryChecks.clientId("clientID", header.clientID());
        if (header.producerGroup() != null) {
            producers.unregister(EntryChecks.group("producerGroup", header.producerGroup()), clientId);
        }
        if (header.consumerGroup() != null && consumers.unregister(
                EntryChecks.group("consumerGroup", header.consumerGroup()), clientId)) {
            membershipChanged.accept(header.consumerGroup());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand consumerList(RemotingCommand request) {
        String group = EntryChecks.group("consumerGroup",
                request.header(GetConsumerListByGroupRequestHeader.class).consumerGroup());
        var ids = consumers.clientIds(group);
        if (ids.isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("no consumer for this group, " + group).build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(new ConsumerListBody(ids)))
                .build();
    }

    private RemotingCommand checkClientConfig(RemotingCommand request) {
        if (request.body() == null) {
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }
        CheckClientRequestBody body = json.decode(request.body(), CheckClientRequestBody.class);
        if (body.group() != null) {
            EntryChecks.group("group", body.group());
        }
        SubscriptionData subscription = body.subscriptionData();
        if (subscription == null) {
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }
        EntryChecks.topic("subscriptionData.topic", subscription.topic());
        try {
            filters.compile(subscription.expressionType(), subscription.subString());
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        } catch (SubscriptionFilters.UnsupportedFilterException e) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(e.getMessage()).build();
        } catch (FilterExpressionException e) {
            return RemotingCommand.responseTo(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED)
                    .remark("the subscription " + NameRules.shown(subscription.subString()) + " does not parse: "
                            + e.getMessage()).build();
        }
    }
}

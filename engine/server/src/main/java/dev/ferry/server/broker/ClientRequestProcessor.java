package dev.ferry.server.broker;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestProcessor;
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
import java.util.function.Consumer;

/**
 * What clients tell the broker about themselves: heartbeats (groups, subscriptions),
 * unregistration, the consumer-id list of a group, and the subscription check consumers
 * make before they start.
 */
final class ClientRequestProcessor implements RequestProcessor {
    private final ConsumerGroups consumers;
    private final ProducerGroups producers;
    private final RetryRouting retries;
    private final SubscriptionFilters filters;
    private final BodyCodec json;
    private final Consumer<String> membershipChanged;
    private final Consumer<String> subscriptionChanged;

    ClientRequestProcessor(ConsumerGroups consumers, ProducerGroups producers, RetryRouting retries,
                           SubscriptionFilters filters, BodyCodec json, Consumer<String> membershipChanged,
                           Consumer<String> subscriptionChanged) {
        this.consumers = consumers;
        this.producers = producers;
        this.retries = retries;
        this.filters = filters;
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
        HeartbeatData heartbeat = json.decode(request.body(), HeartbeatData.class);
        for (ConsumerData consumer : heartbeat.consumerDataSet()) {
            for (SubscriptionData subscription : consumer.subscriptionDataSet()) {
                String problem = unsupported(subscription);
                if (problem != null) {
                    return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(problem).build();
                }
            }
        }
        for (ProducerData producer : heartbeat.producerDataSet()) {
            producers.heartbeat(producer.groupName(), heartbeat.clientID(), context.channel());
        }
        for (ConsumerData consumer : heartbeat.consumerDataSet()) {
            if (!"BROADCASTING".equals(consumer.messageModel())) {
                retries.retryTopic(consumer.groupName());
            }
            boolean joined = consumers.heartbeat(consumer, heartbeat.clientID(), context.channel());
            if (joined) {
                membershipChanged.accept(consumer.groupName());
            }
            subscriptionChanged.accept(consumer.groupName());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    /** Why the broker cannot serve the subscription, or {@code null}. */
    private String unsupported(SubscriptionData subscription) {
        try {
            filters.compile(subscription.expressionType(), subscription.subString());
            return null;
        } catch (SubscriptionFilters.UnsupportedFilterException e) {
            return e.getMessage();
        } catch (FilterExpressionException e) {
            return "the subscription [" + subscription.subString() + "] of " + subscription.topic()
                    + " does not parse: " + e.getMessage();
        }
    }

    private RemotingCommand unregister(RemotingCommand request) {
        UnregisterClientRequestHeader header = request.header(UnregisterClientRequestHeader.class);
        if (header.producerGroup() != null) {
            producers.unregister(header.producerGroup(), header.clientID());
        }
        if (header.consumerGroup() != null && consumers.unregister(header.consumerGroup(), header.clientID())) {
            membershipChanged.accept(header.consumerGroup());
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
    }

    private RemotingCommand consumerList(RemotingCommand request) {
        String group = request.header(GetConsumerListByGroupRequestHeader.class).consumerGroup();
        var ids = consumers.clientIds(group);
        if (ids.isEmpty()) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR)
                    .remark("no consumer of group " + group + " is online").build();
        }
        return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).body(json.encode(new ConsumerListBody(ids)))
                .build();
    }

    private RemotingCommand checkClientConfig(RemotingCommand request) {
        CheckClientRequestBody body = json.decode(request.body(), CheckClientRequestBody.class);
        SubscriptionData subscription = body.subscriptionData();
        if (subscription == null) {
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        }
        try {
            filters.compile(subscription.expressionType(), subscription.subString());
            return RemotingCommand.responseTo(request, ResponseCode.SUCCESS).build();
        } catch (SubscriptionFilters.UnsupportedFilterException e) {
            return RemotingCommand.responseTo(request, ResponseCode.SYSTEM_ERROR).remark(e.getMessage()).build();
        } catch (FilterExpressionException e) {
            return RemotingCommand.responseTo(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED)
                    .remark("the subscription [" + subscription.subString() + "] does not parse: " + e.getMessage())
                    .build();
        }
    }
}

package dev.ferry.server.broker;

import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;

/**
 * The broker's request processors, and the one place that says which codes each answers and on which executor: sends,
 * send-backs and transaction ends on the send lane (they write to the store in arrival order), pulls on the pull pool,
 * client bookkeeping, offsets, replies and locks on the client pool, lookups and figures on the query thread, and
 * changes to topics and groups on the admin thread.
 */
record BrokerProcessors(RequestProcessor send, InlineRule sendInline, RequestProcessor pull, InlineRule pullInline,
                        RequestProcessor client, RequestProcessor reply, RequestProcessor offsets,
                        RequestProcessor sendBack, RequestProcessor endTransaction, RequestProcessor locks,
                        InlineRule locksInline, RequestProcessor stats, RequestProcessor queries,
                        RequestProcessor topicAdmin, RequestProcessor groupAdmin, RequestProcessor consumerCalls,
                        RequestProcessor info) {

    /** Routes every code these processors answer in {@code table}, each on its kind's executor. */
    void route(RequestTable table, BrokerExecutors executors) {
        table.route(send, executors.sendLane(), sendInline, RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2,
                RequestCode.SEND_BATCH_MESSAGE);
        table.route(pull, executors.pull(), pullInline, RequestCode.PULL_MESSAGE, RequestCode.LITE_PULL_MESSAGE);
        table.route(client, executors.client(), RequestCode.HEART_BEAT, RequestCode.UNREGISTER_CLIENT,
                RequestCode.GET_CONSUMER_LIST_BY_GROUP, RequestCode.CHECK_CLIENT_CONFIG);
        // not on the send lane: a reply is not stored, and its answer waits for the requester's client
        table.route(reply, executors.client(), RequestCode.SEND_REPLY_MESSAGE, RequestCode.SEND_REPLY_MESSAGE_V2);
        table.route(offsets, executors.client(), RequestCode.QUERY_CONSUMER_OFFSET,
                RequestCode.UPDATE_CONSUMER_OFFSET, RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET,
                RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, RequestCode.GET_EARLIEST_MSG_STORETIME);
        // send-backs and transaction ends write to the store like sends do, in arrival order
        table.route(sendBack, executors.sendLane(), RequestCode.CONSUMER_SEND_MSG_BACK);
        table.route(endTransaction, executors.sendLane(), RequestCode.END_TRANSACTION);
        table.route(locks, executors.client(), locksInline, RequestCode.LOCK_BATCH_MQ, RequestCode.UNLOCK_BATCH_MQ);
        table.route(stats, executors.query(), RequestCode.FERRY_GET_BROKER_STATS);
        table.route(queries, executors.query(), RequestCode.VIEW_MESSAGE_BY_ID, RequestCode.QUERY_MESSAGE);
        table.route(topicAdmin, executors.admin(), TopicAdminProcessor.CODES);
        table.route(groupAdmin, executors.admin(), GroupAdminProcessor.CODES);
        table.route(consumerCalls, executors.admin(), ConsumerCallsProcessor.CODES);
        table.route(info, executors.query(), BrokerInfoProcessor.CODES);
    }
}

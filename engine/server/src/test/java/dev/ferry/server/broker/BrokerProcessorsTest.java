package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.DaemonThreads;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.protocol.RequestCode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BrokerProcessorsTest {
    private final BrokerExecutors executors = new BrokerExecutors(BrokerLimits.defaults(),
            new DaemonThreads("processors-test"));
    private final Map<Integer, RequestTable.Route> server = new HashMap<>();
    private final RequestTable table = new RequestTable((code, processor, executor, inline) ->
            server.put(code, new RequestTable.Route(processor, executor, inline)));
    private final InlineRule sendInline = request -> true;
    private final InlineRule pullInline = request -> true;
    private final InlineRule locksInline = request -> true;
    private final BrokerProcessors processors = new BrokerProcessors(fake(), sendInline, fake(), pullInline, fake(),
            fake(), fake(), fake(), fake(), fake(), locksInline, fake(), fake(), fake(), fake(), fake(), fake());

    @AfterEach
    void stop() {
        executors.shutdown(() -> { }, Duration.ofSeconds(5));
    }

    private static RequestProcessor fake() {
        return (context, request) -> null;
    }

    @Test
    void shouldRunWhatWritesToTheStoreOnTheSendLaneWhenRouted() {
        processors.route(table, executors);

        for (int code : new int[] {RequestCode.SEND_MESSAGE, RequestCode.SEND_MESSAGE_V2,
                RequestCode.SEND_BATCH_MESSAGE}) {
            assertThat(table.routeOf(code).orElseThrow())
                    .isEqualTo(new RequestTable.Route(processors.send(), executors.sendLane(), sendInline));
        }
        assertThat(table.routeOf(RequestCode.CONSUMER_SEND_MSG_BACK).orElseThrow().executor())
                .isSameAs(executors.sendLane());
        assertThat(table.routeOf(RequestCode.END_TRANSACTION).orElseThrow().executor())
                .isSameAs(executors.sendLane());
        assertThat(table.routeOf(RequestCode.SEND_REPLY_MESSAGE).orElseThrow().executor())
                .as("a reply is not stored").isSameAs(executors.client());
    }

    @Test
    void shouldRunPullsOnThePullPoolWithTheirInlineRuleWhenRouted() {
        processors.route(table, executors);

        assertThat(table.routeOf(RequestCode.PULL_MESSAGE).orElseThrow())
                .isEqualTo(new RequestTable.Route(processors.pull(), executors.pull(), pullInline));
        assertThat(table.routeOf(RequestCode.LITE_PULL_MESSAGE).orElseThrow())
                .isEqualTo(new RequestTable.Route(processors.pull(), executors.pull(), pullInline));
    }

    @Test
    void shouldKeepAdminChangesApartFromQueriesWhenRouted() {
        processors.route(table, executors);

        for (int code : TopicAdminProcessor.CODES) {
            assertThat(table.routeOf(code).orElseThrow().executor()).isSameAs(executors.admin());
        }
        for (int code : GroupAdminProcessor.CODES) {
            assertThat(table.routeOf(code).orElseThrow().executor()).isSameAs(executors.admin());
        }
        assertThat(table.routeOf(RequestCode.QUERY_MESSAGE).orElseThrow().executor()).isSameAs(executors.query());
        assertThat(table.routeOf(RequestCode.FERRY_GET_BROKER_STATS).orElseThrow().executor())
                .isSameAs(executors.query());
        assertThat(table.routeOf(RequestCode.HEART_BEAT).orElseThrow().executor()).isSameAs(executors.client());
        assertThat(table.routeOf(RequestCode.LOCK_BATCH_MQ).orElseThrow().inline()).isSameAs(locksInline);
    }

    @Test
    void shouldHandEveryRouteToTheServerWhenRouted() {
        processors.route(table, executors);

        assertThat(server).isEqualTo(table.routes());
        assertThat(server).containsKeys(RequestCode.GET_MAX_OFFSET, RequestCode.QUERY_CONSUMER_OFFSET,
                RequestCode.VIEW_MESSAGE_BY_ID, RequestCode.GET_CONSUMER_LIST_BY_GROUP);
    }
}

package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RequestProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class RequestTableTest {
    private record Registered(int code, RequestProcessor processor, Executor executor, InlineRule inline) {
    }

    private final List<Registered> server = new ArrayList<>();
    private final RequestTable table = new RequestTable((code, processor, executor, inline) ->
            server.add(new Registered(code, processor, executor, inline)));
    private final RequestProcessor first = (context, request) -> null;
    private final RequestProcessor second = (context, request) -> null;
    private final Executor lane = Runnable::run;
    private final Executor pool = Runnable::run;

    @Test
    void shouldPassEveryCodeToTheServerWhenRouted() {
        InlineRule small = request -> true;

        table.route(first, lane, 10, 11).route(second, pool, small, 12);

        assertThat(server).containsExactly(new Registered(10, first, lane, InlineRule.NEVER),
                new Registered(11, first, lane, InlineRule.NEVER), new Registered(12, second, pool, small));
        assertThat(table.routeOf(12)).hasValueSatisfying(route -> {
            assertThat(route.processor()).isSameAs(second);
            assertThat(route.executor()).isSameAs(pool);
            assertThat(route.inline()).isSameAs(small);
        });
        assertThat(table.routeOf(13)).isEmpty();
        assertThat(table.routes()).containsOnlyKeys(10, 11, 12);
    }

    @Test
    void shouldRefuseACodeRoutedTwiceWithoutRoutingAnyOfTheRequest() {
        table.route(first, lane, 10);

        assertThatThrownBy(() -> table.route(second, pool, 11, 10))
                .isInstanceOf(IllegalStateException.class).hasMessage("request code 10 is routed already");
        assertThat(table.routeOf(11)).isEmpty();
        assertThat(table.routeOf(10).orElseThrow().processor()).isSameAs(first);
        assertThat(server).hasSize(1);
    }

    @Test
    void shouldReplaceARouteWhenAskedTo() {
        table.route(first, lane, request -> true, 10, 11);

        table.replace(second, pool, 10);

        assertThat(table.routeOf(10).orElseThrow()).isEqualTo(new RequestTable.Route(second, pool, InlineRule.NEVER));
        assertThat(table.routeOf(11).orElseThrow().processor()).isSameAs(first);
        assertThat(server.get(server.size() - 1)).isEqualTo(new Registered(10, second, pool, InlineRule.NEVER));
    }

    @Test
    void shouldRefuseToReplaceACodeWithoutARoute() {
        table.route(first, lane, 10);

        assertThatThrownBy(() -> table.replace(second, pool, 10, 11))
                .isInstanceOf(IllegalStateException.class).hasMessage("request code 11 has no route to replace");
        assertThat(table.routeOf(10).orElseThrow().processor()).isSameAs(first);
    }

    @Test
    void shouldRefuseARouteWithoutCodes() {
        assertThatThrownBy(() -> table.route(first, lane))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("a route needs at least one request code");
    }
}

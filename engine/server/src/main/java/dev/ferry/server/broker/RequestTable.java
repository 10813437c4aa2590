package dev.ferry.server.broker;

import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RequestProcessor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Which processor answers each request code and on which executor it runs. Routes reach the server as they are added,
 * and the table keeps them, so what the broker answers, and where, can be read in one place and checked in tests.
 * A code routed twice is a wiring mistake: it is refused rather than silently replacing the first processor; a
 * processor meant to stand in for another (a slave's refusal of writes) says so with {@link #replace}.
 */
final class RequestTable {
    /** Where routes go: a remoting server's {@code registerProcessor}. */
    @FunctionalInterface
    interface Target {
        void register(int code, RequestProcessor processor, Executor executor, InlineRule inline);
    }

    /** One code's processor, the executor it runs on, and which of its requests run on the event loop instead. */
    record Route(RequestProcessor processor, Executor executor, InlineRule inline) {
    }

    private final Target target;
    private final Map<Integer, Route> routes = new LinkedHashMap<>();

    RequestTable(Target target) {
        this.target = Objects.requireNonNull(target, "target");
    }

    /** Routes each of {@code codes} to {@code processor}, run on {@code executor}. */
    RequestTable route(RequestProcessor processor, Executor executor, int... codes) {
        return route(processor, executor, InlineRule.NEVER, codes);
    }

    /**
     * Routes each of {@code codes} to {@code processor}: what {@code inline} picks runs on the event loop, the rest on
     * {@code executor}.
     */
    synchronized RequestTable route(RequestProcessor processor, Executor executor, InlineRule inline, int... codes) {
        Objects.requireNonNull(processor, "processor");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(inline, "inline");
        if (codes.length == 0) {
            throw new IllegalArgumentException("a route needs at least one request code");
        }
        for (int code : codes) {
            if (routes.containsKey(code)) {
                throw new IllegalStateException("request code " + code + " is routed already");
            }
        }
        Route route = new Route(processor, executor, inline);
        for (int code : codes) {
            routes.put(code, route);
            target.register(code, processor, executor, inline);
        }
        return this;
    }

    /** Routes each of {@code codes}, every one routed already, to {@code processor} instead, on {@code executor}. */
    synchronized RequestTable replace(RequestProcessor processor, Executor executor, int... codes) {
        Objects.requireNonNull(processor, "processor");
        Objects.requireNonNull(executor, "executor");
        for (int code : codes) {
            if (!routes.containsKey(code)) {
                throw new IllegalStateException("request code " + code + " has no route to replace");
            }
        }
        Route route = new Route(processor, executor, InlineRule.NEVER);
        for (int code : codes) {
            routes.put(code, route);
            target.register(code, processor, executor, InlineRule.NEVER);
        }
        return this;
    }

    /** The route of {@code code}, if it has one. */
    synchronized Optional<Route> routeOf(int code) {
        return Optional.ofNullable(routes.get(code));
    }

    /** Every routed code, in the order routed. */
    synchronized Map<Integer, Route> routes() {
        return Map.copyOf(routes);
    }
}
